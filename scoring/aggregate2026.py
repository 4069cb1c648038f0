"""Per-case statistics -> official scores.json keys of the four 2026 subtasks (the tasks' aggregators).

Kept free of heavy imports: bootstrap CIs and paired tests run these on thousands of samples at once.
The arithmetic follows the official scripts step by step (numpy mean of per-case fractions, then
x100) so that set scores match them exactly, not just to rounding (see `archehr_scoring.stats`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from archehr_scoring.prf import prf, prf_array
from archehr_scoring.stats import Batch
from archehr_scoring.tasks import AggregationContext, get_task

PRF = ("precision", "recall", "f1")


def evidence_case_prf(predicted: frozenset[str], gold: frozenset[str]) -> tuple[float, float, float]:
    """Subtask 2, one case: both empty -> 1; empty prediction -> 0; empty gold -> 0."""
    if not predicted and not gold:
        return 1.0, 1.0, 1.0
    if not predicted or not gold:
        return 0.0, 0.0, 0.0
    return prf(len(predicted & gold), len(predicted), len(gold))


def alignment_case_prf(tp: int, n_pred: int, n_gold: int) -> tuple[float, float, float]:
    """Subtask 4, one case: P = 0 without predictions, R = 0 without gold (both empty -> 0, unlike st2)."""
    return prf(tp, n_pred, n_gold)


def _macro(b: Batch, prefix: str) -> dict[str, Any]:
    return {m: b.np_mean(f"{prefix}{m}") * 100 for m in PRF}


def _micro(tp: Any, n_pred: Any, n_gold: Any) -> dict[str, Any]:
    return dict(zip(PRF, prf_array(tp, n_pred, n_gold), strict=True))


def aggregate_st2(b: Batch, ctx: AggregationContext) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if not b.has("strict_tp"):
        return out
    for mode in ("strict", "lenient"):
        tp, n_pred, n_gold = (b.total(f"{mode}_{s}") for s in ("tp", "n_pred", "n_gold"))
        micro = _micro(tp, n_pred, n_gold)
        nothing = (n_pred == 0) & (n_gold == 0)  # official: nothing predicted and nothing to find -> perfect
        for m, v in _macro(b, f"{mode}_").items():
            out[f"{mode}_macro_{m}"] = v
        for m, v in micro.items():
            out[f"{mode}_micro_{m}"] = np.where(nothing, 1.0, v) * 100
    out["overall_score"] = out["strict_micro_f1"]
    return out


def aggregate_st4(b: Batch, ctx: AggregationContext) -> dict[str, Any]:
    if not b.has("tp"):
        return {}
    # the official micro rule is the per-case rule on sums
    out = {f"micro_{m}": v * 100 for m, v in _micro(b.total("tp"), b.total("n_pred"), b.total("n_gold")).items()}
    out.update({f"macro_{m}": v for m, v in _macro(b, "").items()})
    out["overall_score"] = out["micro_f1"]
    return out


def _text(task: str, b: Batch) -> dict[str, Any]:
    t = get_task(task)
    # A key is scored only when every case has it: an unavailable metric is None, never a mean over
    # the cases that happened to work.
    out: dict[str, Any] = {k: b.np_mean(k) if b.has(k) else None for k in t.keys[:-1]}
    parts = [out[k] for k in t.partial[0].parts]
    out["overall_score"] = None if any(v is None for v in parts) else np.stack(parts, axis=1).mean(axis=1)
    return out


def aggregate_st1(b: Batch, ctx: AggregationContext) -> dict[str, Any]:
    return _text("st1", b)


def aggregate_st3(b: Batch, ctx: AggregationContext) -> dict[str, Any]:
    return _text("st3", b)
