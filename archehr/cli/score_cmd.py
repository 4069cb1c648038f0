"""`archehr score SUBMISSION KEY`: the official metrics (2025 and 2026 subtasks) with signatures and per-case detail."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from archehr.cli.common import VerboseOpt, err, print_problems, set_verbose
from archehr.cli.model_options import metric_specs, model_options
from archehr_scoring.tasks import task_names


@model_options
def score(
    submission: Annotated[Path, typer.Argument(help="Submission JSON.")],
    key: Annotated[Path, typer.Argument(help="Key JSON (archehr-qa_key.json) or its split folder.")],
    data: Annotated[Path | None, typer.Option("--data", help="Data XML (default: archehr-qa.xml next to the key).",
                                              show_default=False)] = None,
    task: Annotated[str, typer.Option("--task", help=" | ".join(task_names()) + " | auto (from the "
                                                     "submission's shape).")] = "auto",
    metrics: Annotated[str | None, typer.Option("--metrics", help="Comma-separated: factuality, bleu, rouge, sari, "
                                                                  "bertscore, alignscore, medcon, each a name or a "
                                                                  "spec with parameters, e.g. 'bertscore(model="
                                                                  "minilm,layers=4)' (default: all).",
                                                show_default=False)] = None,
    fmt: Annotated[str, typer.Option("--format", help="text | json | csv | md")] = "text",
    per_case: Annotated[Path | None, typer.Option("--per-case", help="Write every metric per case to FILE "
                                                                     "(.json for JSON, else CSV).",
                                                  show_default=False)] = None,
    reference: Annotated[str | None, typer.Option("--reference", help="2025 relevance reference: essential (question + "
                                                               "essential sentences, official; the default) | "
                                                               "clinician (clinician answer).",
                                                   show_default=False)] = None,
    bootstrap: Annotated[int, typer.Option("--bootstrap", min=0, help="Bootstrap resamples for 95% CIs (0 = none).")
                         ] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap.")] = 12345,
    metric_params: dict[str, dict[str, Any]] | None = None,  # the model options, added by @model_options
    case_ids: Annotated[str | None, typer.Option("--case-ids", help="2026 only: cases to score, e.g. 121-167.",
                                                 show_default=False)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Do not print warnings on stderr.")] = False,
    verbose: VerboseOpt = False,
) -> None:
    """Score SUBMISSION against KEY with the official metrics; exit 2 on bad input (nothing written)."""
    from archehr.atomic import write_text
    from archehr.errors import ConfigError, InputError, Problem, SubmissionError
    from archehr_scoring import api, formats

    set_verbose(verbose)
    if fmt not in formats.FORMATS:
        raise ConfigError(Problem(f"unknown format {fmt!r}; expected one of {', '.join(formats.FORMATS)}",
                                  field="--format", code="option"))
    metrics_list, params = metric_specs(metrics, metric_params)
    try:
        report = api.score(task, submission, key, data=data, metrics=metrics_list, metric_params=params,
                           reference=reference, bootstrap=bootstrap, seed=seed, case_ids=case_ids)
    except SubmissionError:
        other = _shape_task(submission, task)
        if other is None:
            raise
        raise InputError(Problem(f"this is a {other} submission by its shape, not {task}: use --task {other} "
                                 "(or --task auto)", str(submission), field="--task", code="other-task")) from None
    out = formats.render(report, fmt)
    if per_case is not None:
        text = formats.per_case_json(report) if per_case.suffix.lower() == ".json" else formats.per_case_csv(report)
        write_text(per_case, text)
    if report.warnings and not quiet:
        print_problems(list(report.warnings))
    if report.meta.get("task_detected"):
        err(f"note: task {report.task} detected from the submission's shape (pass --task to choose)")
    if fmt != "text":  # the text output lists them itself: say each once
        for name, why in report.unavailable.items():
            err(f"note: {name} unavailable: {why}")
    print(out, end="")


def _shape_task(submission: Path, task: str) -> str | None:
    """The task a submission's shape says, when it is another task than --task (as `archehr leaderboard` tells
    another task's run). The shape cannot tell st1 questions from st3 answers (both texts): a shape of the same
    kind as --task's is never called another task."""
    from archehr.data.json_io import read_json
    from archehr.errors import ArchehrError
    from archehr_scoring.tasks import TASKS, detect_task, get_task

    if task not in TASKS:
        return None
    try:
        found = detect_task(read_json(submission))
    except ArchehrError:
        return None
    return None if found.name == task or found.prediction == get_task(task).prediction else found.name


def register(app: typer.Typer) -> None:
    app.command("score", short_help="Score a submission against a key with the official metrics.")(score)
