"""Bootstrap confidence intervals and paired significance over cases, from per-case statistics.

As sacrebleu's significance module does: the per-case statistics become arrays once, every resample
(or randomisation trial) is a column of case indices, and the task's aggregator reduces all of them at
once (`archehr_scoring.stats`). The random draws are those of the former per-sample loop (numpy PCG64,
explicit seed), so the same seed gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from archehr_scoring.results import ScoreReport
from archehr_scoring.stats import CaseStats
from archehr_scoring.tasks import aggregate_batch, get_task

# Samples aggregated per block: bounds memory (cases x block floats per statistic) on large splits.
_CELLS_PER_BLOCK = 2_000_000
_MEMO: dict[tuple[Any, ...], tuple[ScoreReport, dict[str, np.ndarray]]] = {}
_MEMO_SIZE = 64


def _blocks(n: int, k: int) -> Iterator[int]:
    size = max(1, _CELLS_PER_BLOCK // max(k, 1))
    for start in range(0, n, size):
        yield min(size, n - start)


def _aggregate_samples(report: ScoreReport, stats: CaseStats, index: np.ndarray, partial: bool
                       ) -> dict[str, np.ndarray | None]:
    return aggregate_batch(get_task(report.task), stats.take(index), report.context(),
                           report.partial_parts() if partial else None)


def _resampled(report: ScoreReport, ids: Sequence[str], n: int, seed: int, partial: bool
               ) -> dict[str, np.ndarray]:
    """Every computable key over `n` bootstrap resamples of `ids` (arrays of shape (n,)).

    The draws are those of one resample at a time (numpy PCG64, explicit seed: identical across
    platforms, hash seeds and threads). A leaderboard asks for the same resamples of a run for its CI
    and for each paired test, so recent results are kept (per report object, ids, n, seed).
    """
    memo_key = (id(report), tuple(ids), n, seed, partial)
    hit = _MEMO.get(memo_key)
    if hit is not None and hit[0] is report:
        return hit[1]
    rng = np.random.default_rng(seed)
    stats, k = CaseStats(ids, report.per_case), len(ids)
    parts: dict[str, list[np.ndarray]] = {}
    for size in _blocks(n, k):
        for key, v in _aggregate_samples(report, stats, rng.integers(0, k, size=(size, k)), partial).items():
            if v is not None:
                parts.setdefault(key, []).append(np.asarray(v, dtype=float))
    out = {key: np.concatenate(v) for key, v in parts.items()}
    _MEMO[memo_key] = (report, out)
    while len(_MEMO) > _MEMO_SIZE:
        _MEMO.pop(next(iter(_MEMO)))
    return out


def _quantiles(values: np.ndarray, alpha: float) -> tuple[float, float] | None:
    values = values[~np.isnan(values)]
    if not len(values):
        return None
    return float(np.quantile(values, alpha / 2)), float(np.quantile(values, 1 - alpha / 2))


def bootstrap_ci(report: ScoreReport, n: int = 1000, seed: int = 12345, alpha: float = 0.05,
                 partial: bool = False) -> dict[str, tuple[float, float]]:
    """Percentile CI of every score that is not None, resampling cases with replacement.

    `partial`: also for official overall scores left None, as the mean of their recorded parts.
    """
    ids = sorted(report.per_case)
    if not ids or n <= 0:
        return {}
    out = {k: _quantiles(v, alpha) for k, v in _resampled(report, ids, n, seed, partial).items()}
    return {k: v for k, v in out.items() if v is not None}


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


def _paired_setup(a: ScoreReport, b: ScoreReport, partial: bool
                  ) -> tuple[list[str], dict[str, float | None], dict[str, float | None], list[str]]:
    """The cases both reports scored, both full aggregates over them, and the keys numeric in both."""
    ids = sorted(set(a.per_case) & set(b.per_case))
    if not ids:
        return ids, {}, {}, []
    full_a, full_b = a.aggregate(ids, partial), b.aggregate(ids, partial)
    return ids, full_a, full_b, [k for k in full_a if _num(full_a.get(k)) and _num(full_b.get(k))]


def _deltas(sa: dict[str, Any], sb: dict[str, Any], keys: Sequence[str]) -> dict[str, np.ndarray]:
    """a - b per sample for each key both sides computed (NaN where a side could not)."""
    return {k: np.asarray(sa[k], dtype=float) - np.asarray(sb[k], dtype=float)
            for k in keys if sa.get(k) is not None and sb.get(k) is not None}


def paired_bootstrap(a: ScoreReport, b: ScoreReport, n: int = 1000, seed: int = 12345,
                     alpha: float = 0.05, partial: bool = False) -> dict[str, PairedResult]:
    """Every key at once: a paired-bootstrap p-value and a percentile CI of a - b.

    Shifted-distribution test (Koehn 2004 / Berg-Kirkpatrick 2012): how often a resampled delta
    exceeds twice the observed one in the observed direction.
    """
    ids, full_a, full_b, keys = _paired_setup(a, b, partial)
    if not ids:
        return {}
    # the same resamples of the cases for both reports (same seed, same ids)
    deltas_by_key = _deltas(_resampled(a, ids, n, seed, partial), _resampled(b, ids, n, seed, partial), keys)
    out: dict[str, PairedResult] = {}
    for key in keys:
        o = full_a[key] - full_b[key]  # type: ignore[operator]
        deltas = deltas_by_key.get(key, np.zeros(0))
        deltas = deltas[~np.isnan(deltas)]
        count = int(np.count_nonzero(deltas > 2 * o) if o >= 0 else np.count_nonzero(deltas < 2 * o))
        p = min(1.0, 2 * (count + 1) / (n + 1)) if o != 0 else 1.0
        ci = _quantiles(deltas, alpha)
        out[key] = PairedResult(key, float(full_a[key]), float(full_b[key]), float(o),  # type: ignore[arg-type]
                                ci[0] if ci else None, ci[1] if ci else None, p, "bootstrap")
    return out


def paired_bootstrap_p(a: ScoreReport, b: ScoreReport, key: str, n: int = 1000, seed: int = 12345) -> float | None:
    """Two-sided paired-bootstrap p-value that a and b differ on `key` (same cases resampled for both)."""
    res = paired_bootstrap(a, b, n, seed).get(key)
    return None if res is None else res.p


def approx_randomization(a: ScoreReport, b: ScoreReport, n: int = 1000, seed: int = 12345,
                         partial: bool = False) -> dict[str, PairedResult]:
    """Paired approximate randomisation (Noreen 1989), every key at once.

    Each trial swaps the two systems' rows of a case with probability 1/2 and re-aggregates; the
    two-sided p is (#trials with |delta| >= |observed| + 1) / (n + 1). Works for corpus-level scores
    such as micro F1 because whole per-case rows are swapped, not per-case scores. No CI: the
    permutation distribution is centred on zero by construction.
    """
    ids, full_a, full_b, keys = _paired_setup(a, b, partial)
    if not ids:
        return {}
    observed = {k: abs(full_a[k] - full_b[k]) for k in keys}  # type: ignore[operator]
    counts = dict.fromkeys(keys, 0)
    stats_a, stats_b = CaseStats(ids, a.per_case), CaseStats(ids, b.per_case)
    task, pa, pb = get_task(a.task), a.partial_parts() if partial else None, b.partial_parts() if partial else None
    rng = np.random.default_rng(seed)
    # A tiny tolerance so that ties in exact arithmetic are not lost to float noise.
    eps = 1e-9
    for size in _blocks(n, len(ids)):
        swap = rng.random((size, len(ids))) < 0.5
        sa = aggregate_batch(task, stats_a.swap(stats_b, swap), a.context(), pa)
        sb = aggregate_batch(get_task(b.task), stats_b.swap(stats_a, swap), b.context(), pb)
        for k, d in _deltas(sa, sb, keys).items():
            counts[k] += int(np.count_nonzero(np.abs(d) >= observed[k] - eps))
    return {k: PairedResult(k, float(full_a[k]), float(full_b[k]),  # type: ignore[arg-type]
                            float(full_a[k] - full_b[k]), None, None,  # type: ignore[operator]
                            (counts[k] + 1) / (n + 1), "randomization")
            for k in keys}


PAIRED_TESTS = {"bootstrap": paired_bootstrap, "randomization": approx_randomization}


def _num(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and not np.isnan(v)
