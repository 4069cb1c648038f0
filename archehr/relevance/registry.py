"""The registry of relevance classifiers (name -> factory(**params)) and the shipped default selector.

    from archehr.relevance.registry import build_classifier, load_default_selector
    clf = build_classifier("lexical")
    ev = load_default_selector()            # shipped trained model + its calibrated selector
    ev.select(case).cited                   # -> ("2", "5", ...)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from archehr.errors import ConfigError, Problem
from archehr.registry import Nested, Registry
from archehr.relevance.base import RelevanceClassifier
from archehr.relevance.selector import EvidenceSelector, Selector

HERE = Path(__file__).resolve().parent
# All trained on demo dev + test-2026 + train + synthetic dev (demo test kept out); rebuild them with
# `archehr train rebuild-shipped`. "interactions" is the default: on writers left out of training
# (leave-one-voice-out) it beat "lexical" by 3.7 strict micro F1, 11 of 12 voices (docs/voices.md).
SHIPPED_MODELS = {
    "lexical": HERE / "model_lexical.json",  # feature set lexical (no torch needed)
    "embedding": HERE / "model_embedding.json",  # feature set lexical+embedding (needs the models extra)
    # the default: lexical+interactions, extra penalty and soft labels, the expected-F1 rule (no torch needed)
    "interactions": HERE / "model_interactions.json",
}
DEFAULT_MODEL = "interactions"
# st4's learned aligner was fitted on the lexical model's probabilities (archehr.training.align): a shipped
# evidence model whose probabilities it was not fitted on hands it the lexical model's instead
ALIGN_EVIDENCE = {"interactions": "lexical"}


CLASSIFIERS: Registry[Callable[..., RelevanceClassifier]] = Registry("relevance classifier")
# The evidence step of a system (config `selector: {kind: ...}`), archehr/relevance/evidence.py.
EVIDENCE: Registry[Callable[..., Any]] = Registry("selector kind")
EVIDENCE.add("default", "archehr.relevance.evidence:TrainedEvidence")
EVIDENCE.add("all", "archehr.relevance.evidence:CiteAllEvidence")
_SELECTOR_SETTINGS = "archehr.relevance.selector:Selector"
# `classifier` without `selector` settings uses the classifier's calibrated selector; `llm` the defaults
EVIDENCE.add("classifier", "archehr.relevance.evidence:ClassifierEvidence",
             nested={"classifier": Nested(registry="archehr.relevance.registry:CLASSIFIERS"),
                     "selector": Nested(settings=_SELECTOR_SETTINGS)})
EVIDENCE.add("llm", "archehr.relevance.evidence:LLMEvidence",
             nested={"selector": Nested(settings=_SELECTOR_SETTINGS, absent={})})


def shipped_model_path(kind: str = "default") -> Path:
    """A shipped model file: "default"/"auto" (= interactions), "lexical", "embedding" or "interactions"."""
    if kind in ("auto", "default"):
        kind = DEFAULT_MODEL
    if kind not in SHIPPED_MODELS:
        raise ConfigError(Problem(f"unknown shipped model {kind!r} (known: auto, {', '.join(SHIPPED_MODELS)})",
                                  field="model"))
    return SHIPPED_MODELS[kind]


def align_evidence_model(model: str | Path | None) -> str | None:
    """The shipped model whose evidence st4's aligner reads when the evidence step uses `model`, or None
    (the step's own evidence): the lexical one for a shipped model the aligner was not fitted on."""
    name = DEFAULT_MODEL if model is None or str(model) in ("auto", "default") else str(model)
    return ALIGN_EVIDENCE.get(name)


def _model_path(model: str | Path | None) -> Path:
    if model is None or str(model) in ("auto", "default"):
        return shipped_model_path("default")
    if str(model) in SHIPPED_MODELS:
        return shipped_model_path(str(model))
    return Path(model)


@CLASSIFIERS.register("cite-all")
def _cite_all() -> RelevanceClassifier:
    from archehr.relevance.lexical import CiteAllClassifier

    return CiteAllClassifier()


@CLASSIFIERS.register("lexical")
def _lexical(use_glossary: bool = True, block_weight: float = 0.3) -> RelevanceClassifier:
    from archehr.relevance.lexical import LexicalClassifier

    return LexicalClassifier(use_glossary=use_glossary, block_weight=block_weight)


@CLASSIFIERS.register("embedding")
def _embedding() -> RelevanceClassifier:
    from archehr.relevance.embedding import EmbeddingClassifier

    return EmbeddingClassifier()


@CLASSIFIERS.register("trained")
def _trained(model: str | None = None) -> RelevanceClassifier:
    """model: a model file path, or a shipped one: "default" (= "interactions"), "lexical" or "embedding"."""
    from archehr.relevance.trained import TrainedClassifier

    return TrainedClassifier.from_file(_model_path(model))


@CLASSIFIERS.register("cross-encoder")
def _cross_encoder(checkpoint: str | None = None, max_length: int | None = None) -> RelevanceClassifier:
    """checkpoint: a folder written by `archehr train --classifier cross-encoder` (its calibrated selector comes
    along) or by `save()`; without one, MiniLM that must be fitted before scoring
    (archehr.training.cross_encoder.fit_in_process; models extra)."""
    from archehr.relevance.cross_encoder import CrossEncoderClassifier

    return CrossEncoderClassifier(checkpoint, max_length=max_length)


@CLASSIFIERS.register("ensemble", nested={"members": Nested(registry="archehr.relevance.registry:CLASSIFIERS",
                                                              many=True)})
def _ensemble(members: Sequence[str | dict[str, Any]] = ("trained", "lexical"), mode: str = "mean",
              weights: Sequence[float] | None = None, thresholds: Sequence[float] | None = None) -> RelevanceClassifier:
    """members: names, or {"kind": ..., **options} mappings, built through this registry."""
    from archehr.relevance.ensemble import EnsembleClassifier

    built = []
    for m in members:
        if isinstance(m, str):
            built.append(build_classifier(m))
        elif isinstance(m, dict) and isinstance(m.get("kind", m.get("name")), str):
            key = "kind" if "kind" in m else "name"
            if key == "name":  # the older spelling of the one word every component section uses
                import warnings

                warnings.warn("an ensemble member's `name:` is now `kind:`", DeprecationWarning, stacklevel=2)
            params = {k: v for k, v in m.items() if k != key}
            built.append(build_classifier(m[key], **params))
        else:
            raise ConfigError(Problem(f"an ensemble member must be a name or a mapping with a kind, got {m!r}",
                                      field="members"))
    return EnsembleClassifier(built, mode=mode, weights=weights, thresholds=thresholds)


@CLASSIFIERS.register("llm")
def _llm(backend: Any = None, backend_params: dict[str, Any] | None = None, n: int = 5,
         temperature: float = 0.7, seed: int = 0, max_tokens: int = 256, fallback: RelevanceClassifier | None = None,
         prompt: str = "evidence_v1", demonstrations: int = 0, structured: bool = False) -> RelevanceClassifier:
    """backend: an object with `complete(...)`, or a name in `archehr.llm.registry` (built with backend_params)."""
    from archehr.relevance.llm import LLMClassifier

    if backend is None:
        raise ConfigError(Problem("the llm classifier needs a backend (a name from the LLM backend registry)",
                                  field="backend"))
    if isinstance(backend, str):
        from archehr.llm.registry import build_backend  # imported only when used

        backend = build_backend(backend, **(backend_params or {}))
    return LLMClassifier(backend, n=n, temperature=temperature, seed=seed, max_tokens=max_tokens, fallback=fallback,
                         prompt=prompt, demonstrations=demonstrations, structured=structured)


def build_classifier(name: str, **options: Any) -> RelevanceClassifier:
    """Build a registered classifier; unknown names suggest near ones, unknown options are a ConfigError."""
    return CLASSIFIERS.build(name, **options)


def load_selector(model: str | Path | None = None, **overrides: Any) -> EvidenceSelector:
    """A trained model file (or shipped one) as classifier + its calibrated selector (overrides apply)."""
    from dataclasses import replace

    from archehr.relevance.trained import TrainedClassifier

    path = _model_path(model)
    clf = TrainedClassifier.from_file(path)
    sel = replace(clf.model.selector, **overrides) if overrides else clf.model.selector
    return EvidenceSelector(clf, sel, str(path))


def load_default_selector(**overrides: Any) -> EvidenceSelector:
    """The shipped default trained classifier (DEFAULT_MODEL) with its calibrated selector."""
    return load_selector("default", **overrides)


def selector_for(name: str, params: dict[str, Any] | None = None, selector: Selector | dict | None = None
                 ) -> EvidenceSelector:
    """Any registered classifier with a selector (without one: the classifier's calibrated one, i.e. a `trained`
    model's or a fine-tuned cross-encoder's, else the default settings)."""
    clf = build_classifier(name, **(params or {}))
    if selector is None:
        sel = clf.calibrated_selector or Selector()
    elif isinstance(selector, dict):
        sel = Selector.from_dict(selector)
    else:
        sel = selector
    return EvidenceSelector(clf, sel, clf.source)
