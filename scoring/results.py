"""What a scoring run returns: official aggregate scores derived from per-case rows.

Every task (2025, st1..st4) registers an aggregator that maps per-case rows to the official
scores. The report keeps the rows, so per-case tables, bootstrap CIs and paired tests all come
from the same aggregator instead of being recomputed by each metric.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from archehr.errors import Problem
from archehr.registry import Registry

# A per-case row: case_id -> {stat name: value}. Stats are whatever the aggregator needs
# (tp/fp/fn counts for factuality, metric values for text metrics, on the official scale).
Rows = Mapping[str, Mapping[str, float]]
Aggregator = Callable[[Sequence[Mapping[str, float]], "AggregationContext"], dict[str, float | None]]


@dataclass(frozen=True)
class AggregationContext:
    """What an aggregator needs besides the rows: which metrics ran and which did not."""

    available: frozenset[str]
    unavailable: Mapping[str, str] = field(default_factory=dict)


AGGREGATORS: Registry[Aggregator] = Registry("task aggregator")


@dataclass(frozen=True)
class PartialScore:
    """What an official overall score that is null would be over the parts that did run.

    Clearly not the official score: `value` is the mean of the `averaged` keys (official keys, some
    possibly partial themselves, e.g. 2025 overall <- partial overall relevance); `missing` names the
    parts that could not be computed. JSON shape: {"value", "averaged", "missing"} (both editions).
    """

    value: float
    averaged: tuple[str, ...]
    missing: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "averaged": list(self.averaged), "missing": list(self.missing)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PartialScore:
        return cls(float(d["value"]), tuple(str(k) for k in d.get("averaged") or ()),
                   tuple(str(k) for k in d.get("missing") or ()))


@dataclass(frozen=True)
class ScoreReport:
    """Scores of one submission on one task."""

    task: str
    scores: dict[str, float | None]  # official keys, official scale; None = could not be computed
    per_case: dict[str, dict[str, float]]  # case_id -> stat -> value (the aggregator's input)
    signatures: dict[str, str]  # metric name -> signature string
    unavailable: dict[str, str] = field(default_factory=dict)  # metric name -> reason and how to fix
    # official overall key that is None -> the mean of what did run instead (never the official number)
    partial: dict[str, PartialScore] = field(default_factory=dict)
    warnings: tuple[Problem, ...] = ()
    ci: dict[str, tuple[float, float]] | None = None  # key -> (low, high), 95% bootstrap
    meta: dict[str, Any] = field(default_factory=dict)  # reference kind, case ids, settings, versions

    def context(self) -> AggregationContext:
        return AggregationContext(frozenset(self.signatures) - frozenset(self.unavailable), self.unavailable)

    def aggregate(self, case_ids: Sequence[str]) -> dict[str, float | None]:
        """Re-aggregate over a (re)sample of cases: the basis of bootstrap CIs and paired tests."""
        agg = AGGREGATORS.get(self.task)
        return agg([self.per_case[c] for c in case_ids], self.context())

    def to_json_dict(self) -> dict[str, Any]:
        """Official keys at the top level (null when unavailable) plus `_meta`."""
        out: dict[str, Any] = dict(self.scores)
        out["_meta"] = {
            "task": self.task,
            "signatures": self.signatures,
            "unavailable": self.unavailable,
            "partial": {k: p.to_dict() for k, p in self.partial.items()},
            "warnings": [w.to_dict() for w in self.warnings],
            **({"ci95": {k: list(v) for k, v in self.ci.items()}} if self.ci else {}),
            **self.meta,
        }
        return out
