"""A result question whose first line gives no result while a sentence naming nearly as much of the topic says the
result is awaited (`archehr.answerability.awaited_results.awaited_near`)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from archehr.answerability.awaited_results import NEAR_SHARE, awaited_near, top_topic


def _split(*lines: str) -> SimpleNamespace:
    return SimpleNamespace(sentences=[SimpleNamespace(text=t) for t in lines])


def _types(topic: list[float], kind: str = "test_result") -> SimpleNamespace:
    return SimpleNamespace(kind=kind, topic=np.array(topic))


def test_an_awaited_result_naming_nearly_all_the_topic_flags_a_first_line_with_no_result() -> None:
    split = _split("Phlebotomy clinic staff nurse: R. Okafor.", "Throat swab result not yet back from the lab.")
    first = (split.sentences[0].text, 0.6)
    # the awaited line names two thirds of the most named (0.4 of 0.6, just over NEAR_SHARE)
    assert 0.4 / 0.6 >= NEAR_SHARE
    assert awaited_near(_types([0.6, 0.4]), first, split, "did my throat swab come back clear")
    # naming too little of the topic (0.2 of 0.6) it does not count
    assert not awaited_near(_types([0.6, 0.2]), first, split, "did my throat swab come back clear")
    # another kind of question is not read
    assert not awaited_near(_types([0.6, 0.4], "when"), first, split, "when is the swab back")


def test_a_first_line_giving_a_result_or_a_later_result_is_an_answer() -> None:
    split = _split("Ferritin 8 ug/L (low).", "Repeat ferritin pending.")
    assert not awaited_near(_types([0.5, 0.5]), (split.sentences[0].text, 0.5), split, "was my ferritin low")
    later = _split("Clinic nurse: T. Hale.", "Ferritin pending.", "Ferritin now back: 35 ug/L, normal.")
    assert not awaited_near(_types([0.5, 0.5, 0.5]), (later.sentences[0].text, 0.5), later, "is my ferritin back")


def test_the_sentences_naming_the_most_of_the_topic() -> None:
    assert top_topic(_types([0.2, 0.6, 0.6])).tolist() == [1, 2]
    assert top_topic(_types([0.1 + 0.2, 0.3])).tolist() == [0, 1]  # (a share read as a float sum ties its level)
    assert top_topic(_types([0.0, 0.0])).tolist() == [] and top_topic(_types([])).tolist() == []
