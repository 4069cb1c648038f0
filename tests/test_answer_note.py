"""`archehr answer` / `archehr.answer`: raw note -> numbered sentences -> cited answer (fictional notes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import archehr
from archehr.ask import NoteAnswer
from archehr.cli.main import main
from archehr.data import note_spacy, note_split
from archehr.data.note_split import note_case, split_note
from archehr.errors import InputError, UnavailableError
from archehr.shown_lines import CARRIED, carried
from archehr_scoring.submission2025 import answer_problems

# Fictional notes written for these tests: every name, date and value is invented.
HEART = """Name: ___                 Unit No: ___

Admission Date: ___       Discharge Date: ___

Chief Complaint:
Shortness of breath

HISTORY OF PRESENT ILLNESS: Mr. ___ is a 71 yo man with
CHF (EF 30%) who presents with 3 days of worsening dyspnea. He was seen by Dr. ___ in clinic
on ___. He stopped his furosemide 40 mg p.o. daily
because of urinary frequency. He denies chest pain.

Pertinent Results:
___ 06:10AM BLOOD WBC-8.1 RBC-3.92* Hgb-11.2* Hct-34.0* Plt-212 ___ 06:10AM BLOOD Na-133 K-4.9 Creat-1.8*
Na 133, K 4.9, Cr 1.8 (baseline 1.2), BNP 2450.

Brief Hospital Course:
# Acute on chronic systolic heart failure: He was diuresed with IV furosemide 80 mg b.i.d. He
lost 4 kg. Metoprolol was held on admission. It was restarted at discharge.
# AKI: Cr peaked at 2.1 and improved with diuresis.

Discharge Medications:
1. Furosemide 40 mg PO b.i.d.
2. Metoprolol succinate 25 mg PO daily
- Lisinopril 5 mg PO daily (held, e.g. for low BP)

Discharge Instructions:
Weigh yourself every morning. Call Dr. Jones if you gain more than 3 lbs.
"""

HEART_SENTENCES = [
    "Name: ___", "Unit No: ___", "Admission Date: ___", "Discharge Date: ___",
    "Chief Complaint:", "Shortness of breath",
    "HISTORY OF PRESENT ILLNESS: Mr. ___ is a 71 yo man with\nCHF (EF 30%) who presents with 3 days of worsening "
    "dyspnea.",
    "He was seen by Dr. ___ in clinic\non ___.",
    "He stopped his furosemide 40 mg p.o. daily\nbecause of urinary frequency.",
    "He denies chest pain.",
    "Pertinent Results:",
    "___ 06:10AM BLOOD WBC-8.1 RBC-3.92* Hgb-11.2* Hct-34.0* Plt-212",
    "___ 06:10AM BLOOD Na-133 K-4.9 Creat-1.8*",
    "Na 133, K 4.9, Cr 1.8 (baseline 1.2), BNP 2450.",
    "Brief Hospital Course:",
    "# Acute on chronic systolic heart failure: He was diuresed with IV furosemide 80 mg b.i.d.",
    "He\nlost 4 kg.",
    "Metoprolol was held on admission.",
    "It was restarted at discharge.",
    "# AKI: Cr peaked at 2.1 and improved with diuresis.",
    "Discharge Medications:",
    "1. Furosemide 40 mg PO b.i.d.",
    "2. Metoprolol succinate 25 mg PO daily",
    "- Lisinopril 5 mg PO daily (held, e.g. for low BP)",
    "Discharge Instructions:",
    "Weigh yourself every morning.",
    "Call Dr. Jones if you gain more than 3 lbs.",
]

# No blank lines, an inline numbered list, abbreviations and a bullet list with wrapped items.
KNEE = """Brief Hospital Course:
Ms. ___ underwent an uncomplicated right total knee arthroplasty on ___ with Dr. Patel. Pain was
controlled with oxycodone 5 mg q.4h. p.r.n. and acetaminophen 1 g t.i.d. She worked with PT b.i.d. and
was cleared for home.
Discharge Medications: 1. Enoxaparin 40 mg SC daily x14 days 2. Oxycodone 5 mg PO q4h PRN pain 3. Senna 8.6 mg PO BID
Instructions:
* Keep the dressing dry for 7 days; you may shower
  after that with the wound covered.
