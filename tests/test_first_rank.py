"""The learned first-line ranker (`archehr.answerability.first_rank`): its candidates' rows, its fit, its file, and
`archehr answer` putting its choice first (only ever one of the hand ranking's candidates).

Candidate rows and the note here are invented for these tests.
"""

from __future__ import annotations

import numpy as np
import pytest

import archehr
from archehr.answerability.first_rank import (
    FEATURES,
    FirstRanker,
    candidates,
    fit_first_ranker,
    load_first_ranker,
)
from archehr.answerability.kinds import AnswerTypes
from archehr.ask import first_line_candidates
from archehr.errors import DataError

D = len(FEATURES)
HOLDS = FEATURES.index("holds")
PLACE = FEATURES.index("place")


def _rows(holds_at: int, n: int = 4) -> np.ndarray:
    """n candidates in hand order; only the one at `holds_at` holds the asked kind."""
    x = np.zeros((n, D))
    x[:, PLACE] = np.arange(n)
    x[0, FEATURES.index("hand_first")] = 1.0
    x[holds_at, HOLDS] = 1.0
    return x


def test_fit_learns_that_the_candidate_holding_the_asked_kind_answers() -> None:
    # the gold candidate is always the one holding the kind, wherever the hand ranking put it
    groups = [(_rows(j % 4), np.arange(4) == j % 4) for j in range(40)]
    ranker = fit_first_ranker(groups, l2=1.0)
    assert ranker.weights[HOLDS] > 0
    assert int(np.argmax(ranker.scores(_rows(2)))) == 2


def test_questions_with_only_gold_or_no_gold_candidates_teach_nothing() -> None:
    with pytest.raises(ValueError):
        fit_first_ranker([(_rows(1), np.zeros(4, dtype=bool)), (_rows(1), np.ones(4, dtype=bool))])


def test_a_tie_keeps_the_hand_rankings_first(tmp_path) -> None:
    flat = FirstRanker(np.zeros(D), np.zeros(D), np.ones(D))
    cands = candidates([3, 1, 2], np.array([0.0, 0.5, 0.2, 1.0]), np.zeros(4), _types(4), np.zeros(4), np.ones(4),
                       [""] * 4, [5] * 4)
    assert flat.first(cands) == 3
    flat.save(tmp_path / "m.json")
    back = load_first_ranker(tmp_path / "m.json")
    assert back.first(cands) == 3 and np.array_equal(back.weights, flat.weights)


def test_a_file_of_other_features_is_refused(tmp_path) -> None:
    d = FirstRanker(np.zeros(D), np.zeros(D), np.ones(D)).to_dict()
    d["features"] = d["features"][:-1]
    (tmp_path / "m.json").write_text(__import__("json").dumps(d), encoding="utf-8")
    with pytest.raises(DataError):
        load_first_ranker(tmp_path / "m.json")


def _types(n: int) -> AnswerTypes:
    topic = np.linspace(0.2, 0.8, n)
    holds = np.arange(n) % 2 == 1
    return AnswerTypes("when", topic, holds, topic * 0.5, 1.0, 1, 0.0)


def test_candidate_rows_read_place_share_and_topic_by_hand() -> None:
    rank = np.array([0.0, 0.5, 0.2, 1.0])
    c = candidates([3, 1, 2], rank, np.array([0.0, 0.25, 0.0, 0.5]), _types(4), np.zeros(4), np.ones(4),
                   ["", "history", "kind", ""], [3, 3, 3, 3], k=2)
    assert c.index == (3, 1)  # only the best k
    row = dict(zip(FEATURES, c.rows[1], strict=True))
    # sentence 1: half the best rank, half the best answer-type score, topic 0.4 of the note's best 0.8
    assert row["place"] == 1 and row["share"] == 0.5 and row["typed"] == 0.5
    assert row["topic"] == pytest.approx(0.4) and row["topic_gap"] == pytest.approx(0.4)
    assert row["history"] == 1 and row["holds"] == 1 and row["holds_when"] == 1 and row["holds_why"] == 0
    assert row["from_first"] == pytest.approx(2 / 3)


NOTE = ("Follow-up:\nReview in the fracture clinic on 14 March.\nRepeat the knee X-ray at the clinic visit.\n"
        "Physiotherapy for the knee twice a week.\nKeep the knee brace on when walking.\n")


def test_answer_puts_the_rankers_choice_first_and_only_among_the_candidates() -> None:
    question = "when do i go back to the clinic about my knee"
    cands, ids = first_line_candidates(NOTE, question)
    assert len(cands.index) >= 2
    # a ranker preferring the last candidate by hand order
    w = np.zeros(D)
    w[PLACE] = 1.0
    last = FirstRanker(w, np.zeros(D), np.ones(D), k=len(cands.index))
    hand = archehr.answer(NOTE, question, answerability=None)
    learned = archehr.answer(NOTE, question, answerability=None, first=last)
    assert hand.lines[0].citations[0] == ids[cands.index[0]]
    assert learned.lines[0].citations[0] == ids[cands.index[-1]]
