"""Find the runs to rank: `<dir>/<run>/submission.json` with its `run.json` (provenance).

A run folder without a readable submission is still returned (with its problem), so that the
leaderboard lists it instead of silently dropping it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from archehr.data.json_io import read_json
from archehr.errors import DataError, InputError, Problem

SUBMISSION_NAME = "submission.json"
RUN_NAME = "run.json"


@dataclass(frozen=True)
class Run:
    """One submission to score: its display name, files, provenance and any problem found so far."""

    name: str
    submission: Path
    run_json: Path | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()


def _is_run_dir(d: Path) -> bool:
    return (d / SUBMISSION_NAME).is_file() or (d / RUN_NAME).is_file()


def find_runs(dirs: Sequence[str | Path]) -> list[Run]:
    """Every run under the given paths, in a stable order (by path).

    A path may be a submissions folder (each sub-folder is a run), one run folder, or a
    submission JSON file. Hidden folders (the score cache) are skipped.
    """
    found: list[tuple[Path, Path]] = []  # (run folder or file, submission path)
    problems: list[Problem] = []
    for raw in dirs:
        p = Path(raw)
        if p.is_file():
            found.append((p, p))
        elif p.is_dir() and _is_run_dir(p):
            found.append((p, p / SUBMISSION_NAME))
        elif p.is_dir():
            for child in sorted(c for c in p.iterdir() if c.is_dir() and not c.name.startswith(".")):
                if _is_run_dir(child):
                    found.append((child, child / SUBMISSION_NAME))
        else:
            problems.append(Problem("no such file or folder", str(p), code="missing-file"))
    if problems:
        raise InputError(problems)
    names = _names([f for f, _ in found])
    runs = []
    for (where, sub), name in zip(found, names, strict=True):
        run_json = where / RUN_NAME if where.is_dir() else None
        prov, probs = read_provenance(run_json)
        if not sub.is_file():
            probs = [Problem(f"run folder has no {SUBMISSION_NAME}", str(where), code="missing-file"), *probs]
        runs.append(Run(name, sub, run_json if run_json and run_json.is_file() else None, prov, tuple(probs)))
    return runs


def _names(paths: list[Path]) -> list[str]:
    """Run names: the folder name (file stem for bare files), prefixed by the parent when ambiguous."""
    base = [p.name if p.is_dir() else (p.parent.name if p.name == SUBMISSION_NAME else p.stem) for p in paths]
    out = []
    for p, b in zip(paths, base, strict=True):
        if base.count(b) > 1:
            parent = p.parent if p.is_dir() or p.name != SUBMISSION_NAME else p.parent.parent
            b = f"{parent.name}/{b}"
        out.append(b)
    return out


def read_provenance(run_json: Path | None) -> tuple[dict[str, Any], list[Problem]]:
    """The run's recorded provenance; an unreadable run.json is a warning, the score still counts."""
    if run_json is None or not run_json.is_file():
        return {}, []
    try:
        data = read_json(run_json)
    except DataError as e:
        return {}, [Problem(f"run.json unreadable: {p.message}", p.file, line=p.line, code="provenance")
                    for p in e.problems]
    if not isinstance(data, dict):
        return {}, [Problem("run.json is not a JSON object", str(run_json), code="provenance")]
    return data, []


def provenance_summary(prov: dict[str, Any]) -> dict[str, str]:
    """The few provenance fields a table shows: system/config and commit (full run.json kept elsewhere)."""

    from archehr.leaderboard.portable import recorded_paths_to_names

    prov = recorded_paths_to_names(prov)  # a config *path* recorded on another machine shows as its file name

    def first(*names: str) -> str:
        for n in names:
            v = prov.get(n)
            if isinstance(v, dict):
                v = v.get("name") or v.get("path")
            if v not in (None, ""):
                return str(v)
        return ""

    commit = first("commit", "git_commit", "git_sha")
    share = prov.get("model_share")
    share = share.get("share") if isinstance(share, dict) else None
    return {
        "system": first("system", "system_name", "config", "config_path"),
        "config": first("config", "config_path", "config_hash"),
        "commit": commit[:12],
        "dirty": "yes" if prov.get("dirty") or prov.get("git_dirty") else "",
        # the share of cases an LLM system's model answered itself (the rest: offline fallbacks)
        "model_share": f"model {100 * share:.0f}%" if isinstance(share, int | float) and not isinstance(share, bool)
        else "",
        **ensemble_summary(prov),
    }


def ensemble_summary(prov: dict[str, Any]) -> dict[str, str]:
    """`kind` (ensemble | run) and, for an ensemble, `ensemble` = "ensemble of N runs": a run.json written by
    `archehr ensemble` says `system.kind: ensemble` and lists its members in its `ensemble` section."""
    system = prov.get("system")
    record = prov.get("ensemble")
    if not ((isinstance(system, dict) and system.get("kind") == "ensemble") or isinstance(record, dict)):
        return {"kind": "run", "ensemble": ""}
    members = record.get("members") if isinstance(record, dict) else None
    n = len(members) if isinstance(members, list) else None
    return {"kind": "ensemble", "ensemble": "ensemble" if n is None else f"ensemble of {n} run{'s' * (n != 1)}"}


def system_cell(prov: dict[str, str]) -> str:
    """The provenance column's system text: the system, for an LLM run the share the model answered, and an
    ensemble marked as one."""
    head = f"[{prov['ensemble']}] " if prov.get("ensemble") else ""
    return head + prov["system"] + (f" ({prov['model_share']})" if prov.get("model_share") else "")
