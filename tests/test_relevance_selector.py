from __future__ import annotations

import pytest

from archehr.errors import ConfigError
from archehr.relevance.base import SentenceScores
from archehr.relevance.selector import Selector, select


def scores(ess, sup=None):
    ids = tuple(str(i) for i in range(1, len(ess) + 1))
    return SentenceScores("7", ids, tuple(ess), tuple(sup or [0.0] * len(ess)))


def test_threshold_selects_in_note_order():
    s = Selector(threshold=0.5).select(scores([0.9, 0.1, 0.6, 0.5, 0.2]))
    assert s.cited == ("1", "3", "4")
    # cited mean (0.9+0.6+0.5)/3 = 0.6667; the 3 best uncited (0.2, 0.1) mean 0.15 -> 0.5167
    assert s.confidence == pytest.approx(2 / 3 - 0.15)
    assert not s.flagged


def test_floor_cites_at_least_min_k():
    s = Selector(threshold=0.95, min_k=2).select(scores([0.3, 0.4, 0.35]))
    assert s.cited == ("2", "3")


def test_max_k_caps():
    s = Selector(threshold=0.1, max_k=1).select(scores([0.3, 0.4, 0.35]))
    assert s.cited == ("2",)


def test_relevant_target_adds_supplementary():
    sc = scores([0.3, 0.1], [0.3, 0.0])
    assert Selector(threshold=0.5).select(sc).cited == ("1",)  # floor
    assert Selector(threshold=0.5, target="relevant").select(sc).cited == ("1",)
    assert Selector(threshold=0.05, target="relevant").select(sc).cited == ("1", "2")


def test_flat_scores_are_flagged():
    s = Selector(threshold=0.5, review_level=0.2).select(scores([0.3, 0.3, 0.3, 0.3]))
    assert s.confidence == pytest.approx(0.0)
    assert s.flagged


def test_everything_cited_confidence_is_mean():
    s = Selector(threshold=0.0).select(scores([0.8, 0.6]))
    assert s.cited == ("1", "2")
    assert s.confidence == pytest.approx(0.7)


def test_module_select_uses_defaults():
    assert select(scores([0.2, 0.7])).cited == ("2",)


@pytest.mark.parametrize("kwargs,field", [
    ({"threshold": 1.5}, "selector.threshold"),
    ({"min_k": 0}, "selector.min_k"),
    ({"target": "maybe"}, "selector.target"),
    ({"min_k": 3, "max_k": 2}, "selector.max_k"),
])
def test_bad_settings_are_config_errors(kwargs, field):
    with pytest.raises(ConfigError) as ei:
        Selector(**kwargs)
    assert ei.value.problems[0].field == field


def test_from_dict_rejects_unknown_keys():
    with pytest.raises(ConfigError) as ei:
        Selector.from_dict({"threshold": 0.3, "treshold": 0.2}, "m.json")
    assert "treshold" in str(ei.value)
    assert Selector.from_dict({"threshold": 0.3}).threshold == 0.3
