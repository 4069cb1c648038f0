"""uvicorn's logging for `archehr serve`: the access log says method, path and status, nothing else.

No query string, no client address, no header, no body: a request can carry a note, and a log file outlives
the request. Server errors are logged by exception type only (see `app.py`).
"""

from __future__ import annotations

import logging
from typing import Any


class AccessFormatter(logging.Formatter):
    """`GET /runs 200` from uvicorn's access record (args: client, method, path, http version, status)."""

    def format(self, record: logging.LogRecord) -> str:
        args = record.args if isinstance(record.args, tuple) else ()
        if len(args) >= 5:
            method, path, status = args[1], str(args[2]).split("?", 1)[0], args[4]
            return f"{method} {path} {status}"
        return "request"  # an access record of another shape: say nothing about it


def log_config(level: str = "info") -> dict[str, Any]:
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "plain": {"format": "%(levelname)s: %(message)s"},
            "access": {"()": "archehr.serve.logs.AccessFormatter"},
        },
        "handlers": {
            "plain": {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stderr"},
            "access": {"class": "logging.StreamHandler", "formatter": "access", "stream": "ext://sys.stderr"},
        },
        "loggers": {
            "uvicorn": {"handlers": ["plain"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
            "uvicorn.access": {"handlers": ["access"], "level": level.upper(), "propagate": False},
            "archehr.serve": {"handlers": ["plain"], "level": level.upper(), "propagate": False},
        },
    }
