"""Run directories: submission.json + run.json, a per-case checkpoint, and resuming.

    OUT_DIR/checkpoint.jsonl   one line per finished case, appended and fsynced as it finishes
    OUT_DIR/run.json           provenance (config, git commit, versions, seeds, input hashes,
                               timings, fallbacks), rewritten atomically at start and end
    OUT_DIR/submission.json    written atomically once every case is done

A run killed at any point leaves at worst one torn last checkpoint line, which resuming drops from the file;
`resume=True` skips every case whose input hash matches its checkpoint line and redoes the rest.
The files are kept by `RunRecorder` (`run_folder.py`); `run_split` is the loop over the cases.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import platform
import re
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from archehr.data.model import Case, Split
from archehr.errors import Problem
from archehr.llm.usage import totals as usage_totals
from archehr.llm.usage import track_usage
from archehr.pipeline import CasePrediction, System, predicted_task
from archehr.run_folder import (
    CHECKPOINT,
    RUN_JSON,
    RUN_SCHEMA_VERSION,
    SUBMISSION,
    RunRecorder,
    read_checkpoint,
    run_schema_version,
)
from archehr.run_provenance import git_commit, portable_system, run_record_path, versions

_read_checkpoint = read_checkpoint  # the name tests and older callers import
__all__ = ["CHECKPOINT", "RUN_JSON", "RUN_SCHEMA_VERSION", "SUBMISSION", "RunRecorder", "RunResult",
           "case_input_hash", "git_commit", "model_share", "run_record_path", "run_schema_version", "run_split",
           "versions", "write_submission"]


def answerability_of(case: Case) -> float | None:
    """The shipped answerability model's P(answerable) of the case's patient question (None without one)."""
    if not case.question_text.strip() or not case.sentences:
        return None
    from archehr.answerability.data import question_case
    from archehr.answerability.model import shipped_model

    return shipped_model().probability(question_case(case.case_id, case.question_text, case.sentences))


def _prediction(task: str) -> str:
    """What a task's prediction is (answer, text, ids, links): declared by the scorer's task registry."""
    from archehr_scoring.tasks import get_task

    return get_task(task).prediction


def case_input_hash(case: Case, split: Split | None, task: str) -> str:
    """Hash of everything a prediction of this case may read (the clinician answers too for st4)."""
    payload: dict[str, Any] = {"case": dataclasses.asdict(case)}
    if _prediction(task) == "links" and split is not None and split.key is not None:
        try:
            payload["answers"] = dataclasses.asdict(split.key_for(case.case_id)).get("clinician_answer_sentences")
        except KeyError:
            payload["answers"] = None
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


@dataclasses.dataclass
class RunResult:
    out_dir: Path
    predictions: dict[str, CasePrediction]
    done_before: list[str]  # resumed from the checkpoint
    done_now: list[str]
    fallbacks: dict[str, str]
    seconds: float
    warnings: list[Problem]
    flagged: list[str] = dataclasses.field(default_factory=list)  # low-confidence cases, for review
    llm_usage: dict[str, Any] | None = None  # totals over the split (resumed cases included), when an LLM ran
    model_share: dict[str, Any] | None = None  # cases the model answered, when it answers the task


def write_submission(task: str, predictions: dict[str, Any], path: Path,
                     note_ids: dict[str, set[str]]) -> list[Problem]:
    """The official file of the task, written by the task's own writer; refuses (SubmissionError, nothing
    written) an invalid one."""
    return predicted_task(task).write(predictions, path, note_ids)


def fallback_kind(reason: str) -> str:
    """A fallback reason with its numbers, addresses and case-specific tail blurred, so alike reasons count
    together ("backend error: HTTP N from URL: ...")."""
    text = re.sub(r"https?://\S+?(?=:?(?:\s|$))", "URL", reason)
    text = re.sub(r"\d+(?:\.\d+)?", "N", text)
    return text[:140]  # the grouping key only: never shown


def model_share(rows: list[dict[str, Any]], min_share: float | None) -> dict[str, Any]:
    """How many cases the model answered (no fallback), and the commonest reasons of the others."""
    fell = [r["fallback"] for r in rows if r.get("fallback")]
    n = len(rows)
    share = (n - len(fell)) / n if n else 1.0
    # alike reasons count together (their numbers and addresses blurred); each group is shown by its first
    # reason as written, real numbers and address included, shortened at a word
    groups = Counter(fallback_kind(f) for f in fell).most_common(3)
    first = {k: next(f for f in fell if fallback_kind(f) == k) for k, _ in groups}
    return {"answered": n - len(fell), "cases": n, "share": round(share, 4), "min_share": min_share,
            "below_min": bool(min_share and share < min_share),
            "top_fallback_reasons": [{"reason": textwrap.shorten(first[k], 240, placeholder=" ..."), "cases": c}
                                     for k, c in groups]}


def _case_row(system: System, case: Case, task: str, split: Split, input_sha256: str) -> dict[str, Any]:
    """One case predicted, as its checkpoint line."""
    t = time.perf_counter()
    with track_usage() as usage:
        pred = system.predict(case, task, split)
    row = {"case_id": case.case_id, "input_sha256": input_sha256, "prediction": pred.prediction,
           "fallback": pred.fallback, "notes": list(pred.notes), "cited": list(pred.cited),
           "flagged": bool(pred.flagged), "seconds": round(time.perf_counter() - t, 4)}
    # the official tasks never abstain; what `archehr answer` would have decided is recorded beside
    p = answerability_of(case)
    if p is not None:
        row["answerability"] = round(p, 4)
    if usage.active:
        row["llm"] = usage.to_dict()
    return row


def _start_fields(system: System, sysdesc: dict[str, Any], split: Split, task: str, data_source: str | None,
                  hashes: dict[str, str]) -> dict[str, Any]:
    return {"task": task, "split": split.name, "data": run_record_path(data_source or split.source),
            "release_version": split.version, "system": portable_system(sysdesc),
            "seed": system.config.seed, "git_commit": git_commit(), "versions": versions(),
            "platform": platform.platform(), "argv": sys.argv, "n_cases": len(split.cases), "input_sha256": hashes}


def _llm_fields(system: System, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """What the LLM did over the run: its cache, the per-case usage and the transport's report."""
    out: dict[str, Any] = {}
    stats = system.llm_stats()
    if stats.cache is not None:
        out["llm_cache"] = {**stats.cache, "dir": run_record_path(stats.cache["dir"])}
    per_case = {r["case_id"]: r["llm"] for r in rows if isinstance(r.get("llm"), dict)}
    if per_case:
        out["llm_usage"] = {"totals": usage_totals(per_case.values()), "per_case": per_case}
    if stats.transport:
        out["llm_transport"] = stats.transport
    return out


