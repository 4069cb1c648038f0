"""Bootstrap confidence intervals and paired significance over cases, from per-case rows."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from archehr_scoring.results import ScoreReport


def _resamples(case_ids: Sequence[str], n: int, seed: int) -> list[list[str]]:
    # numpy's PCG64 with an explicit seed: identical across platforms, hash seeds and threads.
    rng = np.random.default_rng(seed)
    k = len(case_ids)
    return [[case_ids[i] for i in rng.integers(0, k, size=k)] for _ in range(n)]


def bootstrap_ci(report: ScoreReport, n: int = 1000, seed: int = 12345,
                 alpha: float = 0.05) -> dict[str, tuple[float, float]]:
    """Percentile CI of every score that is not None, resampling cases with replacement."""
    ids = sorted(report.per_case)
    if not ids or n <= 0:
        return {}
    samples: dict[str, list[float]] = {}
    for sample in _resamples(ids, n, seed):
        for k, v in report.aggregate(sample).items():
            if v is not None and not math.isnan(v):
                samples.setdefault(k, []).append(v)
    return {k: (float(np.quantile(v, alpha / 2)), float(np.quantile(v, 1 - alpha / 2)))
            for k, v in samples.items()}


def paired_bootstrap_p(a: ScoreReport, b: ScoreReport, key: str, n: int = 1000, seed: int = 12345) -> float | None:
    """Two-sided paired-bootstrap p-value that a and b differ on `key` (same cases resampled for both)."""
    ids = sorted(set(a.per_case) & set(b.per_case))
    va, vb = a.aggregate(ids).get(key), b.aggregate(ids).get(key)
    if not ids or va is None or vb is None:
        return None
    observed = va - vb
    # Shifted-distribution test (Koehn 2004 / Berg-Kirkpatrick 2012): how often a resampled delta
    # exceeds twice the observed one in the observed direction.
    count = 0
    for sample in _resamples(ids, n, seed):
        sa, sb = a.aggregate(sample).get(key), b.aggregate(sample).get(key)
        if sa is None or sb is None:
            continue
        d = sa - sb
        if (observed >= 0 and d > 2 * observed) or (observed < 0 and d < 2 * observed):
            count += 1
    return min(1.0, 2 * (count + 1) / (n + 1)) if observed != 0 else 1.0
