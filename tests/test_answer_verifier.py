"""`benchmarks/answer_verifier.py`: the pair rows of a question and its candidate sentences, and the question's score
(its best candidate's P)."""

from __future__ import annotations

import benchmark_module
import numpy as np


def _bench():  # the experiment script's module
    return benchmark_module.load("answer_verifier")


def test_pair_rows_hold_the_product_the_difference_the_cosine_and_the_hand_measures() -> None:
    av = _bench()
    q, s = np.array([[1.0, 0.0]]), np.array([[0.6, 0.8]])
    row = av.pair_features(q, s, np.array([[7.0]]))
    assert np.allclose(row, [[0.6, 0.0, 0.4, 0.8, 0.6, 7.0]])  # q*s, |q-s|, cosine 0.6, the hand measure
    assert np.allclose(av.pair_features(q, s, np.array([[7.0]]), "hand"), [[0.6, 7.0]])
    assert np.allclose(av.pair_features(q, s, np.array([[7.0]]), "emb"), [[0.6, 0.0, 0.4, 0.8, 0.6]])


def test_a_basis_projects_the_product_and_the_difference() -> None:
    av = _bench()
    q, s = np.array([[1.0, 0.0]]), np.array([[0.6, 0.8]])
    basis = np.array([[[0.0, 1.0]], [[1.0, 0.0]]])  # the product's second axis, the difference's first
    assert np.allclose(av.pair_features(q, s, np.zeros((1, 0)), "emb", basis), [[0.0, 0.4, 0.6]])


def test_a_question_scores_its_best_candidate_and_its_place() -> None:
    av = _bench()
    d = {"y": np.array([True, False]), "cq": np.array([0, 0, 0, 1, 1]), "place": np.array([0, 1, 2, 0, 1])}
    p = np.array([0.2, 0.9, 0.5, 0.1, 0.3])
    best, place = av.question_scores(d, p, np.ones(5, dtype=bool))
    assert np.allclose(best, [0.9, 0.3]) and list(place) == [1, 1]
    best, place = av.question_scores(d, p, np.array([True, False, True, False, False]))
    assert np.allclose(best, [0.5, 0.0]) and list(place) == [2, -1]  # the second question has no candidate
