"""End-to-end speed of `predict` (cases/s after load) on 2 CPU cores.

    python benchmarks/predict_speed.py [--system trained-extractive] [--cases 100]
    python benchmarks/predict_speed.py --system smollm2 --cases 8

The split's cases are repeated (with new ids) up to --cases; one warm-up case loads the models
first, so the figure is throughput after load. For an LLM system the figure is also given per minute,
its response cache is a fresh temporary folder, the warm-up case is the split's last one and cases are
never repeated (a repeated prompt would be a cache hit, not a generation); the cache hits are printed.
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
    with tempfile.TemporaryDirectory() as tmp:
        system = load_system(a.system, cache_dir=Path(tmp) / "llm-cache")
        is_llm = system.config.generator["kind"] == "llm"
        n = min(a.cases, len(src) - 1) if is_llm else a.cases
        cases = tuple(dataclasses.replace(src.cases[i % len(src)], case_id=str(1000 + i)) for i in range(n))
        split = Split(src.name, cases)
        t = time.perf_counter()
        system.predict(src.cases[-1], "2025")  # warm-up: loads models
        load = time.perf_counter() - t
        t = time.perf_counter()
        res = run_split(system, split, "2025", Path(tmp) / "r")
        sec = time.perf_counter() - t
        extra = ""
        if is_llm:
            b = system.backend()
            extra = (f"; LLM answers {n - len(res.fallbacks)}/{n}, fallbacks {len(res.fallbacks)}, "
                     f"cache hits {getattr(b, 'hits', 0)} (warm-up included)")
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"system {a.system}: load {load:.1f}s; {n} cases in {sec:.2f}s = {n / sec:.2f} cases/s "
          f"({60 * n / sec:.1f} cases/min){extra}; cpus={os.cpu_count()} loadavg={load_avg:.1f}")


if __name__ == "__main__":
    main()
