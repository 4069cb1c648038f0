"""`archehr codabench --task TASK --reference SPLIT_DIR --docker-image IMAGE -o OUT`: Codabench competition bundles."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import err
from archehr.cli.leaderboard_cmd import MetricsOpt
from archehr.errors import InputError, Problem


def codabench(
    task: Annotated[str, typer.Option("--task", help="2025 | st1 | st2 | st3 | st4 | all (one bundle, i.e. one "
                                      "competition, per subtask)", show_default=False)],
    reference: Annotated[Path, typer.Option("--reference", help="Split folder of the reference (archehr-qa.xml, "
                                            "archehr-qa_key.json); copied into the bundle.", show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="Bundle zip to write (atomically); with --task all, a "
                                      "folder that receives one bundle per subtask.", show_default=False)],
    docker_image: Annotated[str | None, typer.Option(
        "--docker-image", help="Required: the image Codabench runs the program in, e.g. ghcr.io/myorg/archehr-"
        "scoring:0.1.0 (build it from the bundle's docker/Dockerfile and push it: see its ORGANISERS.md).",
        show_default=False)] = None,
    metrics: MetricsOpt = None,
    image_has_models: Annotated[bool, typer.Option("--image-has-models", help="Your --docker-image holds the models "
                                                   "the model metrics of --metrics need (the bundle's Dockerfile "
                                                   "has none).")] = False,
    title: Annotated[str | None, typer.Option("--title", help="Competition title.", show_default=False)] = None,
    start: Annotated[str | None, typer.Option("--start", help="Phase start date, YYYY-MM-DD (default: today).",
                                              show_default=False)] = None,
    check_with: Annotated[Path | None, typer.Option("--check-with", help="Also run the scoring program on this "
                                                    "submission (JSON or zip) as Codabench's worker would, and print "
                                                    "its scores.json (with --task all: the bundle of the subtask "
                                                    "the submission's shape says).", show_default=False)] = None,
) -> None:
    """Write Codabench competition bundles (competition.yaml, scoring program with archehr's scorer, reference
    data, pages, logo, docker/, ORGANISERS.md): one for a subtask, one per subtask for all."""
    from archehr.codabench import build_bundles, check_docker_image, run_program_locally, split_metrics, write_bundles

    image = check_docker_image(docker_image)  # first: a missing or placeholder image is the likeliest mistake
    if check_with is not None and not check_with.is_file():
        raise InputError(Problem("no such file", str(check_with), field="--check-with", code="missing-file"))
    start_date = None
    if start is not None:
        try:
            start_date = dt.date.fromisoformat(start)
        except ValueError:
            raise InputError(Problem(f"not a date (YYYY-MM-DD): {start!r}", field="--start", code="option")) from None
    names = split_metrics(metrics) if metrics else None
    bundles = build_bundles(task, reference, metrics=names, docker_image=image, title=title, start=start_date,
                            image_has_models=image_has_models)
    if check_with is not None:
        checked = next(iter(bundles))
        if len(bundles) > 1:
            from archehr_scoring import api

            checked = api.detect_task(api.read_submission(str(check_with))[0])
        code, scores, log = run_program_locally(bundles[checked], check_with)
        print(log, end="")
        if code != 0:
            raise InputError(Problem(f"the {checked} scoring program failed on this submission (exit {code}); "
                                     "nothing written", str(check_with), code="codabench-check"))
        print(scores, end="")
    for path, size in write_bundles(out, bundles, all_tasks=task == "all"):
        err(f"wrote {path} ({size / 1024:.0f} KiB)")
    err("before uploading (Codabench > Benchmarks > Management > Upload), build and push the image: "
        "see ORGANISERS.md in the bundle")


def register(app: typer.Typer) -> None:
    app.command("codabench", short_help="Write a Codabench competition bundle for a task.")(codabench)
