"""Threshold calibration: sweep the selector threshold over out-of-fold scores, maximise strict micro F1.

For a supervised classifier the scores are leave-one-case-out (or leave-one-group-out) predictions, each case
scored by a model that never saw it; unsupervised classifiers are scored directly (nothing is fitted).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from archehr.data.model import Split
from archehr.errors import InputError, Problem
from archehr.relevance.base import SentenceScores
from archehr.relevance.calibration import micro_f1
from archehr.relevance.selector import Selector

THRESHOLDS: tuple[float, ...] = tuple(round(x, 3) for x in np.arange(0.02, 0.981, 0.02))
# the expected-F1 rule's one setting (Selector.power); swept instead of the threshold when base.rule says so
POWERS: tuple[float, ...] = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0)


@dataclass(frozen=True)
class Calibration:
    selector: Selector
    f1: float  # strict micro F1 at the chosen threshold on the out-of-fold scores
    curve: tuple[tuple[float, float, float, float], ...]  # (threshold or power, F1, precision, recall)


def sweep(scores: Sequence[SentenceScores], split: Split, base: Selector,
          thresholds: Sequence[float] = THRESHOLDS, lenient: bool = False) -> Calibration:
    """Strict (or lenient) micro F1 at every threshold; the best one wins (ties: the lower threshold).

    With `base.rule == "expected-f1"` the swept setting is the power (`POWERS`), not the threshold.
    """
    if not thresholds:
        raise ValueError("sweep needs at least one threshold")
    field = "power" if base.rule == "expected-f1" else "threshold"
    grid = POWERS if field == "power" else thresholds
    curve = []
    best: tuple[float, float] | None = None
    for t in grid:
        sel = replace(base, **{field: float(t)})
        c = micro_f1([sel.select(s) for s in scores], split, lenient)
        curve.append((float(t), c.f1, c.precision, c.recall))
        if best is None or c.f1 > best[1] + 1e-12:
            best = (float(t), c.f1)
    t_best, f_best = best  # type: ignore[misc]
    return Calibration(replace(base, **{field: t_best}), f_best, tuple(curve))


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
