"""Answer types in their firm and weak forms, the sentence after the topic, and the declining rules.

The notes are written for these tests (fictional), a few lines each in the style of discharge pages.
"""

from __future__ import annotations

import pytest

import archehr
from archehr.answerability.holds import PENDING
from archehr.answerability.kinds import answer_types, ask_kind
from archehr.answerability.misspelt import misspelt_drug, spelt_alike
from archehr.answerability.test_words import PLANNED as _TEST_PLANNED
from archehr.answerability.test_words import RESULT_SAID as _RESULT_SAID
from archehr.data.note_split import note_case
from archehr.relevance.text import stem_word


@pytest.mark.parametrize(("question", "kind"), [
    ("was my thyroid biopsy cancer or not", "test_result"),
    ("Is the lump benign?", "test_result"),
    ("what do I take to sleep now?", "med_change"),
    ("Mum has been on Fosamax for years. Is she still meant to be taking it?", "med_change"),
    ("how will i know if she is not eating enough at home", "may_i"),
])
def test_question_kinds(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


def test_swapped_letters_read_as_a_misspelling() -> None:
    assert spelt_alike("dialisys", "dialysis", 0.93)  # the same letters, two of them swapped
    assert not spelt_alike("dialyzer", "dialysis", 0.93)
    assert not spelt_alike("sidalyis", "dialysis", 0.93)  # another first letter


def test_a_drug_without_its_single_isomer_prefix_finds_the_notes_drug() -> None:
    q = "how long do i have to take the thyroxine"
    assert misspelt_drug(stem_word("thyroxine"), q, {"levothyroxine": "levothyroxine"}) == ["levothyroxine"]
    assert misspelt_drug(stem_word("thyroxine"), q, {"carbimazole": "carbimazole"}) == []


def _first(note: str, question: str) -> str:
    r = archehr.answer(note, question, splitter="rules")
    assert not r.abstained
    cited = {s.id: s.text for s in r.note.sentences}
    return cited[r.lines[0].citations[0]]


def test_the_fact_in_the_sentence_after_the_topic_answers_when() -> None:
    note = ("Plan:\n1. Start risankizumab (Skyrizi) 150 mg injection under the skin. First dose given in clinic "
            "today, second dose in 4 weeks, then every 12 weeks.\n2. Avoid live vaccines while on this medicine.\n")
    assert "second dose in 4 weeks" in _first(note, "when is my next skyrizi shot")


def test_a_booked_slot_outranks_a_past_weekday() -> None:
    note = ("HPI: 70M on HD MWF, came in after missing his Friday dialysis session.\n"
            "Follow-up:\nResume dialysis sessions at Riverside Center Wed 10/08/2026 6:00 AM chair 14\n")
    assert "Riverside" in _first(note, "when is his next dialisys session after getting out")


@pytest.mark.parametrize(("text", "planned"), [
    ("Monday 12/08/2026 at 1:30 PM - Chest X-ray, St. Brendan Imaging", True),
    ("Repeat CT chest in 3 months.", True),
    ("CT head: no bleed, no fracture.", False),
    ("___ 09:20PM BLOOD ALT-312* AST-280*", False),  # a lab line's time is no booking
])
def test_a_planned_test_is_told_from_a_result(text: str, planned: bool) -> None:
    assert (bool(_TEST_PLANNED.search(text)) and not _RESULT_SAID.search(text)) is planned


@pytest.mark.parametrize(("text", "pending"), [
    ("Vitamin B12 and folate levels (sent 18/02)", True),
    ("Sentinel node and breast tissue sent to pathology.", True),
    ("Sent home with his daughter.", False),
])
def test_a_sample_sent_off_is_a_result_awaited(text: str, pending: bool) -> None:
    assert bool(PENDING.search(text)) is pending


def test_a_drug_named_only_through_its_class_siblings_is_missing() -> None:
    sibling = "Discharge medications:\nIbuprofen 600 mg every 8 hours with food as needed for pain.\n"
    case, _ = note_case(sibling, "is it ok if i take aleve instead?", splitter="rules")
    assert answer_types(case).missing_drugs == 1
    # the class named in the note's words covers it
    named = "Instructions:\nAvoid NSAIDs such as ibuprofen while on warfarin.\n"
    case, _ = note_case(named, "is it ok if i take aleve instead?", splitter="rules")
    assert answer_types(case).missing_drugs == 0
