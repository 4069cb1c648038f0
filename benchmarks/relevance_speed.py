"""Speed of the `trained` classifier: model load time, cases/s over 100 demo cases, peak memory.

The 100 cases are the demo release's cases repeated with fresh case ids AND a marker appended to
every sentence and question, so the per-text embedding cache cannot serve repeats (an honest cold
rate); `--warm` also reports the rate when the same texts are scored again (cache hits).

Run: python benchmarks/relevance_speed.py [--model default|embedding|PATH] [--cases 100] [--warm]
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import sys
import time

from archehr.data.model import Case
from archehr.data.releases import demo_dir, load_split


def demo_cases(n: int) -> list[Case]:
    pool = [c for s in ("dev", "test", "test-2026") for c in load_split(demo_dir(), s).cases]
    out = []
    for i in range(n):
        c = pool[i % len(pool)]
        tag = f" [run {i // len(pool)}]" if i >= len(pool) else ""
        sents = tuple(dataclasses.replace(s, text=s.text + tag) for s in c.sentences)
        out.append(dataclasses.replace(c, case_id=f"{c.case_id}-{i}", sentences=sents,
                                       clinician_question=(c.clinician_question or "") + tag))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="default")
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--warm", action="store_true")
    a = ap.parse_args()
    cases = demo_cases(a.cases)
    t0 = time.perf_counter()
    from archehr.relevance.registry import load_selector

    ev = load_selector(a.model)
    load_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    scores = ev.classifier.score_many(cases)
    sels = [ev.selector.select(s) for s in scores]
    run_s = time.perf_counter() - t1
    n_sent = sum(len(c.sentences) for c in cases)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"model: {ev.source} (feature set {ev.classifier.model.feature_set})")  # type: ignore[attr-defined]
    print(f"model load (incl. imports and, for embeddings, MiniLM): {load_s:.2f} s")
    print(f"scored {len(cases)} cases / {n_sent} sentences in {run_s:.2f} s: {len(cases) / run_s:.1f} cases/s "
          f"({n_sent / run_s:.0f} sentences/s), {sum(len(s.cited) for s in sels) / len(sels):.1f} cited per case")
    if a.warm:
        t2 = time.perf_counter()
        ev.classifier.score_many(cases)
        warm = time.perf_counter() - t2
        print(f"second pass over the same cases (warm caches): {len(cases) / warm:.1f} cases/s")
    print(f"peak memory (max RSS): {peak_mb:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
