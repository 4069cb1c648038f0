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


_VERBOSE = [False]

VerboseOpt = Annotated[bool, typer.Option("--verbose", "-v", help="Also print the per-case lines behind a summary "
                                                                  "(e.g. every case of a wrong-split key).")]


def set_verbose(on: bool) -> None:
    _VERBOSE[0] = on


def print_problems(problems: list[Problem]) -> None:
    """One line per problem; the details behind a summary problem (codes `detail-*`) only with --verbose."""
    hidden = 0
    for p in problems:
        if p.code.startswith("detail-") and not _VERBOSE[0]:
            hidden += 1
            continue
        kind = "warning" if p.code.startswith("warning") else "error"
        err(f"{kind}: {p}")
    if hidden:
        err(f"({hidden} more line{'s' if hidden != 1 else ''} of detail: rerun with --verbose)")


def plain_help_wrapping() -> None:
    """Help text wrapped at spaces only: the default wrapper also breaks at hyphens, cutting paths and defaults
    such as `runs/<system>-<split>-<task>` over two lines. Typer vendors click; nothing changes if it stops."""
    try:
        from typer._click import _textwrap
    except ImportError:  # pragma: no cover - another typer layout: keep its wrapping
        return
    base = _textwrap.TextWrapper
    if getattr(base, "spaces_only", False):
        return

    class _SpacesOnly(base):  # type: ignore[misc, valid-type]
        spaces_only = True

        def __init__(self, *args: object, **kwargs: object) -> None:
            kwargs["break_on_hyphens"] = False
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    _textwrap.TextWrapper = _SpacesOnly  # read at each call by click's wrap_text


def plain_argument_names() -> None:
    """Arguments shown as `SUBMISSION KEY` and `DIR...` in usage and help, as click does, instead of typer 0.29's
    `{submission} {key}`, `{dirs}...` and `dirs... <list[Path]>` (the argument's help says what it is)."""
    try:
        from typer.core import TyperArgument
    except ImportError:  # pragma: no cover - another typer layout: keep its names
        return
    if getattr(TyperArgument, "plain_names", False):
        return

    def shown(self: TyperArgument) -> str:
        return (self.metavar or self.name or "").upper() + ("..." if self.nargs != 1 else "")

    def usage(self: TyperArgument) -> str:
        return shown(self) if self.required else f"[{shown(self)}]"

    TyperArgument.plain_names = True  # type: ignore[attr-defined]
    TyperArgument._usage_display_name = usage  # type: ignore[method-assign]
    TyperArgument._rich_display_name = shown  # type: ignore[method-assign]
    TyperArgument.display_type = lambda self, ctx: ""  # type: ignore[method-assign]
