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


def test_a_2025_ensemble_cites_exactly_the_ids_three_of_five_noisy_answers_cite(split):
    """Composing the answer (the chosen text, re-cited ids, dropped lines, the word limit) loses no voted
    citation and adds none: the ensemble's 2025 score is the majority vote's over the cited ids."""
    from archehr.ensemble.combine import Settings, ensemble_predictions
    from archehr.ensemble.items import member_items
    from archehr.ensemble.members import Member
    from archehr_scoring.answer_format import render_line

    models = NoisyFamily(split, (0.2, 0.25, 0.3, 0.35, 0.4), shared=0.4, seed=11).models()
    cases = tuple(c.case_id for c in split.cases)
    members = [Member(f"m{k}", f"m{k}", None, f"m{k}", "2025", "test", None, {c: "" for c in cases}, cases,
                      {c.case_id: "\n".join(render_line(s, ids) for s, ids in m.answer_lines(c)) for c in split.cases},
                      {}) for k, m in enumerate(models)]
    preds = ensemble_predictions(members, Settings())[0]
    for c in cases:
        named = [member_items("answer", m.predictions[c]) for m in members]
        majority = {i for i in frozenset().union(*named) if sum(i in x for x in named) >= 3}
        assert member_items("answer", preds[c]) == majority, c
