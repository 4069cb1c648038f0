"""Fitting an ensemble on dev: class rates over the disputed items, the best vote rule with a key, and the
fall back to the best member when it beats both votes in cross-validation (a tie keeps the vote)."""

from __future__ import annotations

import pytest

from archehr.ensemble.fit import fit_settings
from archehr.ensemble.items import Patterns, best_pattern_rule, class_rates, patterns, rule_f1
from archehr.ensemble.members import Member

DEV = "data/demo/dev"

# one case, three members: who named each item -> (gold items, non-gold items)
PATS = Patterns({("1", frozenset({0, 1})): (2, 0),  # disputed: member 2 missed 2 gold items
                 ("1", frozenset({2})): (0, 3),  # disputed: member 2 named 3 non-gold items
                 ("1", frozenset({0, 1, 2})): (5, 1),  # undisputed
                 ("1", frozenset()): (1, 0)},  # a gold item nobody named: undisputed
                n_gold=8, n_members=3)


def test_class_rates_count_the_disputed_items_with_half_a_mistake_added():
    r = class_rates(PATS)
    assert (r.disputed_gold, r.disputed_other) == (2, 3)
    assert r.fn == pytest.approx((0.5 / 3, 0.5 / 3, 2.5 / 3))
    assert r.fp == pytest.approx((0.5 / 4, 0.5 / 4, 3.5 / 4))
    # log(5) + log(7) for members 0 and 1; member 2 is worse than chance on both classes: nothing
    assert r.weights() == (1.0, 1.0, 0.0)


def test_best_rule_is_the_best_prefix_by_precision():
    f1, rule = best_pattern_rule(PATS)
    # {0,1}: tp 2 -> 4/10; then {0,1,2}: tp 7, fp 1 -> 14/16; then {2}: fp 4 -> 14/19
    assert f1 == pytest.approx(100 * 14 / 16)
    assert rule == {frozenset({0, 1}), frozenset({0, 1, 2})}
    assert rule_f1(PATS, rule) == pytest.approx(f1)
    assert rule_f1(PATS, frozenset({frozenset({0, 1})})) == pytest.approx(40.0)


@pytest.fixture(scope="module")
def dev():
    from archehr.data.releases import load_split

    return load_split("data/demo", "dev")


def _member(k: int, preds: dict) -> Member:
    return Member(f"run{k}", f"sys{k}", f"c{k}", f"h{k}", "st2", "dev", None, {c: "x" for c in preds},
                  tuple(preds), preds, {})


def test_patterns_read_members_against_the_key(dev):
    c = dev.cases[0].case_id
    gold = list(dev.key_for(c).essential_ids)
    ms = [_member(0, {c: gold}), _member(1, {c: gold[1:] + ["999"]})]
    p = patterns(ms, DEV, [c])
    assert p.n_gold == len(gold)
    assert p.counts == {(c, frozenset({0, 1})): (len(gold) - 1, 0), (c, frozenset({0})): (1, 0),
                        (c, frozenset({1})): (0, 1)}


def test_independent_mistakes_are_voted_away_by_the_default_which_is_kept(dev):
    gold = {c.case_id: list(dev.key_for(c.case_id).essential_ids) for c in dev.cases}
    # member k misses the k-th gold sentence of every case: two of three always hold each gold sentence
    ms = [_member(k, {c: [s for j, s in enumerate(g) if j != k] for c, g in gold.items()}) for k in range(3)]
    s = fit_settings(ms, DEV)
    cv = s.details["cross_validated"]
    assert cv["default_vote"] == pytest.approx(100.0) and cv["best_member"] < 100.0
    # the fitted vote is perfect too, but does not beat the default: nothing fitted is kept
    assert s.source == "fitted on dev: default kept" and s.weights is None and s.threshold == 0.5


