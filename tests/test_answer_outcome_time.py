"""The asked fact must be about the asked topic: how long an outcome takes, a booked date, an awaited result;
and the question words written as in a text message.

The notes are written for these tests (fictional), a few lines each in the style of emergency and clinic pages.
"""

from __future__ import annotations

import pytest

import archehr
from archehr.answerability.holds import outcome_question
from archehr.answerability.kinds import answer_types, ask_kind, asked_concepts, plain_question
from archehr.data.note_split import note_case
from archehr.glossary import load_lexicon

STONE = ("Diagnosis: right ureteral stone, 4 mm.\n"
         "Tamsulosin 0.4 mg by mouth daily for 14 days to help the stone pass.\n"
         "Strain your urine and bring any stone to urology.\n")


@pytest.mark.parametrize(("question", "outcome"), [
    ("how long till the stone actually comes out??", True),
    ("How long before the methotrexate starts to help her hands?", True),
    ("How long will it take before the tamsulosin starts working?", True),
    ("how long before I can drive again", False),  # a permission, asked in other words
    ("how long do I take the tamsulosin", False),  # a course's length
])
def test_outcome_questions(question: str, outcome: bool) -> None:
    assert outcome_question(question) is outcome


def test_a_course_length_does_not_tell_when_the_outcome_comes() -> None:
    case, _ = note_case(STONE, "how long till the stone comes out", splitter="rules")
    assert not answer_types(case).holds.any()  # "for 14 days" is how long to take the tablet
    told = STONE + "Most stones this size pass on their own within 1 to 4 weeks.\n"
    case, _ = note_case(told, "how long till the stone comes out", splitter="rules")
    types = answer_types(case)
    assert [s.text for s, h in zip(case.sentences, types.holds, strict=True) if h] == [
        "Most stones this size pass on their own within 1 to 4 weeks."]


def test_a_course_length_still_answers_how_long_to_take_it() -> None:
    case, _ = note_case(STONE, "how long do I take the tamsulosin", splitter="rules")
    types = answer_types(case)
    assert types.holds[[s.text.startswith("Tamsulosin") for s in case.sentences].index(True)]


def test_texting_question_words() -> None:
    assert plain_question("wat day is his apt") == "what day is his apt"
    assert plain_question("Wen do i stop") == "when do i stop"
    assert plain_question("whatever the water") == "whatever the water"  # only whole words
    assert ask_kind("wat day is his physical therapy apt") == "when"


def test_an_appointment_to_be_booked_is_no_booked_date() -> None:
    note = ("Low back strain.\nReferral to physical therapy placed; PT office will call to schedule within 1 week.\n"
            "Ibuprofen 400 mg three times a day with food.\n")
    case, _ = note_case(note, "what day is his physical therapy appointment", splitter="rules")
    types = answer_types(case)
    assert types.best_typed > 0  # the sentence holds a weak when answer ...
    assert types.best_firm == 0  # ... but no date of a booked event
    r = archehr.answer(note, "what day is his physical therapy appointment", splitter="rules")
    assert r.abstained or r.flagged


def test_an_awaited_result_is_flagged_whichever_sentence_comes_first() -> None:
    note = ("You were seen today for: urinary tract infection.\nYour urine test showed signs of infection.\n"
            "Urine culture pending.\nWe will call you with the urine culture result.\n"
            "Take nitrofurantoin 100 mg twice a day for 5 days.\n")
    r = archehr.answer(note, "what germ did the urine culture grow", splitter="rules")
    assert r.abstained or r.flagged


def test_a_dose_is_named_by_an_amount_and_a_test_to_repeat_comes_after_the_change() -> None:
    note = ("She takes levothyroxine 75 micrograms each morning.\n"
            "1. Increase levothyroxine from 75 micrograms to 100 micrograms once daily.\n"
            "2. Please repeat thyroid function tests 6 to 8 weeks after the dose change.\n")
    case, _ = note_case(note, "what is the new dose of my thyroxine tablet", splitter="rules")
    types = answer_types(case)
    # every line naming a dose holds a medication answer ("75 micrograms" as "75 mg" does): the typed score ties the
    # dose taken before with the change, and never puts the test to repeat first; the answer leads with the change
    assert not case.sentences[types.order()[0]].text.startswith("2. Please repeat")
    assert types.holds[0] and types.holds[1]
    r = archehr.answer(note, "what is the new dose of my thyroxine tablet", splitter="rules")
    assert r.lines[0].text.startswith("1. Increase")


def test_an_opening_clause_about_last_time_is_background() -> None:
    lex = load_lexicon()
    surfaces = [c.surface for c in asked_concepts(
        "last time they gave us prednisolone liquid for 5 days, do i need a steroid this time", lex)]
    assert ("steroid",) in surfaces
    assert not any("prednisolon" in s[0] for s in surfaces)
