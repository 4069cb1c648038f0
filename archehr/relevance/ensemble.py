"""`ensemble`: combine classifiers by weighted mean of probabilities, union, or majority vote."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from archehr.data.model import Case
from archehr.errors import ConfigError, Problem
from archehr.relevance.base import RelevanceClassifier, SentenceScores
from archehr.relevance.lexical import require_sentences

MODES = ("mean", "union", "majority")


class EnsembleClassifier(RelevanceClassifier):
    """mean: weighted mean of P(essential) and P(supplementary).
    union / majority: each member votes for the sentences at or above its own threshold; the output
    P(essential) is 1 if any member voted (union) or the weighted share of votes (majority, so a
    selector threshold of 0.5 keeps what most members chose).
    """

    name = "ensemble"

    def __init__(self, members: Sequence[RelevanceClassifier], mode: str = "mean",
                 weights: Sequence[float] | None = None, thresholds: Sequence[float] | None = None):
        problems = []
        if not members:
            problems.append(Problem("an ensemble needs at least one member", field="members"))
        if mode not in MODES:
            problems.append(Problem(f"mode must be one of {', '.join(MODES)}, got {mode!r}", field="mode"))
        w = list(weights) if weights is not None else [1.0] * len(members)
        if len(w) != len(members) or any(x < 0 for x in w) or (members and sum(w) <= 0):
            problems.append(Problem(f"weights must be {len(members)} non-negative numbers with a positive sum, "
                                    f"got {w}", field="weights"))
        th = list(thresholds) if thresholds is not None else [0.5] * len(members)
        if len(th) != len(members):
            problems.append(Problem(f"thresholds must have {len(members)} values, got {len(th)}", field="thresholds"))
        if problems:
            raise ConfigError(problems)
        self.members = list(members)
        self.mode = mode
        self.weights = np.array(w, dtype=float) / sum(w)
        self.thresholds = th

    def combine(self, parts: Sequence[SentenceScores]) -> SentenceScores:
        first = parts[0]
        for p in parts[1:]:
            if p.sentence_ids != first.sentence_ids:  # members must score the same case
                raise ValueError(f"ensemble members disagree on the sentences of case {first.case_id}")
        ess = np.array([p.essential for p in parts])
        sup = np.array([p.supplementary for p in parts])
        if self.mode == "mean":
            e, s = self.weights @ ess, self.weights @ sup
        else:
            votes = np.array([ess[i] >= self.thresholds[i] for i in range(len(parts))], dtype=float)
            e = votes.max(axis=0) if self.mode == "union" else self.weights @ votes
            s = np.zeros_like(e)
        return SentenceScores(first.case_id, first.sentence_ids, tuple(e.tolist()), tuple(s.tolist()))

    def score(self, case: Case) -> SentenceScores:
        require_sentences(case)
        return self.combine([m.score(case) for m in self.members])

    def score_many(self, cases: Sequence[Case]) -> list[SentenceScores]:
        per_member = [m.score_many(cases) for m in self.members]
        return [self.combine([pm[i] for pm in per_member]) for i in range(len(cases))]
