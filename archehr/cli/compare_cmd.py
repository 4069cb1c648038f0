"""`archehr compare A.json B.json --key KEY`: per-metric differences with CIs and p-values, cases that differ."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from archehr.cli.leaderboard_cmd import (
    DEFAULT_TASK,
    CacheDirOpt,
    KeyOpt,
    MetricsOpt,
    ResamplesOpt,
    SeedOpt,
    TaskOpt,
    TestOpt,
)
from archehr.cli.model_options import metric_specs, model_options


@model_options
def compare(
    a: Annotated[Path, typer.Argument(help="Submission A (the baseline).")],
    b: Annotated[Path, typer.Argument(help="Submission B (compared with A: differences are B - A).")],
    key: KeyOpt,
    task: TaskOpt = DEFAULT_TASK,
    metrics: MetricsOpt = None,
    test: TestOpt = "bootstrap",
    resamples: ResamplesOpt = 1000,
    seed: SeedOpt = 12345,
    top: Annotated[int, typer.Option("--top", min=0, help="How many differing cases to list.")] = 10,
    case_key: Annotated[str | None, typer.Option("--case-key", help="Per-case score to rank differing cases by "
                                                                    "(default: the overall score).",
                                                 show_default=False)] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the comparison as JSON here.",
                                                  show_default=False)] = None,
    cache_dir: CacheDirOpt = None,
    metric_params: dict[str, dict[str, Any]] | None = None,  # the model options, added by @model_options
) -> None:
    """Compare two submissions on the same key with paired significance over cases."""
    from archehr.atomic import write_text
    from archehr.errors import ConfigError, InputError, Problem
    from archehr.leaderboard import scorer as scorer_mod
    from archehr.leaderboard.board import score_cached
    from archehr.leaderboard.cache import ScoreCache
    from archehr.leaderboard.compare import compare_reports, comparison_text, to_json_dict
    from archehr_scoring.bootstrap import PAIRED_TESTS

    if test not in PAIRED_TESTS:
        raise InputError(Problem(f"unknown test {test!r}; use one of {', '.join(PAIRED_TESTS)}", field="--test"))
    metrics_list, params = metric_specs(metrics, metric_params)
    key_file = scorer_mod.resolve_key(key)
    scorer = scorer_mod.make_scorer(task, metrics_list, params)
    cache = ScoreCache(cache_dir)
    problems: list[Problem] = []
    reports = []
    for path in (a, b):  # validate both before failing, so one run shows every problem
        try:
            reports.append(score_cached(path, key_file, scorer, cache))
        except ConfigError:  # a bad option is the same for both submissions: say it once
            raise
        except InputError as e:
            problems += e.problems
    if problems:
        raise InputError(problems)
    ra, rb = reports
    c = compare_reports(ra, rb, str(a), str(b), test=test, n_resamples=resamples, seed=seed, case_key=case_key)
    print(comparison_text(c, top), end="")
    if json_out is not None:
        write_text(json_out, json.dumps(to_json_dict(c), indent=2) + "\n")


def register(app: typer.Typer) -> None:
    app.command("compare", short_help="Compare two submissions on one key, with paired tests.")(compare)
