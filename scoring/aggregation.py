"""How each official key is aggregated, declared per key (as lm-evaluation-harness's `metric_list` does).

A task lists `(key, rule)` pairs in dependency order; `aggregate(rules, batch, ctx)` evaluates them over a
`Batch` (one sample of cases, or thousands of bootstrap resamples at once). Each rule reproduces its
official script's arithmetic step by step, so a one-sample batch gives the official numbers bit for bit:
`numpy=False` sums left to right and divides (the 2025 script's `sum(...) / len(...)`), `numpy=True` is
`numpy.mean` (the 2026 scripts). A key that cannot be computed here (a metric did not run, a statistic is
missing) is None, never a mean over the cases that happened to work.

Rules: `Mean` (mean over cases of a per-case statistic), `MacroPRF` (mean of per-case P/R/F1 from
counts), `MicroPRF` (P/R/F1 of pooled counts), `MeanOf` (mean of other keys), `Same` (another key).
Every rule says whether a higher value is better (`higher_is_better`, all True for the built-in tasks);
the leaderboard ranks by it and `compare` marks a lower-is-better key (`Task.higher_is_better`).
This module imports numpy only when a rule is evaluated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

PRF = ("precision", "recall", "f1")


def _counts(b: Any, stats: str | tuple[str, ...], pooled: bool) -> Any:
    """One count per case (pooled=False) or its total per sample (pooled=True); a tuple adds its stats (after
    pooling each, as the official scripts add pooled counts)."""
    names = (stats,) if isinstance(stats, str) else stats
    parts = [b.total(s) if pooled else b[s] for s in names]
    out = parts[0]
    for p in parts[1:]:
        out = out + p
    return out


def _stats(*counts: str | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(s for c in counts for s in ((c,) if isinstance(c, str) else c))


@dataclass(frozen=True)
class Mean:
    """The mean over cases of per-case statistic `stat` (default: the key itself), times `scale`."""

    stat: str | None = None
    scale: float = 1.0
    numpy: bool = False
    higher_is_better: bool = True

    def compute(self, key: str, b: Any, out: dict[str, Any], ctx: Any) -> Any:
        stat = self.stat or key
        if not b.has(stat):
            return None
        value = b.np_mean(stat) if self.numpy else b.mean(stat)
        return value * self.scale if self.scale != 1.0 else value


@dataclass(frozen=True)
class MacroPRF:
    """One of P/R/F1 (`measure`) per case from counts, then their mean over cases, x100 (the 2025 script)."""

    measure: str
    tp: str
    n_pred: str | tuple[str, ...]
    n_gold: str | tuple[str, ...]
    needs_metric: str | None = None  # computed only when this metric ran (e.g. the task's own factuality)
    group: tuple[str, ...] = ()  # every statistic of its family must be present (else the whole family is None)
    higher_is_better: bool = True

    def compute(self, key: str, b: Any, out: dict[str, Any], ctx: Any) -> Any:
        from archehr_scoring.prf import prf_array

        if not _prf_ready(self, b, ctx):
            return None
        per_case = prf_array(b[self.tp], _counts(b, self.n_pred, False), _counts(b, self.n_gold, False))
        return b.mean(per_case[PRF.index(self.measure)]) * 100


def _prf_ready(spec: MacroPRF | MicroPRF, b: Any, ctx: Any) -> bool:
    """The metric a P/R/F1 key needs ran, and every statistic of its family is there (else the key is None)."""
    if spec.needs_metric and spec.needs_metric not in ctx.available:
        return False
    return b.has(*(spec.group or _stats(spec.tp, spec.n_pred, spec.n_gold)))


@dataclass(frozen=True)
class MicroPRF:
    """One of P/R/F1 (`measure`) of the counts pooled over cases, x100; `empty_is_perfect`: nothing predicted
    and nothing to find scores 1 (the 2026 evidence rule)."""

    measure: str
    tp: str
    n_pred: str | tuple[str, ...]
    n_gold: str | tuple[str, ...]
    empty_is_perfect: bool = False
    needs_metric: str | None = None
    group: tuple[str, ...] = ()
    higher_is_better: bool = True

    def compute(self, key: str, b: Any, out: dict[str, Any], ctx: Any) -> Any:
        import numpy as np

        from archehr_scoring.prf import prf_array

        if not _prf_ready(self, b, ctx):
            return None
        tp, n_pred, n_gold = b.total(self.tp), _counts(b, self.n_pred, True), _counts(b, self.n_gold, True)
        value = prf_array(tp, n_pred, n_gold)[PRF.index(self.measure)]
        if self.empty_is_perfect:
            value = np.where((n_pred == 0) & (n_gold == 0), 1.0, value)
        return value * 100


@dataclass(frozen=True)
class MeanOf:
    """The mean of other keys (None when one of them is None)."""

    keys: tuple[str, ...]
    numpy: bool = False
    higher_is_better: bool = True

    def compute(self, key: str, b: Any, out: dict[str, Any], ctx: Any) -> Any:
        values = [out.get(k) for k in self.keys]
        if any(v is None for v in values):
            return None
        if self.numpy:
            import numpy as np

            return np.stack(values, axis=1).mean(axis=1)
        return sum(values) / len(values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Same:
    """Another key's value (an overall score that is one of the task's keys)."""

    key: str
    higher_is_better: bool = True

    def compute(self, key: str, b: Any, out: dict[str, Any], ctx: Any) -> Any:
        return out.get(self.key)


Rule = Mean | MacroPRF | MicroPRF | MeanOf | Same


def aggregate(rules: Sequence[tuple[str, Rule]], b: Any, ctx: Any) -> dict[str, Any]:
    """{key: array over the batch's samples, or None}, each rule evaluated in the order declared."""
    out: dict[str, Any] = {}
    for key, rule in rules:
        out[key] = rule.compute(key, b, out, ctx)
    return out


def prf_rules(prefix: str, tp: str, n_pred: str | tuple[str, ...], n_gold: str | tuple[str, ...], *,
              micro: dict[str, Any] | None = None, macro_stat: str | None = None, numpy: bool = False,
              needs_metric: str | None = None, group: tuple[str, ...] = ()) -> list[tuple[str, Rule]]:
    """The six `{prefix}{macro,micro}_{P,R,F1}` rules of one count family.

    Macro: the mean of per-case P/R/F1 computed from the counts, or (`macro_stat`, a format with `{m}`) the
    mean of per-case P/R/F1 the task's handler recorded (its own per-case rule), x100.
    """
    rules: list[tuple[str, Rule]] = []
    for m in PRF:
        key = f"{prefix}macro_{m}"
        if macro_stat is not None:
            rules.append((key, Mean(macro_stat.format(m=m), scale=100.0, numpy=numpy)))
        else:
            rules.append((key, MacroPRF(m, tp, n_pred, n_gold, needs_metric, group)))
    for m in PRF:
        rules.append((f"{prefix}micro_{m}", MicroPRF(m, tp, n_pred, n_gold, needs_metric=needs_metric, group=group,
                                                      **(micro or {}))))
    return rules
