"""The `interactions` feature group (pairwise products of six lexical features) and the expected-F1 selector rule."""

from __future__ import annotations

import numpy as np
import pytest
from relevance_helpers import N, make_case

from archehr.errors import ConfigError
from archehr.relevance.base import SentenceScores
from archehr.relevance.features import (
    INTERACTION_FEATURES,
    INTERACTION_KEYS,
    LEXICAL_FEATURES,
    case_features,
    feature_names,
    interaction_columns,
)
from archehr.relevance.selector import Selector
from archehr.training.selector_calibration import POWERS, sweep


def _case():
    case, _ = make_case("1", "Why was the warfarin stopped?", "Why was warfarin discontinued?",
                        [(t, N) for t in ["Warfarin was stopped for bleeding.", "Diet as tolerated.",
                                          "She had a fall at home.", "Warfarin will not be restarted."]])
    return case


def test_names_are_every_pair_with_squares_in_key_order():
    k = len(INTERACTION_KEYS)
    assert len(INTERACTION_FEATURES) == k * (k + 1) // 2 == 21
    assert INTERACTION_FEATURES[:2] == ("bm25_clinician*bm25_clinician", "bm25_clinician*lex_rank")
    assert INTERACTION_FEATURES[-1] == "log_length*log_length"
    assert feature_names("lexical+interactions") == LEXICAL_FEATURES + INTERACTION_FEATURES
    assert feature_names("lexical+everyday+interactions")[-len(INTERACTION_FEATURES):] == INTERACTION_FEATURES


def test_columns_are_products_of_the_named_lexical_columns():
    x = np.arange(2 * len(LEXICAL_FEATURES), dtype=float).reshape(2, -1)
    at = {n: j for j, n in enumerate(LEXICAL_FEATURES)}
    cols = dict(zip(INTERACTION_FEATURES, interaction_columns(x), strict=True))
    a, b = at["lex_rank"], at["position"]
    assert cols["lex_rank*position"].tolist() == [x[0, a] * x[0, b], x[1, a] * x[1, b]]
    assert cols["feedback*feedback"].tolist() == (x[:, at["feedback"]] ** 2).tolist()


def test_case_features_append_the_products_to_the_lexical_matrix():
    c = _case()
    lex = case_features(c, "lexical")
    x = case_features(c, "lexical+interactions")
    assert x.shape == (4, len(LEXICAL_FEATURES) + len(INTERACTION_FEATURES))
    assert np.array_equal(x[:, : len(LEXICAL_FEATURES)], lex)
    assert np.allclose(x[:, len(LEXICAL_FEATURES):], np.column_stack(interaction_columns(lex)))


def _scores(p):
    ids = tuple(str(i) for i in range(1, len(p) + 1))
    return SentenceScores("7", ids, tuple(p), tuple([0.0] * len(p)))


def test_expected_f1_rule_cites_the_k_of_best_expected_f1():
    # q = p (power 1), sum 1.8; k=1: 2*0.9/(1+1.8) = 0.643; k=2: 2*1.6/3.8 = 0.842; k=3: 2*1.7/4.8 = 0.708
    s = Selector(rule="expected-f1").select(_scores([0.1, 0.9, 0.7, 0.1]))
    assert s.cited == ("2", "3")
    # power 3: q = 0.729, 0.343, 0.001, 0.001, sum 1.074; k=1: 1.458/2.074 = 0.703; k=2: 2.144/3.074 = 0.697
    assert Selector(rule="expected-f1", power=3.0).select(_scores([0.1, 0.9, 0.7, 0.1])).cited == ("2",)


def test_expected_f1_rule_ignores_the_threshold_and_keeps_max_k():
    # all below 0.5; Q = 1.05: k=1 .8/2.05 = .39, k=2 1.5/3.05 = .49, k=3 2.1/4.05 = .52: cite them all
    sc = _scores([0.3, 0.35, 0.4])
    assert Selector(rule="expected-f1", threshold=0.9).select(sc).cited == ("1", "2", "3")
    assert Selector(rule="expected-f1", max_k=1).select(sc).cited == ("3",)


@pytest.mark.parametrize("kwargs,field", [({"rule": "top"}, "selector.rule"), ({"power": 0.0}, "selector.power")])
def test_bad_rule_settings_are_config_errors(kwargs, field):
    with pytest.raises(ConfigError) as e:
        Selector(**kwargs)
    assert e.value.problems[0].field == field


def test_to_dict_keeps_the_former_keys_for_the_threshold_rule():
    assert "rule" not in Selector().to_dict()
    d = Selector(rule="expected-f1", power=2.0).to_dict()
    assert d["rule"] == "expected-f1" and d["power"] == 2.0
    assert Selector.from_dict(d) == Selector(rule="expected-f1", power=2.0)


def test_sweep_calibrates_the_power_for_the_expected_f1_rule():
    from relevance_helpers import E

    from archehr.data.model import Split

    case, key = make_case("7", "Why stopped?", "Why stopped?", [("a", E), ("b", N), ("c", N)])
    split = Split("dev", (case,), (key,))
    cal = sweep([_scores([0.6, 0.5, 0.1])], split, Selector(rule="expected-f1"))
    assert [row[0] for row in cal.curve] == list(POWERS)
    # power 2: q = .36, .25, .01: k=1 .72/1.62 = .444 < k=2 1.22/2.62 = .466, cites 2 (F1 2/3);
    # power 3: q = .216, .125, .001: k=1 .432/1.342 = .322 > k=2 .682/2.342 = .291, cites sentence 1 alone (F1 1)
    assert dict((r[0], r[1]) for r in cal.curve)[2.0] == pytest.approx(2 / 3)
    assert cal.selector.power == 3.0 and cal.f1 == 1.0 and cal.selector.rule == "expected-f1"
