"""The contract of sentence-relevance classifiers and of the selector that turns scores into citations."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from archehr.data.model import Case


@dataclass(frozen=True)
class SentenceScores:
    """Per-sentence probabilities of one case (not-relevant = 1 - essential - supplementary)."""

    case_id: str
    sentence_ids: tuple[str, ...]
    essential: tuple[float, ...]
    supplementary: tuple[float, ...]

    def relevant(self) -> tuple[float, ...]:
        return tuple(e + s for e, s in zip(self.essential, self.supplementary, strict=True))


@dataclass(frozen=True)
class Selection:
    """The cited sentence ids of one case, in note order, with how sure the selector is."""

    case_id: str
    cited: tuple[str, ...]
    confidence: float
    flagged: bool = False  # confidence below the configured review level


class RelevanceClassifier(ABC):
    """Maps a case to per-sentence probabilities. Registered by name in `archehr.relevance.registry`."""

    name: str = ""

    @abstractmethod
    def score(self, case: Case) -> SentenceScores: ...

    def score_many(self, cases: Sequence[Case]) -> list[SentenceScores]:
        return [self.score(c) for c in cases]
