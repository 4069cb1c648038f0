"""The helpers of benchmarks/st2_nonlinear.py (nested leave-one-voice-out of st2 recipes): within-case ranks, the
soft target, the expected-F1 counts, the inner voice folds, blends; values derived by hand."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import st2_nonlinear as nl  # noqa: E402 - a benchmark module, found through the path above

from archehr.relevance.features import feature_names  # noqa: E402
from archehr.training.relevance_logistic import Setting, fit_fixed  # noqa: E402


def rows(case_id: str, voice: str, x: list[list[float]], ess: list[int], rel: list[int] | None = None) -> nl.CaseRows:
    e = np.array(ess, dtype=float)
    return nl.CaseRows(case_id, voice, np.array(x, dtype=float), e, np.array(rel if rel is not None else ess, float))


def test_within_case_ranks_spread_zero_to_one_and_share_ties() -> None:
    x = np.array([[3.0, 1.0], [1.0, 1.0], [2.0, 2.0]])
    r = nl.within_case_ranks(x)
    assert r[:, 0].tolist() == [1.0, 0.0, 0.5]
    assert r[:, 1].tolist() == [0.25, 0.25, 1.0]  # the two 1.0s share ranks 0 and 1: 0.5 / 2


def test_within_case_ranks_of_one_sentence_or_a_constant_column_are_one_half() -> None:
    assert nl.within_case_ranks(np.array([[7.0, -1.0]])).tolist() == [[0.5, 0.5]]
    assert nl.within_case_ranks(np.full((4, 1), 3.0)).ravel().tolist() == [0.5] * 4


def test_with_ranks_appends_the_lexical_columns_ranks() -> None:
    x = np.arange(3 * 48, dtype=float).reshape(3, 48)
    out = nl.with_ranks(x)
    assert out.shape == (3, 48 + nl.N_LEXICAL)
    assert np.array_equal(out[:, :48], x)
    assert out[:, 48:].tolist() == [[0.0] * nl.N_LEXICAL, [0.5] * nl.N_LEXICAL, [1.0] * nl.N_LEXICAL]


def test_ranked_columns_are_the_lexical_features_and_their_ranks() -> None:
    assert len(nl.RANKED_COLUMNS) == 2 * nl.N_LEXICAL
    assert nl.RANKED_COLUMNS[nl.N_LEXICAL] == len(feature_names("lexical+interactions"))


def test_soft_target_gives_supplementary_sentences_the_weight() -> None:
    c = rows("1", "a", [[0.0]] * 3, [1, 0, 0], [1, 1, 0])
    assert nl.soft_target(c, 0.2).tolist() == [1.0, 0.2, 0.0]
    assert nl.soft_target(c, 0.0).tolist() == [1.0, 0.0, 0.0]


def test_counts_follow_the_expected_f1_rule() -> None:
    # q sorted 0.9, 0.8, 0.1 (sum 1.8): k=1 -> 1.8/2.8, k=2 -> 3.4/3.8 (best), k=3 -> 3.6/4.8: sentences 0 and 2
    c = rows("1", "a", [[0.0]] * 3, [1, 0, 0])
    assert nl.counts([c], {"1": np.array([0.9, 0.1, 0.8])}, 1.0) == (1, 1, 0)
    assert nl.f1(1, 1, 0) == pytest.approx(2 / 3)
    assert nl.f1(0, 3, 2) == 0.0


def test_counts_cite_at_least_one_sentence() -> None:
    c = rows("1", "a", [[0.0]] * 2, [0, 1])
    assert nl.counts([c], {"1": np.array([0.0, 0.0])}, 1.0) == (0, 1, 1)  # ties keep note order: sentence 0


def test_inner_scores_never_use_a_model_that_read_the_voice() -> None:
    cases = [rows(str(i), v, [[float(i)]], [1]) for i, v in enumerate("aabc")]
    seen: list[set[str]] = []

    def learner(tr):  # noqa: ANN001, ANN202
        voices = {c.voice for c in tr}
        seen.append(voices)
        return lambda x: np.full(len(x), float(len(voices)))

    out = nl.inner_scores(cases, learner)
    assert seen == [{"b", "c"}, {"a", "c"}, {"a", "b"}]
    assert sorted(out) == ["0", "1", "2", "3"]


def test_choose_takes_the_setting_with_the_best_inner_f1() -> None:
    cases = [rows(str(i), "ab"[i % 2], [[1.0], [0.0], [0.0]], [1, 0, 0]) for i in range(4)]
    grid = {"wrong": lambda tr: (lambda x: 1.0 - x[:, 0]), "right": lambda tr: (lambda x: x[:, 0])}
    ch = nl.choose(cases, grid)
    assert ch.setting == "right"
    assert ch.inner_f1 == 1.0
    assert ch.power == nl.POWERS[0]  # every power cites the one sentence at 1.0: the first wins ties


def test_blend_averages_the_probabilities_inner_and_held_out() -> None:
    tr = [rows("1", "a", [[0.0]] * 2, [1, 0])]
    a = nl.FoldResult(nl.Choice("x", 1.0, 0.5, {"1": np.array([0.8, 0.0])}), {"9": np.array([0.2, 0.4])})
    b = nl.FoldResult(nl.Choice("y", 1.0, 0.5, {"1": np.array([0.4, 0.2])}), {"9": np.array([0.6, 0.0])})
    out = nl.blend(tr, a, b)
    assert out.choice.inner["1"].tolist() == pytest.approx([0.6, 0.1])
    assert out.held["9"].tolist() == pytest.approx([0.4, 0.2])
    assert out.choice.setting == "x + y"
    assert out.choice.inner_f1 == 1.0


def test_logistic_learner_is_the_shipped_essential_head() -> None:
    rng = np.random.default_rng(0)
    names = feature_names("lexical+interactions")
    cases = [rows(str(i), "a", rng.normal(size=(6, len(names))).tolist(), [1, 0, 0, 1, 0, 0], [1, 1, 0, 1, 0, 0])
             for i in range(5)]
    scorer = nl.logistic_learner(3.0, 0.3, 0.2)(cases)
    m = fit_fixed("lexical+interactions", names, [c.x for c in cases], [(c.essential, c.relevant) for c in cases],
                  3.0, Setting(3.0, 0.3, 0.2))
    x = cases[0].x
    expect = m.heads["essential"].predict_proba(m.scaler.transform(x))
    assert np.allclose(scorer(x), expect)


def test_boosted_learner_ranks_the_signal_and_handles_supplementary_weights() -> None:
    pytest.importorskip("sklearn", reason="scikit-learn is not installed")
    rng = np.random.default_rng(1)
    cases = []
    for i in range(30):
        x = rng.normal(size=(10, 3))
        ess = (x[:, 0] > 0.8).astype(int).tolist()
        rel = (x[:, 0] > 0.3).astype(int).tolist()
        cases.append(rows(str(i), "a", x.tolist(), ess, rel))
    probe = np.array([[2.0, 0.0, 0.0], [-2.0, 0.0, 0.0]])
    for w in (0.0, 0.2):
        p = nl.boosted_learner(2, 50, supplementary=w, columns=[0, 1])(cases)(probe)
        assert p[0] > 0.5 > p[1]


def test_run_lovo_refuses_an_unknown_recipe() -> None:
    with pytest.raises(ValueError, match="unknown recipes"):
        nl.run_lovo(None, {}, [], ("shipped", "forest"))  # type: ignore[arg-type]


def test_parts_read_the_ranked_rows_only_when_named_so() -> None:
    assert [nl.is_ranked(p) for p in ("shipped", "boosted", "ranked", "boosted+ranked")] == [False, False, True, True]
    assert len(nl.part_grid("ranked")) == len(nl.part_grid("shipped")) == 60  # 5 L2 x 4 extra penalties x 3 targets
    assert len(nl.part_grid("boosted+ranked")) == len(nl.BOOSTED_GRID)
    assert sorted(nl.part_grid("boosted-wide+ranked")) == ["depth=3,iter=300", "depth=3,iter=600", "depth=4,iter=300",
                                                          "depth=4,iter=600"]
    assert nl.is_ranked("boosted-wide+ranked")
    for name, parts in nl.RECIPES.items():
        assert 1 <= len(parts) <= 2, name
