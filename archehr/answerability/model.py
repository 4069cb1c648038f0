"""The answerability model: P(the note answers the question), its abstention threshold and review level.

A logistic regression over `features` (coverage of the question's content words, optionally MiniLM
cosines), fitted with balanced class weights, so the probability is calibrated for a 50/50 mix of
answerable and unanswerable questions. EHRSQL-style, the system abstains ("the note does not say")
when P < `threshold`; the threshold is the `false_abstention` quantile of the out-of-fold P of the
answerable training questions (leave-one-voice-out), so about that share of answerable questions from
a writer never seen is abstained on. Above it, an answer whose P is below `review_level` is flagged
for a clinician. The model file is versioned JSON (no pickle), like the relevance models.
"""

from __future__ import annotations

import datetime as _dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from archehr import __version__
from archehr.answerability.data import Item
from archehr.answerability.features import (
    EMBEDDING_FEATURES,
    FEATURE_NAMES,
    Background,
    embedding_features,
    features,
    note_terms,
    reading_features,
)
from archehr.answerability.reading import READING_FEATURES
from archehr.atomic import write_json
from archehr.data.json_io import read_json
from archehr.data.model import Case
from archehr.errors import ConfigError, DataError, Problem
from archehr.glossary import Glossary, load_glossary
from archehr.relevance.logistic import LogisticModel, Scaler, fit_logistic

FORMAT = "archehr-answerability-model"
FORMAT_VERSION = 1
FEATURE_SETS = ("lexical", "lexical+embedding", "lexical+reading")
HERE = Path(__file__).resolve().parent
SHIPPED = {"lexical": HERE / "model_lexical.json", "embedding": HERE / "model_embedding.json",
           "reading": HERE / "model_reading.json"}
SHIPPED_NAME = {"lexical": "lexical", "lexical+embedding": "embedding", "lexical+reading": "reading"}
L2 = 3.0
FALSE_ABSTENTION = 0.04  # target share of answerable questions abstained on (threshold quantile)
REVIEW_QUANTILE = 0.2  # share of answerable questions (out of fold) flagged for review


def names_for(feature_set: str) -> tuple[str, ...]:
    if feature_set == "lexical":
        return FEATURE_NAMES
    if feature_set == "lexical+embedding":
        return FEATURE_NAMES + EMBEDDING_FEATURES
    if feature_set == "lexical+reading":
        return FEATURE_NAMES + READING_FEATURES
    raise ConfigError(Problem(f"unknown answerability feature set {feature_set!r} (known: {', '.join(FEATURE_SETS)})",
                              field="answerability"))


class FeatureCache:
    """Per-item feature rows; lexical rows depend on the background, MiniLM rows do not (computed once)."""

    def __init__(self, feature_set: str, glossary: Glossary | None = None, encoder: object | None = None,
                 token_encoder: object | None = None):
        names_for(feature_set)
        self.feature_set = feature_set
        self.glossary = glossary if glossary is not None else load_glossary()
        self.encoder = encoder
        self.token_encoder = token_encoder
        self._terms: dict[str, list[list[str]]] = {}
        self._emb: dict[str, np.ndarray] = {}
        self._rows: dict[tuple[int, str], np.ndarray] = {}  # (id of the background, item id) -> row

    def terms(self, key: str, case: Case) -> list[list[str]]:
        if key not in self._terms:
            self._terms[key] = note_terms(case, self.glossary)
        return self._terms[key]

    def row(self, case: Case, background: Background, note_key: str | None = None) -> np.ndarray:
        terms = self.terms(note_key, case) if note_key is not None else note_terms(case, self.glossary)
        x = features(case, background, self.glossary, terms)
        if self.feature_set in ("lexical+embedding", "lexical+reading"):
            key = f"{note_key}\x00{case.question_text}" if note_key is not None else None
            if key is None or key not in self._emb:
                e = self._model_row(case)
                if key is None:
                    return np.concatenate([x, e])
                self._emb[key] = e
            x = np.concatenate([x, self._emb[key]])
        return x

    def _model_row(self, case: Case) -> np.ndarray:
        """The MiniLM part of a row: sentence cosines (embedding) or token alignment (reading)."""
        if self.feature_set == "lexical+reading":
            if self.token_encoder is None:
                from archehr.answerability.reading import TokenEncoder

                self.token_encoder = TokenEncoder(self.encoder)
            return reading_features(case, self.token_encoder)
        if self.encoder is None:
            from archehr.relevance.embedding import get_encoder

            self.encoder = get_encoder()
        return embedding_features(case, self.encoder)

    def background(self, items: Sequence[Item]) -> Background:
        notes = {i.note_case: i for i in items}
        return Background.count([t for toks in self.terms(k, i.case) for t in toks] for k, i in notes.items())

    def matrix(self, items: Sequence[Item], background: Background) -> np.ndarray:
        out = []
        for i in items:
            key = (id(background), i.item_id)
            if key not in self._rows:
                self._rows[key] = self.row(i.case, background, i.note_case)
            out.append(self._rows[key])
        return np.array(out)


