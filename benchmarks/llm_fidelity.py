"""Glue fidelity of the LLM system: a scripted perfect model's output, direct vs through the system.

    python benchmarks/llm_fidelity.py [--data-dir ../shared/data/synthetic] [--split test] [--train-split dev]
        [--system openai-server] [--styles pipes,brackets,...] [--tasks 2025,st1,st2,st3,st4]

A `PerfectServer` (archehr/testing/perfect_server.py) answers every prompt exactly as the clinicians
did (the key's evidence ids, clinician question, cited answer sentences, alignments), in one citation
style per row. Each task is scored twice with the official scorer: the model's own replies submitted
directly, and the system's submission built from the same replies; `kept` = system / direct. Rows
`text:<style>` ask for text (structured off, so the drifting style reaches every parser); the row
`schema` runs the config as shipped (JSON schemas sent as response_format: bare JSON comes back).
Headline metrics: 2025 strict micro F1 (factuality), st1 ROUGE mean (overall without the model
metrics), st2 strict micro F1, st3 BLEU/ROUGE/SARI mean, st4 micro F1. This is a glue test, not
tuning: nothing is fitted. Target: kept >= 98% on every task and style.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def main(argv: list[str] | None = None) -> int:
    from archehr.data.releases import load_split
    from archehr.testing.fidelity import measure
    from archehr.testing.perfect_server import STYLES

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", default=str(SHARED / "data" / "synthetic"))
    ap.add_argument("--split", default="test")
    ap.add_argument("--train-split", default="dev")
    ap.add_argument("--system", default="openai-server")
    ap.add_argument("--styles", default=",".join(STYLES))
    ap.add_argument("--tasks", default="2025,st1,st2,st3,st4")
    a = ap.parse_args(argv)
    split = load_split(a.data_dir, a.split)
    train = load_split(a.data_dir, a.train_split) if a.train_split else None
    tasks = a.tasks.split(",")
    runs = [("schema", "pipes", None)] + [(f"text:{s}", s, False) for s in a.styles.split(",")]
    print(f"data: {a.data_dir}/{a.split} ({len(split)} cases), demonstrations from {a.train_split}; "
          f"system {a.system}; official scorer")
    print("| replies | " + " | ".join(f"{t} direct / system (kept)" for t in tasks) + " | fallbacks |")
    print("|---" * (len(tasks) + 2) + "|")
    worst = 1.0
    t0 = time.perf_counter()
    for label, style, structured in runs:
        rows, _ = measure(split, train, tasks, style=style, structured=structured, system=a.system)
        cells = [f"{r.direct:.2f} / {r.system:.2f} ({100 * r.kept:.1f}%)" for r in rows]
        worst = min([worst] + [r.kept for r in rows])
        print(f"| {label} | " + " | ".join(cells) + f" | {sum(r.fallbacks for r in rows)} |", flush=True)
    print(f"lowest kept: {100 * worst:.1f}% (target >= 98%); {time.perf_counter() - t0:.0f} s")
    return 0 if worst >= 0.98 else 1


if __name__ == "__main__":
    sys.exit(main())
