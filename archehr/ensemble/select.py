"""Which runs to combine: greedy forward selection with replacement (Caruana et al., 2004) on dev runs.

Start from an empty bag; at each step add the run (any run, again if it helps: weights are the counts)
whose addition gives the best dev score of the bag's ensemble (ties: the earlier run); after `steps`
steps keep the best bag seen (ties: the smaller). Dev sets are small, so a bag picked on the whole dev
set looks better there than it is: the same selection is run inside k-fold cross-validation over the dev
cases (each fold picks on the other folds and is scored on its own), and `optimism` = in-sample dev
score - cross-validated dev score is reported beside the bag picked on all of dev.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from archehr.ensemble.combine import DEFAULT_THRESHOLD, Settings, ensemble_predictions
from archehr.ensemble.fit import score_report, value
from archehr.ensemble.members import Member


@dataclass(frozen=True)
class Selection:
    counts: tuple[int, ...]  # per run: how many times the bag holds it (its weight)
    dev_score: float  # of the bag picked on all dev cases, scored on them (optimistic)
    cv_score: float  # cross-validated: each fold's bag scored on that fold, pooled
    folds: int
    best_single: int  # the run with the best dev score
    single_scores: tuple[float, ...]
    trace: tuple[tuple[int, float], ...]  # (run added, dev score after) per step, all dev cases

    @property
    def optimism(self) -> float:
        return self.dev_score - self.cv_score

    def settings(self, threshold: float = DEFAULT_THRESHOLD) -> Settings:
        return Settings(threshold, tuple(float(c) for c in self.counts), "selected on dev",
                        {"method": "greedy forward selection with replacement (Caruana et al., 2004)",
                         "counts": list(self.counts), "dev_score": round(self.dev_score, 4),
                         "cv_dev_score": round(self.cv_score, 4), "optimism": round(self.optimism, 4),
                         "folds": self.folds, "trace": [list(t) for t in self.trace]})


class _Scorer:
    """Scores of bags on the dev key, each bag's ensemble scored once (all dev cases) and cached."""

    def __init__(self, runs: Sequence[Member], key: Any, threshold: float):
        from archehr.ensemble.items import load_key

        self.runs, self.key, self.threshold = runs, load_key(key), threshold  # read once, scored many times
        self.task = runs[0].task
        self._reports: dict[tuple[int, ...], Any] = {}
        self._preds: dict[tuple[int, ...], dict[str, Any]] = {}

    def predictions(self, counts: tuple[int, ...]) -> dict[str, Any]:
        if counts not in self._preds:
            s = Settings(self.threshold, tuple(float(c) for c in counts))
            self._preds[counts] = ensemble_predictions(self.runs, s)[0]
        return self._preds[counts]

    def score(self, counts: tuple[int, ...], cases: Sequence[str]) -> float:
        if counts not in self._reports:
            self._reports[counts] = score_report(self.task, self.predictions(counts), self.key)
        return value(self._reports[counts], self.task, cases)


def _greedy(sc: _Scorer, cases: Sequence[str], steps: int) -> tuple[tuple[int, ...], float, list[tuple[int, float]]]:
    n = len(sc.runs)
    counts = [0] * n
    best: tuple[float, int, tuple[int, ...]] = (float("-inf"), 0, tuple(counts))
    trace: list[tuple[int, float]] = []
    for step in range(steps):
        cand = []
        for r in range(n):
            trial = tuple(c + (k == r) for k, c in enumerate(counts))
            cand.append((sc.score(trial, cases), -r))
        got, neg = max(cand)
        counts[-neg] += 1
        trace.append((-neg, round(got, 4)))
        if got > best[0] + 1e-9:
            best = (got, step, tuple(counts))
    return best[2], best[0], trace


def select(runs: Sequence[Member], key: Any, steps: int | None = None, folds: int = 5, seed: int = 0,
           threshold: float = DEFAULT_THRESHOLD) -> Selection:
    """The bag picked on all dev cases, with its cross-validated score (module docstring)."""
    sc = _Scorer(runs, key, threshold)
    cases = list(runs[0].case_ids)
    steps = steps or max(5, 2 * len(runs))
    singles = tuple(sc.score(tuple(int(k == r) for k in range(len(runs))), cases) for r in range(len(runs)))
    counts, dev_score, trace = _greedy(sc, cases, steps)
    order = cases[:]
    random.Random(seed).shuffle(order)
    k = max(2, min(folds, len(cases)))
    held = [order[i::k] for i in range(k)]
    pooled: dict[str, Any] = {}
    for fold in held:
        train = [c for c in cases if c not in set(fold)]
        bag, _, _ = _greedy(sc, train, steps)
        preds = sc.predictions(bag)
        pooled.update({c: preds[c] for c in fold})
    cv_report = score_report(sc.task, {c: pooled[c] for c in cases}, key)
    best_single = max(range(len(runs)), key=lambda r: (singles[r], -r))
    return Selection(counts, dev_score, value(cv_report, sc.task), k, best_single, singles, tuple(trace))
