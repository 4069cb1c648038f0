"""Fit the shipped st4 aligner (archehr/align/model_pairwise.json) on its labelled pool (library side).

Run through `archehr train rebuild-shipped [--only align]` (archehr.training.shipped dispatches here);
benchmarks/st4_quality.py --write-model calls `build_model` too, so there is one recipe. It lives in the
training layer, above both `relevance` (its out-of-fold selector) and `align` (the model it fits), so neither
of those imports the other's training code.

Pool: every case with clinician_answer_sentences + citations in demo dev, demo test-2026, demo train and
synthetic dev (the held-out demo test and synthetic test are never used). Case ids are prefixed by their part
label ("syn-dev:1"), and the labels decide the folds and the training hash, so they stay as first
shipped. The selector-probability features of pool cases come out of fold from a relevance model
refitted on the other folds with the shipped lexical recipe (lexical features, L2 `SELECTOR_L2`): the
shipped relevance model was trained on this same pool, so its own probabilities would be in-sample.
The aligner therefore never reads a relevance model file, and a full rebuild needs no particular order.
Threshold and max_links are chosen on inner-CV link probabilities over the pool.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from archehr.align import choose_links
from archehr.align.features import FEATURE_SETS, headers, pair_features
from archehr.align.learned import PairModel
from archehr.data.model import Split
from archehr.errors import DataError, Problem
from archehr.relevance.base import SentenceScores
from archehr.relevance.logistic import Scaler, fit_logistic
from archehr.training.labelled import labels, portable_source, training_hash

FEATURE_SET = "lexical+selector"
L2 = 1.0
INNER_K = 5  # inner folds whose out-of-fold link probabilities choose threshold / max_links
SELECTOR_L2 = 3.0  # the shipped lexical relevance model's recipe (see the module docstring)
SELECTOR_FOLDS = 5
THRESHOLDS: tuple[float, ...] = tuple(float(t) for t in np.round(np.arange(0.05, 0.96, 0.025), 3))
MAX_LINKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
DEMO_PARTS = ("dev", "test-2026", "train")
SYNTHETIC_LABEL = "syn-dev"
RECIPE = "archehr train --rebuild-shipped"

Log = Callable[[str], None]
Links = frozenset[tuple[str, str]]


def fit_pairs(xs: Sequence[np.ndarray], ys: Sequence[np.ndarray], feature_set: str, l2: float = 1.0,
              names: Sequence[str] | None = None) -> PairModel:
    """Fit on stacked pair rows (each x: (n_pairs, n_features), y: 0/1 of the same length).

    `names` overrides the feature set's columns (ablations in benchmarks/st4_quality.py only: such a
    model does not pass `parse_model`).
    """
    names = tuple(names) if names is not None else FEATURE_SETS[feature_set]
    x = np.vstack(xs)
    scaler = Scaler.fit(x)
    model = fit_logistic(scaler.transform(x), np.concatenate(ys), l2)
    return PairModel(feature_set, names, scaler, model, l2=l2)


@dataclass
class PairCase:
    """One pool case's pair features and gold links."""

    case_id: str
    answer_ids: tuple[str, ...]
    sentence_ids: tuple[str, ...]
    gold: Links
    x: np.ndarray  # (answers, sentences, features); selector columns zero until `with_selector`
    headers: np.ndarray

    def y(self) -> np.ndarray:
        return np.array([[(a, s) in self.gold for s in self.sentence_ids] for a in self.answer_ids], dtype=float)


# ---------------------------------------------------------------- pool

def has_links(split: Split, case_id: str) -> bool:
    """The case has clinician answer sentences and at least one citation (what the aligner learns from)."""
    try:
        k = split.key_for(case_id)
    except KeyError:  # a case the key does not list has no links
        return False
    return bool(k.clinician_answer_sentences) and any(a.citations for a in k.clinician_answer_sentences)


def linked(split: Split) -> Split:
    return split.subset([c.case_id for c in split.cases if split.key is not None and has_links(split, c.case_id)])


def pool_from_parts(parts: Sequence[tuple[str, Split]], log: Log | None = None) -> Split:
    """The merged pool of every part's linked cases; a part without any raises DataError naming its folder."""
    from archehr.relevance.cv import merge_splits

    note = log or (lambda _msg: None)
    kept = []
    for lab, sp in parts:
        sub = linked(sp)
        if not sub.cases:
            raise DataError(Problem("no case with clinician_answer_sentences + citations (the st4 aligner trains "
                                    "on them)", sp.source, code="no-links"))
        kept.append((lab, sub))
    pool = merge_splits(kept)
    shares = [f"{lab} {len(sub.cases)}/{len(sp.cases)}" for (lab, sp), (_, sub) in zip(parts, kept, strict=True)]
    note(f"align pool (cases with answer-sentence citations / all): {', '.join(shares)}; {len(pool.cases)} cases")
    return pool


