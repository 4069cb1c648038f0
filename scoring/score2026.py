"""Score and validate submissions of the four 2026 subtasks, as the official scripts do.

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
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Sequence
from typing import Any

from archehr.data.model import Split
from archehr.data.releases import KEY_NAME, XML_NAME
from archehr.errors import ConfigError, DataError, Problem, SubmissionError, UnavailableError
from archehr_scoring import __version__
from archehr_scoring.aggregate2026 import (
    OVERALL_PARTS,
    TASK_METRICS,
    alignment_case_prf,
    evidence_case_prf,
    metric_keys,
    official_keys,
)
from archehr_scoring.case_ids import format_case_ids, parse_case_ids
from archehr_scoring.metrics.base import MetricSettings, TextExample, signature
from archehr_scoring.reference import load_reference
from archehr_scoring.results import AGGREGATORS, PartialScore, ScoreReport
from archehr_scoring.submission2026 import (
    TASK_TITLES,
    TEXT_TASKS,
    WORD_LIMITS,
    Submission2026,
    check_shape_2026,
    check_task_name,
    detect_task_2026,
    load_submission_json,
    parse_submission_2026,
)

__all__ = ["score_2026", "validate_2026", "detect_task_2026", "load_reference_2026", "reference_case_ids"]

CaseIdsArg = str | Iterable[str] | frozenset[str] | None
DEFAULT_SETTINGS = MetricSettings()  # frozen: safe to share as a default
# What the text metrics compare the prediction with (recorded in their signatures).
REFERENCE_KIND = {"st1": "clinician_question", "st3": "clinician_answer_without_citations"}


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
    if task == "st1":
        if not ref.cases:
            raise DataError(Problem(f"st1 is scored against the XML's <clinician_question>; no {XML_NAME} was found "
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
        if task == "st3":
            if not entry.clinician_answer_without_citations:
                problems.append(Problem("key has no clinician_answer_without_citations (the st3 reference)", src, c,
                                        "clinician_answer_without_citations", code="missing-reference"))
            if not ref.cases:
                continue
            if c not in ref.case_ids or not ref.case(c).patient_narrative:
                problems.append(Problem(f"no patient_narrative in {XML_NAME} (the st3 SARI source)", src, c,
                                        "patient_narrative", code="missing-reference"))
        elif task == "st4" and entry.clinician_answer_sentences is None:
            problems.append(Problem("key has no clinician_answer_sentences (the st4 reference)", src, c,
                                    "clinician_answer_sentences", code="missing-reference"))
    if task == "st3" and not ref.cases:
        problems.insert(0, Problem(f"st3 needs {XML_NAME} beside the key: SARI's source is the patient narrative",
                                   src, code="missing-reference"))
    if problems:
        raise DataError(problems)
    return tuple(ids)


# ---------------------------------------------------------------------------------------------
# Validation


def _filter_items(obj: Any, case_ids: frozenset[str] | None) -> Any:
    if case_ids is None or not isinstance(obj, list):
        return obj
    return [it for it in obj if not (isinstance(it, dict) and isinstance(it.get("case_id"), str))
            or it["case_id"] in case_ids]


def validate_2026(task: str, submission_obj: Any, split: Split | None, file: str | None = None, *,
                  text: str = "", case_ids: frozenset[str] | None = None) -> list[Problem]:
    """Every problem of a 2026 submission, errors and warnings (codes `warning-*`), all at once.

    Without a reference (`split=None`) only the shape is checked. With one, the case ids must be
    exactly the reference's (after the `case_ids` restriction, like the official scripts) and
    every sentence / answer id must exist in the key.
    """
    check_task_name(task)
    obj = _filter_items(submission_obj, case_ids)
    if case_ids is not None and isinstance(obj, list) and not obj and submission_obj:
        return [Problem(f"no case left to score: --case-ids {format_case_ids(case_ids)} selects none of the "
                        "submission's cases", file, field="--case-ids", code="empty-submission")]
    problems = check_shape_2026(task, obj, file, text)
    if split is None or not isinstance(obj, list):
        return problems
    expected = reference_case_ids(task, split, case_ids)
    if case_ids is not None:
        known = set(split.case_ids if task == "st1" else (k.case_id for k in split.key or ()))
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
    if task in ("st2", "st4"):
        problems += _check_ids(task, obj, split, set(expected), file)
    return problems


def _num_first(x: str) -> tuple[int, int | str]:
    return (0, int(x)) if x.isdigit() else (1, x)


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
        if task == "st2":
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


def score_2026(task: str | None, submission: Any, split_or_key: Split | str | os.PathLike[str],
               metrics: Sequence[str] | None = None, settings: MetricSettings | None = None,
               case_ids: CaseIdsArg = None, bootstrap: int = 0, seed: int = 12345) -> ScoreReport:
    """Score a 2026 submission (a path or the parsed JSON list) on one subtask.

    `task=None` detects the subtask from the submission's shape (recorded in `meta`).
    `case_ids` ("121-167,3" or a set) restricts scoring like `--case_ids_to_score`.
    Raises SubmissionError listing every problem when the submission is invalid.
    """
    settings = settings or DEFAULT_SETTINGS
    file: str | None = None
    text = ""
    if isinstance(submission, (str, os.PathLike)):
        file = str(submission)
        obj, text = load_submission_json(submission)
    else:
        obj = submission
    detected = task is None or task == "auto"
    task = detect_task_2026(obj) if detected else check_task_name(task)  # type: ignore[arg-type]
    wanted = case_ids if isinstance(case_ids, frozenset) or case_ids is None else parse_case_ids(case_ids)
    ref = load_reference_2026(split_or_key)
    names = _metric_names(task, metrics)

    problems = validate_2026(task, obj, ref, file, text=text, case_ids=wanted)
    errors = [p for p in problems if not p.code.startswith("warning")]
    if errors:
        raise SubmissionError(errors)
    sub = parse_submission_2026(task, obj, file, text, wanted)
    if not sub.case_ids:
        raise SubmissionError(Problem("no case left to score" + (" after --case-ids" if wanted else ""), file,
                                      code="empty-submission"))

    meta: dict[str, Any] = {
        "edition": "2026",
        "subtask": f"{task} ({TASK_TITLES[task]})",
        "task_detected": detected,
        "reference": ref.source,
        "n_cases": len(sub.case_ids),
        "case_ids": format_case_ids(sub.case_ids),
        "scorer_version": __version__,
    }
    unavailable: dict[str, str] = {}
    partial: dict[str, PartialScore] = {}
    if task in TEXT_TASKS:
        rows, signatures, unavailable = _text_rows(task, sub, ref, names, settings)
        meta["word_limit"] = WORD_LIMITS[task]
        meta["settings"] = dataclasses.asdict(settings)
        not_run = [m for m in TASK_METRICS[task] if m not in names]
        if not_run:
            meta["not_requested"] = not_run
    elif task == "st2":
        rows, signatures = _evidence_rows(sub, ref), {"evidence": _set_signature("st2")}
    else:
        rows, signatures = _alignment_rows(sub, ref), {"alignment": _set_signature("st4")}

    ctx_report = ScoreReport(task, {}, rows, signatures, unavailable)
    scores = AGGREGATORS.get(task)([rows[c] for c in sub.case_ids], ctx_report.context())
    scores = {k: scores.get(k) for k in official_keys(task)}
    if task in TEXT_TASKS and scores["overall_score"] is None:
        have = tuple(k for k in OVERALL_PARTS[task] if scores[k] is not None)
        if have:
            partial["overall_score"] = PartialScore(sum(scores[k] for k in have) / len(have),  # type: ignore[misc]
                                                    have, tuple(k for k in OVERALL_PARTS[task] if scores[k] is None))
    report = ScoreReport(task, scores, rows, signatures, unavailable, partial,
                         tuple(p for p in problems if p.code.startswith("warning")), None, meta)
    if bootstrap > 0:
        from archehr_scoring.bootstrap import bootstrap_ci

        report = dataclasses.replace(report, ci=bootstrap_ci(report, bootstrap, seed),
                                     meta={**meta, "bootstrap": {"n": bootstrap, "seed": seed}})
    return report


def _metric_names(task: str, metrics: Sequence[str] | None) -> tuple[str, ...]:
    if task not in TEXT_TASKS:
        if metrics:
            raise ConfigError(Problem(f"{task} is scored on id sets; it takes no --metrics (got "
                                      f"{', '.join(metrics)})", field="--metrics", code="option"))
        return ()
    allowed = TASK_METRICS[task]
    if not metrics:
        return allowed
    bad = [m for m in metrics if m not in allowed]
    if bad:
        raise ConfigError(Problem(f"{task} does not use metric(s) {', '.join(bad)}; its metrics are "
                                  f"{', '.join(allowed)}", field="--metrics", code="option"))
    return tuple(m for m in allowed if m in metrics)  # official order


def _set_signature(task: str) -> str:
    if task == "st2":
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
        if task == "st1":
            reference = ref.case(cid).clinician_question or ""
            out.append(TextExample(cid, texts[cid], reference))
        else:
            reference = ref.key_for(cid).clinician_answer_without_citations or ""
            source = ref.case(cid).patient_narrative or ""
            out.append(TextExample(cid, texts[cid], reference, sari_source=source, sari_reference=reference))
    return out


def _text_rows(task: str, sub: Submission2026, ref: Split, names: Sequence[str], settings: MetricSettings,
               ) -> tuple[dict[str, dict[str, float]], dict[str, str], dict[str, str]]:
    examples = text_examples_2026(task, sub, ref)
    rows: dict[str, dict[str, float]] = {cid: {} for cid in sub.case_ids}
    signatures: dict[str, str] = {}
    unavailable: dict[str, str] = {}
    for name in names:
        sig, reason, per_case = _run_metric(name, examples, settings, REFERENCE_KIND[task])
        signatures[name] = sig
        if reason is not None:
            unavailable[name] = reason
            continue
        for cid in sub.case_ids:
            for k in metric_keys(name):
                rows[cid][k] = float((per_case or {})[cid][k])
    return rows, signatures, unavailable


def _run_metric(name: str, examples: list[TextExample], settings: MetricSettings, reference_kind: str,
                ) -> tuple[str, str | None, dict[str, dict[str, float]] | None]:
    """(signature, unavailable reason or None, per-case values). Never a made-up number."""
    from archehr_scoring.metrics.registry import build_metric

    try:
        metric = build_metric(name, **metric_settings(settings), reference_kind=reference_kind)
    except ModuleNotFoundError as e:
        if (e.name or "").startswith("archehr_scoring"):
            why = f"this installation has no implementation of {name!r} ({e.name} is missing)"
        else:
            why = f"module {e.name!r} is not installed (pip install 'archehr[models]')"
        return f"{name}|unavailable", why, None
    except UnavailableError as e:
        return f"{name}|unavailable", str(e), None
    try:
        result = metric.run(examples)
    except UnavailableError as e:
        return metric.signature(), str(e), None
    if result.unavailable is not None:
        return result.signature, result.unavailable, None
    return result.signature, None, result.per_case


def metric_settings(settings: MetricSettings) -> dict[str, Any]:
    """Keyword settings handed to every text metric (each one reads the fields it uses)."""
    return dataclasses.asdict(settings)
