"""Wires the command modules into the app; a planned command without its module yet is a stub.

Each command lives in `archehr/cli/<name>_cmd.py` exposing `register(app)`; modules must import
heavy dependencies inside their command functions so that start-up stays fast.
"""

from __future__ import annotations

import importlib
import importlib.util

import typer

from archehr.errors import ArchehrError

PLANNED = {
    "predict": "run a system over a split and write a submission",
    "score": "score a submission against a key with the official metrics",
    "validate": "check a submission file and report every problem",
    "train": "train a sentence-relevance classifier on a labelled split",
    "leaderboard": "score many submissions into one ranked table",
    "report": "write a self-contained HTML report of one submission",
    "compare": "compare two submissions with paired significance",
    "package": "build the upload zip of a 2026 submission",
}


def register_all(app: typer.Typer) -> None:
    for name, help_text in PLANNED.items():
        module = f"archehr.cli.{name}_cmd"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module).register(app)
            continue

        def _cmd(name: str = name) -> None:
            raise ArchehrError(f"`archehr {name}` is not implemented in this version yet")

        app.command(name, help=f"{help_text[0].upper()}{help_text[1:]} (not implemented yet).",
                    context_settings={"ignore_unknown_options": True, "allow_extra_args": True})(_cmd)
