"""`archehr leaderboard DIR... --key KEY`: rank every submission; `--check` fails when LEADERBOARD.md is stale."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Annotated, Any

import typer

from archehr.cli.common import err
from archehr.cli.model_options import metric_specs, model_options
from archehr_scoring.tasks import default_task, task_names

DEFAULT_TASK = default_task()  # the registry's first task a system predicts (2025)
TaskOpt = Annotated[str, typer.Option("--task", help=" | ".join(task_names()))]
KeyOpt = Annotated[Path, typer.Option("--key", help="Key JSON (archehr-qa.xml must sit beside it) or its split "
                                                   "folder.")]
MetricsOpt = Annotated[str | None, typer.Option("--metrics", help="Comma-separated metrics, each a name or a spec "
                                                                  "with parameters, e.g. 'rouge,bertscore(model="
                                                                  "minilm,layers=4)' (default: the task's official "
                                                                  "set).", show_default=False)]
TestOpt = Annotated[str, typer.Option("--test", help="Significance test against rank 1: bootstrap | randomization")]
ResamplesOpt = Annotated[int, typer.Option("--resamples", min=0, help="Bootstrap resamples / randomisation trials.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the resampling (results are reproducible).")]
CacheDirOpt = Annotated[Path | None, typer.Option("--cache-dir", help="Reuse/store scores in this cache folder.",
                                                  show_default=False)]


@model_options
def leaderboard(
    dirs: Annotated[list[Path], typer.Argument(metavar="DIR", show_default=False,
                                               help="Submissions folders (each sub-folder with submission.json "
                                                    "is a run), run folders or submission files.")],
    key: KeyOpt,
    task: TaskOpt = DEFAULT_TASK,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Output folder (default: the first DIR).",
                                             show_default=False)] = None,
    check: Annotated[bool, typer.Option("--check", help="Write nothing; exit 1 if LEADERBOARD.md is not what "
                                                        "this run would write.")] = False,
    cache_dir: Annotated[Path | None, typer.Option("--cache-dir", help="Score cache (default: "
                                                                       "<out>/.archehr-cache).",
                                                   show_default=False)] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Re-score everything, store nothing.")] = False,
    metrics: MetricsOpt = None,
    test: TestOpt = "bootstrap",
    resamples: ResamplesOpt = 1000,
    seed: SeedOpt = 12345,
    rank_by: Annotated[str | None, typer.Option("--rank-by", help="Rank by this key instead of the official "
                                                                  "overall score.", show_default=False)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
    metric_params: dict[str, dict[str, Any]] | None = None,  # the model options, added by @model_options
) -> None:
    """Score every run (cached), rank by the official overall score, print a short ranked table and write
    LEADERBOARD.md, leaderboard.json, .csv and .html (every score, CI, p-value, note and signature).

    Each run's task is read from its run.json, else from its submission's shape: a run of another task than
    --task is listed as "st2 run: use --task st2", not scored. No run found: one error line, exit 2, nothing
    written."""
    from archehr.atomic import write_text
    from archehr.leaderboard import scorer as scorer_mod
    from archehr.leaderboard.board import build_leaderboard
    from archehr.leaderboard.cache import CACHE_DIR_NAME, ScoreCache
    from archehr.leaderboard.html_board import leaderboard_html
    from archehr.leaderboard.render import (
        CSV_NAME,
        HTML_NAME,
        JSON_NAME,
        MD_NAME,
        leaderboard_csv,
        leaderboard_markdown,
        to_json_text,
        to_terminal,
    )

    metrics_list, params = metric_specs(metrics, metric_params)
    key_file = scorer_mod.resolve_key(key)
    out_dir = out or (dirs[0] if dirs[0].is_dir() else dirs[0].parent)
    cache = ScoreCache(None if no_cache else (cache_dir or out_dir / CACHE_DIR_NAME))
    scorer = scorer_mod.make_scorer(task, metrics_list, params)
    lb = build_leaderboard(dirs, key_file, scorer, cache=cache, test=test, n_resamples=resamples, seed=seed,
                           rank_by=rank_by, progress=None if quiet else err)
    md = leaderboard_markdown(lb)
    md_path = out_dir / MD_NAME
    n_bad = sum(e.report is None for e in lb.entries)
    if check:
        old = md_path.read_text(encoding="utf-8") if md_path.is_file() else ""
        if old != md:
            diff = list(difflib.unified_diff(old.splitlines(), md.splitlines(), f"{md_path} (committed)",
                                             f"{md_path} (regenerated)", lineterm="", n=1))
            err("\n".join(diff[:60]) + ("\n..." if len(diff) > 60 else ""))
            err(f"error: {md_path} is {'missing' if not old else 'stale'}; regenerate it with: archehr leaderboard "
                f"{' '.join(str(d) for d in dirs)} --key {key} --task {task}")
            raise typer.Exit(1)
        print(f"{md_path} is up to date ({len(lb.entries)} runs, {n_bad} not scored)")
        return
    write_text(md_path, md)
    write_text(out_dir / JSON_NAME, to_json_text(lb, out_dir))
    write_text(out_dir / CSV_NAME, leaderboard_csv(lb))
    write_text(out_dir / HTML_NAME, leaderboard_html(lb))
    print(to_terminal(lb), end="")  # the short ranked table; the files hold every score, note and signature
    if not quiet:
        err(f"wrote {md_path}, {JSON_NAME}, {CSV_NAME}, {HTML_NAME} in {out_dir} "
            f"({len(lb.entries)} runs, {n_bad} not scored; cache {cache.hits} hits, {cache.misses} misses)")


def register(app: typer.Typer) -> None:
    app.command("leaderboard", short_help="Score and rank the runs in folders; write the board files.")(leaderboard)
