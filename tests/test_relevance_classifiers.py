from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from relevance_helpers import E, N, make_case, tiny_split

from archehr.errors import ConfigError, InputError, UnknownNameError
from archehr.relevance.base import SentenceScores
from archehr.relevance.ensemble import EnsembleClassifier
from archehr.relevance.lexical import bm25, combined_lexical
from archehr.relevance.llm import LLMClassifier, build_prompt, parse_reply
from archehr.relevance.registry import CLASSIFIERS, build_classifier, selector_for


def test_bm25_by_hand():
    # two docs, query "x": df(x)=1, n=2 -> idf = ln(1 + 1.5/1.5) = ln 2; doc0 = ["x","y"], avg len 1.5
    s = bm25(["x"], [["x", "y"], ["z"]], k1=1.2, b=0.75)
    norm = 1.2 * (1 - 0.75 + 0.75 * 2 / 1.5)
    assert s[0] == pytest.approx(np.log(2) * 2.2 / (1 + norm))
    assert s[1] == 0.0


def test_lexical_ranks_answer_first_and_zeroes_headers():
    split = tiny_split(6)
    clf = build_classifier("lexical")
    for case in split.cases:
        sc = clf.score(case)
        assert sc.essential[0] == 0.0  # "Brief Hospital Course:" is a header
        assert int(np.argmax(sc.essential)) == 1, case.case_id
        assert max(sc.essential) == pytest.approx(1.0)


def test_glossary_bridges_lay_words():
    case, _ = make_case("9", "Why did they switch my water pill?", "",
                        [("He was given furosemide for fluid.", E), ("He walked in the hall.", N)])
    with_g = combined_lexical(case, __import__("archehr.glossary", fromlist=["x"]).load_glossary())
    without = combined_lexical(case, None)
    assert with_g[0] > with_g[1]
    assert without[0] == 0.0  # no shared word at all without the glossary


def test_zero_sentence_case_is_named_by_every_classifier():
    case = dataclasses.replace(tiny_split(1).cases[0], sentences=())
    for name in ("cite-all", "lexical", "trained"):
        with pytest.raises(InputError) as ei:
            build_classifier(name).score(case)
        assert ei.value.problems[0].case_id == "1"


def test_registry_names_and_errors():
    expected = {"cite-all", "lexical", "embedding", "trained", "cross-encoder", "ensemble", "llm"}
    assert expected <= set(CLASSIFIERS.names())
    with pytest.raises(UnknownNameError, match="did you mean 'lexical'"):
        build_classifier("lexicl")
    with pytest.raises(ConfigError, match="has no option 'nonsense'"):
        build_classifier("lexical", nonsense=1)
    with pytest.raises(ConfigError, match="unknown shipped model"):
        from archehr.relevance.registry import shipped_model_path

        shipped_model_path("huge")


def _sc(vals):
    return SentenceScores("1", tuple(str(i + 1) for i in range(len(vals))), tuple(vals), (0.0,) * len(vals))


class Fixed:
    def __init__(self, vals):
        self.vals = vals

    def score(self, case):
        return _sc(self.vals)

    def score_many(self, cases):
        return [self.score(c) for c in cases]

    def fit(self, split):
        pass


def test_ensemble_modes_by_hand():
    a, b, c = Fixed([0.9, 0.2, 0.6]), Fixed([0.1, 0.4, 0.8]), Fixed([0.5, 0.5, 0.1])
    case = tiny_split(1).cases[0]
    case = dataclasses.replace(case, sentences=case.sentences[:3])
    mean = EnsembleClassifier([a, b], "mean", weights=[3, 1]).score(case)
    assert mean.essential == pytest.approx((0.7, 0.25, 0.65))
    union = EnsembleClassifier([a, b, c], "union", thresholds=[0.5, 0.5, 0.5]).score(case)
    assert union.essential == (1.0, 1.0, 1.0)
    maj = EnsembleClassifier([a, b, c], "majority", thresholds=[0.5, 0.5, 0.5]).score(case)
    assert maj.essential == pytest.approx((2 / 3, 1 / 3, 2 / 3))
    with pytest.raises(ConfigError):
        EnsembleClassifier([a, b], "median")
    with pytest.raises(ConfigError):
        EnsembleClassifier([a, b], "mean", weights=[1])


