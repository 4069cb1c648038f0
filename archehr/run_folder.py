"""One run folder's files, written as the run goes; knows nothing of systems or backends.

    OUT_DIR/checkpoint.jsonl   one line per finished case, appended and fsynced as it finishes
    OUT_DIR/run.json           provenance, rewritten atomically at start and end (`RUN_SCHEMA_VERSION`)
    OUT_DIR/submission.json    written (by the caller) once every case is done
"""

from __future__ import annotations

import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from archehr.atomic import write_json, write_text
from archehr.data.json_io import load_json_text, read_json
from archehr.errors import ConfigError, DataError, Problem

CHECKPOINT = "checkpoint.jsonl"
RUN_JSON = "run.json"
SUBMISSION = "submission.json"
# run.json's layout. 1: every run.json written before the field existed (read as is: the same fields);
# 2: adds `schema_version` itself. Readers (the leaderboard, the web app) read both.
RUN_SCHEMA_VERSION = 2


def run_schema_version(record: dict[str, Any]) -> int:
    """The layout version of a run.json read as a dict (1 when it does not say)."""
    v = record.get("schema_version", 1)
    return v if isinstance(v, int) and not isinstance(v, bool) else 1


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def read_checkpoint(path: Path) -> dict[str, dict[str, Any]]:
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


def _case_order(case_id: str) -> tuple[int, str]:
    return len(case_id), case_id


class RunRecorder:
    """The files of one run folder: checks that a run may start or resume there, keeps the checkpoint
    (thread-safe: `--workers` threads add rows) and writes run.json when the run starts, stops or completes."""

    def __init__(self, out_dir: str | Path, *, resume: bool = False, force: bool = False):
        self.out = Path(out_dir)
        self.checkpoint, self.run_json, self.submission = (self.out / CHECKPOINT, self.out / RUN_JSON,
                                                           self.out / SUBMISSION)
        self.resume = resume
        self.record: dict[str, Any] = {}
        self.rows: dict[str, dict[str, Any]] = {}
        self.previous = self._previous()
        if (self.checkpoint.is_file() or self.submission.is_file()) and not (resume or force):
            raise ConfigError(Problem("this run directory already holds a run; pass --resume to continue it or "
                                      "--force to start over", str(self.out), code="run-exists"))
        if force and not resume:
            self.checkpoint.unlink(missing_ok=True)
            self.submission.unlink(missing_ok=True)
        self._lock = threading.Lock()
        self._fh: IO[str] | None = None

    def _previous(self) -> dict[str, Any]:
        if not self.run_json.is_file():
            return {}
        try:
            previous = read_json(self.run_json)
        except DataError:
            return {}
        return previous if isinstance(previous, dict) else {}

    def check_resumable(self, task: str, split: str, config_sha256: str) -> None:
        """ConfigError when resuming a run of another task, split or system config."""
        if not (self.resume and self.previous):
            return
        prev_sys = self.previous.get("system") if isinstance(self.previous.get("system"), dict) else {}
        mismatch = [what for what, before, now_ in (("task", self.previous.get("task"), task),
                                                    ("split", self.previous.get("split"), split),
                                                    ("system config", prev_sys.get("config_sha256"), config_sha256))
                    if before != now_]
        if mismatch:
            raise ConfigError(Problem(f"cannot resume: the {', '.join(mismatch)} differ from the interrupted run; "
                                      "use another output directory or --force", str(self.run_json),
                                      code="resume-mismatch"))

    def load_done(self, hashes: dict[str, str], retry_fallbacks: bool = False) -> list[str]:
        """Keep the checkpointed cases whose input hash still matches (when resuming); returns the ones that
        fell back and are to be asked again (`retry_fallbacks`): their new line supersedes the old one."""
        rows = read_checkpoint(self.checkpoint) if self.resume else {}
        self.rows = {cid: r for cid, r in rows.items() if cid in hashes and r.get("input_sha256") == hashes[cid]}
        retried = sorted((cid for cid, r in self.rows.items() if r.get("fallback")), key=_case_order) \
            if retry_fallbacks else []
        for cid in retried:
            del self.rows[cid]
        return retried

    def start(self, fields: dict[str, Any]) -> None:
        """Write run.json (status running) and open the checkpoint for appending."""
        started = now()
        self.record = {"schema_version": RUN_SCHEMA_VERSION, "status": "running", **fields,
                       "started": self.previous.get("started", started) if self.resume else started,
                       "resumed": bool(self.resume and self.rows)}
        self.out.mkdir(parents=True, exist_ok=True)
        write_json(self.run_json, self.record)
        self._fh = open(self.checkpoint, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()

    def add(self, row: dict[str, Any]) -> int:
        """Append one finished case (fsynced); returns how many cases are done."""
        if self._fh is None:
            raise RuntimeError("RunRecorder.add before start()")
        with self._lock:
            self._fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self.rows[row["case_id"]] = row
            return len(self.rows)

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def stopped(self, e: BaseException) -> None:
        """run.json must not keep saying "running" for a run that stopped: what stopped it, and that --resume
        continues from the checkpoint (the cases done are kept)."""
        self.close()
        self.record.update({"status": "interrupted" if isinstance(e, KeyboardInterrupt) else "failed",
                            "finished": now(),
                            "error": (f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
                                      ).splitlines()[0][:500],
                            "cases_done": len(self.rows)})
        write_json(self.run_json, self.record)

    def complete(self, fields: dict[str, Any]) -> dict[str, Any]:
        """Write run.json (status complete) with the run's results; returns the record."""
        self.record.update({"status": "complete", "finished": now(), **fields})
        write_json(self.run_json, self.record)
        return self.record
