"""Feature ablation under grouped cross-validation: does a feature of the default model earn its place?

Compares the default `trained` (lexical) model with the same model minus the named features, on the
same folds: grouped 5-fold x N shuffles over every usable labelled case (demo dev, test, test-2026 and
synthetic dev), L2 and threshold chosen by leave-one-case-out on each fold's training cases only,
exactly as `archehr.training.relevance_logistic.train` does. Also the transfer check (train on the demo cases,
evaluate on synthetic dev). The synthetic test split is never loaded.

Run: python benchmarks/relevance_ablation.py [--drop feedback ...] [--seeds 10] [--synthetic DIR]
(64 cases x 10 shuffles took about 12 minutes on 2 shared cores; --seeds 3 for a quicker look.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from archehr.data.releases import demo_dir, load_split
from archehr.relevance.cv import grouped_folds, merge_splits, part_of
from archehr.relevance.features import case_features, feature_names
from archehr.relevance.logistic import Scaler, fit_logistic
from archehr.training.labelled import labels
from archehr.training.relevance_logistic import L2_GRID
from archehr.training.selector_calibration import THRESHOLDS

REPO = Path(__file__).resolve().parents[1]
Case = tuple[np.ndarray, np.ndarray]  # (features, essential 0/1)


def micro_f1(masks: Sequence[np.ndarray], gold: Sequence[np.ndarray]) -> float:
    tp = sum(int((m & g).sum()) for m, g in zip(masks, gold, strict=True))
    fp = sum(int((m & ~g).sum()) for m, g in zip(masks, gold, strict=True))
    fn = sum(int((~m & g).sum()) for m, g in zip(masks, gold, strict=True))
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def cite(p: np.ndarray, t: float) -> np.ndarray:
    """The shipped selector: p >= t, and at least the best sentence."""
    m = p >= t
    if not m.any():
        m[int(np.argmax(p))] = True
    return m


def fit(train: Sequence[Case], cols: list[int], l2: float):
    x = np.vstack([c[0][:, cols] for c in train])
    sc = Scaler.fit(x)
    model = fit_logistic(sc.transform(x), np.concatenate([c[1] for c in train]), l2)
    return lambda c: model.predict_proba(sc.transform(c[0][:, cols]))


def fit_select(train: Sequence[Case], cols: list[int]):
    """L2 and threshold by leave-one-case-out on `train`, then the model refitted on all of it."""
    gold = [c[1] > 0 for c in train]
    best = None
    for l2 in L2_GRID:
        oof = [fit([c for j, c in enumerate(train) if j != i], cols, l2)(train[i]) for i in range(len(train))]
        for t in THRESHOLDS:
            f = micro_f1([cite(p, t) for p in oof], gold)
            if best is None or f > best[2] + 1e-12:
                best = (l2, t, f)
    l2, t, _ = best  # type: ignore[misc]
    return fit(train, cols, l2), t


def evaluate(train: Sequence[Case], test: Sequence[Case], cols: list[int]) -> float:
    pred, t = fit_select(train, cols)
    return micro_f1([cite(pred(c), t) for c in test], [c[1] > 0 for c in test])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drop", nargs="+", default=["feedback"], help="features to leave out (default: feedback)")
    ap.add_argument("--seeds", type=int, default=10, help="shuffles of the 5 folds (default 10)")
    ap.add_argument("--synthetic", default=str(REPO.parent / "shared" / "data" / "synthetic"))
    a = ap.parse_args()
    names = feature_names("lexical")
    unknown = [n for n in a.drop if n not in names]
    if unknown:
        print(f"error: unknown feature(s) {', '.join(unknown)} (known: {', '.join(names)})", file=sys.stderr)
        return 2
    parts = [(s, load_split(demo_dir(), s, require_key=True)) for s in ("dev", "test", "test-2026")]
    parts.append(("synthetic-dev", load_split(a.synthetic, "dev", require_key=True)))
    split = merge_splits(parts)
    data = {c.case_id: (case_features(c, "lexical"), labels(split, c)[0]) for c in split.cases}
    variants = {"default (all features)": list(range(len(names))),
                f"without {', '.join(a.drop)}": [i for i, n in enumerate(names) if n not in a.drop]}
    print(f"grouped 5-fold x {a.seeds} shuffles over {len(split.cases)} cases "
          f"({', '.join(f'{lab} {len(sp.cases)}' for lab, sp in parts)}); L2 and threshold from the training folds")
    scores: dict[str, list[float]] = {k: [] for k in variants}
    for seed in range(a.seeds):
        for fold in grouped_folds(split, 5, seed):
            held = set(fold)
            train = [data[c] for c in split.case_ids if c not in held]
            test = [data[c] for c in fold]
            for k, cols in variants.items():
                scores[k].append(evaluate(train, test, cols))
    demo = [data[c] for c in split.case_ids if part_of(c) != "synthetic-dev"]
    syn = [data[c] for c in split.case_ids if part_of(c) == "synthetic-dev"]
    base = np.array(scores["default (all features)"])
    print(f"| {'model':<32} | {'CV strict micro F1 (mean +- sd)':>31} | {'paired diff vs default':>22} | "
          f"{'folds won by default':>20} | {'demo -> synthetic dev':>21} |")
    print(f"|{'-' * 34}|{'-' * 33}|{'-' * 24}|{'-' * 22}|{'-' * 23}|")
    for k, cols in variants.items():
        f = np.array(scores[k])
        d = f - base
        won = "-" if k.startswith("default") else f"{int((d < -1e-12).sum())}/{len(d)} (lost {int((d > 1e-12).sum())})"
        cv = f"{100 * f.mean():.1f} +- {100 * statistics.stdev(f):.1f}"
        print(f"| {k:<32} | {cv:>31} | {100 * d.mean():>+22.2f} | "
              f"{won:>20} | {100 * evaluate(demo, syn, cols):>21.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
