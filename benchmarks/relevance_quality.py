"""Evidence-selection quality: cross-validation over every labelled case we may use, then the synthetic test split.

CV. Grouped 5-fold cross-validation (3 shuffles) over every usable labelled case: demo dev, demo test,
demo test-2026 and synthetic dev (the counts are printed); every fold's L2 and threshold are chosen on
its training folds only. Plus a transfer check: train on the demo cases, evaluate on synthetic dev.
These are the numbers to read for unseen cases; they chose the features and the training data
(benchmarks/relevance_ablation.py compares feature sets the same way).

A. The shipped models were trained and calibrated (leave-one-voice-out, docs/voices.md) on demo dev + demo
test-2026 + demo train + synthetic dev (`archehr train --rebuild-shipped`); lexical and embedding thresholds
are swept on those same cases; the ensemble is a majority vote of trained, lexical and embedding at those
thresholds. B. retrains on synthetic dev only, for comparison. Neither ever trains or tunes on the synthetic
test split, which they report.

Run: python benchmarks/relevance_quality.py [--synthetic DIR] [--no-embedding] [--skip-cv] [--skip-retrain]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from archehr.data.releases import demo_dir, load_split
from archehr.relevance.calibration import micro_f1
from archehr.relevance.cv import cross_validate, merge_splits
from archehr.relevance.embedding import embeddings_available
from archehr.relevance.ensemble import EnsembleClassifier
from archehr.relevance.registry import build_classifier
from archehr.relevance.selector import Selector
from archehr.relevance.trained import TrainedClassifier
from archehr.training.relevance_logistic import train
from archehr.training.selector_calibration import sweep

REPO = Path(__file__).resolve().parents[1]


def evaluate(clf, selector: Selector, split) -> tuple[float, float, float, float]:
    sels = [selector.select(s) for s in clf.score_many(split.cases)]
    strict = micro_f1(sels, split)
    lenient = micro_f1(sels, split, lenient=True)  # 2025 reading: essential + supplementary count as gold
    return 100 * strict.f1, 100 * strict.precision, 100 * strict.recall, 100 * lenient.f1


def block(title: str, train_split, test_split, trained_models: dict[str, TrainedClassifier],
          use_embedding: bool) -> list[tuple[str, str, float, float, float, float]]:
    rows = []
    cite_all = build_classifier("cite-all")
    rows.append(("cite-all", "-", *evaluate(cite_all, Selector(threshold=0.5), test_split)))
    unsup = {"lexical": build_classifier("lexical")}
    if use_embedding:
        unsup["embedding"] = build_classifier("embedding")
    members, thresholds = [], []
    for name, clf in unsup.items():
        cal = sweep(clf.score_many(train_split.cases), train_split, Selector())
        rows.append((name, f"{cal.selector.threshold:.2f}", *evaluate(clf, cal.selector, test_split)))
        members.append(clf)
        thresholds.append(cal.selector.threshold)
    for name, clf in trained_models.items():
        sel = clf.model.selector
        rows.append((name, f"{sel.threshold:.2f}", *evaluate(clf, sel, test_split)))
    main = trained_models["trained (lexical)"]  # the default model
    ens = EnsembleClassifier([main, *members], mode="majority",
                             thresholds=[main.model.selector.threshold, *thresholds])
    rows.append((f"ensemble (majority: trained, {', '.join(unsup)})", "0.50",
                 *evaluate(ens, Selector(threshold=0.5), test_split)))
    print(f"\n{title}")
    print(f"| {'classifier':<48} | {'threshold':>9} | {'strict micro F1':>15} | {'P':>5} | {'R':>5} "
          f"| {'lenient micro F1':>16} |")
    print(f"|{'-' * 50}|{'-' * 11}|{'-' * 17}|{'-' * 7}|{'-' * 7}|{'-' * 18}|")
    for name, t, f1, p, r, lf1 in rows:
        print(f"| {name:<48} | {t:>9} | {f1:>15.1f} | {p:>5.1f} | {r:>5.1f} | {lf1:>16.1f} |")
    return rows


def _fit_cite_all(train_split):
    return build_classifier("cite-all").score_many, Selector(threshold=0.5)


def _fit_lexical(train_split):
    clf = build_classifier("lexical")
    return clf.score_many, sweep(clf.score_many(train_split.cases), train_split, Selector()).selector


def _fit_trained(train_split):
    model, cal = train(train_split, "lexical")
    return TrainedClassifier(model).score_many, cal.selector


def cv_block(parts, seeds=(0, 1, 2)) -> None:
    """Grouped 5-fold CV over all usable labelled cases, and the demo -> synthetic dev transfer."""
    allc = merge_splits(parts)
    demo = merge_splits([p for p in parts if not p[0].startswith("synthetic")])
    syn = dict(parts)["synthetic-dev"]
    print(f"\nCV. grouped 5-fold x {len(seeds)} shuffles over {len(allc.cases)} labelled cases "
          f"({', '.join(f'{lab} {len(sp.cases)}' for lab, sp in parts)}); L2 and thresholds from the training folds")
    head = f"train demo ({len(demo.cases)}) -> synthetic dev"
    print(f"| {'classifier':<24} | {'CV strict micro F1 (mean +- sd over folds)':>42} | {head:>32} |")
    print(f"|{'-' * 26}|{'-' * 44}|{'-' * 34}|")
    for name, fit in (("cite-all", _fit_cite_all), ("lexical", _fit_lexical), ("trained (lexical)", _fit_trained)):
        f1s = cross_validate(allc, fit, k=5, seeds=seeds)
        scorer, selector = fit(demo)
        tr = micro_f1([selector.select(s) for s in scorer(syn.cases)], syn).f1
        cv = f"{100 * statistics.mean(f1s):.1f} +- {100 * statistics.stdev(f1s):.1f} ({len(f1s)} folds)"
        print(f"| {name:<24} | {cv:>42} | {100 * tr:>32.1f} |", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--synthetic", default=str(REPO.parent / "shared" / "data" / "synthetic"))
    ap.add_argument("--skip-cv", action="store_true", help="no cross-validation block")
    ap.add_argument("--no-embedding", action="store_true", help="skip everything that needs MiniLM")
    ap.add_argument("--skip-retrain", action="store_true", help="only the shipped models, no synthetic-dev block")
    a = ap.parse_args()
    use_emb = not a.no_embedding and embeddings_available()[0]
    test = load_split(a.synthetic, "test", require_key=True)
    syn_dev = load_split(a.synthetic, "dev", require_key=True)
    demo = {s: load_split(demo_dir(), s, require_key=True) for s in ("dev", "test", "test-2026", "train")}
    if not a.skip_cv:
        cv_block([("dev", demo["dev"]), ("test", demo["test"]), ("test-2026", demo["test-2026"]),
                  ("synthetic-dev", syn_dev)])
    shipped_train = merge_splits([("dev", demo["dev"]), ("test-2026", demo["test-2026"]), ("train", demo["train"]),
                                  ("synthetic-dev", syn_dev)])
    shipped = {"trained (lexical)": build_classifier("trained", model="lexical")}
    if use_emb:
        shipped["trained (lexical+embedding)"] = build_classifier("trained", model="embedding")
    print(f"\ntest split: {test.source} ({len(test.cases)} cases); strict = essential only; thresholds from training")
    block(f"A. shipped models, trained + calibrated on demo dev + test-2026 + train + synthetic dev "
          f"({len(shipped_train.cases)} cases)", shipped_train, test, shipped, use_emb)  # type: ignore[arg-type]
    if not a.skip_retrain:
        fresh = {}
        for fs in ("lexical", "lexical+embedding") if use_emb else ("lexical",):
            model, _ = train(syn_dev, fs)
            fresh[f"trained ({fs})"] = TrainedClassifier(model)
        block(f"B. retrained + calibrated on {syn_dev.source} ({len(syn_dev.cases)} cases)", syn_dev, test, fresh,
              use_emb)
    if not use_emb:
        print("\nembedding rows skipped: " + (embeddings_available()[1] or "--no-embedding"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
