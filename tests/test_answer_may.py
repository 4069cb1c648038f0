"""A may-I answer's first line that allows or forbids the asked activity, and a why answer's first line saying a
cause outright: the review flag's "fact given" for these two kinds.

The sentences and questions are written for these tests (fictional).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from archehr.answerability.may_answers import PERMISSION, activity_answered, asked_activity, timed_permission
from archehr.answerability.review import cause_given, fact_given, fact_missing
from archehr.glossary import load_lexicon


@pytest.mark.parametrize(("question", "activity"), [
    ("can my wife drive to work on monday", "drive"),  # the asked activity, not the story's work
    ("so she can't swim but is she allowed to fly next week", "fly"),  # after the last asking words
    ("gym? bike?", "gym"),  # no asking words: the first activity named
])
def test_the_asked_activity_is_the_one_after_the_last_asking_words(question: str, activity: str) -> None:
    assert asked_activity(question, load_lexicon()) == activity


def test_a_question_naming_no_activity_has_none() -> None:
    assert asked_activity("is my rash getting better", load_lexicon()) is None


@pytest.mark.parametrize("sentence", [
    "Do not drive while on the sleeping tablets.",
    "You may go back to driving after the clinic review.",
    "No flying for 3 weeks.",
    "Off work for one week.",
    "It is fine to swim once the scab has gone.",
])
def test_a_permission_or_a_prohibition_is_read(sentence: str) -> None:
    assert PERMISSION.search(sentence)


@pytest.mark.parametrize("sentence", [
    "Stop the ramipril.",  # "stop" alone: a medicine decision, not a permission
    "She should take it with food.",
    "He has never smoked.",  # "never" of a history
    "Driving lessons were discussed.",
])
def test_a_medicine_decision_or_a_history_is_no_permission(sentence: str) -> None:
    assert not PERMISSION.search(sentence)


def test_a_line_forbidding_the_asked_activity_answers_a_question_with_a_story() -> None:
    lex = load_lexicon()
    question = "can my wife drive to work on monday"
    assert activity_answered(question, "Do not drive while on the sleeping tablets.", lex)
    assert not activity_answered(question, "Do not fly for 3 weeks.", lex)  # another activity
    assert not activity_answered(question, "She drives a blue car.", lex)  # names it, allows nothing


def test_an_activity_the_note_never_names_flags_unless_the_first_line_answers_the_asked_one() -> None:
    types = SimpleNamespace(kind="may_i", best_typed=1.0, best_firm=1.0, missing_drugs=0, missing_activities=1)
    question = "can my wife drive to work on monday"
    assert not fact_missing(types, ("Do not drive while on the sleeping tablets.", 1.0), question)
    assert fact_missing(types, ("Do not fly for 3 weeks.", 1.0), question)


def test_a_may_i_first_line_naming_the_topic_and_answering_the_activity_is_a_fact_given() -> None:
    types = SimpleNamespace(kind="may_i")
    question = "is it ok to drive to the shops"
    assert fact_given(types, ("Do not drive for 2 weeks.", 0.5), question)
    # names too little of the topic (below a tenth: `why_may_given.advice_given` reads a known activity from a tenth)
    assert not fact_given(types, ("Do not drive for 2 weeks.", 0.05), question)
    assert not fact_given(types, ("Do not drive for 2 weeks.", 0.5))  # no question: nothing to tie it to


@pytest.mark.parametrize(("sentence", "given"), [
    ("Antibiotic started to prevent a chest infection.", True),
    ("The swelling is caused by fluid after the operation.", True),
    ("Started on iron for low iron stores.", True),
    ("Antibiotic started today.", False),  # names the thing, not why
    ("Iron stopped as the levels are back to normal.", False),  # a softer form naming a third of the topic
])
def test_a_why_first_line_gives_the_cause_in_its_firm_form(sentence: str, given: bool) -> None:
    assert cause_given(sentence, 0.3) is given
    assert fact_given(SimpleNamespace(kind="why"), (sentence, 0.3)) is given
    assert not fact_given(SimpleNamespace(kind="why"), (sentence, 0.1))  # names too little of the topic


def test_a_softer_cause_counts_when_the_line_names_most_of_the_topic() -> None:
    sentence = "Iron stopped as the levels are back to normal."
    assert cause_given(sentence, 0.6)
    assert not cause_given(sentence, 0.3)


@pytest.mark.parametrize(("sentence", "given"), [
    ("Must not drive for 1 month.", True),  # a prohibition with its length
    ("No driving until cleared at the clinic.", True),  # ... with its condition
    ("Do not drive.", False),  # no time, no condition
    ("Return to driving will be discussed at your clinic visit.", False),  # yet to be decided
    ("No flying for 3 weeks.", False),  # another activity
])
def test_a_may_i_question_asked_as_when_is_answered_by_a_timed_permission(sentence: str, given: bool) -> None:
    question = "when is she allowed to drive again"
    assert timed_permission(question, sentence, load_lexicon()) is given
    types = SimpleNamespace(kind="when", best_typed=0.0, best_firm=0.0, missing_drugs=0, missing_activities=0)
    assert fact_missing(types, (sentence, 1.0), question) is not given
    assert fact_given(types, (sentence, 0.5), question) is given


def test_a_timed_permission_answers_only_a_question_asking_may_i() -> None:
    # a when question asking of an event, not of a permission: the drive's date is not a prohibition's length
    assert not timed_permission("when is the driving assessment", "No driving for 1 month.", load_lexicon())
