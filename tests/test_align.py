"""Subtask 4 aligner: hand-derived links, threshold / max_links rules, config validation, learned model file."""

from __future__ import annotations

import json

import numpy as np
import pytest

from archehr.align import Aligner, choose_links
from archehr.align.learned import FORMAT_VERSION, SHIPPED, load_model
from archehr.data.model import Case, ClinicianAnswerSentence, NoteSentence
from archehr.errors import ConfigError


def _case() -> tuple[Case, tuple[ClinicianAnswerSentence, ...]]:
    # content-token sets: s1 {fever, cough}, s2 {fever, rash}, s3 is a header (never linked)
    sents = (NoteSentence("1", 0, 0, "fever cough"), NoteSentence("2", 0, 12, "fever rash"),
             NoteSentence("3", 1, 0, "Medications:"))
    answers = (ClinicianAnswerSentence("1", "fever cough", ("1",)), ClinicianAnswerSentence("2", "rash", ("2",)))
    return Case("c1", sentences=sents), answers


def test_lexical_scores_are_hand_derivable():
    case, answers = _case()
    m = Aligner(similarity="lexical").scores(case, answers)
    # a1: Jaccard s1 = 2/2 = 1, s2 = 1/3 (fever of {fever, cough, rash}); row max 1 -> (1, 1/3, 0)
    # a2: Jaccard s1 = 0, s2 = 1/2 ({rash} vs {fever, rash}); divided by the row max 1/2 -> (0, 1, 0)
    np.testing.assert_allclose(m, [[1.0, 1 / 3, 0.0], [0.0, 1.0, 0.0]])


@pytest.mark.parametrize(("threshold", "max_links", "expected"), [
    (0.3, 4, [["1", "2"], ["2"]]),  # 1/3 >= 0.3 -> s2 joins a1; s1 (0) and the header stay out of a2
    (0.5, 4, [["1"], ["2"]]),  # 1/3 < 0.5: only the best of each answer sentence
    (0.3, 1, [["1"], ["2"]]),  # max_links 1 cuts s2 from a1 however low the threshold
    (5.0, 4, [["1"], ["2"]]),  # above every score: still the best one (clinicians cite >= 1 sentence)
])
def test_links_threshold_and_max_links(threshold, max_links, expected):
    case, answers = _case()
    out = Aligner(threshold=threshold, max_links=max_links, similarity="lexical").align(case, answers)
    assert out == [{"answer_id": "1", "evidence_id": expected[0]}, {"answer_id": "2", "evidence_id": expected[1]}]


def test_choose_links_orders_ids_numerically_and_caps():
    m = np.array([[0.2, 0.9, 0.8, 0.7, 0.1, 0.6, 0.65, 0.0, 0.0, 0.0, 0.95]])
    ids = [str(i) for i in range(1, 12)]
    # best "11" (0.95), then 0.9 ("2"), 0.8 ("3"), 0.7 ("4") >= 0.6; capped at 4 links; sorted 2 < 11
    assert choose_links(m, ids, 0.6, 4) == [["2", "3", "4", "11"]]
    assert choose_links(m, ids, 0.85, 4) == [["2", "11"]]


def test_selector_weight_mixes_in_relevance():
    from archehr.relevance.base import SentenceScores

    case, answers = _case()
    scores = SentenceScores("c1", ("1", "2", "3"), (0.0, 1.0, 1.0), (0.0, 0.0, 0.0))
    m = Aligner(selector_weight=0.5, similarity="lexical").scores(case, answers, scores)
    # a1: 0.5 * (1, 1/3) + 0.5 * (0, 1) = (0.5, 2/3); the header stays 0 whatever its probability
    np.testing.assert_allclose(m[0], [0.5, 2 / 3, 0.0])


@pytest.mark.parametrize("kwargs", [
    {"threshold": -0.1}, {"threshold": "high"}, {"threshold": float("nan")}, {"threshold": True},
    {"max_links": 0}, {"max_links": 2.5}, {"max_links": True}, {"selector_weight": 1.5},
    {"method": "magic"}, {"kind": "magic"}, {"similarity": "bag"}, {"thresold": 0.5}, {"model": "x.json"},
])
def test_bad_config_is_a_config_error(kwargs):
    with pytest.raises(ConfigError):
        Aligner(**kwargs)


