"""Per-case statistics -> the official keys of the 2025 task, exactly as the official script computes them.

Factuality: strict/lenient x macro (mean of per-case P/R/F1) / micro (pooled tp/fp/fn); overall
factuality = strict micro F1. Text metrics: the mean over cases. Overall relevance = mean of
alignscore, rougeLsum, bleu, medcon, bertscore, sari; overall = mean of factuality and relevance.
Sums run left to right as the script's `sum(...) / len(...)` (see `archehr_scoring.stats`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from archehr_scoring.prf import prf_array, prf_counts
from archehr_scoring.stats import Batch
from archehr_scoring.tasks import AggregationContext

MODES = ("strict", "lenient")
PRF = ("precision", "recall", "f1")
TEXT_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum", "bleu", "sari", "bertscore", "medcon", "alignscore")
OVERALL_RELEVANCE_PARTS = ("alignscore", "rougeLsum", "bleu", "medcon", "bertscore", "sari")


def factuality(b: Batch) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for mode in MODES:
        tp, fp, fn = (b[f"{mode}_{s}"] for s in ("tp", "fp", "fn"))
        for m, per_case in zip(PRF, prf_array(tp, tp + fp, tp + fn), strict=True):
            out[f"{mode}_macro_{m}"] = b.mean(per_case) * 100  # the script's order: sum/len, then x100
        tp, fp, fn = b.total(tp), b.total(fp), b.total(fn)
        for m, v in zip(PRF, prf_array(tp, tp + fp, tp + fn), strict=True):
            out[f"{mode}_micro_{m}"] = v * 100
    return out


def mean_of(values: list[Any]) -> Any:
    """The mean of parts (left to right), None when one is missing."""
    return None if any(v is None for v in values) else sum(values) / len(values)


def aggregate_2025(b: Batch, ctx: AggregationContext) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "factuality" in ctx.available and b.has(*(f"{m}_{s}" for m in MODES for s in ("tp", "fp", "fn"))):
        out.update(factuality(b))
    out["overall_factuality_score"] = out.get("strict_micro_f1")
    for k in TEXT_KEYS:
        # Scored only when every case has it: never a mean over the cases that happened to work.
        out[k] = b.mean(k) if b.has(k) else None
    out["overall_relevance_score"] = mean_of([out[k] for k in OVERALL_RELEVANCE_PARTS])
    out["overall_score"] = mean_of([out["overall_factuality_score"], out["overall_relevance_score"]])
    return out


def case_scores(row: Mapping[str, float]) -> dict[str, float]:
    """One case's strict/lenient P/R/F1 (0..100), for per-case tables."""
    out: dict[str, float] = {}
    if "strict_tp" not in row:
        return out
    for mode in MODES:
        p, r, f = prf_counts(row[f"{mode}_tp"], row[f"{mode}_fp"], row[f"{mode}_fn"])
        out.update({f"{mode}_precision": 100 * p, f"{mode}_recall": 100 * r, f"{mode}_f1": 100 * f})
    return out
