"""The evidence step of a system (config section `selector: {kind: ...}`): which note sentences a case cites.

Each kind is a component registered in `archehr.relevance.registry.EVIDENCE`; its options are its
constructor's keyword parameters (that is what a system config is checked against), and a kind that
takes `backend` gets the system's LLM backend.

- `default`: a trained model file (`model: auto | interactions | lexical | embedding | PATH`; auto =
  interactions) with its own calibrated selector, `overrides` changing selector settings; st4's aligner reads
  the shipped lexical model's evidence when the model is `interactions` (it was fitted on that one's);
- `all`: every note sentence (the reference floor of the 2025 factuality metrics);
- `classifier`: any registered relevance classifier (`classifier: NAME` or `{kind: NAME, ...its options}`)
  with `selector` settings (without them, the classifier's calibrated selector);
- `llm`: the model votes (the registered `llm` classifier), optionally averaged with a trained model.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from archehr.data.model import Case, Split
from archehr.errors import ConfigError, Problem
from archehr.relevance.base import Selection, SentenceScores


@dataclass(frozen=True)
class Evidence:
    """The evidence of one case and how it was obtained (a fallback and repairs go to run.json)."""

    selection: Selection
    scores: SentenceScores | None
    fallback: str | None = None
    notes: tuple[str, ...] = ()


class EvidenceStep(ABC):
    """The contract of an evidence step (registered in `EVIDENCE`). The optional abilities have defaults here:
    `prepare` (take a labelled training split), `trained_evidence` (the trained model's evidence, which st4's
    aligners were fitted on), `describe` (what run.json records beside the step's resolved config)."""

    kind: ClassVar[str] = ""

    @abstractmethod
    def evidence(self, case: Case) -> Evidence: ...

    def prepare(self, train: Split | None) -> None:
        return None

    def trained_evidence(self, case: Case) -> Evidence:
        return self.evidence(case)

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind}


class CiteAllEvidence(EvidenceStep):
    """Cites every note sentence, with no scores (the generators then keep the note order)."""

    kind = "all"

    def evidence(self, case: Case) -> Evidence:
        return Evidence(Selection(case.case_id, case.sentence_ids, 1.0), None)


class TrainedEvidence(EvidenceStep):
    """A trained model file (or a shipped one) with its calibrated selector; `overrides` change its settings."""

    kind = "default"

    align_model: str | None = None  # the shipped model st4's aligner reads instead (registry.ALIGN_EVIDENCE)

    def __init__(self, model: str = "auto", overrides: dict[str, Any] | None = None):
        from archehr.relevance.registry import align_evidence_model, load_selector

        self.ev = load_selector(model, **(overrides or {}))
        self.align_model = align_evidence_model(model)

    def evidence(self, case: Case) -> Evidence:
        scores = self.ev.scores(case)
        return Evidence(self.ev.selector.select(scores), scores)

    def trained_evidence(self, case: Case) -> Evidence:
        if self.align_model is None:
            return self.evidence(case)
        return _shipped_evidence(self.align_model, case)

    def describe(self) -> dict[str, Any]:
        clf = self.ev.classifier
        d = {"kind": self.kind, "classifier": clf.name,
             "model_file": self.ev.source, "selector": self.ev.selector.to_dict()}
        return _with_align_model(d, self.align_model)


class ClassifierEvidence(TrainedEvidence):
    """Any registered relevance classifier with `selector` settings."""

    kind = "classifier"

    def __init__(self, classifier: str | dict[str, Any], selector: dict[str, Any] | None = None):
        from archehr.relevance.registry import selector_for

        if isinstance(classifier, dict):
            options = dict(classifier)
            name = options.pop("kind", None)
        else:
            name, options = classifier, {}
        if not isinstance(name, str):
            raise ConfigError(Problem("must name a classifier (`classifier: NAME` or `{kind: NAME, ...}`)",
                                      field="selector.classifier", code="bad-value"))
        self.ev = selector_for(name, options, selector)