* Call the clinic at ___ for a temperature above 101.5 F. Do not drive while taking oxycodone.
"""

KNEE_SENTENCES = [
    "Brief Hospital Course:",
    "Ms. ___ underwent an uncomplicated right total knee arthroplasty on ___ with Dr. Patel.",
    "Pain was\ncontrolled with oxycodone 5 mg q.4h. p.r.n. and acetaminophen 1 g t.i.d.",
    "She worked with PT b.i.d. and\nwas cleared for home.",
    "Discharge Medications:",
    "1. Enoxaparin 40 mg SC daily x14 days",
    "2. Oxycodone 5 mg PO q4h PRN pain",
    "3. Senna 8.6 mg PO BID",
    "Instructions:",
    "* Keep the dressing dry for 7 days; you may shower\n  after that with the wound covered.",
    "* Call the clinic at ___ for a temperature above 101.5 F.",
    "Do not drive while taking oxycodone.",
]

KIDNEY = """History of Present Illness: 58F with CKD 3b (baseline Cr 1.9) and T2DM on metformin presents with
vomiting for 2 days. Labs on arrival: Cr 3.4, K 6.1, HCO3 14, lactate 4.2.

Assessment and Plan:
Metformin was stopped because her kidney function was too low to clear it safely (eGFR 16). She received IV
fluids and insulin with dextrose for the potassium. Cr improved to 2.2 by discharge.
"""


@pytest.mark.parametrize("note,expected", [(HEART, HEART_SENTENCES), (KNEE, KNEE_SENTENCES)])
def test_rules_split_fictional_notes(note: str, expected: list[str]) -> None:
    split = split_note(note, "rules")
    assert [s.text for s in split.sentences] == expected
    assert [s.id for s in split.sentences] == [str(i) for i in range(1, len(expected) + 1)]
    assert split.splitter == "rules"


@pytest.mark.parametrize("note", [HEART, KNEE, KIDNEY])
def test_offsets_index_the_note_and_the_paragraph(note: str) -> None:
    split = split_note(note, "rules")
    paragraphs = [p.strip() for p in note.split("\n\n") if p.strip()]
    for s in split.sentences:
        assert note[s.start:s.end] == s.text
        # the official start_char_index: the offset inside the (stripped) paragraph
        assert paragraphs[s.paragraph_id - 1][s.paragraph_offset:s.paragraph_offset + len(s.text)] == s.text
    case_sentences = split.note_sentences()
    assert [(c.id, c.paragraph_id, c.start_char_index) for c in case_sentences] == \
        [(s.id, s.paragraph_id, s.paragraph_offset) for s in split.sentences]


def test_kinds_header_list_lab() -> None:
    kinds = {s.text: s.kind for s in split_note(HEART, "rules").sentences}
    assert kinds["Brief Hospital Course:"] == "header"
    assert kinds["1. Furosemide 40 mg PO b.i.d."] == "list"
    assert kinds["Na 133, K 4.9, Cr 1.8 (baseline 1.2), BNP 2450."] == "lab"
    assert kinds["Name: ___"] == "field"


def test_empty_note_and_question_are_input_errors() -> None:
    with pytest.raises(InputError, match="note is empty"):
        split_note("  \n\n ", "rules")
    with pytest.raises(InputError, match="question is empty"):
        note_case(KIDNEY, "  ", splitter="rules")
    with pytest.raises(InputError, match="unknown splitter"):
        split_note(KIDNEY, "nltk")


def test_without_spacy_auto_falls_back_and_spacy_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(note_spacy, "SPACY_PACKAGES", ("no_such_spacy_model_xyz",))
    note_spacy.spacy_pipeline.cache_clear()
    try:
        auto = split_note(KIDNEY, "auto")
        assert auto.splitter == "rules" and "not installed" in auto.notes[0]
        with pytest.raises(UnavailableError, match="archehr\\[umls\\]"):
            split_note(KIDNEY, "spacy")
    finally:
        note_spacy.spacy_pipeline.cache_clear()


def test_case_from_note_keeps_question_inside_narrative() -> None:
    case, _ = note_case(KIDNEY, "Why did they stop my metformin?", narrative="I was in hospital for vomiting.",
                        splitter="rules")
    (phrase,) = case.patient_question
    assert case.patient_narrative[phrase.start_char_index:].startswith("Why did they stop my metformin?")
    assert case.clinician_question == "Why did they stop my metformin?" and case.note_excerpt == KIDNEY


def test_python_answer_is_typed_and_cites_note_sentences() -> None:
    result = archehr.answer(KIDNEY, "Why did they stop my metformin?", splitter="rules")
    assert isinstance(result, NoteAnswer)
    ids = {s.id for s in result.note.sentences}
    assert result.lines and not answer_problems(result.answer, ids)
    assert {s.id for s in result.cited} == {c for ln in result.lines for c in ln.citations}
    assert any("Metformin was stopped" in s.text for s in result.cited)
    assert 0.0 <= result.confidence <= 1.0 and isinstance(result.flagged, bool)
    assert result.system == "trained-extractive"
    d = result.to_dict()
    assert d["needs_review"] == result.flagged and len(d["sentences"]) == len(result.note.sentences)


def test_other_system_by_name() -> None:
    result = archehr.answer(KIDNEY, "Why did they stop my metformin?", system="cite-all", splitter="rules")
    assert result.system == "cite-all"
    # cite-all selects every sentence; a patient is shown only the ones the answer lines carry
    text = {s.id: s.text for s in result.note.sentences}
    assert result.cited and all(carried(ln.text, text[c]) >= CARRIED for ln in result.lines for c in ln.citations)


def test_cli_answer_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    note = tmp_path / "note.txt"
    note.write_text(HEART)
    q = "Why was my water pill doubled?"
    assert main(["answer", "--note", str(note), "--question", q, "--splitter", "rules"]) == 0
    out = capsys.readouterr().out
    assert "Cited note sentences:" in out and "Confidence that the note answers this:" in out and "needs review:" in out
    assert main(["answer", "--note", str(note), "--question", q, "--splitter", "rules", "--format", "json",
                 "--system", "lexical-extractive"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["system"] == "lexical-extractive" and d["cited_sentences"]
    for s in d["cited_sentences"]:
        assert HEART[s["start"]:s["end"]] == s["text"]


def test_cli_answer_bad_input_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    assert main(["answer", "--note", str(tmp_path / "missing.txt"), "--question", "q"]) == 2
    assert "note file not found" in capsys.readouterr().err
    assert main(["answer", "--note", str(empty), "--question", "q", "--splitter", "rules"]) == 2
    assert "note is empty" in capsys.readouterr().err
    assert main(["answer", "--note", str(empty), "--question", "q", "--format", "xml"]) == 2
    assert "--format must be text or json" in capsys.readouterr().err
    note = tmp_path / "note.txt"
    note.write_text(KIDNEY)
    assert main(["answer", "--note", str(note), "--question", "q", "--system", "trained-extractiv"]) == 2
    assert "did you mean trained-extractive" in capsys.readouterr().err


@pytest.mark.slow
def test_spacy_split_fictional_notes() -> None:
    pytest.importorskip("spacy")
    if not note_split.spacy_available():
        pytest.skip("en_core_web_sm is not installed (the umls extra)")
    heart = split_note(HEART, "spacy")
    assert heart.splitter.startswith("spacy:")
    assert [s.text for s in heart.sentences] == HEART_SENTENCES
    knee = split_note(KNEE, "spacy")
    assert [s.text for s in knee.sentences] == KNEE_SENTENCES
    for s in knee.sentences + heart.sentences:
        assert (KNEE if s in knee.sentences else HEART)[s.start:s.end] == s.text
