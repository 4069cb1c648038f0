"""Typed confidence: does the note hold the kind of answer asked for, about the thing asked about?

The lexical answerability model (`model.py`) asks whether the note uses the question's words. A patient's
question can name a thing the note never names ("blood thinner" with no anticoagulant anywhere: decline),
or name something the note discusses but ask for a fact it does not give (how long, when: flag for
review). This model adds, to the lexical P(answerable), what `kinds.answer_types` measures: how much of
the question's topic the note names (the everyday lexicon and brand names counting), the weight of the
most specific concept it never names, and the best topic score among sentences holding the asked kind of
answer, and what the sentence that scores best as the answer holds: whether it holds the asked kind (and in its
firm form: a cause clause for why, a date or a booked slot for when), how much of the topic it names, and how much
less than the sentence naming the most of it (the asked thing named by another sentence than the one that answers);
and, per kind, the best typed topic score and the note's coverage again (`typed_<kind>`, `coverage_<kind>`: how much
a sentence holding the asked kind, or the note naming the topic, tells that the note answers is not the same for each
kind); and, for how-long and result questions, the best topic score among sentences giving the asked fact in the
clause naming the asked thing (`linked_<kind>`, `asked_link.linked`); and the best topic score among sentences saying
the asked fact is not given yet (`unsettled`: "results to follow", "date TBC", "until review": the note names the
asked thing and says its fact is still to come). A logistic regression over those (balanced classes) gives the
confidence; below `threshold` the answer is "The note does not say.", below `review` it is flagged. The model file is
versioned JSON.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from archehr.answerability.kinds import KINDS, AnswerTypes
from archehr.atomic import write_json
from archehr.data.json_io import read_json
from archehr.errors import ConfigError, DataError, Problem
from archehr.relevance.logistic import LogisticModel, Scaler, fit_logistic

FORMAT = "archehr-typed-confidence"
FORMAT_VERSION = 5
SHIPPED = Path(__file__).resolve().parent / "model_typed.json"
# the kinds whose linked fact the model reads (`asked_link.linked`): a course's length and a result. For when
# questions the firm date is read already (`top_firm`), and over the 49 writers' leave-one-writer-out adding when,
# medicine decisions and the best-scoring sentence's link flagged 16.5% of answerable questions (15.9% without)
TYPED_LINKS = ("how_long", "test_result", "why")
FEATURES = ("p_logit", "coverage", "missing_top", "best_typed", "best_score", "best_topic", "typed_gap",
            "log_concepts", "missing_known", "missing_drug", *(f"kind_{k}" for k in KINDS),
            "top_holds", "top_firm", "top_topic", "top_gap", *(f"typed_{k}" for k in KINDS),
            *(f"coverage_{k}" for k in KINDS), *(f"linked_{k}" for k in TYPED_LINKS), "unsettled")
# with the per-kind features, 3.0 flagged fewer answerable questions than 1.0 for as many unanswerable ones caught
# (33 writers dealt into 5 and into 6 folds, `benchmarks/everyday.py --writer-folds`, docs/answer-methods.md);
# 10.0 no better
L2 = 3.0
# a question that tells a story around its ask ("Is Dad allowed drive himself in? He won't take a lift off anyone"):
# the weight of the confidence of the question without the story's words the note never names, beside that of the
# whole question (logits averaged: those words count half). 0.5 measured best over the twenty-one writers'
# leave-one-writer-out (docs/answer-methods.md): fewer answerable questions flagged for as many unanswerable ones caught
STORY_WEIGHT = 0.5
# the threshold and the review level: these quantiles of the P of the answerable questions, each scored by a model
# fitted without its writer (the groups `fit_typed` is given are writers). A writer the model comes to later sees more
# answerable questions flagged than that says: each writer from R on scored by a model fitted on the writers before it
# only (`benchmarks/everyday.py --forward-from R`), 19.6% flagged where leave-one-writer-out says 15.2% for the same
# rule (with the former rule, the 27% quantile of leave-one-voice-out P: 23.0% against 19.5%). 0.20 is the largest
# share keeping those writers under 20% (X to AI alone: 19.5%); 0.01 keeps their false declines under 1% (0.6%;
# 2.2% with the former 0.02). docs/answer-methods.md, "The review level for a writer nobody read"
# (the threshold: 0.005 since the twenty recent writers AV ... BO, whose near-miss questions are harder, had 2.5% of
# answerable questions declined at 0.01 under leave-one-writer-out; 0.005 took them to 1.8% with 0.7 points more
# flagged and as many unanswerable caught, `benchmarks/typed_refit.py`; docs/answer-methods.md, "Declining less
# on writers nobody read")
FALSE_DECLINE = 0.005
REVIEW_SHARE = 0.20
# the note names nothing the question asks about and the lexical model declines too: "The note does not say."
# outright only below this lexical P, or to a result question (the note never names the test); otherwise the typed
# confidence decides (it still declines what names nothing, unless a sentence holds the asked kind of answer: then it
# flags). On the recent writers AV ... BO a third of the outright declines were of answerable questions in words the
# lexicon lacks (11 of 30 under leave-one-writer-out; none of the 13 result questions among them); over 0.05 7 of them
ABSENT_DECLINE = 0.05


def names_nothing(types: AnswerTypes) -> bool:
    """The note names nothing the question asks about: no concept of it, or not the test of a result question (the
    lexicon and brand names counting)."""
    return bool(types.concepts) and (types.note_coverage == 0 or (types.missing_known and types.kind == "test_result"))


def declines_outright(p: float, kind: str, level: float = ABSENT_DECLINE) -> bool:
    """A question the note names nothing of (`names_nothing`), which the lexical model declines at P `p`, gets "The
    note does not say." outright: firmly (under `level`), or a result question at any declining P."""
    return p < level or kind == "test_result"


