"""`archehr answer` for a patient: abstention, calibrated confidence, direct answers, shown citations.

The heart-failure note is written for these tests (fictional): furosemide was switched to torsemide,
potassium was low at 3.3.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import archehr
from archehr.answerability.model import load_model, parse_model
from archehr.ask import NOT_IN_NOTE
from archehr.cli.main import main
from archehr.errors import ConfigError
from archehr.generate.llm import says_not_in_note
from archehr.shown_lines import CARRIED, carried

HF = """Admission Date: ___       Discharge Date: ___

Chief Complaint:
Leg swelling and shortness of breath

History of Present Illness:
Mr. ___ is a 68 yo man with heart failure (EF 25%) and diabetes who presents with 1 week of worsening
leg swelling, orthopnea and a 5 kg weight gain despite taking furosemide 40 mg daily at home.

Pertinent Results:
___ 05:40AM BLOOD Na-136 K-3.3* Cl-98 HCO3-29 BUN-31* Creat-1.4*
BNP 1890. Troponin negative x2.

Brief Hospital Course:
# Acute on chronic systolic heart failure: He was diuresed with IV furosemide with good urine output.
He lost 6 kg and his breathing returned to baseline. Because oral furosemide was no longer working
well for him, his water pill was switched to torsemide 20 mg daily, which is absorbed more reliably.
# Hypokalemia: Potassium was low at 3.3 from diuresis and was repleted with oral potassium chloride.
# Diabetes: Continued home metformin. He worked with physical therapy and was cleared for home.

Discharge Medications:
1. Torsemide 20 mg PO daily
2. Potassium chloride 20 mEq PO daily
3. Metformin 500 mg PO BID
4. Carvedilol 6.25 mg PO BID

