"""A newcomer's usual mistakes with `score` / `validate`, said in one line instead of as dozens of symptoms.

- the arguments swapped (`archehr score KEY SUBMISSION`): a key, mapping or release XML (or its split
  folder) where the submission should be, or a submission where the key should be;
- a submission scored against another split's key: no case id in common. The per-case lines stay
  available as `detail-*` problems (the CLI prints them with --verbose).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from archehr.data.json_io import load_json_text, read_text
from archehr.errors import DataError, Problem
from archehr_scoring.case_ids import format_case_ids

ORDER = "the order is SUBMISSION then KEY"


def _items(obj: Any) -> list[dict[str, Any]]:
    return [it for it in obj if isinstance(it, dict)] if isinstance(obj, list) else []


def release_file_kind(obj: Any) -> str | None:
    """'key' or 'mapping' when a parsed JSON is one of the release's own files, else None."""
    items = _items(obj)
    if not items or any("answer" in it or "prediction" in it for it in items):
        return None
    if all(isinstance(it.get("answers"), list) for it in items):
        return "key"
    if all("document_id" in it and "document_source" in it for it in items):
        return "mapping"
    return None


_WHAT = {"key": "a release key file (sentence labels under `answers`)", "mapping": "a release mapping file",
         "xml": "a release XML file", "folder": "a release split folder"}


def swapped(what: str, file: str | None) -> Problem:
    return Problem(f"this is {_WHAT[what]}, not a submission: arguments swapped? ({ORDER})", file, code="swapped")


def swapped_path(path: str | os.PathLike[str]) -> Problem | None:
    """Before reading it: a release split folder or XML file given as the submission."""
    p = Path(path)
    if p.is_dir() and any((p / n).is_file() for n in ("archehr-qa.xml", "archehr-qa_key.json")):
        return swapped("folder", str(p))
    if p.suffix.lower() == ".xml":
        return swapped("xml", str(p))
    if p.is_file():
        try:
            with p.open("rb") as f:
                head = f.read(64)
        except OSError:
            return None
        if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
            return swapped("xml", str(p))
    return None


def swapped_key(path: str | os.PathLike[str]) -> Problem | None:
    """A problem when the file given as the key is a submission ({case_id, answer|prediction} items)."""
    p = Path(path)
    if not p.is_file() or p.suffix.lower() == ".xml":
        return None
    try:
        items = _items(load_json_text(read_text(p), str(p)))
    except DataError:
        return None
    if items and all("answer" in it or "prediction" in it for it in items):
        return Problem(f"this is a submission, not a key: arguments swapped? ({ORDER})", str(p), code="swapped")
    return None


def _submitted_ids(obj: Any) -> set[str]:
    return {str(it["case_id"]).strip() for it in _items(obj) if isinstance(it.get("case_id"), (str, int))}


def summarise_wrong_split(problems: Sequence[Problem], obj: Any, file: str | None) -> list[Problem]:
    """When the submission and the key share no case id, one line instead of one per case (kept as details)."""
    if any(p.code == "empty-submission" for p in problems):  # "holds no cases" says it: every case missing follows
        return [_detail(p) if p.code == "missing-case" else p for p in problems]
    missing = [p.case_id for p in problems if p.code == "missing-case" and p.case_id]
    unknown = [p.case_id for p in problems if p.code == "unknown-case" and p.case_id]
    submitted = _submitted_ids(obj)
    if not missing or not unknown or not submitted or not submitted <= set(unknown):
        return list(problems)
    def ids(xs: list[str]) -> str:
        return format_case_ids(xs).replace(",", ", ")

    head = Problem(f"no case ids in common (submission {ids(unknown)}, key {ids(missing)}): wrong split?", file,
                   field="case_id", code="wrong-split")
    return [head, *(_detail(p) if p.code in ("missing-case", "unknown-case") else p for p in problems)]


def _detail(p: Problem) -> Problem:
    return Problem(p.message, p.file, p.case_id, p.field, p.line, "detail-" + p.code)