def typed_row(p: float, types: AnswerTypes) -> np.ndarray:
    """The feature row (`FEATURES` order) of one question: the lexical P and the answer-type measures."""
    q = min(max(p, 1e-4), 1 - 1e-4)
    best_topic = float(types.topic.max()) if types.topic.size else 0.0
    best_typed = types.best_typed
    # the sentence scoring best as the answer (the first cited one, but for the selector's small share): does it
    # hold the asked kind, in its firm form, and does it name the asked thing or does another sentence name more
    top = int(np.argmax(types.score)) if types.score.size else -1
    firm = types.holds if types.firm is None else types.firm
    top_topic = float(types.topic[top]) if top >= 0 else 0.0
    top_row = [float(types.holds[top]) if top >= 0 else 0.0, float(firm[top]) if top >= 0 else 0.0, top_topic,
               best_topic - top_topic]
    row = [math.log(q / (1 - q)), types.note_coverage, types.missing_top, best_typed,
           float(types.score.max()) if types.score.size else 0.0, best_topic, best_topic - best_typed,
           math.log1p(types.concepts), float(min(types.missing_known, 2)), float(types.missing_drugs > 0),
           *(float(types.kind == k) for k in KINDS), *top_row,
           *(best_typed * (types.kind == k) for k in KINDS), *(types.note_coverage * (types.kind == k) for k in KINDS),
           *_linked_row(types), types.unsettled]
    return np.array(row, dtype=float)


def _linked_row(types: AnswerTypes) -> list[float]:
    """Per kind of `TYPED_LINKS`, the best topic score among sentences giving the asked fact in a clause naming the
    asked thing (`asked_link.linked`); read only for the row's own kind, so it is computed only there."""
    return [types.best_linked if types.kind == k else 0.0 for k in TYPED_LINKS]


def story_weighted(whole: float, pruned: float, weight: float | None = None) -> float:
    """The P of a question telling a story: the logits of the whole question's P and the pruned question's P
    averaged, `weight` (default `STORY_WEIGHT`) on the pruned one (0: the whole question alone; 1: the story's
    unnamed words ignored)."""
    weight = STORY_WEIGHT if weight is None else weight
    a, b = (min(max(x, 1e-6), 1 - 1e-6) for x in (whole, pruned))
    z = (1 - weight) * math.log(a / (1 - a)) + weight * math.log(b / (1 - b))
    return 1 / (1 + math.exp(-z))