Discharge Instructions:
Please stop taking furosemide. Take torsemide 20 mg every morning instead.
Weigh yourself every morning and call Dr. ___ if you gain more than 2 lbs in a day.
"""


def _ask(question: str, **kw: object) -> archehr.ask.NoteAnswer:
    return archehr.answer(HF, question, splitter="rules", **kw)


def test_should_i_still_take_cites_the_instruction_and_the_change_first() -> None:
    r = _ask("Should I still take furosemide at home?")
    assert not r.abstained
    cited = {s.text for s in r.cited}
    assert "Please stop taking furosemide." in cited
    assert any("switched to torsemide" in t for t in cited)
    # the direct answers lead
    assert {r.lines[0].citations[0], r.lines[1].citations[0]} == {
        s.id for s in r.cited if "stop taking" in s.text or "switched to" in s.text}


def test_was_my_potassium_low_finds_the_lab_line() -> None:
    r = _ask("Was my potassium low?")
    assert any("K-3.3" in s.text for s in r.cited)


@pytest.mark.parametrize("question", ["Why did they stop my warfarin?", "When is my colonoscopy?",
                                      "What did the MRI of my brain show?"])
def test_a_question_the_note_cannot_answer_gets_the_note_does_not_say(question: str) -> None:
    r = _ask(question)
    assert r.abstained and r.answer == NOT_IN_NOTE and not r.cited
    assert [ln.citations for ln in r.lines] == [()]
    assert (r.related or r.related_note) and r.confidence < load_model().threshold
    d = r.to_dict()
    assert d["abstained"] and d["cited_sentences"] == [] and (d["related_not_cited"] or d["related_note"])
    # the related sentences are never the note's header fields
    assert not any(s.text.startswith(("Admission Date", "Discharge Date")) for s in r.related)


def test_answerability_off_never_abstains() -> None:
    r = _ask("Why did they stop my warfarin?", answerability=None)
    assert not r.abstained and r.cited


def test_every_shown_citation_is_carried_by_its_line() -> None:
    for q in ("Should I still take furosemide at home?", "Why did he lose weight?", "Was my potassium low?"):
        r = _ask(q)
        text = {s.id: s.text for s in r.note.sentences}
        for ln in r.lines:
            assert ln.citations
            assert all(carried(ln.text, text[c]) >= CARRIED for c in ln.citations), (q, ln)
        assert {s.id for s in r.cited} == {c for ln in r.lines for c in ln.citations}


def test_cli_shows_abstention_related_and_confidence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    note = tmp_path / "hf.txt"
    note.write_text(HF, encoding="utf-8")
    assert main(["answer", "--note", str(note), "--question", "When is my colonoscopy?", "--splitter", "rules"]) == 0
    out = capsys.readouterr().out
    assert NOT_IN_NOTE in out and "Related note sentences (not an answer):" in out
    assert "Cited note sentences:" not in out and "Confidence that the note answers this:" in out
    # nothing in the note is about a colonoscopy, nor tells of an appointment: no sentence is shown, one line says so
    assert "  none: no sentence in the note is about colonoscopy or gives an appointment or a date to come\n" in out
    assert "Admission Date" not in out
    assert main(["answer", "--note", str(note), "--question", "When is my colonoscopy?", "--splitter", "rules",
                 "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["abstained"] and d["related_not_cited"] == [] and d["related_note"].startswith("no sentence")
    assert main(["answer", "--note", str(note), "--question", "When is my colonoscopy?", "--splitter", "rules",
                 "--format", "json", "--answerability", "off"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["abstained"] is False and d["cited_sentences"]


def test_shipped_model_round_trips_and_bad_files_are_named(tmp_path: Path) -> None:
    m = load_model("lexical")
    assert 0.0 < m.threshold <= m.review_level < 1.0
    emb = load_model("embedding")  # reading it needs no torch; scoring with it does (the models extra)
    assert emb.feature_set == "lexical+embedding" and 0.0 < emb.threshold <= emb.review_level < 1.0
    again = parse_model(json.loads(json.dumps(m.to_json())), "mem")
    assert again.threshold == m.threshold and again.background == m.background
    with pytest.raises(ConfigError, match="not an archehr answerability model"):
        parse_model({"format": "x"}, "bad.json")
    with pytest.raises(ConfigError, match="not found"):
        load_model(tmp_path / "missing.json")


def test_llm_abstention_reply_is_recognised() -> None:
    assert says_not_in_note("NOT IN THE NOTE")
    assert says_not_in_note("**The note does not say.**")
    assert not says_not_in_note("He was given IV furosemide. |13|")
    assert not says_not_in_note("The note does not say much, but the scan was clear. |4|")


class _Says:
    """A backend that always gives the same reply."""

    name = "says"

    def __init__(self, reply: str):
        self.reply = reply
        self.prompts: list[str] = []

    def complete(self, prompt, *, n=1, temperature=0.0, seed=0, max_tokens=256, response_format=None):
        self.prompts.append(prompt)
        return [self.reply] * n

    def describe(self):
        return {"name": self.name}


def test_llm_generator_for_a_patient_maps_not_in_the_note_to_an_abstention() -> None:
    from archehr.generate.llm import LLMGenerator
    from archehr.pipeline import load_system

    backend = _Says("NOT IN THE NOTE")
    system = load_system(None)
    system.generator = LLMGenerator(backend=backend, demonstrations=0)  # type: ignore[arg-type]
    r = _ask("Should I still take furosemide at home?", system=system)
    assert r.abstained and r.answer == NOT_IN_NOTE and not r.cited and r.related
    assert "NOT IN THE NOTE" in backend.prompts[-1]  # the patient prompt allows it
    # predict's generator (the official prompt) never abstains: the reply is unusable, the fallback answers
    from archehr.data.note_split import note_case
    from archehr.relevance.base import Selection

    case, _ = note_case(HF, "Should I still take furosemide at home?", splitter="rules")
    ans = system.generator.generate(case, Selection(case.case_id, ("24",), 1.0))
    assert not ans.abstained and ans.lines and ans.fallback


def test_predict_records_answerability_per_case_and_never_abstains(tmp_path: Path) -> None:
    from archehr.data import load_split
    from archehr.pipeline import load_system
    from archehr.runs import run_split

    split = load_split(None, "dev").subset(["1", "8"])
    system = load_system(None)
    run_split(system, split, "2025", tmp_path / "run")
    record = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))
    per_case = record["answerability"]["per_case"]
    assert set(per_case) == {"1", "8"} and all(0.0 <= p <= 1.0 for p in per_case.values())
    sub = json.loads((tmp_path / "run" / "submission.json").read_text(encoding="utf-8"))
    assert all(NOT_IN_NOTE not in row["answer"] for row in sub)
    assert [row["answer"] for row in sub] == [system.predict(c, "2025").prediction for c in split.cases]


def test_extractive_cite_dropped_is_predicts_option_and_off_shows_every_citation() -> None:
    from archehr.data.note_split import note_case
    from archehr.generate.extractive import ExtractiveGenerator
    from archehr.relevance.base import Selection

    case, _ = note_case(HF, "Should I still take furosemide at home?", splitter="rules")
    sel = Selection(case.case_id, ("6", "12", "14", "24"), 1.0)
    default = ExtractiveGenerator(budget=30).generate(case, sel)
    assert set(default.cited_ids) == {"6", "12", "14", "24"}  # the dropped ones ride on the nearest line
    assert any(len(ln.citations) > 1 for ln in default.lines)
    shown = ExtractiveGenerator(budget=30, cite_dropped=False)
    assert all(len(ln.citations) == 1 for ln in shown.generate(case, sel).lines)
    assert "cite_dropped" not in ExtractiveGenerator().describe() and shown.describe()["cite_dropped"] is False
