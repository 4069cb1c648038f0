"""The training settings chosen beside the L2: the extra columns' penalty and the supplementary sentences' target."""

from __future__ import annotations

import numpy as np
from relevance_helpers import tiny_split

from archehr.relevance.features import INTERACTION_FEATURES, LEXICAL_FEATURES, case_features, feature_names
from archehr.relevance.registry import load_selector
from archehr.training.labelled import labels
from archehr.training.relevance_logistic import Setting, fit_fixed, penalty_scale, train

FS = "lexical+interactions"


def _data(n: int = 6):
    split = tiny_split(n)
    xs = [case_features(c, FS) for c in split.cases]
    labs = [labels(split, c) for c in split.cases]
    return split, xs, labs


def test_penalty_scale_leaves_lexical_columns_and_scales_the_rest_by_the_root():
    assert penalty_scale(FS, 1.0) is None
    s = penalty_scale(FS, 4.0)
    assert s is not None and s.shape == (len(feature_names(FS)),)
    assert s[: len(LEXICAL_FEATURES)].tolist() == [1.0] * len(LEXICAL_FEATURES)
    assert s[len(LEXICAL_FEATURES):].tolist() == [2.0] * len(INTERACTION_FEATURES)
    assert penalty_scale("lexical", 9.0).tolist() == [1.0] * len(LEXICAL_FEATURES)


def test_supplementary_weight_one_trains_the_essential_head_on_relevant_labels():
    _, xs, labs = _data()
    m = fit_fixed(FS, feature_names(FS), xs, labs, 1.0, Setting(supplementary_weight=1.0))
    assert np.allclose(m.heads["essential"].weights, m.heads["relevant"].weights)
    plain = fit_fixed(FS, feature_names(FS), xs, labs, 1.0)
    assert not np.allclose(plain.heads["essential"].weights, plain.heads["relevant"].weights)


def test_a_large_extra_penalty_holds_the_extra_columns_near_zero():
    _, xs, labs = _data()
    free = fit_fixed(FS, feature_names(FS), xs, labs, 1.0)
    held = fit_fixed(FS, feature_names(FS), xs, labs, 1.0, Setting(extra_penalty=1e6))
    k = len(LEXICAL_FEATURES)
    # what a raw feature unit moves the logit by: weight / scale (the scale carries the penalty)
    eff = held.heads["essential"].weights / held.scaler.scale
    eff_free = free.heads["essential"].weights / free.scaler.scale
    assert np.abs(eff[k:]).max() < 1e-3 * np.abs(eff_free[k:]).max()
    assert np.abs(eff[:k]).max() > 0.1


def test_train_chooses_the_setting_from_its_grids_and_records_it():
    split = tiny_split(6)
    groups = {c: str(int(c) % 3) for c in split.case_ids}
    model, cal = train(split, FS, l2_grid=(1.0, 10.0), groups=groups, extra_penalties=(1.0, 10.0),
                       supplementary_weights=(0.0, 0.5))
    c = model.calibration
    assert len(c["cv_f1_by_setting"]) == 8
    assert c["extra_penalty"] in (1.0, 10.0) and c["supplementary_weight"] in (0.0, 0.5)
    assert max(c["cv_f1_by_setting"].values()) == c["cv_f1"] == round(cal.f1, 4)
    assert Setting(model.l2, c["extra_penalty"], c["supplementary_weight"]).label() in c["cv_f1_by_setting"]


def test_train_without_grids_records_what_it_recorded_before():
    model, _ = train(tiny_split(4), "lexical", l2_grid=(1.0,))
    assert "extra_penalty" not in model.calibration and "cv_f1_by_setting" not in model.calibration
    assert list(model.calibration["cv_f1_by_l2"]) == ["1.0"]


def test_the_shipped_interactions_model_records_its_chosen_settings():
    from archehr.training.relevance_logistic import EXTRA_PENALTY_GRID, L2_GRID, SUPPLEMENTARY_GRID

    m = load_selector("interactions").classifier.model  # type: ignore[attr-defined]
    c = m.calibration
    assert m.feature_set == FS and c["method"] == "leave-one-group-out"
    assert c["extra_penalty"] in EXTRA_PENALTY_GRID and c["supplementary_weight"] in SUPPLEMENTARY_GRID
    assert len(c["cv_f1_by_setting"]) == len(L2_GRID) * len(EXTRA_PENALTY_GRID) * len(SUPPLEMENTARY_GRID)