@dataclass(frozen=True)
class TypedConfidence:
    scaler: Scaler
    head: LogisticModel
    threshold: float  # below: "The note does not say."
    review: float  # below (and at or above threshold): answered, flagged for review
    training: dict[str, Any]

    def probability(self, row: np.ndarray, pruned: np.ndarray | None = None) -> float:
        """P(the note answers the question) from its feature row; with `pruned`, the row of the question without
        the story's words the note never names (`asking.story_pruned`), the two P's logits averaged by
        `STORY_WEIGHT`."""
        p = float(self.head.predict_proba(self.scaler.transform(row[None, :]))[0])
        if pruned is None:
            return p
        return story_weighted(p, float(self.head.predict_proba(self.scaler.transform(pruned[None, :]))[0]))

    def abstains(self, p: float) -> bool:
        return p < self.threshold

    def flags(self, p: float) -> bool:
        return self.threshold <= p < self.review

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "features": list(FEATURES),
                "mean": self.scaler.mean.tolist(), "scale": self.scaler.scale.tolist(),
                "weights": self.head.weights.tolist(), "bias": self.head.bias, "threshold": self.threshold,
                "review": self.review, "training": self.training}

    def save(self, path: str | Path) -> None:
        write_json(path, self.to_json())


def fit_typed(rows: np.ndarray, y: np.ndarray, groups: np.ndarray, false_decline: float = FALSE_DECLINE,
              review_share: float = REVIEW_SHARE, training: dict[str, Any] | None = None,
              l2: float = L2) -> TypedConfidence:
    """Fit on every row; threshold and review level from out-of-fold P (leave one group out: `groups` are the
    questions' writers) of the answerable rows: about `false_decline` of them declined and `review_share` declined
    or flagged. `l2`: the shrinkage (`L2`; another only to measure it, `benchmarks/typed_refit.py`)."""
    if y.all() or not y.any():
        raise ConfigError(Problem("typed confidence needs both answerable and unanswerable questions"))
    oof = np.zeros(len(y))
    for g in np.unique(groups):
        tr, te = groups != g, groups == g
        if y[tr].all() or not y[tr].any():
            raise ConfigError(Problem(f"group {g!r}: its complement lacks a class", field="groups"))
        sc = Scaler.fit(rows[tr])
        oof[te] = fit_logistic(sc.transform(rows[tr]), y[tr], l2, balanced=True).predict_proba(sc.transform(rows[te]))
    pos = oof[y.astype(bool)]
    threshold = round(float(np.quantile(pos, false_decline)), 3)
    review = round(max(threshold, float(np.quantile(pos, review_share))), 3)
    scaler = Scaler.fit(rows)
    head = fit_logistic(scaler.transform(rows), y, l2, balanced=True)
    info = dict(training or {})
    info.update({"rows": int(len(y)), "answerable": int(y.sum()), "groups": sorted(str(g) for g in np.unique(groups)),
                 "threshold_rule": f"{false_decline:g} quantile of out-of-fold P of answerable rows (one group out)",
                 "review_rule": f"{review_share:g} quantile of the same"})
    return TypedConfidence(scaler, head, threshold, review, info)


def parse_typed(d: object, source: str) -> TypedConfidence:
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise DataError(Problem(f"not a typed confidence model (format {FORMAT!r})", source))
    if d.get("format_version") != FORMAT_VERSION or tuple(d.get("features", ())) != FEATURES:
        raise DataError(Problem("typed confidence model of another version or feature list: refit it", source))
    try:
        scaler = Scaler(np.asarray(d["mean"], dtype=float), np.asarray(d["scale"], dtype=float))
        head = LogisticModel(np.asarray(d["weights"], dtype=float), float(d["bias"]))
        return TypedConfidence(scaler, head, float(d["threshold"]), float(d["review"]), dict(d.get("training", {})))
    except (KeyError, TypeError, ValueError) as e:
        raise DataError(Problem(f"bad typed confidence model: {e}", source)) from None


def load_typed(path: str | Path | None = None) -> TypedConfidence:
    """The model in `path`, or the shipped one (read once per process)."""
    if path is None:
        return _shipped()
    p = Path(path)
    if not p.is_file():
        raise DataError(Problem("typed confidence model file not found", str(p), code="missing-file"))
    return parse_typed(read_json(p), str(p))


@functools.lru_cache(maxsize=1)
def _shipped() -> TypedConfidence:
    return parse_typed(read_json(SHIPPED), str(SHIPPED))
