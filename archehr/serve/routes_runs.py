"""The runs: the comparison page (`/runs`), each run's provenance (`/runs/{id}/run.json`) and `GET /api/runs`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, Response

from archehr.errors import InputError, Problem
from archehr.serve import models as m
from archehr.serve.errors import problem_out, problems_response
from archehr.serve.pages import runs_page


def router(state: Any) -> APIRouter:
    r = APIRouter()

    @r.get("/runs", response_class=HTMLResponse, include_in_schema=False)
    def runs(split: str | None = None, run: list[int] = Query(default=[]),  # noqa: B008
             baseline: str | None = None) -> HTMLResponse:
        problems: list[str] = []
        cmp = None
        # the baseline (the run the others are compared with) goes first; by default the first run chosen
        base = int(baseline) if baseline and baseline.strip().isdigit() else None
        if base is not None and run:
            run = [base, *(r for r in run if r != base)]
        if split is None and state.runs.key_splits:
            made_on = [e.split for e in state.runs.runs if e.split in state.runs.key_splits]
            split = made_on[0] if made_on else next(iter(state.runs.key_splits))
        if run:
            try:
                cmp = state.runs.compare(str(split), run)
            except InputError as e:
                problems = [problem_out(p).text for p in e.problems]
        return HTMLResponse(runs_page(state.runs, split, run, cmp, problems, base),
                            status_code=400 if problems else 200)

    @r.get("/runs/{run_id}/run.json", include_in_schema=False)
    def provenance(run_id: int) -> Response:
        entry = state.runs.get(run_id)
        if entry.run.run_json is None:
            return problems_response(404, [Problem("this run has no run.json", entry.name, code="missing-file")])
        return Response(entry.run.run_json.read_bytes(), media_type="application/json")

    return r


def api_router(state: Any) -> APIRouter:
    """`GET /api/runs` (after the other API endpoints, in the schema's order)."""
    r = APIRouter()

    @r.get("/api/runs", response_model=m.RunsResponse, summary="The runs and the key splits this server shows.")
    def list_runs() -> m.RunsResponse:
        idx = state.runs
        splits = [m.SplitInfo(name=s, n_cases=idx.n_cases.get(s), has_key=s in idx.key_splits)
                  for s in idx.release.split_names]
        out = []
        for e in idx.runs:
            s = idx.summary(e)
            out.append(m.RunInfo(id=e.id, name=e.name, task=e.task, split=e.split, system=s["system"],
                                 commit=s["commit"], problems=list(e.problems),
                                 provenance_url=f"/runs/{e.id}/run.json" if e.run.run_json else None))
        return m.RunsResponse(release=str(idx.release.root), splits=splits, runs=out)

    return r
