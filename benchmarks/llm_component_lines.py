"""Lines of each LLM component's own file, before the shared base (archehr/llm/component.py) and now.

    python benchmarks/llm_component_lines.py [--before REV]

`before` is the commit before the base was written (2c6a2b6, the prompt snapshots it was checked
against); `now` is the working tree. Lines are counted as `wc -l` counts them (docstrings, comments
and blank lines included). The shared pieces the components now use are listed below the table with
their sizes, so what moved into the base or a shared module is visible beside what each file lost.
Needs git and the repository's history.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BEFORE = "2c6a2b6"
COMPONENTS = {"llm evidence classifier": "archehr/relevance/llm.py", "llm answer generator": "archehr/generate/llm.py",
              "llm st4 aligner": "archehr/align/llm.py", "llm st1 question writer": "archehr/question/__init__.py"}
SHARED = ("archehr/llm/component.py", "archehr/llm/structured.py", "archehr/llm/vote.py", "archehr/question/base.py",
          "archehr/align/base.py")


def lines_at(rev: str, path: str) -> int | None:
    """Lines of `path` at commit `rev` (None when it did not exist there)."""
    got = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=REPO, capture_output=True, text=True)
    return len(got.stdout.splitlines()) if got.returncode == 0 else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default=BEFORE, help=f"the commit to compare with (default {BEFORE})")
    a = ap.parse_args(argv)
    if subprocess.run(["git", "rev-parse", "--verify", "-q", a.before], cwd=REPO, capture_output=True).returncode:
        print(f"no commit {a.before} here (a checkout without the history?)", file=sys.stderr)
        return 2
    print(f"| component | file | before ({a.before}) | now | change |\n| --- | --- | ---: | ---: | ---: |")
    worst = -100.0
    for what, path in COMPONENTS.items():
        old, new = lines_at(a.before, path), len((REPO / path).read_text(encoding="utf-8").splitlines())
        change = 100.0 * (new - (old or 0)) / old if old else float("nan")
        worst = max(worst, change)
        print(f"| {what} | `{path}` | {old} | {new} | {change:+.1f}% |")
    print(f"\nleast shrunk: {worst:+.1f}% (target: -33.3% or less)\n\nshared pieces (lines before -> now):")
    for path in SHARED:
        now = REPO / path
        size = len(now.read_text(encoding="utf-8").splitlines()) if now.exists() else 0
        print(f"  {path}: {lines_at(a.before, path) or 0} -> {size}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
