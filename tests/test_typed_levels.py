"""The typed confidence's threshold and review level: quantiles of the P of the answerable questions, each question
scored by a model fitted without its group (its writer), so the levels are those a writer the model never saw meets."""

from __future__ import annotations

import math

import numpy as np

from archehr.answerability import typed
from archehr.relevance.logistic import LogisticModel


def _by_size(x: np.ndarray, y: np.ndarray, l2: float, balanced: bool = False) -> LogisticModel:
    # a stand-in fit whose P is the share of 100 rows it was fitted on: a group's rows are scored by the size of
    # the rest (the full fit, on all 100, kept under 1)
    p = min(len(y) / 100, 0.99)
    return LogisticModel(np.zeros(x.shape[1]), math.log(p / (1 - p)))


def _data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # group a: 10 answerable and 10 not; groups b and c: 30 answerable and 10 not each (100 rows)
    y = np.array([1.0] * 10 + [0.0] * 10 + ([1.0] * 30 + [0.0] * 10) * 2)
    groups = np.array(["a"] * 20 + ["b"] * 40 + ["c"] * 40)
    return np.zeros((100, len(typed.FEATURES))), y, groups


def test_the_levels_are_quantiles_of_the_p_each_group_gets_from_a_model_fitted_without_it(monkeypatch) -> None:
    monkeypatch.setattr(typed, "fit_logistic", _by_size)
    rows, y, groups = _data()
    # a's answerable rows are scored by a model of the 80 other rows (0.8), b's and c's by one of 60 (0.6):
    # 70 answerable P's, 60 of 0.6 then 10 of 0.8; the 0.2 quantile is 0.6 and the 0.9 quantile 0.8
    model = typed.fit_typed(rows, y, groups, false_decline=0.2, review_share=0.9)
    assert (model.threshold, model.review) == (0.6, 0.8)
    assert model.training["groups"] == ["a", "b", "c"]
    assert model.training["review_rule"] == "0.9 quantile of the same"


def test_the_default_levels(monkeypatch) -> None:
    monkeypatch.setattr(typed, "fit_logistic", _by_size)
    rows, y, groups = _data()
    model = typed.fit_typed(rows, y, groups)
    # the 0.5% and 20% quantiles of the same 70 P's both fall among the sixty 0.6's
    assert (model.threshold, model.review) == (0.6, 0.6)
    assert model.training["threshold_rule"].startswith("0.005 quantile")
    assert model.training["review_rule"] == "0.2 quantile of the same"
