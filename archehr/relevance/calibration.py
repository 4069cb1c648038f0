"""Scoring evidence selections against a labelled split: strict (or lenient) micro P/R/F1 counts, and the check
that a split is labelled. Choosing a threshold on them (calibration) is training:
`archehr.training.selector_calibration`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from archehr.data.model import KeyEntry, Relevance, Split
from archehr.errors import InputError, Problem
from archehr.relevance.base import Selection
from archehr_scoring.prf import prf_counts


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
