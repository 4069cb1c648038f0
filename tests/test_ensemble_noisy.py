"""The scripted noisy models the ensemble benchmark runs: no mistakes at rate 0, shared mistakes shared,
the same replies on every call."""

from __future__ import annotations

import pytest

from archehr.testing.noisy_models import NoisyFamily, unit


@pytest.fixture(scope="module")
def split():
    from archehr.data.releases import load_split

    return load_split("data/demo", "test")


def test_rate_zero_is_the_perfect_model(split):
    from archehr.testing.perfect_server import PerfectModel

    noisy, perfect = NoisyFamily(split, (0.0,)).models()[0], PerfectModel(split)
    for c in noisy.cases:
        assert noisy.evidence(c) == perfect.evidence(c)
        assert noisy.answer_lines(c) == perfect.answer_lines(c) and noisy._links(c) == perfect._links(c)


def test_fully_shared_mistakes_are_the_same_in_every_model_and_independent_ones_differ(split):
    shared = NoisyFamily(split, (0.3, 0.3, 0.3), shared=1.0, seed=5).models()
    own = NoisyFamily(split, (0.3, 0.3, 0.3), shared=0.0, seed=5).models()
    cases = shared[0].cases
    assert all(len({tuple(m.evidence(c)[0]) for m in shared}) == 1 for c in cases)
    assert any(len({tuple(m.evidence(c)[0]) for m in own}) > 1 for c in cases)


def test_error_rate_is_about_the_rate_on_essential_sentences(split):
    m = NoisyFamily(split, (0.3,), seed=3).models()[0]
    gold = [(c, s) for c in m.cases for s in split.key_for(c.case_id).essential_ids]
    dropped = sum(s not in m.evidence(c)[0] for c, s in gold)
    assert 0.15 < dropped / len(gold) < 0.45  # 0.3 of ~150 sentences, +-3 standard deviations
    assert m.evidence(m.cases[0]) == m.evidence(m.cases[0])  # deterministic
    assert unit(1, "a") == unit(1, "a") != unit(2, "a")
