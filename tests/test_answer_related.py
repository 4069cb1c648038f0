"""The related sentences of "The note does not say." (`archehr.answerability.related`): about the question, or none.

The notes are written for these tests (fictional).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import archehr
from archehr.answerability.kinds import answer_types
from archehr.answerability.model import AnswerabilityModel, load_model
from archehr.answerability.related import (
    RELATED,
    asked_words,
    bare_field,
    none_said,
    related_sentences,
    signature,
    tells_nothing,
)
from archehr.ask import NOT_IN_NOTE
from archehr.cli.main import main
from archehr.data.note_split import note_case
from archehr.glossary import load_lexicon

# a discharge letter: header fields, a knee operation, its medicines, a follow-up, a signature
KNEE = """Patient: Walter Ibsen          DOB: 02/03/1951
Admission Date: ___       Discharge Date: ___
Date of surgery: 12/08/2026

Hospital Course:
Mr Ibsen had a right total knee replacement on 12/08/2026 without complications.
His wound was dry and he walked with a frame on day 1.
Physiotherapy will continue at home.

Discharge Medications:
1. Apixaban 2.5 mg twice daily for 14 days to prevent clots.
2. Paracetamol 1 g four times daily as needed for pain.

Follow-up:
Orthopaedic clinic review in 6 weeks with a knee x-ray.
Staples will be removed by the practice nurse in 2 weeks.

