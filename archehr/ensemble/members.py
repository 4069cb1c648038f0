"""The member runs of an ensemble: each run folder's run.json and submission.json, checked to agree.

A member is what `archehr predict` wrote: `run.json` (task, system name and config hash, per-case input
hashes, the cases that fell back and why) and `submission.json`. Every member must be a complete run of
the same task over the same input (the same `input_sha256` per case); otherwise one error names the file
and the field, and nothing is written. run.json is read tolerantly: unknown fields are ignored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archehr.errors import InputError, Problem

RUN_JSON = "run.json"
SUBMISSION = "submission.json"


@dataclass(frozen=True)
class Member:
    """One finished run, as the ensemble reads it."""

    path: str
    system: str
    config_sha256: str | None
    run_sha256: str  # sha256 of the run.json bytes: which run exactly
    task: str
    split: str | None
    data: str | None
    input_sha256: Mapping[str, str]  # per case
    case_ids: tuple[str, ...]  # submission order
    predictions: Mapping[str, Any]  # the official prediction (2025: the answer text) per case
    fallbacks: Mapping[str, str]  # case -> why the member's fallback answered it
    model_share: float | None = None  # share of cases the model answered (LLM runs), None for offline ones

    @property
    def label(self) -> str:
        return f"{self.system}@{self.path}"


def _load(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(Problem(f"no {what} here: is this a run folder written by `archehr predict`?", str(path),
                                 code="missing-file")) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InputError(Problem(f"unreadable {what}: {e}", str(path), code="bad-json")) from None


def _field(record: Mapping[str, Any], name: str, kind: type, file: str) -> Any:
    value = record.get(name)
    if not isinstance(value, kind):
        raise InputError(Problem(f"missing or not a {kind.__name__}", file, field=name, code="bad-run"))
    return value


def prediction_field(task: str) -> str:
    """The submission item's field holding the prediction: `answer` for 2025, `prediction` for 2026."""
    from archehr_scoring.tasks import get_task

    return "answer" if get_task(task).prediction == "answer" else "prediction"


def load_member(folder: str | Path) -> Member:
    """Read one run folder; InputError naming the file and field when it is not a complete run."""
    folder = Path(folder)
    run_file, sub_file = folder / RUN_JSON, folder / SUBMISSION
    raw = run_file.read_bytes() if run_file.is_file() else b""
    record = _load(run_file, "run.json")
    if not isinstance(record, dict):
        raise InputError(Problem("run.json is not a JSON object", str(run_file), code="bad-run"))
    if record.get("status", "complete") != "complete":
        raise InputError(Problem(f"the run is not complete (status {record.get('status')!r})", str(run_file),
                                 field="status", code="incomplete-run"))
    task = _field(record, "task", str, str(run_file))
    system = record.get("system") if isinstance(record.get("system"), dict) else {}
    hashes = _field(record, "input_sha256", dict, str(run_file))
    items = _load(sub_file, "submission.json")
    if not isinstance(items, list):
        raise InputError(Problem("submission.json is not a list", str(sub_file), code="bad-submission"))
    key = prediction_field(task)
    preds: dict[str, Any] = {}
    for k, item in enumerate(items):
        if not isinstance(item, dict) or "case_id" not in item or key not in item:
            raise InputError(Problem(f"item {k} has no case_id or {key}", str(sub_file), field=key,
                                     code="bad-submission"))
        preds[str(item["case_id"])] = item[key]
    share = record.get("model_share")
    return Member(path=str(folder), system=str(system.get("name") or folder.name),
                  config_sha256=system.get("config_sha256"), run_sha256=hashlib.sha256(raw).hexdigest(),
                  task=task, split=record.get("split"), data=record.get("data"),
                  input_sha256={str(c): str(h) for c, h in hashes.items()}, case_ids=tuple(preds),
                  predictions=preds,
                  fallbacks={str(c): str(r) for c, r in (record.get("fallbacks") or {}).items() if r},
                  model_share=share.get("share") if isinstance(share, dict) else None)


def check_members(members: Sequence[Member], role: str = "member") -> None:
    """All members of one task over one input; InputError naming the first member that differs, else None."""
    if not members:
        raise InputError(Problem(f"no {role} runs given", field="RUN_DIR", code="no-members"))
    first = members[0]
    problems: list[Problem] = []
    for m in members[1:]:
        run_file = str(Path(m.path) / RUN_JSON)
        if m.task != first.task:
            problems.append(Problem(f"task {m.task!r} differs from {first.task!r} of {first.path}", run_file,
                                    field="task", code="member-mismatch"))
            continue
        if dict(m.input_sha256) != dict(first.input_sha256):
            diff = sorted(set(m.input_sha256) ^ set(first.input_sha256)) or sorted(
                c for c in m.input_sha256 if m.input_sha256[c] != first.input_sha256.get(c))
            problems.append(Problem(f"input differs from {first.path} (cases {', '.join(diff[:5])}): members must "
                                    "be runs over the same split", run_file, field="input_sha256",
                                    code="member-mismatch"))
        elif set(m.predictions) != set(first.predictions):
            problems.append(Problem(f"submission cases differ from {first.path}", str(Path(m.path) / SUBMISSION),
                                    field="case_id", code="member-mismatch"))
    if problems:
        raise InputError(problems)


def load_members(folders: Sequence[str | Path], role: str = "member") -> list[Member]:
    members = [load_member(f) for f in folders]
    check_members(members, role)
    return members


def fallback_system(reason: str, prediction_kind: str) -> str | None:
    """The component that answered a fallen-back case for this kind of prediction, or None.

    A fallback reason names its component before the first colon of each `; `-joined part
    (`lexical evidence: ...`, `extractive: ...`, `learned aligner: ...`, `template: ...`). Evidence (ids)
    comes from the `... evidence` part, links from the `... aligner` part, texts and answers from the
    others (the generator's or question writer's): a 2025 case whose evidence step fell back while the
    model still wrote and cited the answer is the model's answer.
    """
    parts = [p.split(":", 1)[0].strip() for p in reason.split("; ") if ":" in p]
    if prediction_kind == "ids":
        hit = [p for p in parts if p.endswith(" evidence")]
    elif prediction_kind == "links":
        hit = [p for p in parts if p.endswith(" aligner")]
    else:
        hit = [p for p in parts if not p.endswith((" evidence", " aligner"))]
    return hit[-1] if hit else None