def test_unknown_key_names_the_field():
    with pytest.raises(ConfigError) as e:
        Aligner(thresold=0.5)
    assert e.value.problems[0].field == "align"


def test_shipped_model_loads_and_links_every_answer_sentence():
    a = Aligner(kind="learned")
    model = load_model()
    assert (a.threshold, a.max_links) == (model.threshold, model.max_links)  # settings from the file
    assert Aligner(kind="learned", threshold=0.9, max_links=2).max_links == 2  # config overrides the file
    case, answers = _case()
    out = a.align(case, answers)
    assert [len(o["evidence_id"]) >= 1 for o in out] == [True, True]
    assert all(e in ("1", "2") for o in out for e in o["evidence_id"])  # never the header
    assert a.describe()["kind"] == "learned" and a.method == "learned"  # its older name


def _write(tmp_path, change):
    d = json.loads(SHIPPED.read_text(encoding="utf-8"))
    change(d)
    p = tmp_path / "m.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    return p


@pytest.mark.parametrize(("change", "fld"), [
    (lambda d: d.update(format_version=FORMAT_VERSION + 1), "format_version"),
    (lambda d: d.update(format="archehr-relevance-model"), "format"),
    (lambda d: d.update(feature_names=d["feature_names"][::-1]), "feature_names"),
    (lambda d: d.update(feature_set="words"), "feature_set"),
    (lambda d: d.update(weights=d["weights"][:-1]), "weights"),
])
def test_model_file_checks(tmp_path, change, fld):
    with pytest.raises(ConfigError) as e:
        load_model(_write(tmp_path, change))
    assert e.value.problems[0].field == fld


def test_model_file_round_trip(tmp_path):
    m = load_model()
    p = tmp_path / "copy.json"
    m.save(p)
    m2 = load_model(p)
    x = np.random.default_rng(0).normal(size=(3, 4, len(m.feature_names)))
    np.testing.assert_allclose(m.predict(x), m2.predict(x))
    with pytest.raises(ConfigError, match="not found"):
        load_model(tmp_path / "missing.json")


def test_every_builtin_system_builds_its_aligner():
    from archehr.align import ALIGNERS
    from archehr.system_config import builtin_systems, load_config

    for name in builtin_systems():
        cfg = load_config(name)
        # as System.aligner() builds it; an llm aligner's backend is not needed to check its fallback
        options = {k: v for k, v in cfg.align.items() if k != "kind"}
        if ALIGNERS.takes(cfg.align["kind"], "backend"):
            options["backend"] = object()
        a = ALIGNERS.build(cfg.align["kind"], **options)
        a = getattr(a, "fallback", a)
        if "align" in cfg.raw:  # the systems that name one use the learned aligner, or fall back to it (docs/align.md)
            assert a.method == "learned", name


def test_the_older_method_keyword_still_builds_an_aligner_with_a_warning():
    with pytest.warns(DeprecationWarning, match="kind"):
        a = Aligner(method="learned")
    assert a.kind == a.method == "learned" and a.describe()["kind"] == "learned"


def test_everyday_pair_features_read_a_lay_drug_class_against_the_note_drug():
    from archehr.align.features import EVERYDAY_FEATURES, pair_features

    sents = (NoteSentence("1", 0, 0, "Started apixaban 5 mg twice daily."),
             NoteSentence("2", 0, 40, "Walk every day."), NoteSentence("3", 1, 0, "Medications:"))
    answers = (ClinicianAnswerSentence("1", "You are on a blood thinner now.", ("1",)),)
    x = pair_features(Case("c1", sentences=sents), answers, EVERYDAY_FEATURES)
    # the lexicon files apixaban under two classes, "blood thinner" and "anticoagulant", and the answer's "blood
    # thinner" reads as both: two shared classes -> log(1 + 2); sentence 2 names none; the header is never linked
    np.testing.assert_allclose(x[0, :, 1], [np.log(3.0), 0.0, 0.0])
    # the lay class reads as the note's drug, so BM25 finds sentence 1 and only it (divided by the row max)
    np.testing.assert_allclose(x[0, :, 0], [1.0, 0.0, 0.0])
