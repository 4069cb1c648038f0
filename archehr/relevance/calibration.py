"""Threshold calibration: sweep the selector threshold over out-of-fold scores, maximise strict micro F1.

For a supervised classifier the scores are leave-one-case-out predictions (each case scored by a
model that never saw it); unsupervised classifiers are scored directly (nothing is fitted).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from archehr.data.model import KeyEntry, Relevance, Split
from archehr.errors import InputError, Problem
from archehr.relevance.base import Selection, SentenceScores
from archehr.relevance.selector import Selector
from archehr_scoring.prf import prf_counts

THRESHOLDS: tuple[float, ...] = tuple(round(x, 3) for x in np.arange(0.02, 0.981, 0.02))


def require_labels(split: Split) -> None:
    """Training and calibration need the key: say which file lacks it (or which cases it lacks)."""
    from pathlib import Path

    from archehr.data.releases import KEY_NAME

    where = str(Path(split.source) / KEY_NAME) if split.source else f"{KEY_NAME} of split {split.name}"
    if split.key is None:
        raise InputError(Problem(f"split {split.name!r} has no labels: this file is missing or empty; training "
                                 "and calibration need the key", where, code="no-labels"))
    keyed = {k.case_id for k in split.key}
    missing = [c.case_id for c in split.cases if c.case_id not in keyed]
    if missing:
        raise InputError([Problem("case has no labels in the key", where, cid, code="no-labels") for cid in missing])
    empty = [c.case_id for c in split.cases if not c.sentences]
    if empty:
        raise InputError([Problem("the case has no note sentences", split.source, cid, "note_excerpt_sentences",
                                  code="no-sentences") for cid in empty])


@dataclass(frozen=True)
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, o: Counts) -> Counts:
        return Counts(self.tp + o.tp, self.fp + o.fp, self.fn + o.fn)

    @property
    def f1(self) -> float:
        return prf_counts(self.tp, self.fp, self.fn)[2]

    @property
    def precision(self) -> float:
        return prf_counts(self.tp, self.fp, self.fn)[0]

    @property
    def recall(self) -> float:
        return prf_counts(self.tp, self.fp, self.fn)[1]


def gold_ids(entry: KeyEntry, lenient: bool = False) -> set[str]:
    rel = (Relevance.ESSENTIAL, Relevance.SUPPLEMENTARY) if lenient else (Relevance.ESSENTIAL,)
    return set(entry.ids_with(*rel))


def count(selection: Selection, entry: KeyEntry, lenient: bool = False) -> Counts:
    pred, gold = set(selection.cited), gold_ids(entry, lenient)
    return Counts(len(pred & gold), len(pred - gold), len(gold - pred))


def micro_f1(selections: Sequence[Selection], split: Split, lenient: bool = False) -> Counts:
    """Pooled tp/fp/fn of the selections against the split's key (strict = essential only)."""
    total = Counts()
    for s in selections:
        total = total + count(s, split.key_for(s.case_id), lenient)
    return total


@dataclass(frozen=True)
class Calibration:
    selector: Selector
    f1: float  # strict micro F1 at the chosen threshold on the out-of-fold scores
    curve: tuple[tuple[float, float, float, float], ...]  # (threshold, F1, precision, recall)


def sweep(scores: Sequence[SentenceScores], split: Split, base: Selector,
          thresholds: Sequence[float] = THRESHOLDS, lenient: bool = False) -> Calibration:
    """Strict (or lenient) micro F1 at every threshold; the best one wins (ties: the lower threshold)."""
    if not thresholds:
        raise ValueError("sweep needs at least one threshold")
    curve = []
    best: tuple[float, float] | None = None
    for t in thresholds:
        sel = replace(base, threshold=float(t))
        c = micro_f1([sel.select(s) for s in scores], split, lenient)
        curve.append((float(t), c.f1, c.precision, c.recall))
        if best is None or c.f1 > best[1] + 1e-12:
            best = (float(t), c.f1)
    t_best, f_best = best  # type: ignore[misc]
    return Calibration(replace(base, threshold=t_best), f_best, tuple(curve))


def loco_scores(split: Split, fit_and_score: Callable[[Split, Split], list[SentenceScores]]) -> list[SentenceScores]:
    """Leave-one-case-out: each case scored by `fit_and_score(train_split, held_out_split)`."""
    out: list[SentenceScores] = []
    ids = split.case_ids
    for cid in ids:
        train = split.subset([c for c in ids if c != cid])
        out += fit_and_score(train, split.subset([cid]))
    return out


def group_scores(split: Split, groups: Mapping[str, str],
                 fit_and_score: Callable[[Split, Split], list[SentenceScores]]) -> list[SentenceScores]:
    """Leave-one-group-out (e.g. one writer's voice): each group's cases scored by a model fitted on the others.

    Calibrating on these scores instead of leave-one-case-out ones picks the L2 and threshold that carry over
    to a writer the model has not read (docs/voices.md). Every case must have a group; one group only
    cannot be left out.
    """
    missing = [c for c in split.case_ids if c not in groups]
    if missing:
        raise InputError(Problem(f"{len(missing)} case(s) have no group, e.g. {missing[0]}", split.source,
                                 code="no-group"))
    order = list(dict.fromkeys(groups[c] for c in split.case_ids))
    if len(order) < 2:
        raise InputError(Problem("leave-one-group-out calibration needs at least 2 groups", split.source,
                                 code="no-group"))
    by_id: dict[str, SentenceScores] = {}
    for g in order:
        held = [c for c in split.case_ids if groups[c] == g]
        train = split.subset([c for c in split.case_ids if groups[c] != g])
        by_id.update({s.case_id: s for s in fit_and_score(train, split.subset(held))})
    return [by_id[c] for c in split.case_ids]
