"""The one scoring pipeline, for every registered task (`archehr_scoring.tasks`): score, validate, detect.

read the submission -> its task (given, or detected from its shape) -> the options that apply ->
the task's handler validates it and reads per-case statistics and metric inputs -> the text metrics
run -> the task's aggregator gives the official keys -> partial overall scores -> bootstrap CIs.
Task code (handlers, aggregators) is imported only when its task is used.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from archehr.data.json_io import load_json_text, read_text
from archehr.data.model import Split
from archehr.data.releases import KEY_NAME, XML_NAME
from archehr.data.xml_io import read_cases_xml
from archehr.errors import ConfigError, DataError, Problem, SubmissionError
from archehr_scoring.metrics.params import MetricParams
from archehr_scoring.mistakes import release_file_kind, summarise_wrong_split, swapped, swapped_key, swapped_path
from archehr_scoring.reference import load_reference, no_notes_warning, resolve_reference_file
from archehr_scoring.results import ScoreReport, partial_scores
from archehr_scoring.tasks import (
    Inputs,
    Task,
    check_task,
    task_names,
    tasks_with,
)
from archehr_scoring.tasks import detect_task as _detect

PathLike = str | os.PathLike[str]


def detect_task(obj: Any) -> str:
    """The task a parsed submission's shape implies (SubmissionError when no task claims it)."""
    return _detect(obj).name


def _read_json(path: PathLike) -> tuple[Any, str]:
    try:
        text = read_text(path)
        return load_json_text(text, str(path)), text
    except DataError as e:
        raise SubmissionError(e.problems) from None


def read_submission(submission: Any) -> tuple[Any, str, str | None]:
    """(parsed object, file text, file name) of a submission path or an already parsed object.

    A release file (key, mapping, XML, split folder) in the submission's place is refused as arguments
    swapped, in one line, instead of as every symptom of a wrong shape."""
    file = str(submission) if isinstance(submission, (str, os.PathLike)) else None
    if file is not None:
        wrong_file = swapped_path(file)
        if wrong_file is not None:
            raise SubmissionError(wrong_file)
        obj, text = _read_json(file)
    else:
        obj, text = submission, ""
    kind = release_file_kind(obj)
    if kind is not None:
        raise SubmissionError(swapped(kind, file))
    return obj, text, file


def load_key_split(key: Split | PathLike, data: PathLike | None = None) -> tuple[Split, str | None]:
    """(split, key file) from a Split, a split folder, the key JSON (XML beside it or `data`, when present)
    or the XML (st1). What a task needs of it is checked by the task (see `archehr_scoring.reference`)."""
    if isinstance(key, Split):
        return key, None
    try:
        split = load_reference(key, data)
    except DataError:
        swapped = swapped_key(key)
        if swapped is not None:
            raise DataError(swapped) from None
        raise
    key_file = resolve_reference_file(key)
    return split, (str(key_file) if key_file.suffix.lower() != ".xml" else None)


def key_read(key: Split | PathLike, data: PathLike | None, split: Split) -> str | None:
    """The key file a score was computed with, for its header: given the XML, the key beside it (read with it)."""
    if isinstance(key, Split) or data is not None or split.key is None:
        return None
    beside = resolve_reference_file(key).parent / KEY_NAME
    return str(beside) if beside.is_file() else None


def cases_only_split(data: PathLike) -> Split:
    """The XML (or its folder) alone: case ids and note sentences, no key."""
    xml = resolve_reference_file(Path(data) / XML_NAME if Path(data).is_dir() else data)
    return Split(xml.parent.name, read_cases_xml(xml), None, None, None, str(xml))


def _task_of(task: str | None, obj: Any) -> tuple[Task, bool]:
    given = check_task(task)
    return (given, False) if given is not None else (_detect(obj), True)


def _option_problem(option: str, pred: Any) -> ConfigError:
    return ConfigError(Problem(f"{option} applies to {', '.join(tasks_with(pred))} only", field=option,
                               code="option"))


def check_reference(task: Task, reference: str | None) -> str | None:
    """The reference the task's text metrics compare with (a --reference choice only where the task has several)."""
    if reference is None:
        return task.references[0] if task.references else None
    if len(task.references) < 2:
        raise _option_problem("--reference", lambda t: len(t.references) > 1)
    if reference not in task.references:
        raise ConfigError(Problem(f"unknown reference {reference!r}; expected one of {', '.join(task.references)}",
                                  field="--reference", code="option"))
    return reference


def check_case_ids(task: Task, case_ids: Any) -> frozenset[str] | None:
    if case_ids is None:
        return None
    if not task.case_ids_option:
        raise _option_problem("--case-ids", lambda t: t.case_ids_option)
    from archehr_scoring.case_ids import parse_case_ids

    return case_ids if isinstance(case_ids, frozenset) else parse_case_ids(case_ids)


