from __future__ import annotations

import pytest
from relevance_helpers import tiny_split

from archehr.errors import ConfigError, InputError
from archehr.relevance.base import SentenceScores
from archehr.relevance.cv import cross_validate, grouped_folds, merge_splits, part_of
from archehr.relevance.registry import build_classifier
from archehr.relevance.selector import Selector


def _merged():
    return merge_splits([("a", tiny_split(4, name="dev")), ("b", tiny_split(6, name="dev"))])


def test_merge_prefixes_colliding_ids_and_keeps_labels():
    m = _merged()
    assert m.case_ids[:5] == ("a:1", "a:2", "a:3", "a:4", "b:1")
    assert len(m.cases) == 10 and {part_of(c) for c in m.case_ids} == {"a", "b"}
    # labels travel with the renamed case: sentence 2 is the essential one in every tiny case
    from archehr.data.model import Relevance

    assert m.key_for("b:6").ids_with(Relevance.ESSENTIAL) == ("2",)


def test_merge_rejects_duplicate_labels_empty_and_unlabelled():
    with pytest.raises(ConfigError, match="duplicate part labels: a"):
        merge_splits([("a", tiny_split(2)), ("a", tiny_split(2))])
    with pytest.raises(ConfigError, match="no splits"):
        merge_splits([])
    with pytest.raises(InputError) as ei:
        merge_splits([("a", tiny_split(2)), ("b", tiny_split(2, with_key=False))])
    assert ei.value.problems[0].code == "no-labels"


def test_grouped_folds_partition_and_mix_parts():
    m = _merged()
    folds = grouped_folds(m, k=5, seed=3)
    flat = [c for f in folds for c in f]
    assert sorted(flat) == sorted(m.case_ids)  # every case held out exactly once
    assert [len(f) for f in folds] == [2, 2, 2, 2, 2]
    assert grouped_folds(m, k=5, seed=3) == folds  # seeded
    # part a's 4 cases are dealt first, round-robin: folds 0-3 each hold one
    assert [sum(part_of(c) == "a" for c in f) for f in folds] == [1, 1, 1, 1, 0]
    with pytest.raises(ConfigError, match="k must be within"):
        grouped_folds(m, k=11)


def test_cross_validate_cite_all_and_oracle_by_hand():
    m = _merged()
    cite_all = build_classifier("cite-all")
    # every tiny case: 7 sentences, 1 essential -> P = 1/7, R = 1, F1 = 2 * (1/7) / (8/7) = 0.25 in each fold
    f1s = cross_validate(m, lambda tr: (cite_all.score_many, Selector(threshold=0.5)), k=5)
    assert f1s == pytest.approx([0.25] * 5)

    def oracle(tr):
        def score(cases):
            return [SentenceScores(c.case_id, c.sentence_ids, tuple(1.0 if s.id == "2" else 0.0 for s in c.sentences),
                                   (0.0,) * len(c.sentences)) for c in cases]
        return score, Selector(threshold=0.5)

    assert cross_validate(m, oracle, k=2, seeds=(0, 1)) == pytest.approx([1.0] * 4)


def test_cross_validate_never_shows_held_out_cases_to_fit():
    m = _merged()
    seen: list[tuple[set[str], set[str]]] = []
    cite_all = build_classifier("cite-all")

    def fit(tr):
        def score(cases):
            seen.append((set(tr.case_ids), {c.case_id for c in cases}))
            return cite_all.score_many(cases)
        return score, Selector()

    cross_validate(m, fit, k=5)
    assert len(seen) == 5 and all(not (t & h) for t, h in seen)
