"""`archehr codabench --task TASK --reference SPLIT_DIR -o bundle.zip`: a Codabench competition bundle."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import err
from archehr.cli.leaderboard_cmd import MetricsOpt
from archehr.errors import InputError, Problem


def codabench(
    task: Annotated[str, typer.Option("--task", help="2025 | st1 | st2 | st3 | st4 | all", show_default=False)],
    reference: Annotated[Path, typer.Option("--reference", help="Split folder of the reference (archehr-qa.xml, "
                                            "archehr-qa_key.json); copied into the bundle.", show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="Bundle zip to write (atomically).", show_default=False)],
    metrics: MetricsOpt = None,
    docker_image: Annotated[str, typer.Option("--docker-image", help="Image Codabench runs the program in (build "
                                              "it from the bundle's docker/Dockerfile).")]
    = "YOUR_ORG/archehr-scoring:0.1.0",
    title: Annotated[str | None, typer.Option("--title", help="Competition title.", show_default=False)] = None,
    start: Annotated[str | None, typer.Option("--start", help="Phase start date, YYYY-MM-DD (default: today).",
                                              show_default=False)] = None,
    check_with: Annotated[Path | None, typer.Option("--check-with", help="Also run the bundle's scoring program on "
                                                    "this submission.json as Codabench would, and print its "
                                                    "scores.json.", show_default=False)] = None,
) -> None:
    """Write a Codabench competition bundle (competition.yaml, scoring program with archehr's scorer, reference
    data, pages, logo, docker/) for one subtask or all."""
    from archehr.codabench import build_bundle, run_program_locally, write_bundle

    start_date = None
    if start is not None:
        try:
            start_date = dt.date.fromisoformat(start)
        except ValueError:
            raise InputError(Problem(f"not a date (YYYY-MM-DD): {start!r}", field="--start", code="option")) from None
    from archehr.codabench import split_metrics

    names = split_metrics(metrics) if metrics else None
    kwargs = {"metrics": names, "docker_image": docker_image, "title": title, "start": start_date}
    if check_with is not None:
        code, scores, log = run_program_locally(build_bundle(task, reference, **kwargs), check_with)
        print(log, end="")
        if code != 0:
            raise InputError(Problem(f"the scoring program failed on this submission (exit {code}); bundle not "
                                     "written", str(check_with), code="codabench-check"))
        print(scores, end="")
    size = write_bundle(out, task, reference, **kwargs)
    err(f"wrote {out} ({size / 1024:.0f} KiB); upload it on Codabench (Benchmarks > Management > Upload)")


def register(app: typer.Typer) -> None:
    app.command("codabench", short_help="Write a Codabench competition bundle for a task.")(codabench)