def _notes_warning(task: Task, split: Split | None) -> list[Problem]:
    return no_notes_warning(split) if task.cites_note_ids else []


def score(task: str | None, submission: Any, key: Split | PathLike, data: PathLike | None = None,
          metrics: str | Sequence[str] | None = None, metric_params: MetricParams | None = None,
          reference: str | None = None, bootstrap: int = 0, seed: int = 12345, case_ids: Any = None,
          key_file: str | None = None) -> ScoreReport:
    """Score a submission (path or parsed JSON) against a key (path, split folder or Split) on a task.

    `task=None` (or "auto") detects it from the submission's shape (recorded in `meta`). `metrics` is a list
    of metric specs (`"rouge,bertscore(model=minilm,device=cpu)"`); `metric_params` gives metric parameters
    another way (`{"bertscore": {"model": "minilm"}}`); each metric is built from its own parameters only.
    Raises SubmissionError / DataError / ConfigError listing every problem; never a partial result.
    """
    from archehr_scoring import __version__
    from archehr_scoring.metric_runs import resolve_metrics, run_metrics
    from archehr_scoring.metrics.registry import params_record
    from archehr_scoring.metrics.spec import apply_metric_specs

    metrics, params = apply_metric_specs(metrics, metric_params)  # `bertscore(layers=3)` items set parameters
    obj, text, file = read_submission(submission)
    spec, detected = _task_of(task, obj)
    names = resolve_metrics(spec, metrics)
    ref_kind = check_reference(spec, reference)
    wanted = check_case_ids(spec, case_ids)
    split, found_key_file = load_key_split(key, data)
    inputs = Inputs(obj, split, file, text, key_file or found_key_file, wanted, names, ref_kind)
    try:
        prepared = spec.handler_obj().prepare(spec.name, inputs)
    except SubmissionError as e:
        raise SubmissionError(summarise_wrong_split(e.problems, obj, file)) from None

    rows = prepared.rows
    text_metrics = [n for n in names if n not in spec.own_metrics]  # the handler computed its own
    ran = run_metrics(text_metrics, prepared.examples, rows, params, ref_kind)
    signatures = {**prepared.signatures, **ran.signatures}
    # in submission order, as the official scripts iterate
    scores = ScoreReport(spec.name, {}, rows, signatures, ran.unavailable).aggregate(prepared.case_ids)
    meta: dict[str, Any] = {
        "edition": spec.edition,
        "subtask": f"{spec.name} ({spec.title})",
        "task_detected": detected,
        "n_cases": len(prepared.case_ids),
        "scorer_version": __version__,
        # the same two words for every task: `key` is the file scored against, `reference` what the text
        # metrics compare with (2025: essential | clinician; st1, st3: a key field; st2, st4: none)
        "key": key_file or found_key_file or key_read(key, data, split) or split.source,
        **({"reference": ref_kind} if ref_kind else {}),
        **prepared.meta,
    }
    if spec.metrics:
        meta["metrics"] = list(names)
        meta["not_requested"] = [m for m in spec.metrics if m not in names]
    if text_metrics:
        # every parameter of each metric run, and those given for a metric that did not run (what was asked)
        meta["metric_params"] = params_record([*text_metrics, *(m for m in params if m not in text_metrics)], params)
    if spec.word_limit is not None:
        meta["word_limit"] = spec.word_limit
    warnings = prepared.warnings + ran.warnings + _notes_warning(spec, split)
    report = ScoreReport(spec.name, scores, rows, signatures, ran.unavailable, partial_scores(spec, scores),
                         tuple(warnings), None, meta)
    if bootstrap > 0:
        from archehr_scoring.bootstrap import bootstrap_ci

        report = dataclasses.replace(report, ci=bootstrap_ci(report, bootstrap, seed),
                                     meta={**meta, "bootstrap": {"n": bootstrap, "seed": seed, "level": 0.95}})
    return report


def validate(task: str | None, submission: PathLike | list[Any], key: Split | PathLike | None = None,
             data: PathLike | None = None, case_ids: Any = None) -> tuple[str, list[Problem], list[Problem]]:
    """(task, errors, warnings) of a submission; without key/data only its shape is checked."""
    obj, text, file = read_submission(submission)
    spec, _ = _task_of(task, obj)
    wanted = check_case_ids(spec, case_ids)
    split: Split | None = None
    key_file: str | None = None
    if key is not None:
        split, key_file = load_key_split(key, data)
    elif data is not None:
        split = cases_only_split(data)
    errors, warnings = spec.handler_obj().validate(spec.name, Inputs(obj, split, file, text, key_file, wanted))
    return spec.name, summarise_wrong_split(errors, obj, file), warnings + _notes_warning(spec, split)


__all__ = ["score", "validate", "detect_task", "load_key_split", "cases_only_split", "read_submission",
           "task_names"]
