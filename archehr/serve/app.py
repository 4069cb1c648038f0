"""The FastAPI app of `archehr serve`: the server's state and the app built from routers by concern.

`create_app(state)` returns the ASGI app to run (the FastAPI app inside `guard.Guard`). The routes are in
routes_answer (the ask API), routes_score, routes_runs (the runs page, provenance, /api/runs) and routes_pages
(ask and API pages, static files, health); errors.py turns library errors into 4xx answers carrying the CLI's
one-line problems. Handlers are plain functions (FastAPI runs them in its thread pool); one lock serialises the
system, which is not written for concurrent use.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from archehr.errors import ArchehrError
from archehr.serve import models as m
from archehr.serve import routes_answer, routes_pages, routes_runs, routes_score
from archehr.serve.auth import TokenGate
from archehr.serve.errors import TooLarge, add_error_handlers, problem_out, problems_response  # noqa: F401 - re-exported
from archehr.serve.guard import Guard
from archehr.serve.runs_data import RunsIndex

log = logging.getLogger("archehr.serve")
# the JSON of a 200 KB note plus narrative and question, with room for escaping
ANSWER_BODY_LIMIT = 1024 * 1024
BODY_LIMITS = {"/api/answer": ANSWER_BODY_LIMIT, "/api/score": m.MAX_SUBMISSION_BYTES}


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


def build_fastapi(state: ServerState) -> FastAPI:
    """The app: error answers, then the routers by concern (the order keeps the schema's order of paths)."""
    app = FastAPI(title="archehr serve", version=_version(), docs_url=None, redoc_url=None,
                  openapi_url="/openapi.json",
                  description="Ask about a clinical note and compare runs of ArchEHR-QA systems, on this computer.")
    add_error_handlers(app)
    app.include_router(routes_pages.ask_router(state))
    app.include_router(routes_runs.router(state))
    app.include_router(routes_pages.files_router(app.openapi))
    app.include_router(routes_pages.health_router(state))
    app.include_router(routes_answer.router(state))
    app.include_router(routes_score.router(state))
    app.include_router(routes_runs.api_router(state))
    return app


def create_app(state: ServerState, token: str | None = None) -> Any:
    """The ASGI app to serve: size limits and security headers around the FastAPI app, and with a token, the
    gate that answers 401 to any request without it (outermost: such a request reaches nothing else)."""
    app = Guard(build_fastapi(state), BODY_LIMITS)
    return app if token is None else TokenGate(app, token)


def _version() -> str:
    from archehr import __version__

    return __version__
