"""Per-case 2025 factuality scores for per-case tables.

The task's official keys are declared per key in `archehr_scoring.tasks` (rules of
`archehr_scoring.aggregation`): factuality strict/lenient x macro/micro, overall factuality = strict micro
F1, each text metric's mean, overall relevance = the mean of six, overall = the mean of both.
"""

from __future__ import annotations

from collections.abc import Mapping

from archehr_scoring.prf import prf_counts

MODES = ("strict", "lenient")
PRF = ("precision", "recall", "f1")
TEXT_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum", "bleu", "sari", "bertscore", "medcon", "alignscore")
OVERALL_RELEVANCE_PARTS = ("alignscore", "rougeLsum", "bleu", "medcon", "bertscore", "sari")


def case_scores(row: Mapping[str, float]) -> dict[str, float]:
    """One case's strict/lenient P/R/F1 (0..100), for per-case tables."""
    out: dict[str, float] = {}
    if "strict_tp" not in row:
        return out
    for mode in MODES:
        p, r, f = prf_counts(row[f"{mode}_tp"], row[f"{mode}_fp"], row[f"{mode}_fn"])
        out.update({f"{mode}_precision": 100 * p, f"{mode}_recall": 100 * r, f"{mode}_f1": 100 * f})
    return out
