"""`benchmarks/embedding_confidence.py`: the typed confidence's P recomputed from saved rows, with or without extra
columns, scored by writer."""

from __future__ import annotations

import benchmark_module
import numpy as np


def _bench():  # the experiment script's module
    return benchmark_module.load("embedding_confidence")


def _rows() -> dict[str, np.ndarray]:
    # one typed column that tells answerable (1) from not (0), one embedding column of noise; four writers
    y = np.array([1, 0] * 8, dtype=float)
    typed = np.column_stack([y * 2 - 1, np.linspace(0, 1, 16)])
    return {"y": y, "typed": typed, "pruned": np.full_like(typed, np.nan), "emb": np.linspace(1, 0, 16)[:, None],
            "lexp": np.full(16, 0.01), "outright": np.zeros(16, dtype=bool),
            "writer": np.repeat(np.array(["A", "B", "C", "D"]), 4)}


def test_an_outright_decline_keeps_its_lexical_p() -> None:
    ec, d = _bench(), _rows()
    d["outright"][[0, 5]] = True
    p = ec._confidence(d["writer"] != "A", np.ones(16, dtype=bool), d, np.array([0, 1]))
    assert p[0] == 0.01 and p[5] == 0.01 and p[2] > 0.5 > p[3]


def test_a_pruned_row_equal_to_the_whole_one_leaves_the_p_as_it_is() -> None:
    ec, d = _bench(), _rows()
    cols, tr, te = np.array([0, 1, 2]), d["writer"] != "A", d["writer"] == "A"
    alone = ec._confidence(tr, te, d, cols)
    d["pruned"] = d["typed"].copy()  # the story-weighted logits of two equal P's are that P's
    assert np.allclose(ec._confidence(tr, te, d, cols), alone)


def test_a_column_that_separates_the_classes_scores_one_by_writer_and_pooled() -> None:
    ec, d = _bench(), _rows()
    folds = [(d["writer"] != w, d["writer"] == w) for w in "ABCD"]
    assert ec._scores(d, np.array([0]), folds) == "1.000 | 1.000"
