"""Precision, recall and F1 from counts: the one helper every scorer and the threshold calibration use.

Each value is 0 when its denominator is 0 (the official scripts' rule); the subtasks that treat empty
sides differently (2026 subtask 2 scores "nothing predicted, nothing to find" as 1) say so around it.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def f1(p: float, r: float) -> float:
    """Harmonic mean of P and R, 0 when both are 0."""
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def prf(tp: float, n_pred: float, n_gold: float) -> tuple[float, float, float]:
    """(P, R, F1) of `tp` hits among `n_pred` predicted and `n_gold` gold items."""
    p = tp / n_pred if n_pred > 0 else 0.0
    r = tp / n_gold if n_gold > 0 else 0.0
    return p, r, f1(p, r)


def prf_counts(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    """(P, R, F1) from true positives, false positives and false negatives."""
    return prf(tp, tp + fp, tp + fn)


# The same rule on arrays (many cases or bootstrap samples at once, see archehr_scoring.stats); the
# operations run in the same order as above, so each element equals the scalar result bit for bit.


def ratio_array(num: Any, den: Any) -> np.ndarray:
    """num / den where den > 0, else 0."""
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den > 0)


def prf_array(tp: Any, n_pred: Any, n_gold: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Elementwise :func:`prf`."""
    p, r = ratio_array(tp, n_pred), ratio_array(tp, n_gold)
    return p, r, ratio_array(2 * p * r, p + r)
