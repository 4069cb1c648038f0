"""Evidence-selection quality: strict micro F1 on the synthetic test split (never trained or tuned on).

Every threshold is calibrated on the training split only: the shipped models were trained and
calibrated (leave-one-case-out) on the demo release's dev split; lexical and embedding thresholds
are swept on that same split; the ensemble is a majority vote of trained, lexical and embedding at
those thresholds. A second block retrains on the synthetic dev split for comparison.

Run: python benchmarks/relevance_quality.py [--synthetic DIR] [--train-dir DIR] [--no-embedding]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from archehr.data.releases import demo_dir, load_split
from archehr.relevance.calibration import micro_f1, sweep
from archehr.relevance.embedding import embeddings_available
from archehr.relevance.ensemble import EnsembleClassifier
from archehr.relevance.registry import build_classifier
from archehr.relevance.selector import Selector
from archehr.relevance.trained import TrainedClassifier, train

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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--synthetic", default=str(REPO.parent / "shared" / "data" / "synthetic"))
    ap.add_argument("--train-dir", default=None, help="release whose dev split trains (default: bundled demo)")
    ap.add_argument("--no-embedding", action="store_true", help="skip everything that needs MiniLM")
    ap.add_argument("--skip-retrain", action="store_true", help="only the shipped models, no synthetic-dev block")
    a = ap.parse_args()
    use_emb = not a.no_embedding and embeddings_available()[0]
    test = load_split(a.synthetic, "test", require_key=True)
    demo_dev = load_split(a.train_dir or demo_dir(), "dev", require_key=True)
    shipped = {"trained (lexical)": build_classifier("trained", model="lexical")}
    if use_emb:
        shipped["trained (lexical+embedding)"] = build_classifier("trained", model="embedding")
    print(f"test split: {test.source} ({len(test.cases)} cases); strict = essential only; thresholds from training")
    block(f"A. shipped models, trained + calibrated on {demo_dev.source} ({len(demo_dev.cases)} cases)",
          demo_dev, test, shipped, use_emb)  # type: ignore[arg-type]
    if not a.skip_retrain:
        syn_dev = load_split(a.synthetic, "dev", require_key=True)
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