@dataclass
class AnswerabilityModel:
    feature_set: str
    scaler: Scaler
    head: LogisticModel
    background: Background
    threshold: float = 0.5  # abstain below this P(answerable)
    review_level: float = 0.5  # flag an answer below this P(answerable)
    calibration: dict[str, object] = field(default_factory=dict)
    training: dict[str, object] = field(default_factory=dict)
    source: str | None = None
    _cache: FeatureCache | None = field(default=None, repr=False, compare=False)

    @property
    def names(self) -> tuple[str, ...]:
        return names_for(self.feature_set)

    def probability_rows(self, x: np.ndarray) -> np.ndarray:
        return self.head.predict_proba(self.scaler.transform(np.atleast_2d(x)))

    def probability(self, case: Case, glossary: Glossary | None = None) -> float:
        """P(the note answers the case's question), calibrated for a 50/50 mix."""
        if self._cache is None:
            self._cache = FeatureCache(self.feature_set, glossary)
        return float(self.probability_rows(self._cache.row(case, self.background))[0])

    def abstains(self, p: float) -> bool:
        return p < self.threshold

    def flags(self, p: float) -> bool:
        return p < self.review_level

    def to_json(self) -> dict[str, object]:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "archehr_version": __version__,
                "feature_set": self.feature_set, "feature_names": list(self.names),
                "scaler": {"mean": self.scaler.mean.tolist(), "scale": self.scaler.scale.tolist()},
                "weights": self.head.weights.tolist(), "bias": self.head.bias,
                "threshold": self.threshold, "review_level": self.review_level,
                "calibration": self.calibration, "training_data": self.training,
                "background": self.background.to_json()}

    def save(self, path: str | Path) -> None:
        write_json(path, self.to_json())


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2) -> tuple[Scaler, LogisticModel]:
    scaler = Scaler.fit(x)
    return scaler, fit_logistic(scaler.transform(x), y.astype(float), l2, balanced=True)


def out_of_fold(items: Sequence[Item], cache: FeatureCache, background: Background, l2: float = L2) -> np.ndarray:
    """Leave-one-voice-out P(answerable) of every item. The word background is the one given (counted
    over all of `items`' notes: it holds no label, and one background keeps the rows computed once)."""
    voices = sorted({i.voice for i in items})
    if len(voices) < 2:
        raise ConfigError(Problem(f"leave-one-voice-out needs at least 2 voices, got {voices}", field="voice"))
    p = np.zeros(len(items))
    for v in voices:
        tr = [i for i in items if i.voice != v]
        idx = [k for k, i in enumerate(items) if i.voice == v]
        scaler, head = fit(cache.matrix(tr, background), np.array([i.answerable for i in tr]), l2)
        p[idx] = head.predict_proba(scaler.transform(cache.matrix([items[k] for k in idx], background)))
    return p


