"""Task dispatch used by the CLI and the leaderboard: score, validate and detect, for 2025 and st1..st4.

The 2026 functions live in `archehr_scoring.score2026` and are imported only when a 2026 task is
asked for, so scoring a 2025 submission never imports their dependencies (and vice versa).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from archehr.data.json_io import load_json_text, read_text
from archehr.data.model import Split
from archehr.data.releases import XML_NAME
from archehr.data.xml_io import read_cases_xml
from archehr.errors import ConfigError, DataError, Problem, SubmissionError
from archehr_scoring.metrics.base import MetricSettings
from archehr_scoring.reference import load_reference, no_notes_warning, resolve_reference_file
from archehr_scoring.results import ScoreReport

TASKS = ("2025", "st1", "st2", "st3", "st4")
NOTE_ID_TASKS = ("2025", "st2", "st4")  # submissions that cite note sentence ids
PathLike = str | os.PathLike[str]


def check_task(task: str | None) -> str | None:
    if task in (None, "auto"):
        return None
    if task not in TASKS:
        raise ConfigError(Problem(f"unknown task {task!r}; expected one of {', '.join(TASKS)} (or auto)",
                                  field="--task", code="option"))
    return task


def detect_task(obj: Any) -> str:
    """The task a parsed submission's shape implies: `answer` fields -> 2025, else a 2026 subtask."""
    if isinstance(obj, list) and obj and all(isinstance(it, dict) for it in obj) \
            and any("answer" in it for it in obj) and not any("prediction" in it for it in obj):
        return "2025"
    if isinstance(obj, list) and obj and all(isinstance(it, dict) for it in obj) \
            and any("prediction" in it for it in obj):
        from archehr_scoring.submission2026 import detect_task_2026

        return detect_task_2026(obj)
    raise SubmissionError(Problem("cannot tell the task: expected a non-empty JSON list of {case_id, answer} "
                                  "(2025) or {case_id, prediction} (2026) objects; pass --task", code="detect"))


def _read_json(path: PathLike) -> tuple[Any, str]:
    try:
        text = read_text(path)
        return load_json_text(text, str(path)), text
    except DataError as e:
        raise SubmissionError(e.problems) from None


def load_key_split(key: Split | PathLike, data: PathLike | None = None) -> tuple[Split, str | None]:
    """(split, key file) from a Split, a split folder, the key JSON (XML beside it or `data`, when present)
    or the XML (st1). What a task needs of it is checked by the task (see `archehr_scoring.reference`)."""
    if isinstance(key, Split):
        return key, None
    split = load_reference(key, data)
    key_file = resolve_reference_file(key)
    return split, (str(key_file) if key_file.suffix.lower() != ".xml" else None)


def cases_only_split(data: PathLike) -> Split:
    """The XML (or its folder) alone: case ids and note sentences, no key."""
    xml = resolve_reference_file(Path(data) / XML_NAME if Path(data).is_dir() else data)
    return Split(xml.parent.name, read_cases_xml(xml), None, None, None, str(xml))


def score(task: str | None, submission: Any, key: Split | PathLike, data: PathLike | None = None,
          metrics: str | Sequence[str] | None = None, settings: MetricSettings | None = None,
          reference: str = "essential", bootstrap: int = 0, seed: int = 12345, case_ids: Any = None) -> ScoreReport:
    """Score a submission (path or parsed JSON) against a key (path, split folder or Split) on a task.

    `task=None` (or "auto") detects it from the submission's shape.
    """
    task = check_task(task)
    detected = task is None
    if task is None:
        obj = _read_json(submission)[0] if isinstance(submission, (str, os.PathLike)) else submission
        task = detect_task(obj)
    if isinstance(metrics, str):
        metrics = [m.strip() for m in metrics.split(",") if m.strip()]
    if task == "2025":
        from archehr_scoring.score2025 import score_2025

        _refuse_case_ids_2025(case_ids)
        split, key_file = load_key_split(key, data)
        return score_2025(submission, split, metrics=metrics, settings=settings, reference=reference,
                          bootstrap=bootstrap, seed=seed, key_file=key_file)
    from archehr_scoring.score2026 import score_2026

    if reference != "essential":
        raise ConfigError(Problem("--reference applies to the 2025 task only (2026 subtasks have fixed references)",
                                  field="--reference", code="option"))
    ref, _ = load_key_split(key, data)
    # task None lets score_2026 detect it again and record `task_detected` in the report's meta
    report = score_2026(None if detected else task, submission, ref, metrics=list(metrics) if metrics else None,
                        settings=settings, case_ids=case_ids, bootstrap=bootstrap, seed=seed)
    if report.task in NOTE_ID_TASKS:
        report = dataclasses.replace(report, warnings=report.warnings + tuple(no_notes_warning(ref)))
    return report


def _refuse_case_ids_2025(case_ids: Any) -> None:
    if case_ids is not None:
        raise ConfigError(Problem("--case-ids applies to the 2026 subtasks only", field="--case-ids",
                                  code="option"))


def validate(task: str | None, submission: PathLike | list[Any], key: Split | PathLike | None = None,
             data: PathLike | None = None, case_ids: Any = None) -> tuple[str, list[Problem], list[Problem]]:
    """(task, errors, warnings) of a submission; without key/data only its shape is checked."""
    task = check_task(task)
    if isinstance(submission, (str, os.PathLike)):
        obj, text = _read_json(submission)
        file: str | None = str(submission)
    else:
        obj, text, file = submission, "", None
    if task is None:
        task = detect_task(obj)
    split: Split | None = None
    if key is not None:
        split, _ = load_key_split(key, data)
    elif data is not None:
        split = cases_only_split(data)
    if task == "2025":
        from archehr_scoring.submission2025 import check_submission_2025, validate_2025

        _refuse_case_ids_2025(case_ids)
        sub, errors = check_submission_2025(obj, file, text)
        errs, warnings = validate_2025(sub, split)
        return task, errors + errs, warnings + no_notes_warning(split)
    from archehr_scoring.case_ids import parse_case_ids
    from archehr_scoring.score2026 import validate_2026

    wanted = case_ids if isinstance(case_ids, frozenset) else parse_case_ids(case_ids)
    problems = validate_2026(task, obj, split, file, text=text, case_ids=wanted)
    return (task, [p for p in problems if not p.code.startswith("warning")],
            [p for p in problems if p.code.startswith("warning")] + (no_notes_warning(split) if task in NOTE_ID_TASKS
                                                                     else []))
