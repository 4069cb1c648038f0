"""The ask page (`/`), the API page (`/api`), the server's own files (`/static/...`) and `GET /api/health`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from archehr.errors import Problem
from archehr.serve import models as m
from archehr.serve.errors import problems_response
from archehr.serve.pages import SERVE_CSS, api_page, ask_page

STATIC = Path(__file__).parent / "static"


def ask_router(state: Any) -> APIRouter:
    r = APIRouter()

    @r.get("/", response_class=HTMLResponse, include_in_schema=False)
    def ask() -> HTMLResponse:
        return HTMLResponse(ask_page(state.system.config.name))

    return r


def files_router(openapi: Callable[[], dict[str, Any]]) -> APIRouter:
    """/api (the schema as a page), /static/<name>, /favicon.ico."""
    r = APIRouter()

    @r.get("/api", response_class=HTMLResponse, include_in_schema=False)
    def api() -> HTMLResponse:
        return HTMLResponse(api_page(openapi()))

    assets = {"serve.css": ("text/css", SERVE_CSS.encode()),
              **{p.name: ("text/javascript", p.read_bytes()) for p in STATIC.glob("*.js")}}

    @r.get("/static/{name}", include_in_schema=False)
    def static(name: str) -> Response:
        if name not in assets:
            return problems_response(404, [Problem("no such file", name, code="missing-file")])
        kind, data = assets[name]
        return Response(data, media_type=kind)

    @r.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    return r


def health_router(state: Any) -> APIRouter:
    r = APIRouter()

    @r.get("/api/health", response_model=m.Health, summary="Is the server up, and are the models loaded?")
    def health() -> m.Health:
        return m.Health(status="ok", ready=state.ready.is_set(), system=state.system.config.name)

    return r
