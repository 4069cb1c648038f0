"""The contract every text metric follows: per-case values first, aggregation after.

A metric is built from its settings (model paths, layers, ...), says whether it can run here
(`unavailable_reason`), and computes a value per case for each of its output keys on the official
scale (0..100; BERTScore may be negative). Averages, bootstrap CIs and per-case tables are all
derived from those per-case values, never recomputed by the metric.
"""

from __future__ import annotations

import statistics
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


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
    higher_is_better: bool = True
    value_range: tuple[float, float] = (0.0, 100.0)

    def __init__(self, **settings: Any):
        self.settings = settings

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


def signature(name: str, **parts: object) -> str:
    """sacrebleu-style signature string: NAME|k:v|k:v (None values are written as 'none')."""
    return "|".join([name] + [f"{k}:{'none' if v is None else v}" for k, v in parts.items()])


@dataclass(frozen=True)
class MetricSettings:
    """Settings of the model-based metrics; defaults are the official ones.

    A model or index that is not present makes its metric report `unavailable`, never a number.
    """

    bertscore_model: str = "distilbert-base-uncased"  # name in an HF cache, or a local folder
    bertscore_layers: int | None = 4
    bertscore_baseline: str | None = None  # rescale TSV; None = bert-score's own file for the model
    bertscore_rescale: bool = True
    # Sentences per forward pass. bert-score pads each batch to its longest sentence; 16 wastes less on padding
    # than bert-score's 64 (~25% less CPU on 2025 cases); values differ only by float rounding (<= ~1e-6 rel.).
    bertscore_batch_size: int = 16
    # auto: the torch-only fast path for BERT/DistilBERT folders (same numbers, no transformers import), bert-score
    # otherwise; "bert-score" forces the reference implementation; "fast" fails rather than fall back.
    bertscore_impl: str = "auto"
    alignscore_ckpt: str | None = None  # AlignScore-base.ckpt
    alignscore_model: str = "roberta-base"
    alignscore_batch_size: int = 32
    quickumls_path: str | None = None  # QuickUMLS index folder
    device: str = "cpu"
