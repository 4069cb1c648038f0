"""Several labelled splits as one training set, and grouped k-fold cross-validation over cases.

Training on more cases generalises better than any feature we tried (docs/relevance.md), but split
case ids collide ("1" in demo dev and in synthetic dev), so merged cases get a part prefix
("syn-dev:1"); the model file records every part with its own hash.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np

from archehr.data.model import Split
from archehr.errors import ConfigError, Problem
from archehr.relevance.base import SentenceScores
from archehr.relevance.calibration import micro_f1, require_labels
from archehr.relevance.selector import Selector

SEP = ":"


def merge_splits(parts: Sequence[tuple[str, Split]], name: str = "merged") -> Split:
    """One labelled Split of every part's cases, ids prefixed `label:` so they stay unique."""
    if not parts:
        raise ConfigError(Problem("no splits to merge", field="splits"))
    labels = [lab for lab, _ in parts]
    dup = sorted({x for x in labels if labels.count(x) > 1})
    if dup:
        raise ConfigError(Problem(f"duplicate part labels: {', '.join(dup)}", field="splits"))
    cases, keys = [], []
    for lab, sp in parts:
        require_labels(sp)
        for c in sp.cases:
            cases.append(dataclasses.replace(c, case_id=f"{lab}{SEP}{c.case_id}"))
            keys.append(dataclasses.replace(sp.key_for(c.case_id), case_id=f"{lab}{SEP}{c.case_id}"))
    sources = "; ".join(f"{lab}={sp.source}" for lab, sp in parts)
    return Split(name, tuple(cases), tuple(keys), source=sources)


def part_of(case_id: str) -> str:
    """The part label of a merged case id ("" for an unmerged id)."""
    return case_id.split(SEP, 1)[0] if SEP in case_id else ""


def grouped_folds(split: Split, k: int = 5, seed: int = 0) -> list[list[str]]:
    """k folds of case ids, each part's cases shuffled and dealt round-robin so every fold mixes parts."""
    if not 2 <= k <= len(split.cases):
        raise ConfigError(Problem(f"k must be within [2, {len(split.cases)}] cases, got {k}", field="k"))
    rng = np.random.default_rng(seed)
    folds: list[list[str]] = [[] for _ in range(k)]
    pos = 0
    for part in dict.fromkeys(part_of(c) for c in split.case_ids):
        ids = [c for c in split.case_ids if part_of(c) == part]
        for i in rng.permutation(len(ids)):
            folds[pos % k].append(ids[int(i)])
            pos += 1
    return folds


FitAndSelect = Callable[[Split], tuple[Callable[[Split], list[SentenceScores]], Selector]]


def cross_validate(split: Split, fit: FitAndSelect, k: int = 5, seeds: Sequence[int] = (0,)) -> list[float]:
    """Strict micro F1 of every held-out fold (for each seed): `fit(train)` -> (scorer, selector).

    Everything `fit` chooses (L2, threshold) must come from the training folds only, so these are
    honest estimates for unseen cases of the same kind.
    """
    out = []
    for seed in seeds:
        for fold in grouped_folds(split, k, seed):
            held = set(fold)
            train = split.subset([c for c in split.case_ids if c not in held])
            test = split.subset(fold)
            scorer, selector = fit(train)
            out.append(micro_f1([selector.select(s) for s in scorer(test)], test).f1)
    return out