def test_ensemble_from_registry_builds_members():
    clf = build_classifier("ensemble", members=["lexical", {"name": "cite-all"}], mode="mean")
    case = tiny_split(1).cases[0]
    sc = clf.score(case)
    lex = build_classifier("lexical").score(case)
    assert sc.essential == pytest.approx(tuple((x + 1.0) / 2 for x in lex.essential))
    with pytest.raises(ConfigError, match="member"):
        build_classifier("ensemble", members=[42])


class FakeBackend:
    """Stands in for an archehr.llm backend: returns canned replies, records the calls."""

    def __init__(self, replies):
        self.replies = replies
        self.calls = []

    def complete(self, prompt, *, n=1, temperature=0.0, seed=0, max_tokens=256):
        self.calls.append({"prompt": prompt, "n": n, "temperature": temperature, "seed": seed})
        return self.replies[:n]


def test_llm_votes_over_samples():
    case = tiny_split(1).cases[0]
    backend = FakeBackend(["ESSENTIAL: 2, 4\nSUPPLEMENTARY: 3", "essential: 2\nsupplementary: none",
                           "I am not sure.", "**Essential**: 2, 99"])
    clf = build_classifier("llm", backend=backend, n=4, temperature=0.7, seed=3)
    sc = clf.score(case)
    # 3 parsable replies: sentence 2 in all 3, sentence 4 in 1, sentence 3 supplementary in 1; id 99 ignored
    assert sc.essential[1] == pytest.approx(1.0)
    assert sc.essential[3] == pytest.approx(1 / 3)
    assert sc.supplementary[2] == pytest.approx(1 / 3)
    assert clf.unparsed_replies == 1
    call = backend.calls[0]
    assert call["n"] == 4 and call["temperature"] == 0.7 and call["seed"] == 3
    assert "2. " + case.sentences[1].text in call["prompt"]


def test_llm_falls_back_and_records_case_when_nothing_parses():
    case = tiny_split(1).cases[0]
    clf = LLMClassifier(FakeBackend(["no idea", "still no idea"]), n=2)
    sc = clf.score(case)
    assert clf.fallback_cases == ["1"]
    assert sc.essential == build_classifier("lexical").score(case).essential


def test_llm_needs_a_backend():
    with pytest.raises(ConfigError, match="needs a backend"):
        build_classifier("llm")


def test_parse_reply_edge_cases():
    assert parse_reply("ESSENTIAL: none\nSUPPLEMENTARY: 1", {"1", "2"}) == (set(), {"1"})
    assert parse_reply("ESSENTIAL: 1,2\nSUPPLEMENTARY: 2", {"1", "2"}) == ({"1", "2"}, set())
    assert parse_reply("1, 2", {"1", "2"}) is None
    assert "Note sentences" in build_prompt(tiny_split(1).cases[0])


def test_selector_for_uses_model_threshold_for_trained():
    ev = selector_for("trained")
    assert ev.selector == ev.classifier.model.selector  # type: ignore[attr-defined]
    ev2 = selector_for("lexical", selector={"threshold": 0.9})
    assert ev2.selector.threshold == 0.9
    assert ev2.select(tiny_split(1).cases[0]).cited == ("2",)


@pytest.mark.slow
def test_embedding_classifier_with_real_minilm():
    from archehr.relevance.embedding import embeddings_available, get_encoder

    ok, why = embeddings_available()
    if not ok:
        pytest.skip(why)
    enc = get_encoder()
    v = enc.encode(["heart attack", "myocardial infarction", "The patient tolerated a regular diet.", ""])
    assert v.shape == (4, 384)
    assert np.linalg.norm(v[0]) == pytest.approx(1.0, abs=1e-5)
    assert float(v[0] @ v[1]) > float(v[0] @ v[2])
    assert not v[3].any()
    split = tiny_split(6)
    clf = build_classifier("embedding")
    hits = sum(int(np.argmax(clf.score(c).essential)) == 1 for c in split.cases)
    assert hits >= 5


@pytest.mark.slow
def test_shipped_embedding_model_scores_with_real_minilm():
    from archehr.relevance.embedding import embeddings_available

    ok, why = embeddings_available()
    if not ok:
        pytest.skip(why)
    from archehr.relevance.registry import load_selector

    ev = load_selector("embedding")
    assert ev.classifier.model.feature_set == "lexical+embedding"  # type: ignore[attr-defined]
    sel = ev.select_many(tiny_split(6).cases)
    assert sum("2" in s.cited for s in sel) >= 5
