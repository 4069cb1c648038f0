"""The four 2026 submission shapes: read, check the shape, detect the subtask, and write.

Every 2026 `submission.json` is a JSON list of `{"case_id": "...", "prediction": ...}`:
- st1 (question interpretation): a string, cut to 15 words by the scorer;
- st2 (evidence identification): a list of note sentence-id strings;
- st3 (answer generation): a string, cut to 75 words by the scorer;
- st4 (evidence alignment): a list of `{"answer_id": "1", "evidence_id": ["2", "5"]}`.
The checks here need no key (types, empty texts, word limits, duplicate cases); the checks against
a key (missing or unknown cases and ids) live in `score2026.validate_2026`.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from archehr.atomic import write_json
from archehr.data.json_io import json_line_of
from archehr.errors import ConfigError, Problem, SubmissionError
from archehr_scoring.answer_format import cut_words
from archehr_scoring.tasks import get_task, tasks_with

# The three 2026 prediction kinds (the subtasks themselves are declared in archehr_scoring.tasks)
PREDICTION_KINDS = ("text", "ids", "links")


@dataclass(frozen=True)
class Alignment:
    """One st4 prediction item: an answer sentence and the note sentences it is aligned to."""

    answer_id: str
    evidence_ids: tuple[str, ...]


@dataclass(frozen=True)
class Submission2026:
    """A parsed submission. Texts are stripped and cut to the word limit, as the official scorer does."""

    task: str
    case_ids: tuple[str, ...]  # submission order (the official scripts iterate it in that order)
    texts: Mapping[str, str] | None = None  # st1, st3
    evidence: Mapping[str, frozenset[str]] | None = None  # st2 (duplicates collapse)
    alignments: Mapping[str, frozenset[tuple[str, str]]] | None = None  # st4: (answer_id, evidence_id) links
    answer_ids: Mapping[str, tuple[str, ...]] | None = None  # st4: answer ids named per case (for checks)


def subtasks() -> list[str]:
    """The registered tasks whose submissions have a 2026 shape (a list of {case_id, prediction})."""
    return tasks_with(lambda t: t.prediction in PREDICTION_KINDS and t.edition == "2026")


def check_task_name(task: str) -> str:
    if task not in subtasks():
        raise ConfigError(Problem(f"unknown 2026 subtask {task!r}; expected one of {', '.join(subtasks())}",
                                  field="--task", code="option"))
    return task


def kind(task: str) -> str:
    """What a subtask's prediction is: text (cut to its word limit), ids (note sentences) or links."""
    return get_task(check_task_name(task)).prediction


def word_limit(task: str) -> int:
    return get_task(task).word_limit or 0


def _is_id(x: Any) -> bool:
    return isinstance(x, str)


def _describe(x: Any) -> str:
    return "null" if x is None else type(x).__name__


def check_shape_2026(task: str, obj: Any, file: str | None = None, text: str = "") -> list[Problem]:
    """Every problem of a submission that needs no key: types, empty texts, word limits, duplicate cases.

    Errors make the official scorer stop; `warning-*` codes mark what it accepts but changes
    (texts cut to the word limit, repeated ids collapsed) or what is legal but suspicious.
    """
    check_task_name(task)
    if not isinstance(obj, list):
        return [Problem(f"a 2026 submission is a JSON list of {{case_id, prediction}} objects, got {_describe(obj)}",
                        file, code="type")]
    if not obj:
        return [Problem("the submission holds no cases", file, code="empty-submission")]
    out: list[Problem] = []
    seen: set[str] = set()
    for i, item in enumerate(obj):
        if not isinstance(item, dict):
            out.append(Problem(f"item {i} is {_describe(item)}, expected an object with case_id and prediction", file,
                               code="type"))
            continue
        cid = item.get("case_id")
        line = json_line_of(text, cid) if text and cid is not None else None
        if not isinstance(cid, str) or not cid.strip():
            hint = " (write it as a string: the scorer compares ids as strings)" if isinstance(cid, int) else ""
            out.append(Problem(f"item {i}: case_id must be a non-empty string, got {cid!r}{hint}", file, None,
                               "case_id", line, code="type"))
            continue
        if cid in seen:
            out.append(Problem("duplicate case id", file, cid, "case_id", line, code="duplicate-case"))
            continue
        seen.add(cid)
        extra = sorted(set(item) - {"case_id", "prediction"})
        if extra:
            out.append(Problem(f"unexpected field(s) {', '.join(extra)} (ignored by the scorer)", file, cid, None, line,
                               code="warning-extra-field"))
        if "prediction" not in item:
            hint = " (`answer` is the 2025 format)" if "answer" in item else ""
            out.append(Problem(f"missing field prediction{hint}", file, cid, "prediction", line, code="missing-field"))
            continue
        out += _check_prediction(task, item["prediction"], file, cid, line)
    return out