class LLMEvidence(EvidenceStep):
    """Evidence by the model: the `llm` classifier votes over n samples, optionally averaged with a trained model.

    `fallback_model` (a shipped model name or file) scores a case whose replies cannot be read or whose
    backend failed, with that model's own calibrated selector; `ensemble_weight` w > 0 takes
    (1 - w) * P(model) + w * P(trained) for every case. The LLM votes are cited by `selector`
    (default: P(essential) >= 0.5, no top-k floor beyond one sentence, so a faithful model's ids pass unchanged).
    """

    def __init__(self, backend: Any, n: int = 5, temperature: float = 0.7, seed: int = 0, max_tokens: int = 256,
                 prompt: str = "evidence_v1", demonstrations: int = 0, structured: bool = False,
                 fallback_model: str = "auto", ensemble_weight: float = 0.0, selector: dict[str, Any] | None = None):
        from archehr.relevance.registry import align_evidence_model, build_classifier, load_selector
        from archehr.relevance.selector import Selector

        self.trained = load_selector(fallback_model)
        self.align_model = align_evidence_model(fallback_model)
        self.weight = float(ensemble_weight)
        if not 0.0 <= self.weight <= 1.0:
            raise ConfigError(Problem(f"must be within [0, 1], not {self.weight}", field="selector.ensemble_weight"))
        self.selector = Selector.from_dict(selector or {})
        self.clf = build_classifier("llm", backend=backend, n=int(n), temperature=float(temperature), seed=int(seed),
                                    max_tokens=int(max_tokens), fallback=self.trained.classifier, prompt=str(prompt),
                                    demonstrations=int(demonstrations), structured=bool(structured))

    kind = "llm"

    def prepare(self, train: Split | None) -> None:
        self.clf.prepare(train)

    def evidence(self, case: Case) -> Evidence:
        got = self.clf.score_detailed(case)
        if got.fallback is not None:  # the trained model scored it: its own calibrated selector cites
            return Evidence(self.trained.selector.select(got.scores), got.scores, got.fallback, got.notes)
        scores = got.scores
        if self.weight > 0:
            t = self.trained.classifier.score(case)
            w = self.weight

            def mix(mine: tuple[float, ...], theirs: tuple[float, ...]) -> tuple[float, ...]:
                return tuple((1 - w) * a + w * b for a, b in zip(mine, theirs, strict=True))

            scores = SentenceScores(case.case_id, scores.sentence_ids, mix(scores.essential, t.essential),
                                    mix(scores.supplementary, t.supplementary))
        return Evidence(self.selector.select(scores), scores, None, got.notes)

    def trained_evidence(self, case: Case) -> Evidence:
        if self.align_model is not None:
            return _shipped_evidence(self.align_model, case)
        scores = self.trained.classifier.score(case)
        return Evidence(self.trained.selector.select(scores), scores)

    def describe(self) -> dict[str, Any]:
        d = {"kind": self.kind, "classifier": self.clf.describe(), "ensemble_weight": self.weight,
             "selector": self.selector.to_dict(), "model_file": self.trained.source}
        return _with_align_model(d, self.align_model)


@cache
def _shipped_selector(name: str) -> Any:
    from archehr.relevance.registry import load_selector

    return load_selector(name)


def _shipped_evidence(name: str, case: Case) -> Evidence:
    """The evidence of a shipped model with its own calibrated selector (loaded once, when st4 first asks)."""
    ev = _shipped_selector(name)
    scores = ev.scores(case)
    return Evidence(ev.selector.select(scores), scores)


def _with_align_model(d: dict[str, Any], name: str | None) -> dict[str, Any]:
    """run.json: the model file whose evidence st4's aligner reads, when it is not the step's own."""
    if name is not None:
        from archehr.relevance.registry import shipped_model_path

        d["align_model_file"] = str(shipped_model_path(name))
    return d
