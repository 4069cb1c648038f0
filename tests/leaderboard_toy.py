"""A tiny stand-in scorer for leaderboard tests: strict citation P/R/F1 from 2025 submissions.

Its numbers are derivable by hand, so ranking, caching and significance can be tested without the
official scorer (which has its own parity tests).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from archehr.errors import Problem, SubmissionError
from archehr_scoring.prf import prf_array
from archehr_scoring.results import ScoreReport
from archehr_scoring.stats import Batch
from archehr_scoring.tasks import TASKS, AggregationContext, Task, add_task

TASK = "toy"


def toy_aggregate(b: Batch, ctx: AggregationContext) -> dict[str, Any]:
    if not b.has("tp"):
        return {}
    tp, fp, fn = (b.total(k) for k in ("tp", "fp", "fn"))
    p, r, f = prf_array(tp, tp + fp, tp + fn)
    per_case_f1 = prf_array(b["tp"], b["tp"] + b["fp"], b["tp"] + b["fn"])[2]
    return {"overall_score": 100 * f, "micro_precision": 100 * p, "micro_recall": 100 * r,
            "macro_f1": 100 * b.mean(per_case_f1)}


if TASK not in TASKS:
    # the leaderboard tests' stand-in task: scored by ToyScorer below, never by the official pipeline
    add_task(Task(TASK, "toy", "leaderboard test stand-in", ("overall_score", "micro_precision", "micro_recall",
                                                              "macro_f1"), aggregator=toy_aggregate, handler=None))


def toy_report(rows: Mapping[str, Mapping[str, float]], signatures: dict[str, str] | None = None) -> ScoreReport:
    report = ScoreReport(TASK, {}, dict(rows), signatures or {})  # type: ignore[arg-type]
    return ScoreReport(TASK, report.aggregate(list(rows)), dict(rows), signatures or {})  # type: ignore[arg-type]


def cited(answer: str) -> set[str]:
    out: set[str] = set()
    for line in answer.split("\n"):
        parts = line.rsplit("|", 2)
        if len(parts) == 3:
            out |= {c for c in parts[1].split(",") if c.strip()}
    return out


class ToyScorer:
    task = TASK

    def __init__(self) -> None:
        self.calls = 0

    def fingerprint(self) -> str:
        return "toy-scorer|v1"

    def score(self, submission: Path, key: Path) -> ScoreReport:
        self.calls += 1
        try:
            sub = json.loads(Path(submission).read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            raise SubmissionError(Problem(f"not valid JSON: {e}", str(submission))) from None
        gold = {k["case_id"]: {a["sentence_id"] for a in k["answers"] if a["relevance"] == "essential"}
                for k in json.loads(Path(key).read_text(encoding="utf-8"))}
        if not isinstance(sub, list):
            raise SubmissionError(Problem("expected a list", str(submission)))
        got = {str(x.get("case_id")): cited(str(x.get("answer", ""))) for x in sub if isinstance(x, dict)}
        missing = sorted(set(gold) - set(got), key=int)
        if missing:
            raise SubmissionError([Problem("case missing from the submission", str(submission), c) for c in missing])
        rows = {c: {"tp": float(len(got[c] & g)), "fp": float(len(got[c] - g)), "fn": float(len(g - got[c]))}
                for c, g in gold.items()}
        return toy_report(rows, {"toy": "toy|v1"})