Electronically signed by Dr. Anna Kowal, MD
"""


class _Declines(AnswerabilityModel):
    """Declines every question: the related sentences a decline shows, whatever the note says."""

    def __init__(self) -> None:
        lexical = load_model("lexical")
        super().__init__("declines", lexical.scaler, lexical.head, lexical.background, threshold=1.0)

    def probability(self, case: object, glossary: object = None) -> float:
        return 0.0


def _declined(question: str, note: str = KNEE) -> archehr.ask.NoteAnswer:
    r = archehr.answer(note, question, splitter="rules", answerability=_Declines(), ranker="hand")
    assert r.abstained and r.answer == NOT_IN_NOTE and not r.cited
    return r


def _texts(r: archehr.ask.NoteAnswer) -> list[str]:
    return [" ".join(s.text.split()) for s in r.related]


@pytest.mark.parametrize("text", ["Admission Date: ___       Discharge Date: ___", "Date of surgery: 12/08/2026",
                                  "___ 05:40AM", "Date: ___", "Seen: 14/05/2026 10:30"])
def test_a_field_holding_only_blanks_or_dates_is_bare(text: str) -> None:
    assert bare_field(text)


@pytest.mark.parametrize("text", ["eGFR: 79", "Follow-up: 2 weeks", "Plan: stop apixaban after 14 days.",
                                  "Mr ___ is a 70 year old man with knee pain."])
def test_a_field_with_a_value_or_a_sentence_is_not_bare(text: str) -> None:
    assert not bare_field(text)


def test_signatures_are_told() -> None:
    assert signature("Electronically signed by Dr. Anna Kowal, MD")
    assert signature("Anna Kowal, MD")
    assert signature("Dictated by: B. Osei")
    assert signature("Reconciled by: T. Ward, Clinical Pharmacist")
    assert not signature("Results viewed by: Dr B. Osei 02/03/2026 10:02 - patient phoned, antibiotic changed.")
    assert not signature("Orthopaedic clinic review in 6 weeks with a knee x-ray.")


def test_titles_identity_fields_bare_fields_and_signatures_tell_nothing() -> None:
    case, split = note_case(KNEE, "x", splitter="rules")
    told = {" ".join(s.text.split()): bool(x) for s, x in zip(split.sentences, tells_nothing(split.sentences),
                                                                strict=True)}
    nothing = [t for t, x in told.items() if x]
    assert any(t.startswith("Patient: Walter Ibsen") for t in nothing)
    assert any(t.startswith("Admission Date") for t in nothing)
    assert "Date of surgery: 12/08/2026" in nothing and "Hospital Course:" in nothing
    assert "Electronically signed by Dr. Anna Kowal, MD" in nothing
    assert not told["Orthopaedic clinic review in 6 weeks with a knee x-ray."]
    assert not told["1. Apixaban 2.5 mg twice daily for 14 days to prevent clots."]


def test_sentences_naming_the_topic_are_shown_never_its_header_field() -> None:
    # "surgery" is named by the field "Date of surgery: ..." too: a bare date field is never shown
    r = _declined("How long do I take the blood thinner for?")  # the glossary: apixaban is a blood thinner
    assert _texts(r) == ["1. Apixaban 2.5 mg twice daily for 14 days to prevent clots."]
    assert r.related_note == ""


def test_no_sentence_on_the_topic_shows_the_asked_kind_for_a_when_question() -> None:
    # nothing about a colonoscopy: the lines telling what comes and when, not the header's dates
    r = _declined("When is my colonoscopy?")
    texts = _texts(r)
    assert "Orthopaedic clinic review in 6 weeks with a knee x-ray." in texts
    assert "Staples will be removed by the practice nurse in 2 weeks." in texts
    assert 0 < len(texts) <= RELATED and not any("Date" in t or "Patient" in t for t in texts)


def test_a_medicine_the_note_never_names_shows_the_medicine_lines() -> None:
    r = _declined("Why did they stop my warfarin?")
    assert _texts(r) == ["1. Apixaban 2.5 mg twice daily for 14 days to prevent clots.",
                         "2. Paracetamol 1 g four times daily as needed for pain."]


def test_nothing_related_shows_none_and_says_so() -> None:
    # a why question about a thing never named: the causes of other things are no answer, so none is shown
    r = _declined("Why is my eyesight blurry?")
    assert r.related == () and r.related_note.startswith("no sentence in the note is about ")
    assert "eyesight" in r.related_note
    d = r.to_dict()
    assert d["related_not_cited"] == [] and d["related_note"] == r.related_note


def test_the_words_said_are_the_patients_own() -> None:
    lex = load_lexicon()
    assert asked_words("Which blood thinner am I on now?", lex) == "blood thinner"
    assert asked_words("When is my colonoscopy?", lex) == "colonoscopy"
    assert none_said("When is my colonoscopy?", "when", lex) == \
        "no sentence in the note is about colonoscopy or gives an appointment or a date to come"
    assert none_said("Why?", "", lex) == "no sentence in the note is about the question"


def test_related_sentences_order_by_topic_then_rank_and_keep_note_order() -> None:
    case, split = note_case(KNEE, "When is the knee x-ray?", splitter="rules")
    types = answer_types(case, load_lexicon())
    got = related_sentences(case.question_text, split.sentences, types, np.zeros(len(split.sentences)),
                            load_lexicon())
    assert got.indices == tuple(sorted(got.indices)) and 0 < len(got.indices) <= RELATED
    assert all(types.topic[i] > 0 for i in got.indices)
    assert any("x-ray" in split.sentences[i].text for i in got.indices)


def test_cli_shows_the_asked_kind_not_the_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    note = tmp_path / "knee.txt"
    note.write_text(KNEE, encoding="utf-8")
    assert main(["answer", "--note", str(note), "--question", "When is my colonoscopy?", "--splitter", "rules",
                 "--ranker", "hand"]) == 0
    out = capsys.readouterr().out
    assert NOT_IN_NOTE in out and "Related note sentences (not an answer):" in out
    assert "Orthopaedic clinic review in 6 weeks" in out and "Admission Date" not in out and "none:" not in out
    assert main(["answer", "--note", str(note), "--question", "When is my colonoscopy?", "--splitter", "rules",
                 "--ranker", "hand", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["abstained"] and d["related_note"] == ""
    assert [s["text"] for s in d["related_not_cited"]] == [
        "Orthopaedic clinic review in 6 weeks with a knee x-ray.",
        "Staples will be removed by the practice nurse in 2 weeks."]
