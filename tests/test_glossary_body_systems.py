"""Lay words across the body systems that the everyday lexicon knows as facts: a patient's name for a test, a
device, a procedure or a service is the note's clinical name or abbreviation ("the breathing tube" is extubation,
"the camera down my throat" an OGD), and an everyday word with a second, ordinary sense ("type", "cut down",
"take a break", "how many weeks") is kept out, so it does not pull in a clinical topic."""

from __future__ import annotations

import pytest

from archehr.answerability.kinds import answer_types
from archehr.data.note_split import note_case
from archehr.glossary import load_lexicon


def _expansions(text: str) -> set[str]:
    return {x for e in load_lexicon().matches(text) for x in e.expansions}


@pytest.mark.parametrize(("question", "note_word"), [
    ("when does the breathing tube come out", "extubation"),
    ("is my sugar monitor accurate", "cgm"),
    ("what is my three month sugar now", "hba1c"),
    ("what did the camera down my throat show", "ogd"),
    ("how long do i keep the pee tube in", "foley"),
    ("when do the plates and screws come out", "orif"),
    ("is the clot in my leg gone", "dvt"),
    ("how long do i wear the neck collar", "c-collar"),
    ("can i have a cortisone shot in my knee", "triamcinolone"),
    ("will the cloudy lens get worse", "cataract"),
    ("why do i need the spinal tap", "lumbar puncture"),
    ("can i go back to my warehouse job", "heavy lifting"),
    ("when can i put weight on my foot", "weight bearing"),
    ("what were my kidney numbers", "egfr"),
])
def test_a_lay_name_reaches_the_clinical_name(question: str, note_word: str) -> None:
    assert note_word in _expansions(question)


@pytest.mark.parametrize(("question", "kept_out"), [
    ("should i cut down on salt", "laceration"),
    ("can i take a break from the tablets", "fracture"),
    ("how many weeks until the cast comes off", "gestation"),
    ("what is my magnesium level", "mg"),  # "mg" is every dose's unit, not magnesium
    ("does it run in the family", "diarrhea"),
    ("should i bring my glasses", "spectacles"),  # glasses of wine as much as spectacles
])
def test_an_everyday_sense_is_kept_out(question: str, kept_out: str) -> None:
    assert kept_out not in _expansions(question)


def test_what_type_is_no_activity() -> None:
    assert not any(e.kind == "activity" for e in load_lexicon().matches("what type of scan was it"))


def _topic(note: str, question: str) -> list[float]:
    case = note_case(note, question)[0]
    return [round(float(x), 3) for x in answer_types(case, load_lexicon()).topic]


def test_a_device_question_names_the_line_in_clinical_words() -> None:
    note = "She was admitted to the unit.\n\nExtubation is planned for tomorrow morning.\n\nFamily updated by phone."
    topic = _topic(note, "when will the breathing tube come out")
    assert topic[1] > 0
    assert topic[0] == 0 and topic[2] == 0


def test_a_procedure_question_names_the_line_with_its_abbreviation() -> None:
    note = "Admitted with vomiting.\n\nOGD showed a healing duodenal ulcer.\n\nDischarged home on a PPI."
    topic = _topic(note, "what did the camera down my throat find")
    assert topic[1] > 0
    assert topic[0] == 0