def test_a_fitted_threshold_that_beats_the_default_and_every_member_is_kept(dev):
    gold = {c.case_id: list(dev.key_for(c.case_id).essential_ids) for c in dev.cases}
    wrong = {c.case_id: [s for s in c.sentence_ids if s not in gold[c.case_id]][:2] for c in dev.cases}
    # members 0 and 1 add one wrong sentence, 2 and 3 another: two votes of four carry at 0.5 (a tie is kept)
    ms = [_member(k, {c: g + [wrong[c][k // 2]] for c, g in gold.items()}) for k in range(4)]
    s = fit_settings(ms, DEV)
    cv = s.details["cross_validated"]
    assert s.source == "fitted on dev" and s.threshold > 0.5
    assert cv["vote"] == pytest.approx(100.0) and cv["default_vote"] < 100.0 and cv["best_member"] < 100.0


def test_a_vote_that_only_ties_the_best_member_is_kept(dev):
    gold = {c.case_id: list(dev.key_for(c.case_id).essential_ids) for c in dev.cases}
    wrong = {c.case_id: [s for s in c.sentence_ids if s not in gold[c.case_id]][:2] for c in dev.cases}
    # members 1 and 2 make the same mistakes: the class rates give them no weight, so the fitted vote is member 0
    ms = [_member(0, gold), _member(1, wrong), _member(2, wrong)]
    s = fit_settings(ms, DEV)
    cv = s.details["cross_validated"]
    assert cv["folds"] == 5 and cv["vote"] == cv["best_member"] == pytest.approx(100.0)
    assert s.source == "fitted on dev" and s.weights is not None and s.weights[1:] == (0.0, 0.0)


def test_a_best_member_that_beats_both_votes_in_cross_validation_is_kept(dev, monkeypatch):
    import archehr.ensemble.fit as fit

    gold = {c.case_id: list(dev.key_for(c.case_id).essential_ids) for c in dev.cases}
    wrong = {c.case_id: [s for s in c.sentence_ids if s not in gold[c.case_id]][:2] for c in dev.cases}
    ms = [_member(0, gold), _member(1, wrong), _member(2, wrong)]
    monkeypatch.setattr(fit, "cross_validated", lambda sc, folds: {"folds": 5, "vote": 90.0, "best_member": 95.0})
    s = fit_settings(ms, DEV)
    assert s.source == "fitted on dev: best member" and s.weights == (1.0, 0.0, 0.0)
    assert s.details["chosen"]["weights"] == "best member" and s.details["chosen"]["member"] == 0


def test_paired_sd_is_zero_for_equal_differences_and_none_for_text(dev):
    from archehr.ensemble.fit import paired_sd

    cases = [c.case_id for c in dev.cases]
    gold = {c: list(dev.key_for(c).essential_ids) for c in cases}
    # the same predictions: every resample differs by 0
    assert paired_sd("st2", DEV, gold, gold, cases) == 0.0
    # one gold sentence left out of one case: the difference moves with whether that case is drawn
    less = {**gold, cases[0]: gold[cases[0]][1:]}
    assert paired_sd("st2", DEV, gold, less, cases) > 0.0
    assert paired_sd("st1", DEV, {c: "a" for c in cases}, {c: "b" for c in cases}, cases) is None


def test_a_vote_must_beat_the_best_member_by_the_margin_times_its_noise(dev, monkeypatch):
    import archehr.ensemble.fit as fit

    gold = {c.case_id: list(dev.key_for(c.case_id).essential_ids) for c in dev.cases}
    wrong = {c.case_id: [s for s in c.sentence_ids if s not in gold[c.case_id]][:2] for c in dev.cases}
    ms = [_member(0, gold), _member(1, wrong), _member(2, wrong)]
    cv = {"folds": 5, "vote": 91.0, "best_member": 90.0, "sd_vote_minus_best": 0.8, "sd_default_minus_best": 0.5}
    monkeypatch.setattr(fit, "cross_validated", lambda sc, folds: dict(cv))
    monkeypatch.setattr(fit._DevScores, "score", lambda self, s, cases=None: 85.0)  # the default vote: -5
    # +1.0 over the best member: more than 1 x 0.8, less than 2 x 0.8
    assert fit_settings(ms, DEV, margin=1.0).source == "fitted on dev"
    assert fit_settings(ms, DEV, margin=2.0).source == "fitted on dev: best member"
    assert fit_settings(ms, DEV).source == "fitted on dev"  # margin 0: any gain keeps the vote
