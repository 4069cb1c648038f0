"""The review rules' verdicts on the first line are features of the typed confidence (`typed.FEATURES` "ruled" and
"given"): read once, before the confidence (`ask_confidence.read_verdicts`), and reused by the review flag; a model
file of the feature list without them is refused."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import pytest

import archehr
from archehr.answerability import review
from archehr.answerability.typed import FEATURES, FORMAT, TypedConfidence, load_typed
from archehr.errors import DataError
from archehr.relevance.logistic import LogisticModel, Scaler

NOTE = ("Discharge summary.\n"
        "Urine culture was sent on admission and the result is pending at discharge.\n"
        "Continue amoxicillin 500 mg three times a day for 5 days.\n"
        "Follow up with your GP.\n")


@dataclass(frozen=True)
class _Seeing(TypedConfidence):
    """A confidence of 0.5 for every question (neither declines nor flags) that keeps the rows it is given."""

    rows: list[np.ndarray] = field(default_factory=list)

    def probability(self, row: np.ndarray, pruned: np.ndarray | None = None) -> float:
        self.rows.append(row)
        return 0.5


def _seeing() -> _Seeing:
    n = len(FEATURES)
    return _Seeing(Scaler(np.zeros(n), np.ones(n)), LogisticModel(np.zeros(n), 0.0), 0.0, 0.0, {})


def _asked(question: str, monkeypatch) -> tuple[dict[str, float], archehr.ask.NoteAnswer, int]:
    """The typed row the confidence saw, the answer, and how many times the fact rules ran."""
    ran = []
    real = review.fact_ruled
    monkeypatch.setattr(review, "fact_ruled", lambda *a: ran.append(1) or real(*a))
    typed = _seeing()
    got = archehr.answer(NOTE, question, typed=typed, ranker="hand", splitter="rules")
    assert len(typed.rows) == 1
    return dict(zip(FEATURES, typed.rows[0], strict=True)), got, len(ran)


def test_a_result_still_pending_reaches_the_row_as_ruled(monkeypatch) -> None:
    # the note names the culture only as pending: result_awaited rules the asked fact missing; no result is given
    row, got, ran = _asked("What did my urine culture show?", monkeypatch)
    assert (row["ruled"], row["given"]) == (1.0, 0.0)
    assert got.flagged and not got.abstained  # the review flag reads the same verdict (0.5 is above the review level)
    assert ran == 1  # the rules ran once, before the confidence, not again for the flag


def test_a_first_line_giving_the_duration_reaches_the_row_as_given(monkeypatch) -> None:
    # "for 5 days" names the amoxicillin course: fact_given, and no rule sees the duration missing
    row, got, ran = _asked("How long do I take the amoxicillin for?", monkeypatch)
    assert (row["ruled"], row["given"]) == (0.0, 1.0)
    assert not got.flagged and ran == 1


def test_the_selector_ranking_alone_reads_no_verdict(monkeypatch) -> None:
    typed = _seeing()
    archehr.answer(NOTE, "What did my urine culture show?", typed=typed, ranker="hand", splitter="rules",
                   direct=False)
    row = dict(zip(FEATURES, typed.rows[0], strict=True))
    assert (row["ruled"], row["given"]) == (0.0, 0.0)


def test_a_model_file_without_the_verdict_features_says_refit_it(tmp_path) -> None:
    n = len(FEATURES) - 2
    old = {"format": FORMAT, "format_version": 4, "features": list(FEATURES[:-2]), "mean": [0.0] * n,
           "scale": [1.0] * n, "weights": [0.0] * n, "bias": 0.0, "threshold": 0.1, "review": 0.4, "training": {}}
    path = tmp_path / "typed-v4.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    with pytest.raises(DataError, match="refit it"):
        load_typed(path)
    with pytest.raises(DataError, match="refit it"):
        archehr.answer(NOTE, "What did my urine culture show?", typed=str(path), ranker="hand", splitter="rules")
