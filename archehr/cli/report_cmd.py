"""`archehr report pred.json --key KEY -o report.html`: one self-contained HTML page about one submission."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import err
from archehr.cli.leaderboard_cmd import (
    CacheDirOpt,
    MetricsOpt,
    ResamplesOpt,
    SeedOpt,
    TaskOpt,
    parse_metrics,
)
from archehr.cli.model_options import (
    AlignCkptOpt,
    AlignModelOpt,
    BertBaselineOpt,
    BertImplOpt,
    BertLayersOpt,
    BertModelOpt,
    QuickumlsOpt,
    model_settings,
)


def report(
    submission: Annotated[Path, typer.Argument(help="The submission JSON.")],
    key: Annotated[Path, typer.Option("--key", help="Key JSON (archehr-qa.xml beside it) or its split folder.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="HTML file to write.")] = Path("report.html"),
    task: TaskOpt = "2025",
    metrics: MetricsOpt = None,
    resamples: ResamplesOpt = 1000,
    seed: SeedOpt = 12345,
    title: Annotated[str | None, typer.Option("--title", help="Page title (default: the submission's name).",
                                              show_default=False)] = None,
    cache_dir: CacheDirOpt = None,
    bertscore_model: BertModelOpt = None,
    bertscore_layers: BertLayersOpt = None,
    bertscore_baseline: BertBaselineOpt = None,
    bertscore_impl: BertImplOpt = "auto",
    alignscore_ckpt: AlignCkptOpt = None,
    alignscore_model: AlignModelOpt = None,
    quickumls: QuickumlsOpt = None,
) -> None:
    """Scores with CIs and charts, then every case: question, gold-coloured note, citations hit/missed."""
    from archehr.atomic import write_text
    from archehr.leaderboard import scorer as scorer_mod
    from archehr.leaderboard.board import score_cached
    from archehr.leaderboard.cache import ScoreCache
    from archehr.leaderboard.html_report import load_submission_items, report_html
    from archehr_scoring.bootstrap import bootstrap_ci

    settings = model_settings(bertscore_model=bertscore_model, bertscore_layers=bertscore_layers,
                              bertscore_baseline=bertscore_baseline, bertscore_impl=bertscore_impl,
                              alignscore_ckpt=alignscore_ckpt, alignscore_model=alignscore_model, quickumls=quickumls)
    key_file = scorer_mod.resolve_key(key)
    split = scorer_mod.load_reference(key_file)
    scorer = scorer_mod.make_scorer(task, parse_metrics(metrics), settings)
    rep = score_cached(submission, key_file, scorer,
                       ScoreCache(cache_dir))
    rep = dataclasses.replace(rep, ci=bootstrap_ci(rep, n=resamples, seed=seed, partial=True))
    name = submission.parent.name if submission.name == "submission.json" else submission.stem
    html = report_html(task, rep, split, load_submission_items(submission), title or f"Report: {name}")
    write_text(out, html)
    err(f"wrote {out} ({len(rep.per_case)} cases)")


def register(app: typer.Typer) -> None:
    app.command("report")(report)
