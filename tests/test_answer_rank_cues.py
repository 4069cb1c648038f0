"""The rank's own cues: which sentence of a note `archehr answer` puts first for a patient's question.

Each note here is a few lines written for these tests (fictional); each checks one rule of
`archehr.answerability.kinds`: the kind read from the question's words, a drug continued against the new one,
the drug asked about against another, a value's flag for "was it too high", a deferral for "why didn't they",
and that the typed confidence's inputs (`score`, `topic`) do not move with these rank-only cues.
"""

from __future__ import annotations

import numpy as np
import pytest

from archehr.answerability.kinds import answer_types, ask_kind
from archehr.data.note_split import note_case
from archehr.glossary import load_lexicon


@pytest.mark.parametrize(("question", "kind"), [
    # a dose moved, a drug kept on or put on, in everyday words
    ("did they up my moms lipitor dose", "med_change"),
    ("did they lower his metformin", "med_change"),
    ("do i keep taking biktarvy", "med_change"),
    ("is she still suppose to take her prilosec", "med_change"),
    ("what hrt has the dr put me on", "med_change"),
    ("which painkillers am I ment to be taking now", "med_change"),
    # a result's verdict asked of a pronoun or in other orders; "come back" as a result, not a return
    ("the letter says something about my potassium. is it too high, should I worry?", "test_result"),
    ("his blood count was low after the surgery, is that bad?", "test_result"),
    ("Did my B12 come back low?", "test_result"),
    ("Did my kidney numbers come back down to normal?", "test_result"),
    ("what was her potassium number", "test_result"),
    ("my white cells say L on the sheet, were my bloods good enough?", "test_result"),
    ("is the steroid actually working on my liver", "test_result"),
    # unchanged: a return instruction, a permission asked of "that", a permission with "keep taking"
    ("When should I come back to the ER?", "may_i"),
    ("I smoke a bit, is that ok with the new pill?", "may_i"),
    ("can i keep taking aleve for my knees", "may_i"),
])
def test_the_kind_is_read_from_everyday_wording(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


def _first(note: str, question: str) -> str:
    case, _ = note_case(note, question, splitter="rules")
    types = answer_types(case)
    return case.sentences[int(np.argmax(types.ranking))].text


def test_a_question_for_the_new_drug_is_answered_by_the_drug_begun_not_the_one_continued() -> None:
    note = ("Plan:\nContinue metformin 1 g twice daily.\nStart sitagliptin 100 mg once daily.\n"
            "Recheck HbA1c in 3 months.\n")
    assert "sitagliptin" in _first(note, "what is the new sugar pill im starting on top of the metformin")


def test_a_why_question_about_one_drug_is_not_answered_by_another_drugs_reason() -> None:
    note = ("Medication changes:\nSTOP doxazosin 4 mg at night - likely cause of the dizziness.\n"
            "CHANGE omeprazole 40 mg daily to 20 mg daily - a lower dose is enough now your stomach has settled.\n")
    assert "omeprazole" in _first(note, "Why has my omeprazole been cut down to the smaller dose?")


def test_was_it_too_high_is_answered_by_the_asked_value_with_its_flag() -> None:
    note = ("Results:\nHgb 10.4 L (13.5-17.5)\nK 5.7 H (3.5-5.1)\n"
            "Plan:\nRepeat potassium and kidney labs in 1 week.\n")
    assert _first(note, "Was my potassium too high on the blood test?").startswith("K 5.7")


def test_why_didnt_they_is_answered_by_the_sentence_telling_it_was_deferred() -> None:
    note = ("Hospital course:\nHe had a persistent air leak and thoracic surgery was consulted.\n"
            "Surgery was deferred, as this is a first episode and the air leak resolved.\n"
            "Instructions:\nAvoid scuba diving unless you have surgery to prevent another collapse.\n")
    assert "deferred" in _first(note, "why didnt they just do surgery on my lung")


def test_the_rank_cues_leave_the_typed_confidence_inputs_alone() -> None:
    note = ("Plan:\nContinue metformin 1 g twice daily.\nStart sitagliptin 100 mg once daily.\n")
    case, _ = note_case(note, "what is the new sugar pill im starting on top of the metformin", splitter="rules")
    types = answer_types(case)
    # the metformin line names two of the question's concepts: for the confidence it is still the best topic
    texts = [s.text for s in case.sentences]
    assert "metformin" in texts[int(np.argmax(types.topic))]
    assert types.rank is not None and not np.allclose(types.rank, types.score)


@pytest.mark.parametrize(("term", "expansion"), [
    ("muddled", "delirium"), ("drowsy", "somnolent"), ("sleepy", "drowsy"), ("machine", "cpap"),
    ("shot up", "elevated"), ("taken off", "discontinued"), ("kidney bloods", "u&e"), ("baking soda", "bicarbonate"),
])
def test_everyday_words_of_carers_and_devices_are_in_the_lexicon(term: str, expansion: str) -> None:
    e = load_lexicon().get(term)
    assert e is not None and expansion in e.expansions


def test_how_long_is_answered_by_the_plan_line_giving_the_length_not_an_until_about_the_supply() -> None:
    note = ("Plan:\n1. Increase sertraline to 100 mg daily (two 50 mg tabs until new supply).\n"
            "2. Continue for at least 6 months after feeling well, then review before stopping.\n")
    assert "6 months" in _first(note, "How long do I have to stay on sertraline for?")