def load_parts(synthetic: str | Path, demo: str | Path) -> list[tuple[str, Split]]:
    """(label, split) of the pool's parts (`demo`: the demo release folder); a missing or unlabelled split
    raises the loader's InputError."""
    from archehr.data.releases import load_split

    parts = [(name, load_split(demo, name, require_key=True)) for name in DEMO_PARTS]
    parts.append((SYNTHETIC_LABEL, load_split(synthetic, "dev", require_key=True)))
    return parts


def load_pool(synthetic: str | Path, demo: str | Path, log: Log | None = None) -> tuple[Split, list[str]]:
    """The pool and its parts as recorded in the model file ("label=path", paths without the machine's prefix)."""
    parts = load_parts(synthetic, demo)
    return pool_from_parts(parts, log), [f"{lab}={portable_source(sp.source)}" for lab, sp in parts]


def pair_cases(split: Split, names: Sequence[str], encoder: object | None = None) -> dict[str, PairCase]:
    """Pair features (columns `names`) and gold links of every case, selector columns left at zero."""
    from archehr.glossary import load_glossary

    g = load_glossary()
    out = {}
    for c in split.cases:
        ans = split.key_for(c.case_id).clinician_answer_sentences or ()
        x = pair_features(c, ans, names, None, g, encoder)
        gold = frozenset((a.id, e) for a in ans for e in a.citations)
        out[c.case_id] = PairCase(c.case_id, tuple(a.id for a in ans), c.sentence_ids, gold, x, headers(c))
    return out


# ---------------------------------------------------------------- selector probabilities (out of fold)

def selector_probs(split: Split, train_ids: Sequence[str], target_ids: Sequence[str], feats: dict[str, np.ndarray],
                   l2: float = SELECTOR_L2) -> dict[str, SentenceScores]:
    """The shipped relevance model's recipe (lexical features, L2 `l2`) fitted on `train_ids` only."""
    from archehr.training.relevance_logistic import fit_fixed

    m = fit_fixed("lexical", (), [feats[i] for i in train_ids], [labels(split, split.case(i)) for i in train_ids], l2)
    return {i: m.scores(split.case(i), feats[i]) for i in target_ids}


def lexical_features(split: Split) -> dict[str, np.ndarray]:
    from archehr.relevance.features import case_features

    return {c.case_id: case_features(c, "lexical") for c in split.cases}


def with_selector(x: np.ndarray, names: Sequence[str], scores: SentenceScores) -> np.ndarray:
    """`x` with its selector_prob / selector_rank columns filled from `scores`."""
    p = np.array(scores.relevant())
    x = x.copy()
    order = np.argsort(-p, kind="stable")
    rank = np.zeros_like(p)
    rank[order] = 1.0 / (1.0 + np.arange(len(p)))
    x[:, :, list(names).index("selector_prob")] = p[None, :]
    x[:, :, list(names).index("selector_rank")] = rank[None, :]
    return x


# ---------------------------------------------------------------- scoring and tuning

def links_of(d: PairCase, rows: list[list[str]]) -> Links:
    return frozenset((a, e) for a, ev in zip(d.answer_ids, rows, strict=True) for e in ev)


def counts(d: PairCase, pred: Links) -> tuple[int, int, int]:
    return len(pred & d.gold), len(pred), len(d.gold)


def micro(cs: Sequence[tuple[int, int, int]]) -> tuple[float, float, float]:
    from archehr_scoring.aggregate2026 import alignment_case_prf

    tp, npred, ngold = (sum(c[i] for c in cs) for i in range(3))
    return alignment_case_prf(tp, npred, ngold)  # the official micro rule (per-case rule on the sums)


def tune(train: Sequence[PairCase], mats: dict[str, np.ndarray], ts: Sequence[float] = THRESHOLDS,
         ks: Sequence[int] = MAX_LINKS) -> tuple[float, int]:
    """(threshold, max_links) of the best micro F1 over `train` (first best in k-then-t order)."""
    best, arg = -1.0, (0.5, 4)
    for k in ks:
        for t in ts:
            rows = {d.case_id: choose_links(mats[d.case_id], d.sentence_ids, float(t), k) for d in train}
            f = micro([counts(d, links_of(d, rows[d.case_id])) for d in train])[2]
            if f > best + 1e-12:
                best, arg = f, (float(t), k)
    return arg


def link_matrix(model: PairModel, d: PairCase, x: np.ndarray, cols: Sequence[int]) -> np.ndarray:
    p = model.predict(x[:, :, list(cols)])
    p[:, d.headers] = 0.0  # headers are never linked
    return p


