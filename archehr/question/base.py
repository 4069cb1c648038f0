"""The contract of st1 question writers (config `question: {kind: ...}`, registered in
`archehr.question.QUESTION_WRITERS`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from archehr.data.model import Case, Split


@dataclass(frozen=True)
class Question:
    """The st1 question of one case and how it was obtained (a fallback and repairs go to run.json)."""

    text: str
    fallback: str | None = None
    notes: tuple[str, ...] = ()


class QuestionWriter(ABC):
    """Writes a clinician-style question from the patient's narrative. The optional abilities have defaults
    here: `prepare` (take a labelled training split), `describe` (what run.json records beside the writer's
    resolved config)."""

    kind: ClassVar[str] = ""

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind}

    def prepare(self, train: Split | None) -> None:
        return None

    @abstractmethod
    def write(self, case: Case) -> Question: ...
