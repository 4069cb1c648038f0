"""Turn per-sentence probabilities into cited ids: calibrated threshold, top-k floor, confidence, flag."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from archehr.data.model import Case
from archehr.errors import ConfigError, Problem
from archehr.relevance.base import RelevanceClassifier, Selection, SentenceScores

TARGETS = ("essential", "relevant")
RULES = ("threshold", "expected-f1")


@dataclass(frozen=True)
class Selector:
    """Cite every sentence whose P(target) >= threshold, and at least `min_k` (the best ones).

    rule "expected-f1" instead cites, per case, the k best sentences that maximise the case's expected F1 under
    q = P ** power (2 * sum of the k best q / (k + sum of all q)); `power` is calibrated like the threshold
    and `threshold` is not used. It lets a case whose probabilities are all low or all high cite as many
    sentences as its own probabilities suggest.

    confidence = how separable the cited sentences are from their nearest competitors: the mean
    probability of the cited sentences minus the mean of the same number of best uncited ones
    (clipped to [0, 1]); a case below `review_level` is `flagged` for a human to review.
    """

    threshold: float = 0.5
    target: str = "essential"
    min_k: int = 1
    max_k: int | None = None
    review_level: float = 0.2
    rule: str = "threshold"
    power: float = 1.0

    def __post_init__(self) -> None:
        problems = []
        if self.target not in TARGETS:
            problems.append(Problem(f"target must be one of {', '.join(TARGETS)}, got {self.target!r}",
                                    field="selector.target"))
        if not 0.0 <= self.threshold <= 1.0:
            problems.append(Problem(f"threshold must be within [0, 1], got {self.threshold}",
                                    field="selector.threshold"))
        if self.min_k < 1:
            problems.append(Problem(f"min_k must be >= 1 so every case cites something, got {self.min_k}",
                                    field="selector.min_k"))
        if self.rule not in RULES:
            problems.append(Problem(f"rule must be one of {', '.join(RULES)}, got {self.rule!r}",
                                    field="selector.rule"))
        if not self.power > 0.0:
            problems.append(Problem(f"power must be > 0, got {self.power}", field="selector.power"))
        if self.max_k is not None and self.max_k < self.min_k:
            problems.append(Problem(f"max_k ({self.max_k}) must be >= min_k ({self.min_k})", field="selector.max_k"))
        if problems:
            raise ConfigError(problems)

    def probabilities(self, scores: SentenceScores) -> np.ndarray:
        return np.asarray(scores.essential if self.target == "essential" else scores.relevant(), dtype=float)

    def select(self, scores: SentenceScores) -> Selection:
        p = self.probabilities(scores)
        n = len(p)
        if n == 0:
            return Selection(scores.case_id, (), 0.0, True)
        order = np.argsort(-p, kind="stable")  # ties keep note order
        k = self.expected_f1_k(p[order]) if self.rule == "expected-f1" else int((p >= self.threshold).sum())
        k = max(k, min(self.min_k, n))
        if self.max_k is not None:
            k = min(k, self.max_k)
        chosen = set(order[:k].tolist())
        cited = tuple(sid for i, sid in enumerate(scores.sentence_ids) if i in chosen)
        conf = self.confidence(p, order, k)
        return Selection(scores.case_id, cited, conf, conf < self.review_level)

    def expected_f1_k(self, p_sorted: np.ndarray) -> int:
        """The k (1..n) maximising 2 * sum(q[:k]) / (k + sum(q)), q = p_sorted ** power (ties: the smaller k)."""
        q = np.clip(p_sorted, 0.0, 1.0) ** self.power
        k = np.arange(1, len(q) + 1)
        return int(np.argmax(2.0 * np.cumsum(q) / (k + q.sum()))) + 1

    @staticmethod
    def confidence(p: np.ndarray, order: np.ndarray, k: int) -> float:
        cited = p[order[:k]]
        rest = p[order[k:2 * k]]
        gap = float(cited.mean()) - (float(rest.mean()) if rest.size else 0.0)
        return float(min(1.0, max(0.0, gap)))

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        if self.rule == "threshold":  # files and run records of the threshold rule keep their former keys
            del d["rule"], d["power"]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, object], source: str | None = None) -> Selector:
        known = {"threshold", "target", "min_k", "max_k", "review_level", "rule", "power"}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ConfigError(Problem(f"unknown selector settings: {', '.join(unknown)} "
                                      f"(known: {', '.join(sorted(known))})", source, field="selector"))
        try:
            return cls(**d)  # type: ignore[arg-type]
        except TypeError as e:
            raise ConfigError(Problem(f"bad selector settings: {e}", source, field="selector")) from None


@dataclass
class EvidenceSelector:
    """A classifier plus its calibrated selector: what `predict` and the answer generators use."""

    classifier: RelevanceClassifier
    selector: Selector
    source: str | None = None  # the model file it came from, for run records

    def scores(self, case: Case) -> SentenceScores:
        return self.classifier.score(case)

    def select(self, case: Case) -> Selection:
        return self.selector.select(self.classifier.score(case))

    def select_many(self, cases: Sequence[Case]) -> list[Selection]:
        return [self.selector.select(s) for s in self.classifier.score_many(cases)]


def select(scores: SentenceScores, selector: Selector | None = None) -> Selection:
    """Module-level shortcut: select with `selector` (default settings when None)."""
    return (selector or Selector()).select(scores)
