"""The contract of sentence-relevance classifiers and of the selector that turns scores into citations."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from archehr.data.model import Case, Split

if TYPE_CHECKING:
    from archehr.relevance.selector import Selector


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
    # Optional abilities, declared here with their defaults (a classifier overrides what it has):
    source: str | None = None  # the model file or folder it was loaded from (run.json)
    calibrated_selector: Selector | None = None  # the selector fitted with it (else the default settings)

    @abstractmethod
    def score(self, case: Case) -> SentenceScores: ...

    def prepare(self, train: Split | None) -> None:
        """Take a labelled training split (an LLM classifier's demonstrations); most need none."""
        return None

    def describe(self) -> dict[str, Any]:
        """Settings recorded in run.json (provenance)."""
        return {"kind": self.name}

    def score_many(self, cases: Sequence[Case]) -> list[SentenceScores]:
        return [self.score(c) for c in cases]
