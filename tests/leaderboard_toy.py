"""A tiny stand-in scorer for leaderboard tests: strict citation P/R/F1 from 2025 submissions.

Its numbers are derivable by hand, so ranking, caching and significance can be tested without the
official scorer (which has its own parity tests).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from archehr.errors import Problem, SubmissionError
from archehr_scoring.results import AGGREGATORS, AggregationContext, ScoreReport

TASK = "toy"


def _prf(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def toy_aggregate(rows: Sequence[Mapping[str, float]], ctx: AggregationContext) -> dict[str, float | None]:
    tp, fp, fn = (sum(r[k] for r in rows) for k in ("tp", "fp", "fn"))
    p, r, f = _prf(tp, fp, fn)
    macro = [_prf(x["tp"], x["fp"], x["fn"])[2] for x in rows]
    return {"overall_score": 100 * f, "micro_precision": 100 * p, "micro_recall": 100 * r,
            "macro_f1": 100 * sum(macro) / len(macro) if macro else 0.0}


if TASK not in AGGREGATORS:
    AGGREGATORS.add(TASK, toy_aggregate)


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
        agg = toy_aggregate(list(rows.values()), AggregationContext(frozenset()))
        return ScoreReport(TASK, agg, rows, {"toy": "toy|v1"})
