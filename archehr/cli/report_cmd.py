"""`archehr report pred.json --key KEY -o report.html`: one self-contained HTML page about one submission."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated, Any

import typer

from archehr.cli import leaderboard_cmd as board  # the scoring options, declared once there
from archehr.cli.common import err
from archehr.cli.model_options import metric_specs, model_options


@model_options
def report(
    submission: Annotated[Path, typer.Argument(help="The submission JSON.")],
    key: board.KeyOpt,
    out: Annotated[Path, typer.Option("--out", "-o", help="HTML file to write.")] = Path("report.html"),
    task: board.TaskOpt = board.DEFAULT_TASK,
    metrics: board.MetricsOpt = None,
    resamples: board.ResamplesOpt = 1000,
    seed: board.SeedOpt = 12345,
    title: Annotated[str | None, typer.Option("--title", help="Page title (default: the submission's name).",
                                              show_default=False)] = None,
    cache_dir: board.CacheDirOpt = None,
    metric_params: dict[str, dict[str, Any]] | None = None,  # the model options, added by @model_options
) -> None:
    """Scores with CIs and charts, then every case: question, gold-coloured note, citations hit/missed."""
    from archehr.atomic import write_text
    from archehr.leaderboard import scorer as scorer_mod
    from archehr.leaderboard.board import score_cached
    from archehr.leaderboard.cache import ScoreCache
    from archehr.leaderboard.html_report import load_submission_items, report_html
    from archehr_scoring.bootstrap import bootstrap_ci

    metrics_list, params = metric_specs(metrics, metric_params)
    key_file = scorer_mod.resolve_key(key)
    split = scorer_mod.load_key_with_notes(key_file)
    scorer = scorer_mod.make_scorer(task, metrics_list, params)
    rep = score_cached(submission, key_file, scorer,
                       ScoreCache(cache_dir))
    rep = dataclasses.replace(rep, ci=bootstrap_ci(rep, n=resamples, seed=seed, partial=True))
    name = submission.parent.name if submission.name == "submission.json" else submission.stem
    html = report_html(task, rep, split, load_submission_items(submission), title or f"Report: {name}")
    write_text(out, html)
    err(f"wrote {out} ({len(rep.per_case)} cases)")


def register(app: typer.Typer) -> None:
    app.command("report", short_help="One self-contained HTML page: a run's scores and cases.")(report)
