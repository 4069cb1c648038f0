"""The contract every text metric follows: per-case values first, aggregation after.

A metric is built from the parameters it declares (`parameters`: model, layers, ...; see params.py),
says whether it can run here
(`unavailable_reason`), and computes a value per case for each of its output keys on the official
scale (0..100; BERTScore may be negative). Averages, bootstrap CIs and per-case tables are all
derived from those per-case values, never recomputed by the metric.
"""

from __future__ import annotations

import statistics
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from archehr_scoring.metrics.params import Param, resolve_params


@dataclass(frozen=True)
class TextExample:
    """One case as a text metric sees it."""

    case_id: str
    prediction: str
    reference: str  # BLEU, ROUGE, BERTScore, AlignScore (as context), MEDCON
    sari_source: str | None = None
    sari_reference: str | None = None


@dataclass(frozen=True)
class MetricResult:
    """Per-case values of one metric (`per_case[case_id][key]`), or why it could not run."""

    name: str
    keys: tuple[str, ...]
    signature: str
    per_case: dict[str, dict[str, float]] | None = None
    unavailable: str | None = None
    warnings: tuple[str, ...] = field(default=())

    @property
    def available(self) -> bool:
        return self.unavailable is None

    def mean(self, key: str) -> float | None:
        """The official aggregate: the plain mean over cases (None when unavailable)."""
        if self.per_case is None or not self.per_case:
            return None
        return statistics.fmean(v[key] for v in self.per_case.values())


class TextMetric(ABC):
    """Base class of registered text metrics."""

    name: str = ""
    keys: tuple[str, ...] = ()
    # (whether higher is better is declared once, per output key, by the task's aggregation rule)
    value_range: tuple[float, float] = (0.0, 100.0)
    parameters: ClassVar[tuple[Param, ...]] = ()  # what the metric takes; nothing else reaches it

    def __init__(self, reference_kind: str | None = "essential", **params: Any):
        """`params`: values for the metric's own declared parameters (the rest keep their declared defaults);
        any other name is a ConfigError with "did you mean"."""
        self.reference_kind = reference_kind  # which reference the examples carry (recorded in the signature)
        self.params: dict[str, Any] = resolve_params(self.name, self.parameters, params)

    @abstractmethod
    def signature(self) -> str:
        """`NAME|setting:value|...|version:x` recording everything that changes the numbers."""

    def unavailable_reason(self) -> str | None:
        """None when the metric can run here; else why not and how to make it available."""
        return None

    @abstractmethod
    def compute(self, examples: Sequence[TextExample]) -> dict[str, dict[str, float]]:
        """case_id -> {key: value} for every example (batched across cases where it helps)."""

    def run(self, examples: Sequence[TextExample]) -> MetricResult:
        reason = self.unavailable_reason()
        if reason is not None:
            return MetricResult(self.name, self.keys, self.signature(), None, reason)
        return MetricResult(self.name, self.keys, self.signature(), self.compute(examples))


def missing_path(value: str | None, needs: str, what: str, usable: Callable[[Path], bool], hint: str) -> str | None:
    """Why a metric's file or folder setting cannot be used (not given, or not there), with how to fix it."""
    if not value:
        return f"{needs}: {hint}"
    path = Path(value).expanduser()
    return None if usable(path) else f"{what} not found at {path}: {hint}"


def signature(name: str, **parts: object) -> str:
    """sacrebleu-style signature string: NAME|k:v|k:v (None values are written as 'none')."""
    return "|".join([name] + [f"{k}:{'none' if v is None else v}" for k, v in parts.items()])
