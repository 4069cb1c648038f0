"""st4 alignment for benchmarks/voices_cv.py: today's recipe (threshold and max_links from 5 random inner folds),
the new one (from inner leave-one-voice-out folds), today's on the old pool only, joint decoding over a case's
answer sentences, and (--st4-everyday) the everyday-lexicon pair features; LOVO and random folds.

    OPENBLAS_NUM_THREADS=1 python benchmarks/voices_cv.py --tasks st4 [--st4-everyday]
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np
from voices_cv import OLD_PARTS, lovo_folds, per_voice, random_folds, table

from archehr.data.model import Split
from archehr.relevance.cv import part_of

COMPETITION = (0.0, 0.5, 1.0, 2.0)


def compete(m: np.ndarray, alpha: float) -> np.ndarray:
    """Joint decoding over a case's answer sentences: a note sentence's link to one answer sentence is scaled by
    (its P / the best P any answer sentence of the case has for that note sentence) ** alpha (alpha 0: unchanged)."""
    if alpha == 0.0 or m.shape[0] < 2:
        return m
    best = m.max(axis=0, keepdims=True)
    return m * np.where(best > 0, m / np.where(best > 0, best, 1.0), 0.0) ** alpha


def fit_joint(lib, tr, xs, names, cols):  # noqa: ANN001, ANN201 - the library's PairCase / PairModel types
    """Today's recipe plus alpha (COMPETITION), threshold and max_links chosen together on the inner folds."""
    model = lib.fit_lr(tr, xs, "lexical+selector", lib.L2, cols, names)
    ids = [d.case_id for d in tr]
    order = [ids[i] for i in np.random.default_rng(7).permutation(len(ids))]
    oof: dict[str, np.ndarray] = {}
    for f in range(lib.INNER_K):
        held = set(order[f::lib.INNER_K])
        m = lib.fit_lr([d for d in tr if d.case_id not in held], xs, "lexical+selector", lib.L2, cols, names)
        oof.update({d.case_id: lib.link_matrix(m, d, xs[d.case_id], cols) for d in tr if d.case_id in held})
    best = (-1.0, 0.0, 0.5, 4)
    for alpha in COMPETITION:
        mats = {i: compete(v, alpha) for i, v in oof.items()}
        t, k = lib.tune(tr, mats)
        f1 = lib.micro([lib.counts(d, lib.links_of(d, lib.choose_links(mats[d.case_id], d.sentence_ids, t, k)))
                        for d in tr])[2]
        if f1 > best[0] + 1e-12:
            best = (f1, alpha, t, k)
    model.threshold, model.max_links = best[2], best[3]
    return model, best[1]

def run_st4(pool: Split, voice: dict[str, str], seeds: Sequence[int], everyday: bool = False) -> None:
    import st4_quality as q4

    from archehr.relevance.features import case_features
    from archehr.training import align as lib

    linked = lib.linked(pool)
    data = q4.build(linked, embedding=False)
    feats = {c.case_id: case_features(c, "lexical") for c in linked.cases}
    names = lib.FEATURE_SETS["lexical+selector"]
    cols = [q4.ALL_FEATURES.index(n) for n in names]
    methods = {"today: inner 5 random folds": None, "new: inner leave-one-voice-out": voice,
               "today, old pool only": "old", "new: joint decoding (column competition)": "joint"}
    ev_names = lib.FEATURE_SETS["lexical+selector+everyday"]
    ev_data = {}
    if everyday:  # today's recipe with the everyday-lexicon pair features (archehr.align.features)
        methods["everyday: lexical+selector+everyday"] = "everyday"
        ev_data = lib.pair_cases(linked, ev_names)
    alphas: list[float] = []
    fold_sets = {"LOVO": lovo_folds(linked.case_ids, voice), "random": random_folds(linked, seeds)}
    res: dict[str, dict[str, list[float]]] = {m: {} for m in methods}
    for fs, folds in fold_sets.items():
        for _fname, held in folds:
            train_ids = [c for c in linked.case_ids if c not in set(held)]
            sel = q4.oof_selector(linked, train_ids, held, feats)
            xs = {i: q4.with_selector(data[i], sel[i]) for i in linked.case_ids}
            tr = [data[i] for i in train_ids]
            ev_xs = {i: lib.with_selector(ev_data[i].x, ev_names, sel[i]) for i in ev_data}
            for m, groups in methods.items():
                alpha, d, x, c = 0.0, data, xs, cols
                if groups == "everyday":
                    d, x, c = ev_data, ev_xs, list(range(len(ev_names)))
                    model = lib.fit_tuned([d[i] for i in train_ids], x, "lexical+selector+everyday", lib.L2, c,
                                          ev_names)
                elif groups == "joint":
                    model, alpha = fit_joint(lib, tr, xs, names, cols)
                    alphas.append(alpha)
                elif groups == "old":  # the old pool's cases only (selector probabilities as above)
                    sub = [t for t in tr if part_of(t.case_id) in OLD_PARTS]
                    model = lib.fit_tuned(sub, xs, "lexical+selector", lib.L2, cols, names)
                else:
                    model = lib.fit_tuned(tr, xs, "lexical+selector", lib.L2, cols, names, groups=groups)
                cs = [lib.counts(d[i], lib.links_of(d[i], q4.choose_links(
                    compete(lib.link_matrix(model, d[i], x[i], c), alpha), d[i].sentence_ids, model.threshold,
                    model.max_links))) for i in held]
                res[m].setdefault(fs, []).append(100 * lib.micro(cs)[2])
        print(f"  st4 {fs} done", file=sys.stderr, flush=True)
    table(f"st4 alignment, micro F1 ({len(linked.cases)} cases with answer-sentence citations)", res,
          "today: inner 5 random folds", "F1 points")
    per_voice("st4", fold_sets["LOVO"], {m: res[m]["LOVO"] for m in res})
    print(f"  joint decoding: alpha chosen per fold {alphas}")