def _complete_fields(system: System, rows: list[dict[str, Any]], todo: list[Case], seconds: float,
                     warnings: list[Problem]) -> dict[str, Any]:
    ran = {c.case_id for c in todo}
    return {
        "system": portable_system(system.describe()),
        "cases_resumed": sorted((r["case_id"] for r in rows if r["case_id"] not in ran), key=lambda x: (len(x), x)),
        "cases_run": [c.case_id for c in todo],
        "timings": {"seconds": round(seconds, 3),
                    "cases_per_second": round(len(todo) / seconds, 2) if seconds else None,
                    "per_case_seconds": {r["case_id"]: r["seconds"] for r in rows}},
        "fallbacks": {r["case_id"]: r["fallback"] for r in rows if r.get("fallback")},
        "flagged_cases": [r["case_id"] for r in rows if r.get("flagged")],
        "answerability": {"model": "lexical", "note": "P(the note answers the patient question), as `archehr "
                          "answer` computes it; predict never abstains",
                          "per_case": {r["case_id"]: r["answerability"] for r in rows if "answerability" in r}},
        "repairs": {r["case_id"]: r["notes"] for r in rows if r.get("notes")},
        "warnings": [w.to_dict() for w in warnings],
    }


def _prediction_of(row: dict[str, Any]) -> CasePrediction:
    return CasePrediction(row["case_id"], row["prediction"], row.get("fallback"), tuple(row.get("notes", ())),
                          tuple(row.get("cited", ())), bool(row.get("flagged")))


def run_split(system: System, split: Split, task: str, out_dir: str | Path, *, resume: bool = False,
              force: bool = False, workers: int = 1,
              on_case: Callable[[int, int], None] | None = None,
              after_case: Callable[[str], None] | None = None, data_source: str | None = None,
              retry_fallbacks: bool = False, min_model_share: float | None = None) -> RunResult:
    """Predict every case of `split` for `task`, checkpointing each case; see the module docstring.

    `after_case(case_id)` runs after a case is checkpointed (tests use it to simulate a kill).
    `retry_fallbacks` (with `resume`) predicts again the checkpointed cases that fell back. When the LLM
    answers the task, run.json's `model_share` says how many cases it answered (`min_model_share` is
    recorded there; the CLI turns a share below it into exit 3).
    """
    predicted_task(task)
    rec = RunRecorder(out_dir, resume=resume, force=force)
    sysdesc = system.describe()
    rec.check_resumable(task, split.name, sysdesc["config_sha256"])
    system.start()  # the LLM server's served model is checked before anything is written
    hashes = {c.case_id: case_input_hash(c, split, task) for c in split.cases}
    retried = rec.load_done(hashes, retry_fallbacks)
    rec.start(_start_fields(system, sysdesc, split, task, data_source, hashes))
    todo = [c for c in split.cases if c.case_id not in rec.rows]
    if on_case:
        on_case(len(rec.rows), len(split.cases))

    def one(case: Case) -> None:
        n_done = rec.add(_case_row(system, case, task, split, hashes[case.case_id]))
        if on_case:
            on_case(n_done, len(split.cases))
        if after_case:
            after_case(case.case_id)

    t0 = time.perf_counter()
    try:
        if workers > 1 and len(todo) > 1:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                list(pool.map(one, todo))
        else:
            for case in todo:
                one(case)
        rec.close()
        seconds = time.perf_counter() - t0
        rows = [rec.rows[c.case_id] for c in split.cases]
        warnings = write_submission(task, {r["case_id"]: r["prediction"] for r in rows}, rec.submission,
                                    {c.case_id: set(c.sentence_ids) for c in split.cases})
    except BaseException as e:
        rec.stopped(e)
        raise
    fields = _complete_fields(system, rows, todo, seconds, warnings)
    if retry_fallbacks:
        fields["fallbacks_retried"] = retried
    share = model_share(rows, min_model_share) if system.uses_model(task) else None
    if share is not None:
        fields["model_share"] = share
    record = rec.complete({**fields, **_llm_fields(system, rows)})
    return RunResult(rec.out, {r["case_id"]: _prediction_of(r) for r in rows}, record["cases_resumed"],
                     record["cases_run"], record["fallbacks"], seconds, warnings, record["flagged_cases"],
                     record.get("llm_usage", {}).get("totals"), share)
