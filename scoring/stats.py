"""Per-case statistics as arrays: what every task aggregator reduces, for one sample of cases or thousands.

A :class:`Batch` holds each statistic as an array of shape (cases, samples): column j is one sample
of cases (the scored cases themselves, a bootstrap resample, a randomisation trial). Aggregators are
written once against it with array arithmetic, so the official scores (one sample) and a thousand
bootstrap resamples run the same code: per-case values are combined elementwise, then reduced over
cases (micro = pooled sums, macro = means), as sacrebleu's significance module does.

The reductions fix their summation order, so that a one-sample batch reproduces the official scripts
bit for bit: :meth:`Batch.total` and :meth:`Batch.mean` add cases left to right (Python's
`sum(...) / len(...)`, the 2025 script); :meth:`Batch.np_mean` is `numpy.mean` of the per-case list
(pairwise summation, the 2026 scripts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

Array = np.ndarray


class Batch:
    """Statistics of `n_cases` cases in each of `n_samples` samples (arrays of shape (cases, samples))."""

    def __init__(self, columns: Mapping[str, Array]):
        self._columns = dict(columns)
        first = next(iter(self._columns.values()), None)
        self.n_cases, self.n_samples = first.shape if first is not None else (0, 0)

    def __getitem__(self, stat: str) -> Array:
        return self._columns[stat]

    def has(self, *stats: str) -> bool:
        """Whether every case of every sample has these statistics (a metric that did not run has none)."""
        return self.n_cases > 0 and all(s in self._columns for s in stats)

    def total(self, x: Array | str) -> Array:
        """Sum over cases, left to right (per sample)."""
        x = self[x] if isinstance(x, str) else x
        return np.add.accumulate(x, axis=0)[-1]

    def mean(self, x: Array | str) -> Array:
        """`sum(values) / len(values)` per sample, summing left to right (the 2025 official script)."""
        return self.total(x) / self.n_cases

    def np_mean(self, x: Array | str) -> Array:
        """`numpy.mean(values)` per sample, with numpy's own (pairwise) summation (the 2026 official scripts)."""
        x = self[x] if isinstance(x, str) else x
        return np.ascontiguousarray(x.T).mean(axis=1)


class CaseStats:
    """The per-case rows of one report as columns, in a fixed case order; samples are drawn by index."""

    def __init__(self, case_ids: Sequence[str], rows: Mapping[str, Mapping[str, float]]):
        self.case_ids = tuple(case_ids)
        picked = [rows[c] for c in self.case_ids]
        # Only statistics every case has become columns: a metric that did not run everywhere is absent.
        common = set(picked[0]).intersection(*picked[1:]) if picked else set()
        names = [k for k in (picked[0] if picked else {}) if k in common]
        table = np.array([[r[k] for k in names] for r in picked], dtype=float).reshape(len(picked), len(names))
        self.columns = {k: table[:, j].copy() for j, k in enumerate(names)}

    def take(self, index: Array) -> Batch:
        """Samples given as case positions, shape (samples, cases_per_sample)."""
        t = np.asarray(index).T
        return Batch({k: v[t] for k, v in self.columns.items()})

    def swap(self, other: CaseStats, mask: Array) -> Batch:
        """Samples that take case i from `other` where mask[sample, i] (approximate randomisation)."""
        m = np.asarray(mask).T
        return Batch({k: np.where(m, other.columns[k][:, None], v[:, None])
                      for k, v in self.columns.items() if k in other.columns})
