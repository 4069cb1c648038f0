"""Fitting the `trained` relevance classifier (archehr.relevance.trained): logistic regression over hand-made
features, two heads (essential, relevant).

The L2 strength and the selector threshold are chosen by leave-one-case-out cross-validation on the training
split (strict micro F1), or leave-one-group-out when groups (e.g. the writer's voice) are given. The model,
its calibration curve and a record of the training data are what `TrainedModel.save` writes.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from archehr.data.model import Split
from archehr.errors import ConfigError, Problem
from archehr.relevance.base import SentenceScores
from archehr.relevance.calibration import require_labels
from archehr.relevance.features import FEATURE_SETS, LEXICAL_FEATURES, case_features, feature_names
from archehr.relevance.logistic import LogisticModel, Scaler, fit_logistic
from archehr.relevance.selector import Selector
from archehr.relevance.trained import TrainedModel
from archehr.training.labelled import labels, training_record
from archehr.training.selector_calibration import Calibration, group_scores, loco_scores, sweep

L2_GRID: tuple[float, ...] = (0.3, 1.0, 3.0, 10.0, 30.0)
# the shipped interactions model's further grids (archehr.training.shipped; chosen by leave-one-voice-out there)
EXTRA_PENALTY_GRID: tuple[float, ...] = (0.3, 1.0, 3.0, 10.0)
SUPPLEMENTARY_GRID: tuple[float, ...] = (0.0, 0.2, 0.35)


@dataclass(frozen=True)
class Setting:
    """What the cross-validation chooses besides the selector's threshold or power.

    `extra_penalty` multiplies the L2 penalty of every column outside the base `lexical` set (the interaction
    terms, the everyday or MiniLM group): a large group of extra columns can then be held closer to zero than the
    base features without holding the base features back. `supplementary_weight` is the essential head's target
    for a supplementary sentence (0: not essential, as in the key); a little above 0 tells the head that such a
    sentence is closer to an answer than an unrelated one, which orders the sentences of a new writer's note better
    (docs/voices.md).
    """

    l2: float = 1.0
    extra_penalty: float = 1.0
    supplementary_weight: float = 0.0

    def label(self) -> str:
        return f"l2={self.l2:g},extra_penalty={self.extra_penalty:g},supplementary_weight={self.supplementary_weight:g}"


def penalty_scale(feature_set: str, extra_penalty: float) -> np.ndarray | None:
    """Per-column factor on the scaler's scale that multiplies each extra column's L2 penalty by `extra_penalty`
    (a column divided by sqrt(c) costs c times as much to use); None when every column is penalised alike."""
    if extra_penalty == 1.0:
        return None
    base = set(LEXICAL_FEATURES)
    return np.array([1.0 if n in base else np.sqrt(extra_penalty) for n in feature_names(feature_set)])


def _fit(xs: Sequence[np.ndarray], ys_ess: Sequence[np.ndarray], ys_rel: Sequence[np.ndarray],
         l2: float, scale: np.ndarray | None = None) -> tuple[Scaler, dict[str, LogisticModel]]:
    x = np.vstack(xs)
    scaler = Scaler.fit(x)
    if scale is not None:  # the model file stores the product: scoring reads it like any scaler
        scaler = Scaler(scaler.mean, scaler.scale * scale)
    xsc = scaler.transform(x)
    heads = {"essential": fit_logistic(xsc, np.concatenate(ys_ess), l2),
             "relevant": fit_logistic(xsc, np.concatenate(ys_rel), l2)}
    return scaler, heads


def fit_fixed(feature_set: str, names: tuple[str, ...], xs: Sequence[np.ndarray],
              labs: Sequence[tuple[np.ndarray, np.ndarray]], l2: float,
              setting: Setting | None = None) -> TrainedModel:
    """Both heads fitted at a given L2 (no selector calibration): the inner fit of `train`'s L2 search, and of
    any out-of-fold scoring that needs the shipped recipe on a subset of cases. `setting` (its l2 is ignored)
    adds the extra columns' penalty and the supplementary sentences' target."""
    st = setting or Setting()
    w = st.supplementary_weight
    ess = [lab[0] + w * (lab[1] - lab[0]) if w else lab[0] for lab in labs]
    scaler, heads = _fit(xs, ess, [lab[1] for lab in labs], l2, penalty_scale(feature_set, st.extra_penalty))
    return TrainedModel(feature_set, names, scaler, heads, l2)


def train(split: Split, feature_set: str = "lexical+embedding", target: str = "essential",
          l2_grid: Sequence[float] = L2_GRID, review_level: float | None = None,
          review_quantile: float = 0.2, groups: Mapping[str, str] | None = None,
          rule: str = "threshold", extra_penalties: Sequence[float] = (1.0,),
          supplementary_weights: Sequence[float] = (0.0,)) -> tuple[TrainedModel, Calibration]:
    """Fit on `split` (labelled); choose L2 and threshold by leave-one-case-out CV (strict micro F1), or by
    leave-one-group-out CV when `groups` (case id -> group, e.g. the writer's voice) is given.

    `rule` is the selector's rule (archehr.relevance.selector.RULES): with "expected-f1" the calibrated setting is
    the power instead of the threshold. `extra_penalties` and `supplementary_weights` are grids chosen in the same
    cross-validation, together with the L2 (`Setting`; the defaults leave today's recipe as it was).

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
    base = Selector(target=target, rule=rule)

    def make(st: Setting):
        def fit_and_score(train_split: Split, held: Split) -> list[SentenceScores]:
            ids = train_split.case_ids
            m = fit_fixed(feature_set, names, [feats[i] for i in ids], [labs[i] for i in ids], st.l2, st)
            return [m.scores(c, feats[c.case_id]) for c in held.cases]
        return fit_and_score

    grid = [Setting(l2, e, w) for l2 in l2_grid for e in extra_penalties for w in supplementary_weights]
    if not grid:
        raise ConfigError(Problem("the L2 grid is empty", field="l2_grid"))
    best: tuple[Setting, Calibration, list[SentenceScores]] | None = None
    per_l2: dict[str, float] = {}
    per_setting: dict[str, float] = {}
    for st in grid:
        oof = group_scores(split, groups, make(st)) if groups is not None else loco_scores(split, make(st))
        cal = sweep(oof, split, base)
        per_setting[st.label()] = round(cal.f1, 4)
        per_l2[str(st.l2)] = max(per_l2.get(str(st.l2), 0.0), round(cal.f1, 4))
        if best is None or cal.f1 > best[1].f1 + 1e-12:
            best = (st, cal, oof)
    chosen, cal, oof = best  # type: ignore[misc]
    l2 = chosen.l2
    confidences = [cal.selector.select(s).confidence for s in oof]
    if review_level is None:
        review_level = round(float(np.quantile(confidences, review_quantile)), 3)
    cal = replace(cal, selector=replace(cal.selector, review_level=review_level))
    ids = split.case_ids
    fitted = fit_fixed(feature_set, names, [feats[i] for i in ids], [labs[i] for i in ids], l2, chosen)
    extra = {} if len(grid) == len(l2_grid) else {
        "extra_penalty": chosen.extra_penalty, "supplementary_weight": chosen.supplementary_weight,
        "cv_f1_by_setting": per_setting}
    model = TrainedModel(
        feature_set, names, fitted.scaler, fitted.heads, l2, cal.selector,
        calibration={"method": "leave-one-case-out" if groups is None else "leave-one-group-out",
                     **({} if groups is None else {"groups": len(set(groups[c] for c in ids))}),
                     "metric": "strict micro F1", "target": target,
                     "cv_f1": round(cal.f1, 4), "cv_f1_by_l2": per_l2, **extra,
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


