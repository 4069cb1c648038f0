"""The FastAPI app of `archehr serve`: pages, the JSON API and the errors they answer with.

`create_app(state)` returns the ASGI app to run (the FastAPI app inside `guard.Guard`). Handlers are plain
functions (FastAPI runs them in its thread pool); one lock serialises the system, which is not written for
concurrent use. Library errors become 4xx answers carrying the CLI's one-line problems.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from archehr.errors import ArchehrError, InputError, Problem, UnavailableError
from archehr.serve import models as m
from archehr.serve.guard import Guard
from archehr.serve.pages import SERVE_CSS, api_page, ask_page, runs_page
from archehr.serve.runs_data import RunsIndex

log = logging.getLogger("archehr.serve")
STATIC = Path(__file__).parent / "static"
# the JSON of a 200 KB note plus narrative and question, with room for escaping
ANSWER_BODY_LIMIT = 1024 * 1024
BODY_LIMITS = {"/api/answer": ANSWER_BODY_LIMIT, "/api/score": m.MAX_SUBMISSION_BYTES}


class TooLarge(ArchehrError):
    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(str(problem))


def serving_config(cfg: Any) -> Any:
    """A system config as the server runs it: an LLM backend's reply cache (its prompts hold the note, and
    it lives on disk) switched off."""
    if cfg.backend is not None and cfg.backend.get("cache", True):
        cfg = cfg.with_section("backend", {**cfg.backend, "cache": False})
    return cfg


def load_serving_system(name_or_path: str | None) -> Any:
    from archehr.pipeline import System
    from archehr.system_config import load_config

    return System(serving_config(load_config(name_or_path)))


class ServerState:
    """What one server holds: the loaded system, the runs index, and a lock around the system."""

    def __init__(self, system: str | None = None, data_dir: str | Path | None = None,
                 run_dirs: list[str] | list[Path] | None = None):
        self.system = load_serving_system(system)
        self.runs = RunsIndex(run_dirs or [], data_dir)
        self.lock = threading.Lock()
        self.ready = threading.Event()

    def warm_up(self) -> None:
        """Load the sentence splitter (spaCy takes seconds) before the first note arrives."""
        from archehr.data.note_split import note_case

        with self.lock:
            try:
                note_case("Warm-up sentence one. Warm-up sentence two.", "Why?", splitter="auto")
            except ArchehrError as e:  # the rules splitter still works: say why spaCy did not load
                log.warning("sentence splitter warm-up: %s", e)
        self.ready.set()


def problem_out(p: Problem) -> m.ProblemOut:
    kind = "warning" if p.code.startswith("warning") else "error"
    return m.ProblemOut(text=f"{kind}: {p}", message=p.message, file=p.file, case_id=p.case_id, field=p.field,
                        line=p.line, code=p.code)


def problems_response(status: int, problems: list[Problem]) -> JSONResponse:
    return JSONResponse(m.ErrorResponse(problems=[problem_out(p) for p in problems]).model_dump(), status_code=status)


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": m.ErrorResponse, "description": "Bad input: one problem per line, as the CLI prints them."},
    413: {"model": m.ErrorResponse, "description": "Request or note too large."},
    422: {"model": m.ErrorResponse, "description": "The JSON does not have the fields this endpoint needs."},
}


def _check_text(value: str | None, limit: int, field: str, what: str) -> None:
    """Size limit (413) and text a response can carry: JSON's \\ud800 escapes decode to lone surrogates."""
    if value is None:
        return
    try:
        n = len(value.encode("utf-8"))
    except UnicodeEncodeError as e:
        raise InputError(Problem(f"the {what} is not valid Unicode text (a lone surrogate at character {e.start})",
                                 field=field, code="encoding")) from None
    if n > limit:
        raise TooLarge(Problem(f"the {what} is {n // 1024} KB; this server takes at most {limit // 1024} KB",
                               field=field, code="too-large"))


