"""The four 2026 subtasks' submissions: detect, validate and read them as the official scripts do.

- st1 question interpretation: text cut to 15 words vs the XML's `<clinician_question>`; ROUGE,
  BERTScore, AlignScore, MEDCON; overall = mean(alignscore, rougeLsum, medcon, bertscore).
- st2 evidence identification: sets of note sentence ids; strict (gold = essential) and the 2026
  lenient reading (supplementary ids dropped from the prediction, gold = essential only), macro
  and micro; overall = strict micro F1.
- st3 answer generation: text cut to 75 words vs `clinician_answer_without_citations`; SARI's
  source is the patient narrative; BLEU, ROUGE, SARI, BERTScore, AlignScore, MEDCON; overall =
  their mean.
- st4 evidence alignment: (answer_id, evidence_id) links vs the clinician answer sentences'
  citations; micro and macro P/R/F1; overall = micro F1.
Where we differ from the official code on purpose: a metric that cannot run is `None` (the
official st1 script writes 0), so the overall score is `None` too.

The subtasks are declared in `archehr_scoring.tasks` (with their aggregation rules); `archehr_scoring.api.score`
runs the metrics and aggregates.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

from archehr.data.model import Split
from archehr.data.releases import KEY_NAME, XML_NAME
from archehr.errors import DataError, Problem, SubmissionError
from archehr_scoring import __version__
from archehr_scoring.aggregate2026 import alignment_case_prf, evidence_case_prf
from archehr_scoring.case_ids import format_case_ids
from archehr_scoring.metrics.base import TextExample, signature
from archehr_scoring.metrics.params import MetricParams
from archehr_scoring.reference import load_reference
from archehr_scoring.results import ScoreReport
from archehr_scoring.submission2026 import (
    Submission2026,
    check_shape_2026,
    check_task_name,
    detect_task_2026,
    filter_cases,
    kind,
    parse_submission_2026,
)
from archehr_scoring.tasks import Inputs, Prepared, get_task

__all__ = ["score_2026", "validate_2026", "detect_task_2026", "load_reference_2026", "reference_case_ids"]

CaseIdsArg = str | Iterable[str] | frozenset[str] | None
QUESTION_REFERENCE = "clinician_question"  # st1: the XML's question, not the key


def detect(obj: Any) -> str | None:
    """A list of {case_id, prediction} objects: one of the 2026 subtasks (which one: `detect_task_2026`)."""
    if isinstance(obj, list) and obj and all(isinstance(it, dict) for it in obj) \
            and any("prediction" in it for it in obj):
        return detect_task_2026(obj)
    return None


def _scored_against_xml(task: str) -> bool:
    return get_task(task).references == (QUESTION_REFERENCE,)


# ---------------------------------------------------------------------------------------------
# The reference: a Split holding what the subtask needs (XML cases and/or key entries)


def load_reference_2026(split_or_key: Split | str | os.PathLike[str]) -> Split:
    """A Split from a Split, a split folder, a key JSON (XML beside it read when present) or an XML
    (key beside it read when present). For st1 the XML alone is a complete reference."""
    return load_reference(split_or_key)


def reference_case_ids(task: str, ref: Split, case_ids: frozenset[str] | None = None) -> tuple[str, ...]:
    """The cases the official script would score: the XML's for st1, the key's for st2-st4.

    Raises DataError when the reference lacks what the subtask needs (naming every gap).
    """
    check_task_name(task)
    src = ref.source
    if _scored_against_xml(task):
        if not ref.cases:
            raise DataError(Problem(f"{task} is scored against the XML's <clinician_question>; no {XML_NAME} was found "
                                    "(pass the XML itself or put it beside the key)", src, code="missing-reference"))
        ids = [c.case_id for c in ref.cases if case_ids is None or c.case_id in case_ids]
        missing = [c for c in ids if not ref.case(c).clinician_question]
        if missing:
            raise DataError([Problem("no <clinician_question> (the st1 reference)", src, c, "clinician_question",
                                     code="missing-reference") for c in missing])
        return tuple(ids)
    if ref.key is None:
        raise DataError(Problem(f"{task} needs the key ({KEY_NAME}); only the XML was found", src,
                                code="missing-reference"))
    ids = [k.case_id for k in ref.key if case_ids is None or k.case_id in case_ids]
    problems: list[Problem] = []
    for c in ids:
        entry = ref.key_for(c)
        if kind(task) == "text":
            if not entry.clinician_answer_without_citations:
                problems.append(Problem("key has no clinician_answer_without_citations (the st3 reference)", src, c,
                                        "clinician_answer_without_citations", code="missing-reference"))
            if not ref.cases:
                continue
            if c not in ref.case_ids or not ref.case(c).patient_narrative:
                problems.append(Problem(f"no patient_narrative in {XML_NAME} (the st3 SARI source)", src, c,
                                        "patient_narrative", code="missing-reference"))
        elif kind(task) == "links" and entry.clinician_answer_sentences is None:
            problems.append(Problem("key has no clinician_answer_sentences (the st4 reference)", src, c,
                                    "clinician_answer_sentences", code="missing-reference"))
    if kind(task) == "text" and not ref.cases:
        problems.insert(0, Problem(f"{task} needs {XML_NAME} beside the key: SARI's source is the patient narrative",
                                   src, code="missing-reference"))
    if problems:
        raise DataError(problems)
    return tuple(ids)


# ---------------------------------------------------------------------------------------------
# Validation


def validate_2026(task: str, submission_obj: Any, split: Split | None, file: str | None = None, *,
                  text: str = "", case_ids: frozenset[str] | None = None) -> list[Problem]:
    """Every problem of a 2026 submission, errors and warnings (codes `warning-*`), all at once.

    Without a reference (`split=None`) only the shape is checked. With one, the case ids must be
    exactly the reference's (after the `case_ids` restriction, like the official scripts) and
    every sentence / answer id must exist in the key.
    """
    check_task_name(task)
    obj = filter_cases(submission_obj, case_ids)
    if case_ids is not None and isinstance(obj, list) and not obj and submission_obj:
        return [Problem(f"no case left to score: --case-ids {format_case_ids(case_ids)} selects none of the "
                        "submission's cases", file, field="--case-ids", code="empty-submission")]
    problems = check_shape_2026(task, obj, file, text)
    if split is None or not isinstance(obj, list):
        return problems
    expected = reference_case_ids(task, split, case_ids)
    if case_ids is not None:
        known = set(split.case_ids if _scored_against_xml(task) else (k.case_id for k in split.key or ()))
        unknown = sorted(case_ids - known, key=_num_first)
        if unknown:
            problems.append(Problem(f"--case-ids selects cases the reference does not have: "
                                    f"{format_case_ids(unknown)}", file, field="--case-ids",
                                    code="warning-case-ids"))
    submitted = [it["case_id"] for it in obj if isinstance(it, dict) and isinstance(it.get("case_id"), str)]
    missing = sorted(set(expected) - set(submitted), key=_num_first)
    extra = sorted(set(submitted) - set(expected), key=_num_first)
    for c in missing:
        problems.append(Problem("case is in the reference but not in the submission", file, c, "case_id",
                                code="missing-case"))
    for c in extra:
        problems.append(Problem("case is in the submission but not in the reference", file, c, "case_id",
                                code="unknown-case"))
    if kind(task) in ("ids", "links"):
        problems += _check_ids(task, obj, split, set(expected), file)
    return problems


def _num_first(x: str) -> tuple[int, int | str]:
    return (0, int(x)) if x.isascii() and x.isdigit() else (1, x)  # "²".isdigit(), but int("²") fails


def _check_ids(task: str, obj: list[Any], split: Split, expected: set[str], file: str | None) -> list[Problem]:
    """Ids that the key does not have (the official scripts stop on each of these)."""
    out: list[Problem] = []
    for it in obj:
        if not isinstance(it, dict) or it.get("case_id") not in expected or not isinstance(it.get("prediction"), list):
            continue
        cid = it["case_id"]
        entry = split.key_for(cid)
        # The official scripts take the valid note sentence ids from the key's labels.
        valid = {a.sentence_id for a in entry.answers}
        if kind(task) == "ids":
            bad = sorted({x for x in it["prediction"] if isinstance(x, str) and x not in valid}, key=_num_first)
            if bad:
                out.append(Problem(f"unknown sentence id(s) {', '.join(repr(b) for b in bad)}; this note has "
                                   f"{_id_range(valid)}", file, cid, "prediction", code="unknown-sentence"))
            continue
        answers = {s.id for s in entry.clinician_answer_sentences or ()}
        for j, al in enumerate(it["prediction"]):
            if not isinstance(al, dict):
                continue
            aid = al.get("answer_id")
            if isinstance(aid, str) and aid not in answers:
                out.append(Problem(f"unknown answer_id {aid!r}; the clinician answer has sentences "
                                   f"{_id_range(answers)}", file, cid, f"prediction[{j}].answer_id",
                                   code="unknown-answer"))
            ev = al.get("evidence_id")
            if isinstance(ev, list):
                bad = sorted({x for x in ev if isinstance(x, str) and x not in valid}, key=_num_first)
                if bad:
                    out.append(Problem(f"unknown evidence id(s) {', '.join(repr(b) for b in bad)}; this note has "
                                       f"{_id_range(valid)}", file, cid, f"prediction[{j}].evidence_id",
                                       code="unknown-sentence"))
    return out


def _id_range(ids: set[str]) -> str:
    return f"sentences {format_case_ids(ids)}" if ids else "no sentences"


# ---------------------------------------------------------------------------------------------
# Scoring


class Handler2026:
    """How the pipeline reads a 2026 submission (see `archehr_scoring.tasks.Task.handler`)."""

    def validate(self, task: str, inputs: Inputs) -> tuple[list[Problem], list[Problem]]:
        problems = validate_2026(task, inputs.obj, inputs.split, inputs.file, text=inputs.text,
                                 case_ids=inputs.case_ids)
        return ([p for p in problems if not p.code.startswith("warning")],
                [p for p in problems if p.code.startswith("warning")])

    def prepare(self, task: str, inputs: Inputs) -> Prepared:
        ref, wanted = inputs.split, inputs.case_ids
        errors, warnings = self.validate(task, inputs)
        if errors:
            raise SubmissionError(errors)
        sub = parse_submission_2026(task, inputs.obj, inputs.file, inputs.text, wanted)
        if not sub.case_ids:
            raise SubmissionError(Problem("no case left to score" + (" after --case-ids" if wanted else ""),
                                          inputs.file, code="empty-submission"))
        rows: dict[str, dict[str, float]] = {cid: {} for cid in sub.case_ids}
        examples: list[TextExample] = []
        signatures: dict[str, str] = {}
        if kind(task) == "ids":
            rows, signatures = _evidence_rows(sub, ref), {"evidence": _set_signature(task)}
        elif kind(task) == "links":
            rows, signatures = _alignment_rows(sub, ref), {"alignment": _set_signature(task)}
        else:
            examples = text_examples_2026(task, sub, ref)
        return Prepared(sub.case_ids, rows, examples, signatures, warnings,
                        {"case_ids": format_case_ids(sub.case_ids)})


HANDLER = Handler2026()


def score_2026(task: str | None, submission: Any, split_or_key: Split | str | os.PathLike[str],
               metrics: str | Sequence[str] | None = None, metric_params: MetricParams | None = None,
               case_ids: CaseIdsArg = None, bootstrap: int = 0, seed: int = 12345) -> ScoreReport:
    """`archehr_scoring.api.score` on a 2026 subtask (`task=None` detects it; kept for existing callers)."""
    from archehr_scoring.api import score

    return score(task, submission, split_or_key, metrics=metrics, metric_params=metric_params, case_ids=case_ids,
                 bootstrap=bootstrap, seed=seed)


def _set_signature(task: str) -> str:
    if kind(task) == "ids":
        return signature("st2-evidence", strict="essential", lenient="drop-supplementary-predictions",
                         empty="both=1,one=0", micro_empty="1", version=__version__)
    return signature("st4-alignment", unit="answer_id-evidence_id-link", empty="no-pred=P0,no-gold=R0,both=0",
                     version=__version__)


def _evidence_rows(sub: Submission2026, ref: Split) -> dict[str, dict[str, float]]:
    evidence = sub.evidence or {}
    rows: dict[str, dict[str, float]] = {}
    for cid in sub.case_ids:
        entry = ref.key_for(cid)
        strict = frozenset(entry.essential_ids)
        supplementary = frozenset(entry.supplementary_ids)
        predicted = evidence[cid]
        lenient_pred = predicted - supplementary  # 2026 lenient: supplementary predictions do not count
        row: dict[str, float] = {}
        for mode, pred in (("strict", predicted), ("lenient", lenient_pred)):
            p, r, f = evidence_case_prf(pred, strict)
            row.update({f"{mode}_precision": p, f"{mode}_recall": r, f"{mode}_f1": f,
                        f"{mode}_tp": len(pred & strict), f"{mode}_n_pred": len(pred), f"{mode}_n_gold": len(strict)})
        rows[cid] = row
    return rows


def _alignment_rows(sub: Submission2026, ref: Split) -> dict[str, dict[str, float]]:
    alignments = sub.alignments or {}
    rows: dict[str, dict[str, float]] = {}
    for cid in sub.case_ids:
        gold = frozenset((s.id, e) for s in ref.key_for(cid).clinician_answer_sentences or () for e in s.citations)
        pred = alignments[cid]
        tp = len(pred & gold)
        p, r, f = alignment_case_prf(tp, len(pred), len(gold))
        rows[cid] = {"precision": p, "recall": r, "f1": f, "tp": tp, "n_pred": len(pred), "n_gold": len(gold)}
    return rows


def text_examples_2026(task: str, sub: Submission2026, ref: Split) -> list[TextExample]:
    """What each text metric sees: the cut prediction, the subtask's reference and SARI's source."""
    texts = sub.texts or {}
    out = []
    for cid in sub.case_ids:
        if _scored_against_xml(task):
            reference = ref.case(cid).clinician_question or ""
            out.append(TextExample(cid, texts[cid], reference))
        else:
            reference = ref.key_for(cid).clinician_answer_without_citations or ""
            source = ref.case(cid).patient_narrative or ""
            out.append(TextExample(cid, texts[cid], reference, sari_source=source, sari_reference=reference))
    return out
