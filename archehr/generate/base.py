"""The contract of answer generators: a case plus its evidence selection -> a cited answer."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from archehr.data.model import Case
from archehr.generate.answer import Answer
from archehr.relevance.base import Selection, SentenceScores


class Generator(ABC):
    """Registered by name in `archehr.generate.registry.GENERATORS`."""

    name: str = ""

    @abstractmethod
    def generate(self, case: Case, selection: Selection, scores: SentenceScores | None = None) -> Answer: ...

    def describe(self) -> dict[str, Any]:
        """Settings recorded in run.json (provenance)."""
        return {"name": self.name}