def build_fastapi(state: ServerState) -> FastAPI:
    app = FastAPI(title="archehr serve", version=_version(), docs_url=None, redoc_url=None,
                  openapi_url="/openapi.json",
                  description="Ask about a clinical note and compare runs of ArchEHR-QA systems, on this computer.")

    @app.exception_handler(TooLarge)
    def _too_large(request: Request, e: TooLarge) -> JSONResponse:
        return problems_response(413, [e.problem])

    @app.exception_handler(InputError)
    def _bad_input(request: Request, e: InputError) -> JSONResponse:
        return problems_response(400, e.problems)

    @app.exception_handler(UnavailableError)
    def _unavailable(request: Request, e: UnavailableError) -> JSONResponse:
        return problems_response(503, [Problem(str(e), code="unavailable")])

    @app.exception_handler(StarletteHTTPException)
    def _http(request: Request, e: StarletteHTTPException) -> JSONResponse:
        # FastAPI's own refusals (unparseable JSON body, unknown path, wrong method) in the same shape
        what = {404: "no such page or endpoint", 405: "method not allowed here"}.get(e.status_code, str(e.detail))
        return problems_response(e.status_code, [Problem(what, field="body" if e.status_code == 400 else None,
                                                         code="http")])

    @app.exception_handler(RequestValidationError)
    def _invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        # never echo the input (pydantic's "input" may be a whole note): the location and the message only
        probs = []
        for err in e.errors():
            loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            probs.append(Problem(str(err.get("msg", "invalid")), field=loc or "body", code="invalid-request"))
        return problems_response(422, probs)

    @app.exception_handler(Exception)
    def _internal(request: Request, e: Exception) -> JSONResponse:
        log.error("internal error on %s %s: %s", request.method, request.url.path, type(e).__name__)
        return problems_response(500, [Problem(f"internal error ({type(e).__name__}); the server log has no "
                                               "more detail, by design", code="internal")])

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def ask() -> HTMLResponse:
        return HTMLResponse(ask_page(state.system.config.name))

    @app.get("/runs", response_class=HTMLResponse, include_in_schema=False)
    def runs(split: str | None = None, run: list[int] = Query(default=[])) -> HTMLResponse:  # noqa: B008
        problems: list[str] = []
        cmp = None
        if split is None and state.runs.key_splits:
            made_on = [e.split for e in state.runs.runs if e.split in state.runs.key_splits]
            split = made_on[0] if made_on else next(iter(state.runs.key_splits))
        if run:
            try:
                cmp = state.runs.compare(str(split), run)
            except InputError as e:
                problems = [problem_out(p).text for p in e.problems]
        return HTMLResponse(runs_page(state.runs, split, run, cmp, problems), status_code=400 if problems else 200)

    @app.get("/runs/{run_id}/run.json", include_in_schema=False)
    def provenance(run_id: int) -> Response:
        entry = state.runs.get(run_id)
        if entry.run.run_json is None:
            return problems_response(404, [Problem("this run has no run.json", entry.name, code="missing-file")])
        return Response(entry.run.run_json.read_bytes(), media_type="application/json")

    @app.get("/api", response_class=HTMLResponse, include_in_schema=False)
    def api() -> HTMLResponse:
        return HTMLResponse(api_page(app.openapi()))

    assets = {"serve.css": ("text/css", SERVE_CSS.encode()),
              **{p.name: ("text/javascript", p.read_bytes()) for p in STATIC.glob("*.js")}}

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str) -> Response:
        if name not in assets:
            return problems_response(404, [Problem("no such file", name, code="missing-file")])
        kind, data = assets[name]
        return Response(data, media_type=kind)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/api/health", response_model=m.Health, summary="Is the server up, and are the models loaded?")
    def health() -> m.Health:
        return m.Health(status="ok", ready=state.ready.is_set(), system=state.system.config.name)

    @app.post("/api/answer", response_model=m.AnswerResponse, responses=ERRORS,
              summary="Answer a patient question from a clinical note, citing its sentences.",
              description="What `archehr answer --format json` prints: the answer lines with the sentence ids they "
                          "cite, every note sentence (numbered, with offsets), the calibrated confidence and the "
                          "review flag, the split used; or, when the note does not say, `abstained` with the "
                          "closest sentences as `related_ids`. The note is not stored or logged.")
    def answer(req: m.AnswerRequest) -> m.AnswerResponse:
        from archehr.ask import answer as run_answer

        _check_text(req.note, m.MAX_NOTE_BYTES, "note", "note")
        _check_text(req.narrative, m.MAX_NOTE_BYTES, "narrative", "narrative")
        _check_text(req.question, m.MAX_QUESTION_BYTES, "question", "question")
        with state.lock:
            t0 = time.perf_counter()
            a = run_answer(req.note, req.question, narrative=req.narrative, system=state.system,
                           splitter=req.splitter)
            seconds = time.perf_counter() - t0
        cited = {s.id for s in a.cited}
        labels = dict(a.cited_as)
        related = [s.id for s in getattr(a, "related", ())]
        return m.AnswerResponse(
            question=a.question, answer=a.answer, answer_without_citations=a.text,
            lines=[m.Line(text=ln.text, citations=list(ln.citations)) for ln in a.lines],
            cited_ids=[s.id for s in a.cited],
            sentences=[m.Sentence(id=s.id, paragraph_id=s.paragraph_id, start=s.start, end=s.end, kind=s.kind,
                                  text=s.text, cited=s.id in cited, cited_as=labels.get(s.id),  # type: ignore[arg-type]
                                  related=s.id in related)
                       for s in a.note.sentences],
            confidence=a.confidence, needs_review=a.flagged, abstained=bool(getattr(a, "abstained", False)),
            related_ids=related, evidence_confidence=getattr(a, "evidence_confidence", None),
            system=a.system, splitter=a.note.splitter,
            fallback=a.fallback, notes=list(a.notes), seconds=seconds)

    @app.post("/api/score", response_model=m.ScoreResponse, responses=ERRORS,
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

    @app.get("/api/runs", response_model=m.RunsResponse, summary="The runs and the key splits this server shows.")
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

    return app


def create_app(state: ServerState) -> Guard:
    """The ASGI app to serve: size limits and security headers around the FastAPI app."""
    return Guard(build_fastapi(state), BODY_LIMITS)


def _version() -> str:
    from archehr import __version__

    return __version__
