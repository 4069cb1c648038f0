"""A may-I question's first line gives the advice, not the story behind it (invented notes)."""

import numpy as np

from archehr.answerability.advice_first import advice_first, gives_no_advice
from archehr.answerability.kind_first import kind_first

TEXTS = ["He was stung by wasps on both arms while cutting the hedge on Sunday.",  # the story: no advice
         "He should not cut hedges until he has seen the allergy clinic.",  # the advice
         "Adrenaline pen prescribed."]


def test_story_line_gives_no_advice() -> None:
    assert gives_no_advice(TEXTS[0])
    assert not gives_no_advice(TEXTS[1])
    assert not gives_no_advice("Walking as tolerated with a frame.")
    assert not gives_no_advice("Sitting out limited to two hours at a time.")
    assert not gives_no_advice("That rules him out of the cup final.")


def test_advice_line_goes_first() -> None:
    rank = np.array([1.0, 0.9, 0.2])
    topic = np.array([0.7, 0.5, 0.0])
    assert advice_first([0, 1, 2], rank, TEXTS, topic) == 1


def test_first_line_with_advice_keeps_its_place() -> None:
    texts = ["Keep the stung arm raised for a day.", TEXTS[1], TEXTS[2]]
    rank = np.array([1.0, 0.9, 0.2])
    topic = np.array([0.7, 0.5, 0.0])
    assert advice_first([0, 1, 2], rank, texts, topic) is None


def test_advice_off_topic_or_ranked_low_keeps_the_order() -> None:
    assert advice_first([0, 1, 2], np.array([1.0, 0.9, 0.2]), TEXTS, np.array([0.7, 0.0, 0.0])) is None
    assert advice_first([0, 1, 2], np.array([1.0, 0.4, 0.2]), TEXTS, np.array([0.7, 0.5, 0.0])) is None


def test_kind_first_reads_the_may_i_rule_only_for_may_i() -> None:
    rank = np.array([1.0, 0.9, 0.2])
    topic = np.array([0.7, 0.5, 0.0])
    question = "can he cut the hedge this weekend"
    assert kind_first("may_i", question, [0, 1, 2], rank, TEXTS, topic) == 1
    assert kind_first("why", question, [0, 1, 2], rank, TEXTS, topic) is None


def test_a_finding_told_with_no_or_not_does_not_allow() -> None:
    texts = ["Stung on the neck at work.", "Skin prick test did not show a venom allergy.",
             "[x] No hedge cutting until reviewed."]
    rank = np.array([1.0, 0.9, 0.8])
    topic = np.array([0.7, 0.5, 0.5])
    assert advice_first([0, 1, 2], rank, texts, topic) == 2