def _check_prediction(task: str, pred: Any, file: str | None, cid: str, line: int | None) -> list[Problem]:
    out: list[Problem] = []

    def add(msg: str, code: str, field: str = "prediction") -> None:
        out.append(Problem(msg, file, cid, field, line, code=code))

    if kind(task) == "text":
        if not isinstance(pred, str):
            add(f"prediction must be a string, got {_describe(pred)}", "type")
        elif not pred.strip():
            add("empty prediction", "empty-prediction")
        else:
            n, limit = len(pred.split()), word_limit(task)
            if n > limit:
                add(f"prediction has {n} words; the scorer keeps only the first {limit}", "warning-truncated")
        return out
    if not isinstance(pred, list):
        what = "sentence-id strings" if kind(task) == "ids" else "{answer_id, evidence_id} objects"
        add(f"prediction must be a list of {what}, got {_describe(pred)}", "type")
        return out
    if kind(task) == "ids":
        bad = [x for x in pred if not _is_id(x)]
        if bad:
            add(f"sentence ids must be strings, got {', '.join(repr(b) for b in bad[:5])}", "type")
        ids = [x for x in pred if _is_id(x)]
        dups = sorted({x for x in ids if ids.count(x) > 1}, key=_id_order)
        if dups:
            add(f"sentence id(s) {', '.join(dups)} listed more than once (counted once)", "warning-duplicate-id")
        if not pred:
            add("empty prediction: no evidence sentence (scores 0 unless the case has no essential sentence)",
                "warning-empty-prediction")
        return out
    # st4
    seen_answers: set[str] = set()
    for j, al in enumerate(pred):
        field = f"prediction[{j}]"
        if not isinstance(al, dict):
            add(f"alignment {j} is {_describe(al)}, expected an object with answer_id and evidence_id", "type", field)
            continue
        for name in ("answer_id", "evidence_id"):
            if name not in al:
                add(f"alignment {j} is missing {name}", "missing-field", f"{field}.{name}")
        aid, ev = al.get("answer_id"), al.get("evidence_id")
        if "answer_id" in al and not _is_id(aid):
            add(f"answer_id must be a string, got {aid!r}", "type", f"{field}.answer_id")
        if "evidence_id" in al:
            if not isinstance(ev, list):
                add(f"evidence_id must be a list of strings, got {_describe(ev)}"
                    + (' (write "2,5" as ["2", "5"])' if isinstance(ev, str) else ""), "type", f"{field}.evidence_id")
            elif not all(_is_id(x) for x in ev):
                add(f"evidence ids must be strings, got {ev!r}", "type", f"{field}.evidence_id")
        if _is_id(aid):
            if aid in seen_answers:
                add(f"answer_id {aid} appears in more than one alignment (their links are pooled)",
                    "warning-duplicate-id", f"{field}.answer_id")
            seen_answers.add(aid)
    return out


def _id_order(x: str) -> tuple[int, int | str]:
    return (0, int(x)) if x.isascii() and x.isdigit() else (1, x)  # "²".isdigit(), but int("²") fails


def filter_cases(obj: Any, case_ids: frozenset[str] | None) -> Any:
    """The items of `obj` in `case_ids` (items without a string case_id kept, for the shape check to report)."""
    if case_ids is None or not isinstance(obj, list):
        return obj
    return [it for it in obj if not (isinstance(it, dict) and isinstance(it.get("case_id"), str))
            or it["case_id"] in case_ids]


def parse_submission_2026(task: str, obj: Any, file: str | None = None, text: str = "",
                          case_ids: frozenset[str] | None = None) -> Submission2026:
    """The scorer's reading of a submission (raises SubmissionError on any shape error).

    `case_ids` restricts it to those cases, as the official `--case_ids_to_score` does: other
    cases are skipped before any check.
    """
    obj = filter_cases(obj, case_ids)
    errors = [p for p in check_shape_2026(task, obj, file, text) if not p.code.startswith("warning")]
    if errors:
        raise SubmissionError(errors)
    order = tuple(it["case_id"] for it in obj)
    if kind(task) == "text":
        return Submission2026(task, order, texts={it["case_id"]: cut_words(it["prediction"], word_limit(task))
                                                  for it in obj})
    if kind(task) == "ids":
        return Submission2026(task, order, evidence={it["case_id"]: frozenset(it["prediction"]) for it in obj})
    return Submission2026(
        task, order,
        alignments={it["case_id"]: frozenset((al["answer_id"], e) for al in it["prediction"] for e in al["evidence_id"])
                    for it in obj},
        answer_ids={it["case_id"]: tuple(al["answer_id"] for al in it["prediction"]) for it in obj},
    )


