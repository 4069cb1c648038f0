"""End-to-end speed of `predict` (cases/s after load) on 2 CPU cores.

    python benchmarks/predict_speed.py [--system trained-extractive] [--cases 100]

The split's cases are repeated (with new ids) up to --cases; one warm-up case loads the models
first, so the figure is throughput after load. For an LLM system the figure is also given per minute.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--system", default="trained-extractive")
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--data-dir", default=str(REPO.parent / "shared" / "data" / "synthetic"))
    ap.add_argument("--split", default="dev")
    a = ap.parse_args()
    from archehr.data.model import Split
    from archehr.data.releases import load_split
    from archehr.pipeline import load_system
    from archehr.runs import run_split

    src = load_split(a.data_dir, a.split)
    cases = tuple(dataclasses.replace(src.cases[i % len(src)], case_id=str(1000 + i)) for i in range(a.cases))
    split = Split(src.name, cases)
    system = load_system(a.system)
    t = time.perf_counter()
    system.predict(src.cases[0], "2025")  # warm-up: loads models
    load = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        run_split(system, split, "2025", Path(tmp) / "r")
        sec = time.perf_counter() - t
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"system {a.system}: load {load:.1f}s; {a.cases} cases in {sec:.2f}s = {a.cases / sec:.1f} cases/s "
          f"({60 * a.cases / sec:.1f} cases/min); cpus={os.cpu_count()} loadavg={load_avg:.1f}")


if __name__ == "__main__":
    main()
