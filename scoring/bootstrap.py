"""Bootstrap confidence intervals and paired significance over cases, from per-case rows."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class PairedResult:
    """a - b on one key over the shared cases: the observed difference, its 95% CI and a p-value."""

    key: str
    a: float
    b: float
    delta: float
    ci_low: float | None
    ci_high: float | None
    p: float
    method: str  # "bootstrap" | "randomization"


def _paired_setup(a: ScoreReport, b: ScoreReport
                  ) -> tuple[list[str], dict[str, float | None], dict[str, float | None], list[str]]:
    """The cases both reports scored, both full aggregates over them, and the keys numeric in both."""
    ids = sorted(set(a.per_case) & set(b.per_case))
    if not ids:
        return ids, {}, {}, []
    full_a, full_b = a.aggregate(ids), b.aggregate(ids)
    return ids, full_a, full_b, [k for k in full_a if _num(full_a.get(k)) and _num(full_b.get(k))]


def paired_bootstrap(a: ScoreReport, b: ScoreReport, n: int = 1000, seed: int = 12345,
                     alpha: float = 0.05) -> dict[str, PairedResult]:
    """Every key at once: the paired-bootstrap p of :func:`paired_bootstrap_p` plus a percentile CI of a - b.

    One pass over the resamples aggregates each report once per sample (instead of once per key),
    which is what makes a leaderboard of many systems affordable.
    """
    ids, full_a, full_b, keys = _paired_setup(a, b)
    if not ids:
        return {}
    deltas: dict[str, list[float]] = {k: [] for k in keys}
    counts = dict.fromkeys(keys, 0)
    observed = {k: full_a[k] - full_b[k] for k in keys}  # type: ignore[operator]
    for sample in _resamples(ids, n, seed):
        sa, sb = a.aggregate(sample), b.aggregate(sample)
        for k in keys:
            va, vb = sa.get(k), sb.get(k)
            if not _num(va) or not _num(vb):
                continue
            d = va - vb  # type: ignore[operator]
            deltas[k].append(d)
            o = observed[k]
            if (o >= 0 and d > 2 * o) or (o < 0 and d < 2 * o):
                counts[k] += 1
    out: dict[str, PairedResult] = {}
    for k in keys:
        o = observed[k]
        p = min(1.0, 2 * (counts[k] + 1) / (n + 1)) if o != 0 else 1.0
        lo = float(np.quantile(deltas[k], alpha / 2)) if deltas[k] else None
        hi = float(np.quantile(deltas[k], 1 - alpha / 2)) if deltas[k] else None
        out[k] = PairedResult(k, float(full_a[k]), float(full_b[k]), float(o), lo, hi, p,  # type: ignore[arg-type]
                              "bootstrap")
    return out


def approx_randomization(a: ScoreReport, b: ScoreReport, n: int = 1000, seed: int = 12345) -> dict[str, PairedResult]:
    """Paired approximate randomisation (Noreen 1989), every key at once.

    Each trial swaps the two systems' rows of a case with probability 1/2 and re-aggregates; the
    two-sided p is (#trials with |delta| >= |observed| + 1) / (n + 1). Works for corpus-level scores
    such as micro F1 because whole per-case rows are swapped, not per-case scores. No CI: the
    permutation distribution is centred on zero by construction.
    """
    ids, full_a, full_b, keys = _paired_setup(a, b)
    if not ids:
        return {}
    observed = {k: abs(full_a[k] - full_b[k]) for k in keys}  # type: ignore[operator]
    counts = dict.fromkeys(keys, 0)
    rows_a = [a.per_case[c] for c in ids]
    rows_b = [b.per_case[c] for c in ids]
    rng = np.random.default_rng(seed)
    # A tiny tolerance so that ties in exact arithmetic are not lost to float noise.
    eps = 1e-9
    for _ in range(n):
        swap = rng.random(len(ids)) < 0.5
        # Through report.aggregate (not the bare aggregator) so a report type that derives extra
        # keys from the aggregate keeps doing so on the swapped rows.
        xa = dataclasses.replace(a, per_case={c: rb if s else ra for c, ra, rb, s in zip(ids, rows_a, rows_b, swap,
                                                                                        strict=True)})
        xb = dataclasses.replace(b, per_case={c: ra if s else rb for c, ra, rb, s in zip(ids, rows_a, rows_b, swap,
                                                                                        strict=True)})
        sa, sb = xa.aggregate(ids), xb.aggregate(ids)
        for k in keys:
            va, vb = sa.get(k), sb.get(k)
            if _num(va) and _num(vb) and abs(va - vb) >= observed[k] - eps:  # type: ignore[operator]
                counts[k] += 1
    return {k: PairedResult(k, float(full_a[k]), float(full_b[k]),  # type: ignore[arg-type]
                            float(full_a[k] - full_b[k]), None, None,  # type: ignore[operator]
                            (counts[k] + 1) / (n + 1), "randomization")
            for k in keys}


PAIRED_TESTS = {"bootstrap": paired_bootstrap, "randomization": approx_randomization}


def _num(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and not math.isnan(v)
