"""How the web app answers what it refuses: library errors and FastAPI's own refusals as `problems`, the CLI's
one-line messages (400 bad input, 413 too large, 422 JSON without the needed fields, 503 a part this
installation lacks, 500 logged by exception type only)."""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from archehr.errors import ArchehrError, InputError, Problem, UnavailableError
from archehr.serve import models as m

log = logging.getLogger("archehr.serve")

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": m.ErrorResponse, "description": "Bad input: one problem per line, as the CLI prints them."},
    413: {"model": m.ErrorResponse, "description": "Request or note too large."},
    422: {"model": m.ErrorResponse, "description": "The JSON does not have the fields this endpoint needs."},
}


class TooLarge(ArchehrError):
    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(str(problem))


def problem_out(p: Problem) -> m.ProblemOut:
    kind = "warning" if p.code.startswith("warning") else "error"
    return m.ProblemOut(text=f"{kind}: {p}", **p.to_dict())


def problems_response(status: int, problems: list[Problem]) -> JSONResponse:
    return JSONResponse(m.ErrorResponse(problems=[problem_out(p) for p in problems]).model_dump(), status_code=status)


def malformed_json(body: bytes, error: dict[str, Any]) -> Problem:
    """Unparseable JSON named by line and column (FastAPI reports the character offset as if it were a field)."""
    loc = [x for x in error.get("loc", ()) if x != "body"]
    pos = loc[0] if loc and isinstance(loc[0], int) else None
    reason = str((error.get("ctx") or {}).get("error") or error.get("msg") or "invalid JSON")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return Problem("the request body is not UTF-8 text", field="body", code="invalid-json")
    if pos is None:  # parse it again for the position
        try:
            json.loads(text)
        except json.JSONDecodeError as e:
            pos, reason = e.pos, e.msg
    if pos is None:
        return Problem(f"the request body is not valid JSON: {reason}", field="body", code="invalid-json")
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return Problem(f"the request body is not valid JSON: {reason} at line {line} column {column}", field="body",
                   line=line, code="invalid-json")


def add_error_handlers(app: FastAPI) -> None:
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
        # FastAPI's own refusals (unknown path, wrong method) in the same shape
        what = {404: "no such page or endpoint", 405: "method not allowed here"}.get(e.status_code, str(e.detail))
        return problems_response(e.status_code, [Problem(what, field="body" if e.status_code == 400 else None,
                                                         code="http")])

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        # never echo the input (pydantic's "input" may be a whole note): the location and the message only
        errors = e.errors()
        bad_json = next((err for err in errors if err.get("type") == "json_invalid"), None)
        if bad_json is not None:
            return problems_response(422, [malformed_json(await request.body(), bad_json)])
        probs = []
        for err in errors:
            loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            probs.append(Problem(str(err.get("msg", "invalid")), field=loc or "body", code="invalid-request"))
        return problems_response(422, probs)

    @app.exception_handler(Exception)
    def _internal(request: Request, e: Exception) -> JSONResponse:
        log.error("internal error on %s %s: %s", request.method, request.url.path, type(e).__name__)
        return problems_response(500, [Problem(f"internal error ({type(e).__name__}); the server log has no "
                                               "more detail, by design", code="internal")])
