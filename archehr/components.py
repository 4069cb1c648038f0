"""The contract of every kind of system component, in one place.

Each kind has a base class in its own package, whose optional abilities have defaults there (a component
overrides what it has; `System` calls them without probing):

- evidence step (`selector`): `archehr.relevance.evidence.EvidenceStep`; gives `evidence(case)`; optional
  `prepare(train)`, `trained_evidence(case)`, `describe()`.
- relevance classifier (`selector.classifier`): `archehr.relevance.base.RelevanceClassifier`; gives
  `score(case)`; optional `prepare`, `describe`, `source`, `calibrated_selector`.
- answer generator (`generator`): `archehr.generate.base.Generator`; gives `generate(case, selection,
  scores)`; optional `prepare`, `describe`.
- st1 question writer (`question`): `archehr.question.base.QuestionWriter`; gives `write(case)`; optional
  `prepare`, `describe`.
- st4 aligner (`align`): `archehr.align.base.AlignStep`; gives `align(case, answers, scores, selection)`;
  optional `prepare`, `align_detailed`, `describe`.
- LLM backend (`backend`): `archehr.llm.base.Backend`; gives `complete`, `describe`; optional `start`,
  `report`.

`describe()` gives what is known only once a component is built (a setting read from a model file, a
similarity resolved from `auto`, a pool size); `System.describe` records it over the section's resolved
config, so a component never re-lists its constructor arguments.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from archehr.align.base import AlignStep, Links
from archehr.data.model import Split
from archehr.generate.base import Generator
from archehr.question.base import QuestionWriter
from archehr.relevance.base import RelevanceClassifier
from archehr.relevance.evidence import EvidenceStep

__all__ = ["AlignStep", "EvidenceStep", "Generator", "Links", "Prepares", "QuestionWriter", "RelevanceClassifier"]


@runtime_checkable
class Prepares(Protocol):
    """A component that takes a labelled training split before the first case (its demonstrations): every
    component that takes the system's LLM backend."""

    def prepare(self, train: Split | None) -> None: ...
