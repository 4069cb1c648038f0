"""Score cache: one JSON file per (submission hash, key hash, scorer fingerprint), written atomically.

Re-ranking an unchanged submissions folder reads these files instead of re-scoring, re-bootstrapping
and re-testing; anything that changes a number (the submission, the key or XML, the metric
signatures and settings, the number of resamples, the seed) changes the cache key.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from archehr.atomic import write_json
from archehr.data.json_io import read_json
from archehr.errors import DataError, Problem
from archehr_scoring.bootstrap import PairedResult
from archehr_scoring.results import PartialScore, ScoreReport

CACHE_FORMAT = 2  # bump when what is stored changes meaning (2: partial scores as {"value", "averaged", "missing"})
CACHE_DIR_NAME = ".archehr-cache"
T = TypeVar("T")


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

    def get(self, key: str, parse: Callable[[Any], T]) -> T | None:
        """The entry under `key` as `parse` reads it; absent, damaged or of the wrong shape is a miss.

        `parse` raises CacheShapeError (or KeyError/TypeError/ValueError...) on an entry it cannot use: the
        caller then recomputes and overwrites it, as for a missing file.
        """
        if self.root is None:
            self.misses += 1
            return None
        p = self.root / f"{key}.json"
        try:
            value = parse(read_json(p)) if p.is_file() else None
        except (DataError, CacheShapeError, KeyError, IndexError, TypeError, ValueError, AttributeError):
            value = None
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, value: Any) -> None:
        if self.root is not None:
            write_json(self.root / f"{key}.json", value, indent=None)


class CacheShapeError(ValueError):
    """A cache entry that is valid JSON but not what was stored under its kind."""


def _number(v: Any, optional: bool = False) -> float | None:
    if v is None and optional:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise CacheShapeError(f"expected a number, got {type(v).__name__}")
    return float(v)


def _mapping(v: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise CacheShapeError(f"expected an object, got {type(v).__name__}")
    return v


def _strings(v: Any) -> dict[str, str]:
    if not all(isinstance(x, str) for x in _mapping(v).values()):
        raise CacheShapeError("expected an object of strings")
    return dict(v)


def _nonempty(d: Any) -> dict[str, Any]:
    # nothing to recompute is cheap to recompute: an empty entry is more likely damage than a result
    if not _mapping(d):
        raise CacheShapeError("empty entry")
    return d


def ci_from_cache(d: Any) -> dict[str, tuple[float, float]]:
    out = {}
    d = _nonempty(d)
    for k, v in _mapping(d).items():
        if not isinstance(v, list) or len(v) != 2:
            raise CacheShapeError("a CI is a [low, high] pair")
        out[k] = (_number(v[0]), _number(v[1]))
    return out  # type: ignore[return-value]


def paired_from_cache(d: Any) -> dict[str, PairedResult]:
    out = {}
    d = _nonempty(d)
    for k, v in _mapping(d).items():
        v = _mapping(v)
        out[k] = PairedResult(str(v["key"]), _number(v["a"]), _number(v["b"]), _number(v["delta"]),  # type: ignore[arg-type]
                              _number(v["ci_low"], True), _number(v["ci_high"], True), _number(v["p"]),
                              str(v["method"]))
    return out


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
    def opt_str(k: str) -> str | None:
        v = d.get(k)
        return None if v is None else str(v)

    line = d.get("line")
    return Problem(str(d.get("message", "")), opt_str("file"), opt_str("case_id"), opt_str("field"),
                   line if isinstance(line, int) and not isinstance(line, bool) else None,
                   str(d.get("code") or "error"))


def report_from_dict(d: dict[str, Any]) -> ScoreReport:
    """The inverse of report_to_dict; CacheShapeError when `d` is not what it writes."""
    d = _mapping(d)
    if not isinstance(d["task"], str):
        raise CacheShapeError("task is not a string")
    return ScoreReport(
        task=d["task"],
        scores={k: _number(v, optional=True) for k, v in _mapping(d["scores"]).items()},
        per_case={c: {s: _number(x, optional=True) for s, x in _mapping(v).items()}  # type: ignore[misc]
                  for c, v in _mapping(d["per_case"]).items()},
        signatures=_strings(d["signatures"]),
        unavailable=_strings(d.get("unavailable") or {}),
        partial={k: PartialScore.from_dict(_mapping(v)) for k, v in _mapping(d.get("partial") or {}).items()},
        warnings=tuple(problem_from_dict(_mapping(w)) for w in d.get("warnings") or ()),
        ci=ci_from_cache(d["ci"]) if d.get("ci") else None,
        meta=_mapping(d.get("meta") or {}),
    )


def score_entry_from_cache(hit: Any) -> tuple[str, ScoreReport | None, list[dict[str, Any]]]:
    """(status, report, stored problems) of a cached score entry."""
    hit = _mapping(hit)
    if hit["status"] == "ok":
        return "ok", report_from_dict(hit["report"]), []
    if hit["status"] not in ("invalid", "error") or not isinstance(hit["problems"], list):
        raise CacheShapeError("unknown status")
    return hit["status"], None, [_mapping(p) for p in hit["problems"]]
