"""Options and output helpers shared by the CLI commands."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from archehr.errors import Problem

DataDirOpt = Annotated[
    str | None,
    typer.Option("--data-dir", help="Release folder (default: $ARCHEHR_DATA, else the bundled demo release).",
                 show_default=False),
]
SplitOpt = Annotated[str, typer.Option("--split", help="dev | test | test-2026")]
VersionOpt = Annotated[
    str | None, typer.Option("--version-dir", help="Version folder to use when the data dir holds several.")
]


def err(msg: str) -> None:
    print(msg, file=sys.stderr)


def print_problems(problems: list[Problem]) -> None:
    for p in problems:
        kind = "warning" if p.code.startswith("warning") else "error"
        err(f"{kind}: {p}")