def train(items: Sequence[Item], feature_set: str = "lexical", cache: FeatureCache | None = None,
          false_abstention: float = FALSE_ABSTENTION, review_quantile: float = REVIEW_QUANTILE,
          l2: float = L2) -> AnswerabilityModel:
    """Fit on every item; threshold and review level from leave-one-voice-out P of the answerable items."""
    cache = cache or FeatureCache(feature_set)
    y = np.array([i.answerable for i in items])
    if y.all() or not y.any():
        raise ConfigError(Problem("answerability training needs both answerable and unanswerable questions"))
    bg = cache.background(items)
    oof = out_of_fold(items, cache, bg, l2)
    pos = oof[y]
    threshold = round(float(np.quantile(pos, false_abstention)), 3)
    review = round(max(threshold, float(np.quantile(pos, review_quantile))), 3)
    scaler, head = fit(cache.matrix(items, bg), y, l2)
    voices = sorted({i.voice for i in items})
    return AnswerabilityModel(
        feature_set, scaler, head, bg, threshold, review,
        calibration={"method": "leave-one-voice-out", "class_weights": "balanced", "l2": l2,
                     "threshold_rule": f"{false_abstention:g} quantile of out-of-fold P(answerable) of the "
                                       "answerable questions",
                     "review_rule": f"{review_quantile:g} quantile of the same"},
        training={"items": len(items), "answerable": int(y.sum()), "unanswerable": int((~y).sum()),
                  "voices": voices, "sources": sorted({i.source for i in items}),
                  "created": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")})


def _bad(msg: str, source: str, fld: str | None = None) -> ConfigError:
    return ConfigError(Problem(msg, source, field=fld, code="bad-model"))


def parse_model(d: object, source: str) -> AnswerabilityModel:
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise _bad(f"not an archehr answerability model file (expected \"format\": \"{FORMAT}\")", source, "format")
    if d.get("format_version") != FORMAT_VERSION:
        raise _bad(f"answerability model format version {d.get('format_version')}; this archehr reads "
                   f"{FORMAT_VERSION}: retrain with `python benchmarks/answerability.py --save`", source,
                   "format_version")
    fs = str(d.get("feature_set"))
    if fs not in FEATURE_SETS:
        raise _bad(f"unknown feature set {fs!r}", source, "feature_set")
    names = names_for(fs)
    if list(d.get("feature_names") or []) != list(names):
        raise _bad("the model's feature names differ from this archehr's: retrain it", source, "feature_names")
    try:
        mean = np.array(d["scaler"]["mean"], dtype=float)
        scale = np.array(d["scaler"]["scale"], dtype=float)
        w = np.array(d["weights"], dtype=float)
        bias = float(d["bias"])
        bg = Background.from_json(d["background"])
        threshold, review = float(d["threshold"]), float(d["review_level"])
    except (KeyError, TypeError, ValueError) as e:
        raise _bad(f"malformed answerability model: {e}", source) from None
    for what, v in (("scaler.mean", mean), ("scaler.scale", scale), ("weights", w)):
        if v.shape != (len(names),) or not np.isfinite(v).all():
            raise _bad(f"{what} must hold {len(names)} finite numbers", source, what)
    return AnswerabilityModel(fs, Scaler(mean, scale), LogisticModel(w, bias), bg, threshold, review,
                              dict(d.get("calibration") or {}), dict(d.get("training_data") or {}), source)


def load_model(name_or_path: str | Path = "lexical") -> AnswerabilityModel:
    """A shipped model ("lexical", the light default; "embedding" or "reading", need the models extra) or a
    model file."""
    p = SHIPPED.get(str(name_or_path), Path(name_or_path))
    if not p.is_file():
        known = ", ".join(SHIPPED)
        raise ConfigError(Problem(f"answerability model not found (shipped: {known}, or a model file path)", str(p),
                                  code="missing-file"))
    try:
        d = read_json(p)
    except DataError as e:
        raise ConfigError(e.problems) from None
    return parse_model(d, str(p))


def resolve_model(model: AnswerabilityModel | str | Path) -> AnswerabilityModel:
    """A loaded model as it is, a shipped model's name (loaded once per process: `archehr answer` over many
    questions would otherwise read its file again for each) or a model file (read each time: it may change)."""
    if isinstance(model, AnswerabilityModel):
        return model
    return shipped_model(model) if isinstance(model, str) and model in SHIPPED else load_model(model)


@functools.lru_cache(maxsize=4)
def shipped_model(name: str = "lexical") -> AnswerabilityModel:
    """A shipped model, loaded once per process (predict records its P per case in run.json)."""
    return load_model(name)