def fit_lr(train: Sequence[PairCase], xs: dict[str, np.ndarray], feature_set: str, l2: float, cols: Sequence[int],
           names: Sequence[str]) -> PairModel:
    keep = [~d.headers for d in train]
    rows = [xs[d.case_id][:, k][:, :, list(cols)].reshape(-1, len(cols)) for d, k in zip(train, keep, strict=True)]
    ys = [d.y()[:, k].reshape(-1) for d, k in zip(train, keep, strict=True)]
    return fit_pairs(rows, ys, feature_set, l2, names)


def fit_tuned(train: Sequence[PairCase], xs: dict[str, np.ndarray], feature_set: str, l2: float = L2,
              cols: Sequence[int] | None = None, names: Sequence[str] | None = None,
              inner_k: int = INNER_K, groups: Mapping[str, str] | None = None) -> PairModel:
    """Pairwise LR on `train`; threshold and max_links from inner-CV probabilities on `train` only.

    `cols` / `names`: the feature columns of `xs` to use (default: the feature set's, `xs` in its layout).
    `groups` (case id -> group, e.g. the writer's voice): the inner folds leave one group out each instead of
    `inner_k` random folds.
    """
    names = tuple(names) if names is not None else FEATURE_SETS[feature_set]
    cols = list(cols) if cols is not None else list(range(len(names)))
    model = fit_lr(train, xs, feature_set, l2, cols, names)
    ids = [d.case_id for d in train]
    order = [ids[i] for i in np.random.default_rng(7).permutation(len(ids))]
    if groups is not None:
        inner = [{i for i in ids if groups[i] == g} for g in dict.fromkeys(groups[i] for i in ids)]
    else:
        inner = [set(order[f::inner_k]) for f in range(inner_k)]
    oof: dict[str, np.ndarray] = {}
    for held in inner:
        m = fit_lr([d for d in train if d.case_id not in held], xs, feature_set, l2, cols, names)
        oof.update({d.case_id: link_matrix(m, d, xs[d.case_id], cols) for d in train if d.case_id in held})
    model.threshold, model.max_links = tune(train, oof)
    return model


# ---------------------------------------------------------------- the shipped model

def fit_pool(pool: Split, data: dict[str, PairCase], feature_set: str = FEATURE_SET) -> PairModel:
    """Fit on the whole pool with out-of-fold selector probabilities (as unseen cases will get them)."""
    names = FEATURE_SETS[feature_set]
    xs = {i: d.x for i, d in data.items()}
    if "selector_prob" in names:
        feats = lexical_features(pool)
        sel: dict[str, SentenceScores] = {}
        for fold in grouped_folds(pool, SELECTOR_FOLDS, 0):
            held = set(fold)
            sel.update(selector_probs(pool, [c for c in pool.case_ids if c not in held], fold, feats))
        xs = {i: with_selector(data[i].x, names, sel[i]) for i in pool.case_ids}
    return fit_tuned([data[i] for i in pool.case_ids], xs, feature_set)


def grouped_folds(split: Split, k: int, seed: int) -> list[list[str]]:
    from archehr.relevance.cv import grouped_folds as folds

    return folds(split, min(k, len(split.cases)), seed)


def training_stamp(**info: Any) -> dict[str, Any]:
    """The model file's training record: `info` and when it was made."""
    return {**info, "created": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}


def build_model(synthetic: str | Path, demo: str | Path, feature_set: str = FEATURE_SET, recipe: str = RECIPE,
                log: Log | None = None, pool: tuple[Split, list[str]] | None = None) -> PairModel:
    """Load the pool from the synthetic and demo release folders (or take `pool` from `load_pool`), fit, and
    stamp the training record; writes nothing."""

    split, where = pool if pool is not None else load_pool(synthetic, demo, log)
    encoder = None
    if any(n.startswith("cosine") for n in FEATURE_SETS[feature_set]):
        from archehr.relevance.embedding import get_encoder

        encoder = get_encoder()
    data = pair_cases(split, FEATURE_SETS[feature_set], encoder)
    model = fit_pool(split, data, feature_set)
    model.training = training_stamp(pool=where, sha256=training_hash(split), cases=len(split.cases),
                                    links=sum(len(d.gold) for d in data.values()), recipe=recipe)
    return model


def rebuild_align(synthetic: str | Path, demo: str | Path, path: Path, log: Log | None = None,
                  pool: tuple[Split, list[str]] | None = None) -> PairModel:
    """Build the shipped aligner and write it atomically to `path` (nothing is written if anything fails)."""
    model = build_model(synthetic, demo, log=log, pool=pool)
    model.save(path)  # archehr.atomic.write_json
    t = model.training
    (log or (lambda _msg: None))(f"align: pool {t['cases']} cases, {t['links']} links; threshold {model.threshold}, "
                                 f"max_links {model.max_links} (inner {INNER_K}-fold CV); written to {path}")
    return model
