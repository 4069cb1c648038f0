"""The ArchEHR-QA data model: frozen, typed, and free of any file format.

Ids are strings wherever the official files and scorers compare them as strings (case ids,
sentence ids, clinician answer sentence ids); phrase ids, paragraph ids and offsets are ints.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType


class Relevance(StrEnum):
    ESSENTIAL = "essential"
    SUPPLEMENTARY = "supplementary"
    NOT_RELEVANT = "not-relevant"


SPLITS: tuple[str, ...] = ("dev", "test", "test-2026")


@dataclass(frozen=True)
class Phrase:
    """A span of the patient narrative marked as the question (0-based id)."""

    id: int
    start_char_index: int
    text: str


@dataclass(frozen=True)
class NoteSentence:
    """One sentence of the clinical note excerpt (1-based id; offset inside its paragraph)."""

    id: str
    paragraph_id: int
    start_char_index: int
    text: str
    length: int | None = None


@dataclass(frozen=True)
class Case:
    """A patient question with its note excerpt. Every element but the id may be absent."""

    case_id: str
    patient_narrative: str | None = None
    patient_question: tuple[Phrase, ...] = ()
    clinician_question: str | None = None
    note_excerpt: str | None = None
    sentences: tuple[NoteSentence, ...] = ()
    clinical_specialty: tuple[str, ...] = ()

    def sentence(self, sentence_id: str) -> NoteSentence:
        for s in self.sentences:
            if s.id == sentence_id:
                return s
        raise KeyError(f"case {self.case_id} has no sentence {sentence_id!r}")

    @property
    def sentence_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.sentences)

    @property
    def question_text(self) -> str:
        """The patient's question phrases joined, or the narrative when none are marked."""
        if self.patient_question:
            return " ".join(p.text for p in self.patient_question)
        return self.patient_narrative or ""


@dataclass(frozen=True)
class SentenceLabel:
    sentence_id: str
    relevance: Relevance


@dataclass(frozen=True)
class ClinicianAnswerSentence:
    """One sentence of the clinician's answer with the note sentence ids it cites."""

    id: str
    text: str
    citations: tuple[str, ...]


@dataclass(frozen=True)
class KeyEntry:
    """The gold labels of one case; clinician answers exist only in newer releases."""

    case_id: str
    answers: tuple[SentenceLabel, ...]
    clinician_answer: str | None = None
    clinician_answer_without_citations: str | None = None
    clinician_answer_sentences: tuple[ClinicianAnswerSentence, ...] | None = None

    def ids_with(self, *relevance: Relevance) -> tuple[str, ...]:
        return tuple(a.sentence_id for a in self.answers if a.relevance in relevance)

    @property
    def essential_ids(self) -> tuple[str, ...]:
        return self.ids_with(Relevance.ESSENTIAL)

    @property
    def supplementary_ids(self) -> tuple[str, ...]:
        return self.ids_with(Relevance.SUPPLEMENTARY)

    def label_of(self, sentence_id: str) -> Relevance | None:
        for a in self.answers:
            if a.sentence_id == sentence_id:
                return a.relevance
        return None


@dataclass(frozen=True)
class MappingEntry:
    case_id: str
    document_id: str
    document_source: str


def _frozen_index(items: tuple, attr: str) -> Mapping[str, object]:
    return MappingProxyType({getattr(i, attr): i for i in items})


@dataclass(frozen=True)
class Split:
    """One split of a release (dev, test, test-2026): cases plus, when published, key and mapping."""

    name: str
    cases: tuple[Case, ...]
    key: tuple[KeyEntry, ...] | None = None
    mapping: tuple[MappingEntry, ...] | None = None
    version: str | None = None
    source: str | None = field(default=None, compare=False)  # where it was read from, for messages
    _case_index: Mapping[str, Case] = field(init=False, repr=False, compare=False)
    _key_index: Mapping[str, KeyEntry] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_case_index", _frozen_index(self.cases, "case_id"))
        object.__setattr__(self, "_key_index", _frozen_index(self.key or (), "case_id"))

    def __iter__(self) -> Iterator[Case]:
        return iter(self.cases)

    def __len__(self) -> int:
        return len(self.cases)

    @property
    def case_ids(self) -> tuple[str, ...]:
        return tuple(c.case_id for c in self.cases)

    @property
    def has_key(self) -> bool:
        return self.key is not None

    def case(self, case_id: str) -> Case:
        try:
            return self._case_index[case_id]  # type: ignore[return-value]
        except KeyError:
            raise KeyError(f"split {self.name} has no case {case_id!r}") from None

    def key_for(self, case_id: str) -> KeyEntry:
        try:
            return self._key_index[case_id]  # type: ignore[return-value]
        except KeyError:
            raise KeyError(f"split {self.name} has no key entry for case {case_id!r}") from None

    def subset(self, case_ids: list[str] | tuple[str, ...]) -> Split:
        """The same split restricted to some cases (order of `case_ids`)."""
        wanted = set(case_ids)
        return Split(
            name=self.name,
            cases=tuple(self.case(c) for c in case_ids),
            key=None if self.key is None else tuple(k for k in self.key if k.case_id in wanted),
            mapping=None if self.mapping is None else tuple(m for m in self.mapping if m.case_id in wanted),
            version=self.version,
            source=self.source,
        )


@dataclass(frozen=True)
class Release:
    """A release directory: its version and the splits found in it (loaded on demand)."""

    root: str
    version: str | None
    split_names: tuple[str, ...]
