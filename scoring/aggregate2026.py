"""Per-case rows -> official scores.json of the four 2026 subtasks (registered as aggregators st1..st4).

Kept free of heavy imports: bootstrap CIs and paired tests call these on every resample.
The arithmetic follows the official scripts step by step (numpy mean of per-case fractions in
submission order, then x100) so that set scores match them exactly, not just to rounding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from archehr_scoring.prf import prf
from archehr_scoring.results import AGGREGATORS, AggregationContext

Row = Mapping[str, float]

# Official output keys in the order the official scripts write them.
ST1_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum", "bertscore", "medcon", "alignscore", "overall_score")
ST3_KEYS = ("bleu", "rouge1", "rouge2", "rougeL", "rougeLsum", "sari", "bertscore", "medcon", "alignscore",
            "overall_score")
ST2_KEYS = tuple(f"{mode}_{avg}_{m}" for mode in ("strict", "lenient") for avg in ("macro", "micro")
                 for m in ("precision", "recall", "f1")) + ("overall_score",)
ST4_KEYS = tuple(f"{avg}_{m}" for avg in ("micro", "macro") for m in ("precision", "recall", "f1")) + ("overall_score",)

# What each text subtask's overall score averages (official lists).
OVERALL_PARTS = {
    "st1": ("alignscore", "rougeLsum", "medcon", "bertscore"),
    "st3": ("bleu", "rougeLsum", "sari", "bertscore", "alignscore", "medcon"),
}
# Text metrics of each subtask (metric registry names) and the score keys each produces.
TASK_METRICS = {
    "st1": ("rouge", "bertscore", "alignscore", "medcon"),
    "st3": ("bleu", "rouge", "sari", "bertscore", "alignscore", "medcon"),
}
METRIC_KEYS = {"rouge": ("rouge1", "rouge2", "rougeL", "rougeLsum")}


def metric_keys(name: str) -> tuple[str, ...]:
    return METRIC_KEYS.get(name, (name,))


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


def _mean(values: list[float]) -> float:
    return float(np.mean(values))


def _macro(rows: Sequence[Row], prefix: str) -> list[float]:
    return [_mean([row[f"{prefix}{m}"] for row in rows]) * 100 for m in ("precision", "recall", "f1")]


def aggregate_st2(rows: Sequence[Row], ctx: AggregationContext) -> dict[str, float | None]:
    if not rows:
        return dict.fromkeys(ST2_KEYS)
    out: dict[str, float | None] = {}
    for mode in ("strict", "lenient"):
        mp, mr, mf = _macro(rows, f"{mode}_")
        tp = sum(int(row[f"{mode}_tp"]) for row in rows)
        n_pred = sum(int(row[f"{mode}_n_pred"]) for row in rows)
        n_gold = sum(int(row[f"{mode}_n_gold"]) for row in rows)
        if n_pred == 0 and n_gold == 0:  # official: nothing predicted and nothing to find -> perfect
            p = r = f = 1.0
        else:
            p, r, f = prf(tp, n_pred, n_gold)
        out.update({f"{mode}_macro_precision": mp, f"{mode}_macro_recall": mr, f"{mode}_macro_f1": mf,
                    f"{mode}_micro_precision": p * 100, f"{mode}_micro_recall": r * 100,
                    f"{mode}_micro_f1": f * 100})
    out = {k: out[k] for k in ST2_KEYS if k in out}
    out["overall_score"] = out["strict_micro_f1"]
    return out


def aggregate_st4(rows: Sequence[Row], ctx: AggregationContext) -> dict[str, float | None]:
    if not rows:
        return dict.fromkeys(ST4_KEYS)
    tp = sum(int(row["tp"]) for row in rows)
    n_pred = sum(int(row["n_pred"]) for row in rows)
    n_gold = sum(int(row["n_gold"]) for row in rows)
    p, r, f = alignment_case_prf(tp, n_pred, n_gold)  # the official micro rule is the per-case rule on sums
    mp, mr, mf = _macro(rows, "")
    return {"micro_precision": p * 100, "micro_recall": r * 100, "micro_f1": f * 100,
            "macro_precision": mp, "macro_recall": mr, "macro_f1": mf, "overall_score": f * 100}


def _text_aggregator(task: str, keys: tuple[str, ...]):
    def aggregate(rows: Sequence[Row], ctx: AggregationContext) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for k in keys[:-1]:
            # A key is scored only when every case has it: an unavailable metric is None, never a
            # mean over the cases that happened to work.
            out[k] = _mean([row[k] for row in rows]) if rows and all(k in row for row in rows) else None
        parts = [out[k] for k in OVERALL_PARTS[task]]
        out["overall_score"] = _mean(parts) if all(v is not None for v in parts) else None  # type: ignore[arg-type]
        return out

    return aggregate


for _task, _agg in (("st1", _text_aggregator("st1", ST1_KEYS)), ("st2", aggregate_st2),
                    ("st3", _text_aggregator("st3", ST3_KEYS)), ("st4", aggregate_st4)):
    if _task not in AGGREGATORS:
        AGGREGATORS.add(_task, _agg)


def official_keys(task: str) -> tuple[str, ...]:
    return {"st1": ST1_KEYS, "st2": ST2_KEYS, "st3": ST3_KEYS, "st4": ST4_KEYS}[task]
