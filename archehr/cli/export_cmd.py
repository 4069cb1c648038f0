"""`archehr data export -o FILE`: the release's note sentences as a CSV, JSON Lines or Parquet table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import DataDirOpt, VersionOpt, err


def export(
    out: Annotated[Path, typer.Option("--out", "-o", help="File to write (replaced atomically).", show_default=False)],
    fmt: Annotated[str | None, typer.Option("--format", help="csv | jsonl | parquet (default: from the file "
                                            "name's suffix).", show_default=False)] = None,
    data_dir: DataDirOpt = None,
    split: Annotated[str | None, typer.Option("--split", help="One split (default: every split, with a split "
                                              "column).", show_default=False)] = None,
    version_dir: VersionOpt = None,
) -> None:
    """One row per note sentence: split, case id, specialty, question fields, sentence id, paragraph, offset,
    text and label (when the split has a key). Parquet needs pyarrow (pip install 'archehr[frames]')."""
    from archehr.data.frames import export_sentences, format_of

    fmt = format_of(out, fmt)
    n = export_sentences(out, fmt, split=split, data_dir=data_dir, version_dir=version_dir)
    err(f"wrote {n} sentence rows to {out} ({fmt})")


def register(app: typer.Typer) -> None:
    app.command("export", short_help="Write the notes as a table: one row per sentence.")(export)
