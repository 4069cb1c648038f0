"""Subtask 4: link each given clinician answer sentence to the note sentences that support it.

Three kinds (config `align: {kind: ...}`, registered in `ALIGNERS`):
- `similarity` (default): score(a, s) = (1 - w) * sim(a, s) / max_s sim(a, s) + w * p(s), where sim
  is embedding cosine or token-set Jaccard and p(s) the selector's relevance probability.
- `learned`: P(link | a, s) from a pairwise logistic regression over lexical features
  (`archehr.align.learned`, shipped as versioned JSON); its threshold and max_links come from the
  model file unless the config sets them.
- `llm`: the model links them (`archehr.align.llm`, needs the system's backend); `fallback:` (default
  `{kind: learned}`) links what the model leaves unlinked.
Each answer sentence links its best note sentence (clinicians cite at least one per answer sentence)
and every other one scoring >= threshold, at most `max_links`. Headers are never linked.
Choosing a threshold on a labelled split is training (`archehr.training.align_threshold`).
benchmarks/st4_quality.py and docs/align.md hold the cross-validated comparison behind the shipped settings.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from archehr.align.base import AlignStep
from archehr.data.model import Case, ClinicianAnswerSentence
from archehr.errors import ConfigError, Problem
from archehr.generate.clean import clean_sentence, is_header
from archehr.generate.similarity import Similarity
from archehr.registry import Nested, Registry
from archehr.relevance.base import Selection, SentenceScores

METHODS = ("similarity", "learned")


def _number(name: str, value: object, low: float, high: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(float(value)) \
            or not low <= float(value) <= high:
        span = f"[{low:g}, {high:g}]" if high < math.inf else f">= {low:g}"
        raise ConfigError(Problem(f"must be a number {span}, not {value!r}", field=f"align.{name}", code="bad-value"))
    return float(value)


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(Problem(f"must be an integer >= 1, not {value!r}", field=f"align.{name}", code="bad-value"))
    return value


def choose_links(matrix: np.ndarray, ids: Sequence[str], threshold: float, max_links: int) -> list[list[str]]:
    """Per row: the best column, plus the next best with a score >= threshold, at most max_links (ids sorted)."""
    out = []
    for row in matrix:
        order = np.argsort(-row, kind="stable")
        take = [int(order[0])] + [int(j) for j in order[1:max_links] if row[j] >= threshold]
        out.append(sorted((ids[j] for j in take), key=lambda x: (len(x), x)))
    return out


class Aligner(AlignStep):
    """The `similarity` and `learned` aligners (`kind`; `method=` is its older name, still taken with a warning)."""

    def __init__(self, threshold: float | None = None, selector_weight: float = 0.0, similarity: str = "lexical",
                 max_links: int | None = None, kind: str = "similarity", model: str | None = None, **unknown: Any):
        if "method" in unknown:
            warnings.warn("Aligner(method=...) is now Aligner(kind=...)", DeprecationWarning, stacklevel=2)
            kind = unknown.pop("method")
        if unknown:
            raise ConfigError(Problem(f"unknown align setting(s) {', '.join(map(repr, sorted(unknown)))} (known: "
                                      "kind, model, threshold, max_links, similarity, selector_weight)",
                                      field="align", code="bad-key"))
        if kind not in METHODS:
            raise ConfigError(Problem(f"kind must be {' or '.join(METHODS)}, not {kind!r}", field="align.kind",
                                      code="bad-value"))
        self.kind = kind  # type: ignore[misc] - one class, two kinds
        self.selector_weight = _number("selector_weight", selector_weight, 0.0, 1.0)
        self.similarity = Similarity(similarity)
        self.model = None
        if kind == "learned":
            from archehr.align.learned import load_model

            self.model = load_model(model)
            threshold = self.model.threshold if threshold is None else threshold
            max_links = self.model.max_links if max_links is None else max_links
        elif model is not None:
            raise ConfigError(Problem("model is only used with kind: learned", field="align.model", code="bad-key"))
        # a threshold above 1 is legal: it links only the best sentence of each answer sentence
        self.threshold = _number("threshold", 0.75 if threshold is None else threshold, 0.0)
        self.max_links = _count("max_links", 4 if max_links is None else max_links)

    @property
    def method(self) -> str:
        """The older name of `kind` (the llm aligner's fallback reasons still read it)."""
        return self.kind

    def scores(self, case: Case, answers: Sequence[ClinicianAnswerSentence],
               scores: SentenceScores | None = None) -> np.ndarray:
        headers = np.array([is_header(s.text) for s in case.sentences], dtype=bool)
        if self.model is not None:
            from archehr.align.features import pair_features

            out = self.model.predict(pair_features(case, answers, self.model.feature_names, scores))
            out[:, headers] = 0.0
            return out
        note = [clean_sentence(s.text) for s in case.sentences]
        sim = self.similarity.matrix([a.text for a in answers], note)
        sim = np.clip(sim, 0.0, None)
        sim = sim / np.maximum(sim.max(axis=1, keepdims=True), 1e-9)
        prob = np.zeros(len(note))
        if scores is not None:
            by_id = dict(zip(scores.sentence_ids, scores.relevant(), strict=True))
            prob = np.array([by_id.get(s.id, 0.0) for s in case.sentences])
        out = (1 - self.selector_weight) * sim + self.selector_weight * prob[None, :]
        out[:, headers] = 0.0
        return out

    def links(self, matrix: np.ndarray, ids: Sequence[str], threshold: float) -> list[list[str]]:
        return choose_links(matrix, ids, threshold, self.max_links)

    def align(self, case: Case, answers: Sequence[ClinicianAnswerSentence], scores: SentenceScores | None = None,
              selection: Selection | None = None) -> list[dict[str, Any]]:
        if not answers or not case.sentences:
            return [{"answer_id": a.id, "evidence_id": []} for a in answers]
        links = self.links(self.scores(case, answers, scores), case.sentence_ids, self.threshold)
        return [{"answer_id": a.id, "evidence_id": ev} for a, ev in zip(answers, links, strict=True)]

    def describe(self) -> dict[str, Any]:
        # what is known only once built: the settings read from the model file, the similarity resolved
        d: dict[str, Any] = {"kind": self.kind, "threshold": self.threshold, "max_links": self.max_links}
        if self.model is not None:
            d.update(feature_set=self.model.feature_set, model_training=self.model.training)
        else:
            d.update(similarity=self.similarity.kind)
        return d


def similarity_aligner(threshold: float | None = None, selector_weight: float = 0.0, similarity: str = "lexical",
                       max_links: int | None = None) -> Aligner:
    return Aligner(threshold=threshold, selector_weight=selector_weight, similarity=similarity, max_links=max_links,
                   kind="similarity")


def learned_aligner(model: str | None = None, threshold: float | None = None, max_links: int | None = None,
                    selector_weight: float = 0.0, similarity: str = "lexical") -> Aligner:
    return Aligner(threshold=threshold, selector_weight=selector_weight, similarity=similarity, max_links=max_links,
                   kind="learned", model=model)


def llm_aligner(backend: Any, fallback: dict[str, Any] | None = None, prompt: str = "align_v1", n: int = 1,
                temperature: float = 0.0, seed: int = 0, max_tokens: int = 400, demonstrations: int = 0,
                structured: bool = False) -> Any:
    """The model links; `fallback` (an aligner section, default `{kind: learned}`) links what it leaves unlinked."""
    from archehr.align.llm import LLMAligner

    spec = dict(fallback or {"kind": "learned"}) if isinstance(fallback, dict) or fallback is None else None
    kind = spec.pop("kind", None) if spec is not None else None
    if spec is None or kind not in ALIGNERS or ALIGNERS.takes(kind, "backend"):
        raise ConfigError(Problem("must be a mapping naming a similarity or learned aligner", field="align.fallback",
                                  code="bad-value"))
    return LLMAligner(backend, ALIGNERS.build(kind, **spec), prompt=prompt, n=n, temperature=temperature, seed=seed,
                      max_tokens=max_tokens, demonstrations=demonstrations, structured=structured)


# The st4 aligners (config `align: {kind: ...}`); one that takes `backend` gets the system's.
ALIGNERS: Registry[Any] = Registry("aligner")
ALIGNERS.add("similarity", similarity_aligner)
ALIGNERS.add("learned", learned_aligner)
ALIGNERS.add("llm", llm_aligner, nested={"fallback": Nested(registry="archehr.align:ALIGNERS",
                                                              absent={"kind": "learned"})})
