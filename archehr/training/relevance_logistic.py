"""Fitting the `trained` relevance classifier (archehr.relevance.trained): logistic regression over hand-made
features, two heads (essential, relevant).

The L2 strength and the selector threshold are chosen by leave-one-case-out cross-validation on the training
split (strict micro F1), or leave-one-group-out when groups (e.g. the writer's voice) are given. The model,
its calibration curve and a record of the training data are what `TrainedModel.save` writes.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from archehr.data.model import Split
from archehr.errors import ConfigError, Problem
from archehr.relevance.base import SentenceScores
from archehr.relevance.calibration import require_labels
from archehr.relevance.features import FEATURE_SETS, case_features, feature_names
from archehr.relevance.logistic import LogisticModel, Scaler, fit_logistic
from archehr.relevance.selector import Selector
from archehr.relevance.trained import TrainedModel
from archehr.training.labelled import labels, training_record
from archehr.training.selector_calibration import Calibration, group_scores, loco_scores, sweep

L2_GRID: tuple[float, ...] = (0.3, 1.0, 3.0, 10.0, 30.0)


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
          review_quantile: float = 0.2, groups: Mapping[str, str] | None = None,
          rule: str = "threshold") -> tuple[TrainedModel, Calibration]:
    """Fit on `split` (labelled); choose L2 and threshold by leave-one-case-out CV (strict micro F1), or by
    leave-one-group-out CV when `groups` (case id -> group, e.g. the writer's voice) is given.

    `rule` is the selector's rule (archehr.relevance.selector.RULES): with "expected-f1" the calibrated setting is
    the power instead of the threshold.

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


