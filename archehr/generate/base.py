"""The contract of answer generators: a case plus its evidence selection -> a cited answer."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from archehr.data.model import Case, Split
from archehr.generate.answer import Answer
from archehr.relevance.base import Selection, SentenceScores


class Generator(ABC):
    """Registered by name in `archehr.generate.registry.GENERATORS`."""

    name: str = ""

    @abstractmethod
    def generate(self, case: Case, selection: Selection, scores: SentenceScores | None = None) -> Answer: ...

    def prepare(self, train: Split | None) -> None:
        """Take a labelled training split (an LLM generator's demonstrations); most need none."""
        return None

    def for_patient(self) -> Generator:
        """The generator `archehr answer` uses to answer a patient directly: itself, unless it has a prompt of
        its own for that (an LLM generator's, which may answer "not in the note")."""
        return self

    def describe(self) -> dict[str, Any]:
        """What run.json records beside the generator's resolved config: what is known only once it is built."""
        return {"kind": self.name}
