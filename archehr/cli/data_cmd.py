"""`archehr data info|check|stats`: look at a release before using it."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import DataDirOpt, VersionOpt, err, print_problems
from archehr.data.model import Relevance, Split
from archehr.data.releases import (
    KEY_NAME,
    MAPPING_NAME,
    XML_NAME,
    check_split_dir,
    find_release,
    load_split,
    split_dir,
)

app = typer.Typer(short_help="Inspect, check and export a release.",
                  help="Inspect and check a release (the bundled demo unless --data-dir or $ARCHEHR_DATA).",
                  no_args_is_help=True, rich_markup_mode=None)


OneSplitOpt = Annotated[str | None, typer.Option("--split", help="One split (default: all).")]


@app.command(short_help="Where the release is: version, splits, files.")
def info(data_dir: DataDirOpt = None, split: OneSplitOpt = None, version_dir: VersionOpt = None) -> None:
    """Where the release is, its version, its splits and which files each has."""
    rel = find_release(data_dir, version_dir)
    print(f"release: {rel.root}")
    print(f"version: {rel.version or 'unknown (not in the folder name)'}")
    for s in [split] if split else rel.split_names:
        d = split_dir(rel, s)
        files = [n for n in (XML_NAME, KEY_NAME, MAPPING_NAME) if (d / n).is_file()]
        print(f"  {s}: {', '.join(files)}")


@app.command(short_help="List every problem of the release files.")
def check(data_dir: DataDirOpt = None, split: OneSplitOpt = None, version_dir: VersionOpt = None) -> None:
    """List every problem of the release files (errors and warnings), not only the first."""
    rel = find_release(data_dir, version_dir)
    names = [split] if split else list(rel.split_names)
    n_err = n_warn = 0
    for s in names:
        problems = check_split_dir(split_dir(rel, s))
        print_problems(problems)
        warns = sum(p.code.startswith("warning") for p in problems)
        n_warn += warns
        n_err += len(problems) - warns
        print(f"{s}: {len(problems) - warns} errors, {warns} warnings")
    if n_err:
        raise typer.Exit(2)


def split_stats(split: Split) -> dict[str, object]:
    n_sent = [len(c.sentences) for c in split.cases]
    row: dict[str, object] = {
        "split": split.name,
        "cases": len(split.cases),
        "sentences": sum(n_sent),
        "sentences_per_case": _summary(n_sent),
    }
    if split.key is not None:
        counts = {r.value: 0 for r in Relevance}
        for k in split.key:
            for a in k.answers:
                counts[a.relevance.value] += 1
        total = sum(counts.values()) or 1
        row["labels"] = {k: {"n": v, "pct": round(100 * v / total, 1)} for k, v in counts.items()}
        lengths = [len(k.clinician_answer_without_citations.split()) for k in split.key
                   if k.clinician_answer_without_citations]
        if lengths:
            row["answer_words"] = _summary(lengths)
    return row


def _summary(xs: list[int]) -> dict[str, float]:
    if not xs:
        return {"min": 0, "mean": 0.0, "max": 0}
    return {"min": min(xs), "mean": round(statistics.fmean(xs), 1), "max": max(xs)}


@app.command(short_help="Counts per split: cases, sentences, labels, lengths.")
def stats(
    data_dir: DataDirOpt = None,
    split: Annotated[str | None, typer.Option("--split", help="One split (default: all).")] = None,
    version_dir: VersionOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Counts per split: cases, sentences, label distribution, sentences per case, answer lengths."""
    rel = find_release(data_dir, version_dir)
    names = [split] if split else list(rel.split_names)
    rows = [split_stats(load_split(rel.root, s)) for s in names]
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    print(f"release {Path(rel.root)} (version {rel.version or 'unknown'})")
    head = f"{'split':<10} {'cases':>5} {'sents':>6} {'sents/case min/mean/max':>24} " \
           f"{'essential':>11} {'supplem.':>11} {'not-rel.':>11} {'answer words':>17}"
    print(head)
    print("-" * len(head))
    for r in rows:
        spc = r["sentences_per_case"]
        labels = r.get("labels")
        lab = [f"{labels[k]['n']} ({labels[k]['pct']:.0f}%)" if labels else "-"  # type: ignore[index]
               for k in ("essential", "supplementary", "not-relevant")]
        aw = r.get("answer_words")
        aws = f"{aw['min']}/{aw['mean']}/{aw['max']}" if aw else "-"  # type: ignore[index]
        print(f"{r['split']:<10} {r['cases']:>5} {r['sentences']:>6} "
              f"{spc['min']:>8}/{spc['mean']:>6}/{spc['max']:<8} "  # type: ignore[index]
              f"{lab[0]:>11} {lab[1]:>11} {lab[2]:>11} {aws:>17}")
    if not rows:
        err("no splits found")
