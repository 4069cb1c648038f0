"""The contract of st4 aligners (config `align: {kind: ...}`, registered in `archehr.align.ALIGNERS`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from archehr.data.model import Case, ClinicianAnswerSentence, Split
from archehr.relevance.base import Selection, SentenceScores


@dataclass(frozen=True)
class Links:
    """The st4 prediction of one case and how it was obtained (a fallback and repairs go to run.json)."""

    links: list[dict[str, Any]]
    fallback: str | None = None
    notes: tuple[str, ...] = ()


class AlignStep(ABC):
    """Links each clinician answer sentence to note sentences. The optional abilities have defaults here:
    `prepare` (take a labelled training split), `align_detailed` (the links with a fallback reason and
    repairs; by default none), `describe` (what run.json records beside the aligner's resolved config)."""

    kind: ClassVar[str] = ""

    @abstractmethod
    def align(self, case: Case, answers: Sequence[ClinicianAnswerSentence], scores: SentenceScores | None = None,
              selection: Selection | None = None) -> list[dict[str, Any]]: ...

    def align_detailed(self, case: Case, answers: Sequence[ClinicianAnswerSentence],
                       scores: SentenceScores | None = None, selection: Selection | None = None) -> Links:
        return Links(self.align(case, answers, scores, selection))

    def prepare(self, train: Split | None) -> None:
        return None

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind}
