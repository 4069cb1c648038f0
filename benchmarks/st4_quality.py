"""Subtask 4 (evidence alignment) quality: grouped K-fold CV over the labelled pool, held-out checks once.

Pool (tuning allowed): every case with clinician_answer_sentences + citations in demo dev, demo
test-2026 and synthetic dev. Held out (never tuned on; scored only with --final): synthetic test
and demo test. Folds are by case (ids prefixed by their split, so "1" of two splits stay apart).
Everything a method chooses (threshold, max_links, selector weight, LR weights) comes from the
training folds only; the selector probabilities come from a relevance model retrained on the
training folds (the shipped one was trained on the whole pool, so its probabilities on pool cases
would be in-sample). Links are scored exactly as the official st4 scorer does: the set of
(answer_id, evidence_id) pairs per case, micro P/R/F1 over sums (archehr_scoring.aggregate2026).

Run: python benchmarks/st4_quality.py [--k 5] [--seeds 0 1 2] [--no-embedding] [--final]
     python benchmarks/st4_quality.py --write-model FILE   (the shipped recipe, archehr.training.align; the shipped
     file itself is rebuilt with `archehr train --rebuild-shipped [--only align]`)

The pool loading, pair features, out-of-fold selector probabilities, tuning and LR fitting are the library's
(archehr/training/align.py), so the benchmark evaluates exactly what ships.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np

from archehr.align import Aligner, choose_links
from archehr.align.features import FEATURE_SETS
from archehr.data.model import Split
from archehr.data.releases import load_split_dir
from archehr.relevance.base import SentenceScores
from archehr.relevance.cv import grouped_folds, merge_splits
from archehr.relevance.features import case_features
from archehr.training import align as lib
from archehr.training.align import PairCase, counts, links_of, micro, selector_probs
from archehr_scoring.aggregate2026 import alignment_case_prf

REPO = Path(__file__).resolve().parents[1]
SYN = REPO.parent / "shared" / "data" / "synthetic"  # shared/ lies beside the checkout (as in CI)
POOL = (("dev", REPO / "data/demo/dev"), ("test-2026", REPO / "data/demo/test-2026"), ("syn-dev", SYN / "dev"))
HELD = (("syn-test", SYN / "test"), ("demo-test", REPO / "data/demo/test"))
ALL_FEATURES = FEATURE_SETS["lexical+selector+embedding"]
THRESHOLDS = lib.THRESHOLDS
MAX_LINKS = lib.MAX_LINKS


@dataclass
class CaseData(PairCase):
    """The library's pair case (x in the ALL_FEATURES layout, or its lexical+selector prefix) plus what the
    similarity aligner needs."""

    aligner_inputs: tuple = ()
    extra: dict = field(default_factory=dict)


def labelled(parts: Sequence[tuple[str, Path]]) -> Split:
    loaded = []
    for lab, d in parts:
        sp = load_split_dir(d)
        keep = lib.linked(sp)
        print(f"  {lab:10s} {d}: {len(sp.cases)} cases, {len(keep.cases)} with clinician_answer_sentences + citations")
        loaded.append((lab, keep))
    return merge_splits(loaded)


def build(split: Split, embedding: bool) -> dict[str, CaseData]:
    enc = None
    names = ALL_FEATURES if embedding else FEATURE_SETS["lexical+selector"]
    if embedding:
        from archehr.relevance.embedding import get_encoder

        enc = get_encoder()
    out = {}
    for cid, d in lib.pair_cases(split, names, enc).items():
        case = split.case(cid)
        out[cid] = CaseData(**{f.name: getattr(d, f.name) for f in fields(PairCase)},
                            aligner_inputs=(case, split.key_for(cid).clinician_answer_sentences or ()))
    return out


# ---------------------------------------------------------------- selector probabilities (honest)


def oof_selector(split: Split, train_ids: Sequence[str], held_ids: Sequence[str], feats: dict[str, np.ndarray],
                 k: int = 5) -> dict[str, SentenceScores]:
    """Held cases: model on all of train. Train cases: inner k-fold within train (never sees held labels)."""
    out = selector_probs(split, train_ids, held_ids, feats)
    inner = grouped_folds(split.subset(list(train_ids)), min(k, len(train_ids)), seed=99)
    for fold in inner:
        rest = [i for i in train_ids if i not in set(fold)]
        out.update(selector_probs(split, rest, fold, feats))
    return out


def with_selector(d: CaseData, s: SentenceScores) -> np.ndarray:
    return lib.with_selector(d.x, ALL_FEATURES[: d.x.shape[-1]], s)


# ---------------------------------------------------------------- scoring (links_of, counts, micro: the library's)

def case_f1(c: tuple[int, int, int]) -> float:
    return alignment_case_prf(*c)[2]


# ---------------------------------------------------------------- methods: fit(train) -> predict(case)

Predictor = Callable[[CaseData, np.ndarray], frozenset[tuple[str, str]]]
Method = Callable[[list[CaseData], dict[str, np.ndarray]], Predictor]


def _rows_from_matrix(d: CaseData, m: np.ndarray, threshold: float, max_links: int) -> list[list[str]]:
    return choose_links(m, d.sentence_ids, threshold, max_links)


_tune = lib.tune


def aligner_method(threshold: float | None, selector_weight: float | Sequence[float] = 0.0, max_links: int | None = 4,
                   similarity: str = "lexical") -> Method:
    """The shipped Aligner; None = tuned on the training folds."""
    weights = (selector_weight,) if isinstance(selector_weight, float) else tuple(selector_weight)

    def fit(train: list[CaseData], xs: dict[str, np.ndarray]) -> Predictor:
        best, chosen = -1.0, None
        for w in weights:
            al = Aligner(0.75 if threshold is None else threshold, w, similarity, max_links or 4)
            mats = {d.case_id: _aligner_matrix(al, d, xs[d.case_id]) for d in train}
            t, k = _tune(train, mats, THRESHOLDS if threshold is None else (threshold,),
                         MAX_LINKS if max_links is None else (max_links,))
            f = micro([counts(d, links_of(d, _rows_from_matrix(d, mats[d.case_id], t, k))) for d in train])[2]
            if f > best:
                best, chosen = f, Aligner(t, w, similarity, k)

        def predict(d: CaseData, x: np.ndarray) -> frozenset[tuple[str, str]]:
            return links_of(d, chosen.links(_aligner_matrix(chosen, d, x), d.sentence_ids, chosen.threshold))
        return predict
    return fit


def _aligner_matrix(al: Aligner, d: CaseData, x: np.ndarray) -> np.ndarray:
    case, ans = d.aligner_inputs
    key = ("aligner", al.similarity.kind)
    if key not in d.extra:
        d.extra[key] = al.scores(case, ans, None)  # selector_weight 0: pure similarity, cached
    sim = d.extra[key]
    p = x[0, :, ALL_FEATURES.index("selector_prob")]
    out = (1 - al.selector_weight) * sim + al.selector_weight * p[None, :]
    out[:, d.headers] = 0.0
    return out


def best_one() -> Method:
    def fit(train: list[CaseData], xs: dict[str, np.ndarray]) -> Predictor:
        al = Aligner(2.0, 0.0, "lexical", 1)
        return lambda d, x: links_of(d, al.links(_aligner_matrix(al, d, x), d.sentence_ids, 2.0))
    return fit


def max_overlap() -> Method:
    """Every sentence sharing the most content words with the answer sentence (ties all linked)."""
    col = ALL_FEATURES.index("cover_answer")

    def fit(train: list[CaseData], xs: dict[str, np.ndarray]) -> Predictor:
        def predict(d: CaseData, x: np.ndarray) -> frozenset[tuple[str, str]]:
            rows = []
            for i in range(len(d.answer_ids)):
                v = np.where(d.headers, 0.0, x[i, :, col])
                rows.append([d.sentence_ids[j] for j in np.flatnonzero(v >= v.max() - 1e-12)] if v.max() > 0
                            else [d.sentence_ids[int(np.argmax(v))]])
            return links_of(d, rows)
        return predict
    return fit


def feature_matrix_method(name: str) -> Method:
    """One feature as the score (e.g. bm25_rel: relative threshold 'within x of the best'), tuned t/k."""
    col = ALL_FEATURES.index(name)

    def fit(train: list[CaseData], xs: dict[str, np.ndarray]) -> Predictor:
        mats = {d.case_id: np.where(d.headers[None, :], 0.0, xs[d.case_id][:, :, col]) for d in train}
        t, k = _tune(train, mats)

        def predict(d: CaseData, x: np.ndarray) -> frozenset[tuple[str, str]]:
            return links_of(d, choose_links(np.where(d.headers[None, :], 0.0, x[:, :, col]), d.sentence_ids, t, k))
        return predict
    return fit


_lr_matrix = lib.link_matrix


def lr_method(feature_set: str, l2: float = 1.0, inner_k: int = 5, drop: Sequence[str] = ()) -> Method:
    """Pairwise LR; threshold and max_links from inner-CV probabilities on the training folds."""
    names = [n for n in FEATURE_SETS[feature_set] if n not in drop]
    cols = [ALL_FEATURES.index(n) for n in names]

    def fit(train: list[CaseData], xs: dict[str, np.ndarray]) -> Predictor:
        model = lib.fit_tuned(train, xs, feature_set, l2, cols, names, inner_k)
        t, k = model.threshold, model.max_links

        def predict(d: CaseData, x: np.ndarray) -> frozenset[tuple[str, str]]:
            return links_of(d, choose_links(_lr_matrix(model, d, x, cols), d.sentence_ids, t, k))
        predict.model = model  # type: ignore[attr-defined]
        return predict
    return fit


# ---------------------------------------------------------------- CV driver

def cross_validate(pool: Split, data: dict[str, CaseData], methods: dict[str, Method], k: int,
                   seeds: Sequence[int]) -> tuple[dict[str, list[float]], dict[str, dict[str, list]], dict[str, float]]:
    """Per method: fold micro F1s, per-case counts (per seed), and prediction time."""
    feats = {c.case_id: case_features(c, "lexical") for c in pool.cases}
    fold_f1: dict[str, list[float]] = {m: [] for m in methods}
    per_case: dict[str, dict[str, list]] = {m: {} for m in methods}
    elapsed = dict.fromkeys(methods, 0.0)
    for seed in seeds:
        for fold in grouped_folds(pool, k, seed):
            held = set(fold)
            train_ids = [c for c in pool.case_ids if c not in held]
            sel = oof_selector(pool, train_ids, fold, feats)
            xs = {i: with_selector(data[i], sel[i]) for i in pool.case_ids}
            train = [data[i] for i in train_ids]
            for name, method in methods.items():
                pred = method(train, xs)
                t0 = time.perf_counter()
                cs = [counts(data[i], pred(data[i], xs[i])) for i in fold]
                elapsed[name] += time.perf_counter() - t0
                fold_f1[name].append(100 * micro(cs)[2])
                for i, c in zip(fold, cs, strict=True):
                    per_case[name].setdefault(i, []).append(c)
    return fold_f1, per_case, elapsed


def summarise(fold_f1: dict[str, list[float]], per_case: dict[str, dict[str, list]], elapsed: dict[str, float],
              reference: str, n_cases: int, seeds: int) -> None:
    ref_cases = per_case[reference]
    print(f"\n{'method':40s} {'microP':>7s} {'microR':>7s} {'microF1':>8s} {'fold F1 mean+-sd':>17s} "
          f"{'dF1 vs ref':>10s} {'won/lost/tie':>12s} {'pred cases/s':>12s}")
    for name, f1s in fold_f1.items():
        allc = [c for cs in per_case[name].values() for c in cs]
        p, r, f = micro(allc)
        diffs = [statistics.mean(case_f1(c) for c in per_case[name][i])
                 - statistics.mean(case_f1(c) for c in ref_cases[i]) for i in ref_cases]
        won = sum(x > 1e-9 for x in diffs)
        lost = sum(x < -1e-9 for x in diffs)
        speed = n_cases * seeds / elapsed[name] if elapsed[name] > 0 else float("inf")
        tie = len(diffs) - won - lost
        print(f"{name:40s} {100 * p:7.1f} {100 * r:7.1f} {100 * f:8.1f} {statistics.mean(f1s):8.1f} +- "
              f"{statistics.stdev(f1s):5.1f} {100 * statistics.mean(diffs):+10.1f} {won:4d}/{lost:3d}/{tie:3d}"
              f" {speed:12.0f}")
    print(f"(dF1 = mean paired per-case F1 difference vs {reference!r}, in points; won/lost counted per case)")


def ablations(feature_set: str) -> dict[str, Method]:
    """The chosen LR with one feature dropped at a time, and other L2 strengths."""
    m: dict[str, Method] = {f"LR {feature_set}": lr_method(feature_set)}
    for l2 in (0.1, 10.0, 100.0):
        m[f"  L2 {l2:g}"] = lr_method(feature_set, l2)
    for n in FEATURE_SETS[feature_set]:
        m[f"  - {n}"] = lr_method(feature_set, drop=(n,))
    return m


def candidates(embedding: bool) -> dict[str, Method]:
    m: dict[str, Method] = {
        "baseline: best-1 lexical": best_one(),
        "baseline: max word overlap (ties)": max_overlap(),
        "shipped: lexical t=0.75 w=0 k=4": aligner_method(0.75, 0.0, 4),
        "aligner: t,k tuned (w=0)": aligner_method(None, 0.0, None),
        "aligner: t,k,w tuned": aligner_method(None, (0.0, 0.1, 0.2, 0.3, 0.5), None),
        "relative bm25: t,k tuned": feature_matrix_method("bm25_rel"),
        "LR lexical": lr_method("lexical"),
        "LR lexical+selector": lr_method("lexical+selector"),
    }
    if embedding:
        m["aligner embedding: t,k tuned"] = aligner_method(None, 0.0, None, "embedding")
        m["LR lexical+embedding"] = lr_method("lexical+embedding")
        m["LR lexical+selector+embedding"] = lr_method("lexical+selector+embedding")
    return m


def final(pool: Split, data: dict[str, CaseData], methods: dict[str, Method], embedding: bool) -> None:
    """Fit every method on the whole pool, score each held-out split once."""
    print("\nHELD-OUT (fitted on the whole pool; scored once)")
    held = labelled(HELD)
    hdata = build(held, embedding)
    feats = {c.case_id: case_features(c, "lexical") for c in list(pool.cases) + list(held.cases)}
    both = merge_splits([("pool", pool), ("held", held)])
    sel = oof_selector(both, ["pool:" + i for i in pool.case_ids], ["held:" + i for i in held.case_ids],
                       {("pool:" if c in pool.case_ids else "held:") + c: v for c, v in feats.items()})
    psel = {i: s for i, s in sel.items() if i.startswith("pool:")}
    xs = {i: with_selector(data[i], psel["pool:" + i]) for i in pool.case_ids}
    xs.update({i: with_selector(hdata[i], sel["held:" + i]) for i in held.case_ids})
    train = [data[i] for i in pool.case_ids]
    print(f"{'method':40s} " + " ".join(f"{lab + ' P/R/F1':>22s}" for lab, _ in HELD))
    for name, method in methods.items():
        pred = method(train, xs)
        row = []
        for lab, _ in HELD:
            cs = [counts(hdata[i], pred(hdata[i], xs[i])) for i in held.case_ids if i.startswith(lab + ":")]
            p, r, f = micro(cs)
            row.append(f"{100 * p:6.1f} {100 * r:6.1f} {100 * f:6.1f}")
        print(f"{name:40s} " + " ".join(f"{x:>22s}" for x in row))


def write_model(feature_set: str, path: Path) -> None:
    """The shipped recipe (archehr.training.align), written to `path` (the benchmark never loads it back)."""
    model = lib.build_model(SYN, REPO / "data" / "demo", feature_set, recipe="benchmarks/st4_quality.py --write-model",
                            log=print)
    model.save(path)
    print(f"wrote {path}: threshold {model.threshold}, max_links {model.max_links}")


def speed(pool: Split) -> None:
    """End-to-end Aligner.align speed (features included) with the shipped selector's probabilities."""
    from archehr.relevance.registry import load_selector

    ev = load_selector("lexical")
    scores = {c.case_id: ev.scores(c) for c in pool.cases}
    print("\nSPEED: Aligner.align over the pool, selector scores given (cases/s)")
    for label, al in (("similarity t=0.75 (old shipped)", Aligner(0.75, 0.0, "lexical", 4)),
                      ("learned (new shipped)", Aligner(kind="learned"))):
        t0 = time.perf_counter()
        for c in pool.cases:
            al.align(c, pool.key_for(c.case_id).clinician_answer_sentences or (), scores[c.case_id])
        print(f"  {label:34s} {len(pool.cases) / (time.perf_counter() - t0):8.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--no-embedding", action="store_true")
    ap.add_argument("--final", action="store_true", help="also fit on the pool and score the held-out splits once")
    ap.add_argument("--write-model", type=Path, help="fit the shipped learned aligner on the pool and save it")
    ap.add_argument("--feature-set", default="lexical+selector", choices=sorted(FEATURE_SETS))
    ap.add_argument("--ablation", action="store_true", help="feature drops and L2 of --feature-set instead")
    args = ap.parse_args()
    embedding = not args.no_embedding
    if embedding:
        from archehr.relevance.embedding import embeddings_available

        embedding = embeddings_available()[0]
    if args.write_model:
        write_model(args.feature_set, args.write_model)
        return
    print("POOL (tuning allowed)")
    pool = labelled(POOL)
    t0 = time.perf_counter()
    data = build(pool, embedding)
    build_s = time.perf_counter() - t0
    print(f"{len(pool.cases)} cases, {sum(len(d.answer_ids) for d in data.values())} answer sentences, "
          f"{sum(len(d.gold) for d in data.values())} gold links; pair features {len(pool.cases) / build_s:.1f} "
          f"cases/s (embedding {'on' if embedding else 'off'})")
    methods = ablations(args.feature_set) if args.ablation else candidates(embedding)
    reference = f"LR {args.feature_set}" if args.ablation else "shipped: lexical t=0.75 w=0 k=4"
    fold_f1, per_case, elapsed = cross_validate(pool, data, methods, args.k, args.seeds)
    print(f"\nCV: grouped {args.k}-fold x seeds {args.seeds}; micro over all held-out predictions")
    summarise(fold_f1, per_case, elapsed, reference, len(pool.cases), len(args.seeds))
    speed(pool)
    if args.final:
        final(pool, data, methods, embedding)


if __name__ == "__main__":
    main()
