"""A result question's first line gives a result when a sentence close below the first gives one (invented notes)."""

import numpy as np

from archehr.answerability.first_fact import fact_first

TEXTS = ["Bloods for liver tests requested at the surgery.",  # names the test, gives no result
         "ALT 140 (H), bilirubin normal.",  # the result
         "Follow up with the practice nurse."]


def test_result_question_leads_with_the_result_line() -> None:
    rank = np.array([1.0, 0.6, 0.2])
    topic = np.array([0.8, 0.5, 0.0])
    assert fact_first("test_result", [0, 1, 2], rank, TEXTS, topic) == 1


def test_result_line_ranked_too_far_below_keeps_the_order() -> None:
    rank = np.array([1.0, 0.4, 0.2])  # 0.4 is under SHARE (0.5) of the first
    topic = np.array([0.8, 0.5, 0.0])
    assert fact_first("test_result", [0, 1, 2], rank, TEXTS, topic) is None


def test_first_line_giving_a_result_is_kept() -> None:
    rank = np.array([0.6, 1.0, 0.2])
    topic = np.array([0.8, 0.5, 0.0])
    assert fact_first("test_result", [1, 0, 2], rank, TEXTS, topic) is None


def test_result_line_naming_nothing_asked_is_not_put_first() -> None:
    rank = np.array([1.0, 0.6, 0.2])
    topic = np.array([0.8, 0.0, 0.0])
    assert fact_first("test_result", [0, 1, 2], rank, TEXTS, topic) is None


def test_other_kinds_keep_the_order() -> None:
    rank = np.array([1.0, 0.6, 0.2])
    topic = np.array([0.8, 0.5, 0.0])
    assert fact_first("when", [0, 1, 2], rank, TEXTS, topic) is None
