"""`POST /api/score`: a submission scored against a key of the server's release, as `archehr score` does."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from archehr.serve import models as m
from archehr.serve.errors import ERRORS, problem_out


def router(state: Any) -> APIRouter:
    r = APIRouter()

    @r.post("/api/score", response_model=m.ScoreResponse, responses=ERRORS,
            summary="Score a submission against a key of the server's release.",
            description="The official-parity scorer, as `archehr score`: the scores, each case's scores (its "
                        "per-case rows alone) and the metrics that could not run here.")
    def score(req: m.ScoreRequest) -> m.ScoreResponse:
        from archehr.data.releases import KEY_NAME
        from archehr_scoring.api import score as run_score

        key_dir = state.runs.key_dir(req.key)
        report = run_score(req.task, req.submission, key_dir / KEY_NAME, metrics=req.metrics)
        per_case = {c: report.aggregate([c], partial=True) for c in report.per_case}
        return m.ScoreResponse(task=report.task, key=req.key, n_cases=len(report.per_case), scores=report.scores,
                               per_case=per_case, unavailable=dict(report.unavailable),
                               warnings=[problem_out(w).text for w in report.warnings])

    return r
