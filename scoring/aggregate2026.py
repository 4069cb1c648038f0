"""The 2026 per-case P/R/F1 rules (subtasks 2 and 4), as the official scripts define them.

The subtasks' official keys are declared per key in `archehr_scoring.tasks` (rules of
`archehr_scoring.aggregation`, numpy means as the 2026 scripts take them).
"""

from __future__ import annotations

from archehr_scoring.prf import prf

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
