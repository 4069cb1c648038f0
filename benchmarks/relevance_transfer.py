"""Held-out check used to choose features WITHOUT touching the benchmark's test split.

Trains the `trained` classifier on one dev split and evaluates it on the other (demo dev <->
synthetic dev), next to the leave-one-case-out score on the training split.

Run: python benchmarks/relevance_transfer.py [--features lexical lexical+embedding] [--synthetic DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from archehr.data.releases import demo_dir, load_split
from archehr.relevance.calibration import micro_f1
from archehr.relevance.trained import TrainedClassifier
from archehr.training.relevance_logistic import train

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--features", nargs="+", default=["lexical", "lexical+embedding"])
    ap.add_argument("--synthetic", default=str(REPO.parent / "shared" / "data" / "synthetic"))
    a = ap.parse_args()
    splits = {"demo dev": load_split(demo_dir(), "dev", require_key=True),
              "synthetic dev": load_split(a.synthetic, "dev", require_key=True)}
    print(f"| {'features':<18} | {'train on':<13} | {'LOCO F1':>7} | {'evaluated on':<13} | {'strict micro F1':>15} |")
    print(f"|{'-' * 20}|{'-' * 15}|{'-' * 9}|{'-' * 15}|{'-' * 17}|")
    for fs in a.features:
        for src, dst in (("demo dev", "synthetic dev"), ("synthetic dev", "demo dev")):
            model, cal = train(splits[src], fs)
            clf = TrainedClassifier(model)
            sels = [cal.selector.select(s) for s in clf.score_many(splits[dst].cases)]
            f1 = micro_f1(sels, splits[dst]).f1
            print(f"| {fs:<18} | {src:<13} | {100 * cal.f1:>7.1f} | {dst:<13} | {100 * f1:>15.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
