"""`archehr validate SUBMISSION`: every error and warning of a submission; `--fix OUT` writes a repaired one."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import VerboseOpt, err, print_problems, set_verbose
from archehr.errors import Problem
from archehr_scoring.tasks import task_names


def _item(p: Problem) -> dict[str, object]:
    d = p.to_dict()
    if p.field and p.field.startswith("answer line "):
        d["answer_line"] = int(p.field.removeprefix("answer line "))
    return d


def validate(
    submission: Annotated[Path, typer.Argument(help="Submission JSON.")],
    key: Annotated[Path | None, typer.Option("--key", help="Key JSON or split folder: also check case coverage "
                                                           "and cited ids.", show_default=False)] = None,
    data: Annotated[Path | None, typer.Option("--data", help="Data XML: check case ids and cited sentence ids "
                                                             "against the notes.", show_default=False)] = None,
    task: Annotated[str, typer.Option("--task", help=" | ".join(task_names()) + " | auto")] = "auto",
    fmt: Annotated[str, typer.Option("--format", help="text | json")] = "text",
    case_ids: Annotated[str | None, typer.Option("--case-ids", help="2026 only: check only these cases, e.g. "
                                                                    "121-167,3.", show_default=False)] = None,
    fix: Annotated[Path | None, typer.Option("--fix", help="2025: write a repaired submission to OUT (citations "
                                                           "moved to line ends, spaces stripped, unknown ids "
                                                           "dropped, [n] turned into |n|).",
                                             show_default=False)] = None,
    verbose: VerboseOpt = False,
) -> None:
    """Check SUBMISSION; exit 0 when there is no error (warnings allowed), 2 otherwise."""
    import json

    from archehr.atomic import write_json
    from archehr.errors import ConfigError
    from archehr_scoring import api

    set_verbose(verbose)
    if fmt not in ("text", "json"):
        raise ConfigError(Problem(f"unknown format {fmt!r}; expected text or json", field="--format", code="option"))
    task_name, errors, warnings = api.validate(task, submission, key=key, data=data, case_ids=case_ids)
    if fix is not None and not errors:
        from archehr_scoring.tasks import get_task, resolve, tasks_with

        fixer = get_task(task_name).fixer
        if fixer is None:
            raise ConfigError(Problem(f"--fix repairs {', '.join(tasks_with(lambda t: t.fixer is not None))} "
                                      "submissions only", field="--fix", code="option"))
        split = None
        if key is not None:
            split, _ = api.load_key_split(key, data)
        elif data is not None:
            split = api.cases_only_split(data)
        write_json(fix, resolve(fixer)(submission, split), indent=2)
    if fmt == "json":
        print(json.dumps({"task": task_name, "errors": [_item(p) for p in errors],
                          "warnings": [_item(p) for p in warnings]}, indent=2, ensure_ascii=False))
    else:
        print_problems(errors + warnings)
        n_errors = sum(not p.code.startswith("detail-") for p in errors)
        err(f"{submission}: task {task_name}, {n_errors} error(s), {len(warnings)} warning(s)"
            + (f"; repaired submission written to {fix}" if fix is not None and not errors else ""))
    if errors:
        raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    app.command("validate", short_help="Check a submission: every problem, no scores.")(validate)
