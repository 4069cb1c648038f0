"""L2-regularised logistic regression in numpy (Newton steps), with a standard scaler.

Small and dependency-free so the trained classifier needs no scikit-learn; its parameters are plain
lists that round-trip through the JSON model file exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -35, 35)))


@dataclass
class Scaler:
    mean: np.ndarray
    scale: np.ndarray

    @classmethod
    def fit(cls, x: np.ndarray) -> Scaler:
        sd = x.std(axis=0)
        return cls(x.mean(axis=0), np.where(sd > 1e-12, sd, 1.0))  # constant columns stay 0 after scaling

    def transform(self, x: np.ndarray) -> np.ndarray:
        return (x - self.mean) / self.scale


@dataclass
class LogisticModel:
    weights: np.ndarray
    bias: float

    def predict_proba(self, x_scaled: np.ndarray) -> np.ndarray:
        return sigmoid(x_scaled @ self.weights + self.bias)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0, balanced: bool = False,
                 max_iter: int = 50, tol: float = 1e-8) -> LogisticModel:
    """Minimise mean log-loss + l2/(2n) * |w|^2 (bias unpenalised) by Newton's method on scaled `x`."""
    n, d = x.shape
    y = y.astype(float)
    if balanced and 0 < y.sum() < n:
        pos = y.mean()
        sw = np.where(y > 0, 0.5 / pos, 0.5 / (1 - pos))
    else:
        sw = np.ones(n)
    xb = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    reg = np.full(d + 1, l2)
    reg[-1] = 0.0
    for _ in range(max_iter):
        p = sigmoid(xb @ w)
        grad = xb.T @ (sw * (p - y)) + reg * w
        h = (xb * (sw * p * (1 - p))[:, None]).T @ xb + np.diag(reg) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(h, grad)
        w -= step
        if float(np.abs(step).max()) < tol:
            break
    return LogisticModel(w[:-1].copy(), float(w[-1]))