def detect_task_2026(obj: Any) -> str:
    """The subtask a submission's shape implies; SubmissionError when it is not a 2026 shape or is ambiguous.

    Lists of id strings are st2, lists of objects st4. Strings are st1 (questions, <= 15 words)
    or st3 (answers, <= 75 words): all predictions within 15 words -> st1; a median over 30 words
    -> st3; otherwise mostly questions ("?") -> st1; anything else is ambiguous and needs --task.
    """
    if not isinstance(obj, list) or not obj or not all(isinstance(it, dict) for it in obj):
        raise SubmissionError(Problem("not a 2026 submission: expected a non-empty JSON list of "
                                      "{case_id, prediction} objects", code="detect"))
    if all("answer" in it and "prediction" not in it for it in obj):
        raise SubmissionError(Problem("this is a 2025 submission (`answer` fields), not one of the 2026 subtasks",
                                      code="detect"))
    preds = [it.get("prediction") for it in obj]
    if all(isinstance(p, str) for p in preds):
        counts = [len(p.split()) for p in preds]
        if max(counts) <= word_limit("st1"):
            return "st1"
        if statistics.median(counts) > 2 * word_limit("st1"):
            return "st3"
        if sum(p.rstrip().endswith("?") for p in preds) > len(preds) / 2:
            return "st1"
        raise SubmissionError(Problem(
            f"cannot tell st1 (questions) from st3 (answers): predictions have {min(counts)}-{max(counts)} words "
            f"(median {statistics.median(counts):g}); pass --task st1 or --task st3", code="detect"))
    if all(isinstance(p, list) for p in preds):
        items = [x for p in preds for x in p]
        if not items:
            raise SubmissionError(Problem("every prediction is an empty list: st2 or st4? pass --task", code="detect"))
        if all(isinstance(x, dict) for x in items):
            return "st4"
        if not any(isinstance(x, dict) for x in items):
            return "st2"
    kinds = sorted({_describe(p) for p in preds})
    raise SubmissionError(Problem(f"mixed or unknown prediction types ({', '.join(kinds)}): not a 2026 shape; "
                                  "st1/st3 predictions are strings, st2 lists of ids, st4 lists of "
                                  "{answer_id, evidence_id} objects", code="detect"))


# ---------------------------------------------------------------------------------------------
# Writing


def to_official_2026(task: str, predictions: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Official submission objects from `case_id -> prediction`.

    st1/st3: a string. st2: an iterable of sentence ids (int or str; repeats dropped, order kept).
    st4: a mapping `answer_id -> evidence ids`, or an iterable of `(answer_id, ids)` pairs or of
    `{"answer_id", "evidence_id"}` objects.
    """
    check_task_name(task)
    out: list[dict[str, Any]] = []
    for cid, pred in predictions.items():
        if kind(task) == "text":
            value: Any = pred
        elif kind(task) == "ids":
            value = _ids(pred)
        else:
            value = [{"answer_id": str(a), "evidence_id": _ids(ev)} for a, ev in _alignment_pairs(pred)]
        out.append({"case_id": str(cid), "prediction": value})
    return out


def _ids(values: Any) -> Any:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        return values  # left as is so that the shape check names the problem
    return list(dict.fromkeys(str(v) for v in values))


def _alignment_pairs(pred: Any) -> list[tuple[Any, Any]]:
    if isinstance(pred, Mapping):
        return list(pred.items())
    pairs = []
    for item in pred:
        if isinstance(item, Mapping):
            pairs.append((item.get("answer_id"), item.get("evidence_id", [])))
        else:
            a, ev = item
            pairs.append((a, ev))
    return pairs


def write_submission_2026(task: str, predictions: Mapping[str, Any], path: str | os.PathLike[str],
                          note_ids: Mapping[str, set[str]] | None = None) -> list[Problem]:
    """Write `submission.json` for a subtask atomically; returns the warnings (cut texts, empty lists).

    Raises SubmissionError, writing nothing, when a prediction has the wrong shape.
    """
    obj = to_official_2026(task, predictions)
    problems = check_shape_2026(task, obj, str(path))
    errors = [p for p in problems if not p.code.startswith("warning")]
    if errors:
        raise SubmissionError(errors)
    write_json(path, obj)
    return problems
