"""The asked sentences read as the question: a story sentence telling only who asks, when and how is left out."""

from __future__ import annotations

import pytest

import archehr
from archehr.answerability.asking import STORY_WORDS, asked_reading
from archehr.ask import read_question
from archehr.relevance.text import tokens

ASK = "How long does he take the amoxicillin?"
NOTE = """Discharge Medications:
Amoxicillin 500 mg three times a day for 5 more days.
Paracetamol 1 g four times a day as needed for pain.
Follow-up:
See your GP in 2 weeks for a wound check.
"""


@pytest.mark.parametrize("story", [
    "Our grandad got back on Thursday and I am helping him with the paperwork.",
    "I was a bit worried so my friend told me to send a message.",
    "Sorry, I am writing for my neighbour, she cannot use the phone.",
])
def test_a_story_telling_only_who_when_and_how_is_left_out(story: str) -> None:
    assert asked_reading(f"{story} {ASK}") == ASK
    assert read_question(f"{story} {ASK}")[0] == read_question(ASK)[0]


@pytest.mark.parametrize("story", [
    "He takes warfarin every evening.",  # a medicine
    "His weight was 71 kg this morning.",  # a number
    "He plays golf twice a week.",  # an activity
    "His ankle is swollen since the operation.",  # a symptom, an event
])
def test_a_story_naming_something_the_note_may_answer_stays(story: str) -> None:
    assert asked_reading(f"{story} {ASK}") is None


def test_nothing_is_left_out_without_a_story_sentence_or_an_asked_one() -> None:
    assert asked_reading(ASK) is None  # every sentence asks
    assert asked_reading("Our grandad got back on Thursday.") is None  # nothing else would be left
    assert asked_reading("We got back on Thursday. I am reading the letter.") is None
    # a story clause in the asked sentence stays: only whole sentences are left out
    assert asked_reading("Grandad got back on Thursday, how long does he take it?") is None


def test_only_the_story_sentence_goes_the_asked_ones_stay_in_order() -> None:
    q = "When is the wound check? We got home yesterday. Is it the GP who does it?"
    assert asked_reading(q) == "When is the wound check? Is it the GP who does it?"


def test_story_words_are_stemmed_as_the_concepts_are() -> None:
    assert set(tokens("yesterday messages worried paperwork")) <= STORY_WORDS
    assert not set(tokens("warfarin swollen golf")) & STORY_WORDS


def test_the_answer_does_not_move_with_a_story_sentence() -> None:
    plain = archehr.answer(NOTE, ASK, ranker="hand")
    told = archehr.answer(NOTE, f"We got home yesterday and I am reading the letter now. {ASK}", ranker="hand")
    assert told.lines[0].citations == plain.lines[0].citations
    assert told.confidence == pytest.approx(plain.confidence)
    assert told.question.startswith("We got home")  # shown as the patient wrote it


def test_a_question_asked_with_no_question_word_nor_mark_loses_the_story_too() -> None:
    q = "once the cast is off can she swim in the sea"
    assert asked_reading(f"I am writing for my daughter, she asked me to message you. {q}") == q


def test_a_fragment_asking_in_a_texting_order_is_no_story() -> None:
    # "stop when": a question word, though no mark; "since Monday, 3 times": a number
    assert asked_reading("How long does he take the amoxicillin? stop when") is None
    assert asked_reading("How long does he take the amoxicillin? He took it 3 times yesterday.") is None
