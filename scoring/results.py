"""What a scoring run returns: official aggregate scores derived from per-case rows.

Every task (`archehr_scoring.tasks`) names an aggregator that maps per-case statistics to the official
scores. The report keeps the rows, so per-case tables, bootstrap CIs and paired tests all come
from the same aggregator instead of being recomputed by each metric.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from archehr.errors import Problem
from archehr_scoring.tasks import AggregationContext, Task

# A per-case row: case_id -> {stat name: value}. Stats are whatever the aggregator needs
# (tp/fp/fn counts for factuality, metric values for text metrics, on the official scale).
Rows = Mapping[str, Mapping[str, float]]


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

    def partial_parts(self) -> dict[str, tuple[str, ...]]:
        return {k: p.averaged for k, p in self.partial.items()}

    def aggregate(self, case_ids: Sequence[str], partial: bool = False) -> dict[str, float | None]:
        """The official keys over these cases (in this order), e.g. one case, or the scored cases again.

        `partial`: an official overall left None is filled with the mean of the parts its partial score
        averages (as tables and leaderboards show it).
        """
        from archehr_scoring.stats import CaseStats
        from archehr_scoring.tasks import aggregate_batch, get_task

        stats = CaseStats(case_ids, self.per_case)
        out = aggregate_batch(get_task(self.task), stats.take([list(range(len(case_ids)))]), self.context(),
                              self.partial_parts() if partial else None)
        return {k: None if v is None else float(v[0]) for k, v in out.items()}

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


def partial_scores(task: Task, scores: Mapping[str, float | None]) -> dict[str, PartialScore]:
    """key -> PartialScore for each official overall that is None but has parts that ran (clearly not official)."""
    out: dict[str, PartialScore] = {}
    for rule in task.partial:
        if scores.get(rule.key) is not None:
            continue
        values = {p: scores[p] if scores.get(p) is not None else (out[p].value if p in out else None)
                  for p in rule.parts}
        have = tuple(p for p in rule.parts if values[p] is not None)
        if not have or (rule.all_parts and len(have) < len(rule.parts)):
            continue
        missing = tuple(p for p in rule.parts if values[p] is None)
        # a part that is itself partial brings what it misses ("averages the partial relevance above")
        missing += tuple(m for p in have if p in out for m in out[p].missing)
        out[rule.key] = PartialScore(sum(values[p] for p in have) / len(have), have, missing)  # type: ignore[misc]
    return out
