"""The 2025 task's submissions: detect, validate and read them into per-case statistics and metric inputs.

Per case: factuality counts (strict/lenient tp/fp/fn, the task's own metric) and what the text
metrics compare (the answer cut to 75 words vs question + essential sentences, or the clinician
answer with `--reference clinician`). `archehr_scoring.api.score` runs the metrics and the task's
declared aggregation; the task itself is declared in `archehr_scoring.tasks`.

This module stays light (no torch): metric modules are imported only when their metric is built.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from archehr.data.model import Case, KeyEntry, Split
from archehr.errors import DataError, Problem, SubmissionError
from archehr_scoring.answer_format import ParsedAnswer, parse_answer
from archehr_scoring.factuality import case_counts, factuality_signature
from archehr_scoring.metrics.base import TextExample
from archehr_scoring.metrics.params import MetricParams
from archehr_scoring.reference import require_notes
from archehr_scoring.results import ScoreReport
from archehr_scoring.submission2025 import (
    Submission2025,
    answer_warnings,
    check_cases,
    check_submission_2025,
    fix_submission,
    read_submission_2025,
    validate_2025,
)
from archehr_scoring.tasks import Inputs, Prepared

TASK = "2025"


def detect(obj: Any) -> str | None:
    """`answer` fields and no `prediction`: a 2025 submission."""
    if isinstance(obj, list) and obj and all(isinstance(it, dict) for it in obj) \
            and any("answer" in it for it in obj) and not any("prediction" in it for it in obj):
        return TASK
    return None


def question_text(case: Case) -> str:
    return (case.patient_narrative or "").strip() + "\n\n" + (case.clinician_question or "").strip()


def essential_text(case: Case, key: KeyEntry) -> str:
    """Essential sentences in note order (the official script iterated a set; the golden files use note order)."""
    ess = set(key.essential_ids)
    return "\n".join(s.text.strip() for s in case.sentences if s.id in ess)


def _reference_problems(split: Split, case_ids: Sequence[str], reference: str, key_file: str | None) -> list[Problem]:
    problems = []
    for cid in case_ids:
        case = split.case(cid)
        if reference == "clinician":
            if not split.key_for(cid).clinician_answer_without_citations:
                problems.append(Problem("the key has no clinician_answer_without_citations for this case; "
                                        "--reference clinician needs a newer key (use --reference essential)",
                                        key_file, cid, "clinician_answer_without_citations", code="missing-field"))
        if case.patient_narrative is None or case.clinician_question is None:
            problems.append(Problem("the data XML lacks patient_narrative or clinician_question for this case "
                                    "(needed for the relevance references)", split.source, cid, code="missing-field"))
    return problems


def build_examples(split: Split, parsed: Sequence[ParsedAnswer], reference: str) -> list[TextExample]:
    out = []
    for p in parsed:
        case, key = split.case(p.case_id), split.key_for(p.case_id)
        q = question_text(case)
        if reference == "clinician":
            ref = (key.clinician_answer_without_citations or "").strip()
            out.append(TextExample(p.case_id, p.text, ref, sari_source=q, sari_reference=ref))
        else:
            e = essential_text(case, key)
            out.append(TextExample(p.case_id, p.text, q + "\n\n" + e, sari_source=q, sari_reference=e))
    return out


def _read(inputs: Inputs) -> tuple[Submission2025, list[Problem]]:
    if isinstance(inputs.obj, Submission2025):
        return inputs.obj, []
    return check_submission_2025(inputs.obj, inputs.file, inputs.text)


class Handler2025:
    """How the pipeline reads a 2025 submission (see `archehr_scoring.tasks.Task.handler`)."""

    def validate(self, task: str, inputs: Inputs) -> tuple[list[Problem], list[Problem]]:
        sub, errors = _read(inputs)
        errs, warnings = validate_2025(sub, inputs.split)
        return errors + errs, warnings

    def prepare(self, task: str, inputs: Inputs) -> Prepared:
        split = inputs.split
        if split is None or split.key is None:
            raise DataError(Problem("this split has no key: scoring needs archehr-qa_key.json",
                                    split.source if split else None, code="missing-file"))
        require_notes(split, "2025 scoring reads the note sentences, narratives and questions")
        sub, problems = _read(inputs)
        problems += check_cases(sub, split, inputs.key_file)
        if problems:
            raise SubmissionError(problems)
        reference = inputs.reference or "essential"
        text_metrics = [n for n in inputs.metrics if n != "factuality"]
        if text_metrics:
            ref_problems = _reference_problems(split, sub.case_ids, reference, inputs.key_file)
            if ref_problems:
                raise DataError(ref_problems)
        parsed = [parse_answer(cid, ans) for cid, ans in sub.entries]
        warnings: list[Problem] = []
        for p in parsed:
            warnings += answer_warnings(p, split.case(p.case_id), sub.file, sub.line_of(p.case_id))
        rows: dict[str, dict[str, float]] = {p.case_id: {} for p in parsed}
        signatures: dict[str, str] = {}
        if "factuality" in inputs.metrics:
            signatures["factuality"] = factuality_signature()
            for p in parsed:
                rows[p.case_id].update(case_counts(p.citations, split.key_for(p.case_id)))
        meta = {"reference": reference,
                "cases": {p.case_id: {"answer_as_scored": p.text, "citations": sorted(p.citations),
                                      "words": p.n_words, "truncated": p.truncated} for p in parsed}}
        return Prepared(tuple(rows), rows, build_examples(split, parsed, reference) if text_metrics else [],
                        signatures, warnings, meta)


HANDLER = Handler2025()


def fix(submission: Any, split: Split | None) -> list[dict[str, str]]:
    """A repaired copy of a valid submission (`archehr validate --fix`)."""
    return fix_submission(read_submission_2025(submission), split)


def score_2025(submission: str | os.PathLike[str] | list[Any] | Submission2025, split: Split,
               metrics: str | Sequence[str] | None = None, metric_params: MetricParams | None = None,
               reference: str = "essential", bootstrap: int = 0, seed: int = 12345,
               key_file: str | None = None) -> ScoreReport:
    """`archehr_scoring.api.score` on the 2025 task with a loaded split (kept for existing callers)."""
    from archehr_scoring.api import score

    return score(TASK, submission, split, metrics=metrics, metric_params=metric_params, reference=reference,
                 bootstrap=bootstrap, seed=seed, key_file=key_file)
