"""The kind of answer is read from the asking clause, past a polite frame and the story told before it."""

from __future__ import annotations

import pytest

from archehr.answerability.asked_for import ask_kind


@pytest.mark.parametrize(("question", "kind"), [
    # a polite frame's "can you" asks no permission: the kind is that of what follows it
    ("Can you please tell me if the scan of her foot showed a break?", "test_result"),
    ("Could you kindly advise whether Mrs Lund is able to bathe with the dressing on?", "may_i"),
    ("Please could you confirm whether the swab has shown any infection?", "test_result"),
    ("Could you tell me the date of his chest x-ray, I want to come along?", "when"),
])
def test_a_polite_frame_is_read_past(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


@pytest.mark.parametrize(("question", "kind"), [
    # the story names a medicine; the ask is a permission
    ("He takes a water pill every morning. Is that still ok with the new inhaler?", "may_i"),
    # the story's "why" is background ("that is why"); the ask is a change of dose
    ("They said his level was high and that is why he shakes. Did they lower his dose?", "med_change"),
    # the story names a pill; the ask is a date
    ("her warfarin was stopped for the op, when are they going to do it now?", "when"),
])
def test_the_asking_clause_wins_over_the_story(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


def test_a_medicine_named_in_the_story_and_kept_on_in_the_ask_is_a_change() -> None:
    # "can she still take it": the ask reads as a permission, about the story's medicine kept on
    assert ask_kind("she has used the ibuprofen gel for years, can she still take it") == "med_change"


@pytest.mark.parametrize(("question", "kind"), [
    ("did they check him for diabetes", "test_result"),
    ("did the lab find anything", "test_result"),
    ("how did the walking test come out", "test_result"),
    ("is his wrist broken or just bruised", "test_result"),
    ("did they change her ventolin", "med_change"),
    ("is he coming home on anything for the shakes", "med_change"),
    ("how many units of the night insulin", "med_change"),
    # a purpose or a cause asked in other words
    ("what is the senna for", "why"),
    ("whats the new inhaler for? nobody told us", "why"),
    ("what was that jab in my arm at the surgery for?", "why"),
    ("whats the point of the knee brace", "why"),
    ("what is causing the itch on his back", "why"),
    ("what date is the scan booked for", "when"),
])
def test_cues_in_other_words(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


def test_a_question_without_a_cue_stays_other() -> None:
    assert ask_kind("tell me about the operation") == "other"


@pytest.mark.parametrize(("question", "kind"), [
    ("is 5.9 ok for my potassium", "test_result"),  # a value quoted with its verdict asked: no permission
    ("ferritin 8, is that fine?", "test_result"),
    ("his sats are 93, can he fly home tomorrow, is that ok", "may_i"),  # an activity asked about
    ("is it ok to take 2 tablets at night", "may_i"),  # a dose, no value
])
def test_a_quoted_value_with_its_verdict_asked_is_a_result(question: str, kind: str) -> None:
    assert ask_kind(question) == kind
