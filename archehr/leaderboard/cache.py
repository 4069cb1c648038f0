"""Score cache: one JSON file per (submission hash, key hash, scorer fingerprint), written atomically.

Re-ranking an unchanged submissions folder reads these files instead of re-scoring, re-bootstrapping
and re-testing; anything that changes a number (the submission, the key or XML, the metric
signatures and settings, the number of resamples, the seed) changes the cache key.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from archehr.atomic import write_json
from archehr.errors import Problem
from archehr_scoring.results import PartialScore, ScoreReport

CACHE_FORMAT = 2  # bump when what is stored changes meaning (2: partial scores as {"value", "averaged", "missing"})
CACHE_DIR_NAME = ".archehr-cache"


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sha256_files(paths: list[Path]) -> str:
    """One hash over several files (name and content), missing files included as such."""
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode() + b"\0")
        h.update(sha256_file(p).encode() if p.is_file() else b"missing")
        h.update(b"\0")
    return h.hexdigest()


def cache_key(kind: str, **parts: Any) -> str:
    blob = json.dumps({"format": CACHE_FORMAT, "kind": kind, **parts}, sort_keys=True, ensure_ascii=True)
    return f"{kind}-{hashlib.sha256(blob.encode()).hexdigest()[:40]}"


class ScoreCache:
    """A folder of cached JSON values; `enabled=False` makes every lookup a miss and stores nothing."""

    def __init__(self, root: str | Path | None):
        self.root = Path(root) if root is not None else None
        self.hits = 0
        self.misses = 0

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def get(self, key: str) -> Any | None:
        if self.root is None:
            self.misses += 1
            return None
        p = self.root / f"{key}.json"
        try:
            value = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # absent or damaged: recompute (and overwrite)
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, value: Any) -> None:
        if self.root is not None:
            write_json(self.root / f"{key}.json", value, indent=None)


def report_to_dict(r: ScoreReport) -> dict[str, Any]:
    """Everything in a ScoreReport, losslessly (its own to_json_dict drops the per-case rows)."""
    return {
        "task": r.task,
        "scores": r.scores,
        "per_case": r.per_case,
        "signatures": r.signatures,
        "unavailable": r.unavailable,
        "partial": {k: p.to_dict() for k, p in r.partial.items()},
        "warnings": [w.to_dict() for w in r.warnings],
        "ci": {k: list(v) for k, v in r.ci.items()} if r.ci else None,
        "meta": r.meta,
    }


def problems_to_cache(problems: list[Problem], paths: dict[str, str]) -> list[dict[str, Any]]:
    """Problems as stored: the given paths (placeholder -> path) replaced by their placeholders.

    The cache is keyed by content, so the same entry serves a copy of the runs in another folder; a
    stored path would then name the first folder.
    """
    order = sorted(paths.items(), key=lambda kv: -len(kv[1]))  # longest first: a path may contain another

    def template(text: str | None) -> str | None:
        if text:
            for placeholder, path in order:
                if path:
                    text = text.replace(path, placeholder)
        return text

    return [p.to_dict() | {"message": template(p.message), "file": template(p.file)} for p in problems]


def problems_from_cache(items: list[dict[str, Any]], paths: dict[str, str]) -> list[Problem]:
    def fill(text: Any) -> Any:
        if isinstance(text, str):
            for placeholder, path in paths.items():
                text = text.replace(placeholder, path)
        return text

    return [problem_from_dict(d | {"message": fill(d.get("message")), "file": fill(d.get("file"))}) for d in items]


def problem_from_dict(d: dict[str, Any]) -> Problem:
    return Problem(str(d.get("message", "")), d.get("file"), d.get("case_id"), d.get("field"), d.get("line"),
                   str(d.get("code") or "error"))


def report_from_dict(d: dict[str, Any]) -> ScoreReport:
    return ScoreReport(
        task=d["task"],
        scores=dict(d["scores"]),
        per_case={c: dict(v) for c, v in d["per_case"].items()},
        signatures=dict(d["signatures"]),
        unavailable=dict(d.get("unavailable") or {}),
        partial={k: PartialScore.from_dict(v) for k, v in (d.get("partial") or {}).items()},
        warnings=tuple(problem_from_dict(w) for w in d.get("warnings") or ()),
        ci={k: (v[0], v[1]) for k, v in d["ci"].items()} if d.get("ci") else None,
        meta=dict(d.get("meta") or {}),
    )
