"""The shipped st4 aligner's rebuild: archehr.training.align, run by `archehr train --rebuild-shipped [--only align]`.

The shipped-file stand-ins (autouse fixture `shipped` of test_relevance_rebuild_cli) keep every write away from the
real model files; the CLI tests here also always pass --out-dir or expect nothing to be written.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from relevance_helpers import tiny_split
from test_relevance_rebuild_cli import _tiny, _unchanged, shipped, shipped_bytes  # noqa: F401,F811 - fixtures

import archehr.training.align as arb
from archehr.align.learned import SHIPPED, load_model
from archehr.cli.main import main
from archehr.data.model import ClinicianAnswerSentence, Split
from archehr.data.releases import demo_dir
from archehr.errors import DataError
from archehr.relevance.base import SentenceScores


def with_answers(split: Split) -> Split:
    """tiny_split with two clinician answer sentences per case: a paraphrase of sentence 2 citing it, and one
    citing sentence 4 (the topic's plan)."""
    keys = []
    for c, k in zip(split.cases, split.key or (), strict=True):
        topic = c.sentences[3].text.split()[1]
        ans = (ClinicianAnswerSentence("1", c.sentences[1].text.lower(), ("2",)),
               ClinicianAnswerSentence("2", f"We discussed the {topic} plan with the family.", ("4",)))
        keys.append(dataclasses.replace(k, clinician_answer_sentences=ans))
    return dataclasses.replace(split, key=tuple(keys))


def tiny_align_parts() -> list[tuple[str, Split]]:
    return [("dev", with_answers(tiny_split(4, name="dev"))), ("test-2026", with_answers(tiny_split(3, name="t"))),
            ("syn-dev", with_answers(tiny_split(3, name="dev")))]


def test_only_align_writes_the_align_model_with_its_training_record(tmp_path, capsys, monkeypatch,
                                                                    shipped_bytes):  # noqa: F811
    _tiny(monkeypatch)
    out = tmp_path / "models"
    assert main(["train", "rebuild-shipped", "--only", "align", "--out-dir", str(out)]) == 0
    assert [p.name for p in out.iterdir()] == ["model_pairwise.json"]
    model = load_model(out / "model_pairwise.json")  # passes the loader's checks
    t = model.training
    assert t["cases"] == 4 + 3 + 3 and t["links"] == 2 * 10  # two cited sentences per case
    assert [p.split("=")[0] for p in t["pool"]] == ["dev", "test-2026", "syn-dev"]
    assert t["recipe"] == "archehr train --rebuild-shipped" and t["created"].endswith("Z")
    assert model.feature_set == "lexical+selector" and 1 <= model.max_links <= 6
    lines = capsys.readouterr().out.splitlines()
    # no "training data:" line first: the selector models are not rebuilt
    assert lines[0] == ("align pool (cases with answer-sentence citations / all): dev 4/4, test-2026 3/3, "
                        "syn-dev 3/3; 10 cases")
    assert lines[1].startswith("align: pool 10 cases, 20 links;") and lines[1].endswith(f"{out}/model_pairwise.json")
    assert _unchanged(shipped_bytes)


def test_only_align_missing_synthetic_is_exit_2_one_line_and_writes_nothing(tmp_path, capsys,
                                                                            shipped_bytes):  # noqa: F811
    # no --out-dir: the real demo splits load, the synthetic one is missing, so the shipped (stand-in) files must stay
    absent = tmp_path / "absent"
    assert main(["train", "rebuild-shipped", "--only", "align", "--synthetic", str(absent)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and str(absent) in err[0]
    assert _unchanged(shipped_bytes)


def test_part_without_links_is_a_data_error_naming_it_and_nothing_is_written(tmp_path, monkeypatch):
    parts = tiny_align_parts()
    parts[2] = ("syn-dev", tiny_split(3, name="dev"))  # labelled for relevance, but no answer-sentence citations
    monkeypatch.setattr(arb, "load_parts", lambda *_args: parts)
    with pytest.raises(DataError, match="clinician_answer_sentences") as e:
        arb.rebuild_align("unused", "unused", tmp_path / "m.json")
    assert e.value.problems[0].file == "/tmp/tiny-release/dev"
    assert not list(tmp_path.iterdir())


def test_with_selector_fills_probability_and_rank_by_hand():
    x = np.zeros((1, 3, 3))
    s = SentenceScores("c", ("1", "2", "3"), (0.2, 0.9, 0.5), (0.0, 0.0, 0.0))
    got = arb.with_selector(x, ("bm25_rel", "selector_prob", "selector_rank"), s)
    assert got[0, :, 1].tolist() == pytest.approx(list(s.relevant()))
    order = np.argsort(-np.array(s.relevant()), kind="stable")  # rank 0 = most probable
    assert got[0, order, 2].tolist() == [1.0, 0.5, pytest.approx(1 / 3)]
    assert not x.any()  # the input is not modified


def test_tune_picks_the_best_threshold_and_max_links_by_hand():
    # one answer sentence citing sentences 1 and 2; probabilities .9, .6, .4. max_links 1 cannot reach F1 1;
    # max_links 2 links exactly the top two at every threshold <= .6, so the first best (k, then t) is k 2 at the
    # lowest threshold of the grid
    d = arb.PairCase("c", ("a",), ("1", "2", "3"), frozenset({("a", "1"), ("a", "2")}), np.zeros((1, 3, 1)),
                     np.zeros(3, dtype=bool))
    t, k = arb.tune([d], {"c": np.array([[0.9, 0.6, 0.4]])})
    assert (t, k) == (0.05, 2)
    # max_links 3 would link the third sentence too at t <= .4: with only k 3 allowed, the threshold must exceed .4
    t3, _ = arb.tune([d], {"c": np.array([[0.9, 0.6, 0.4]])}, ks=(3,))
    assert t3 == 0.425


def test_fit_tuned_inner_groups_leave_one_group_out(monkeypatch):
    # groups=: each inner fold holds exactly one group's cases, so no case is tuned on by a model that saw its group
    rng = np.random.default_rng(0)
    cases = []
    for i in range(6):
        x = rng.normal(size=(1, 4, 2))
        cases.append(arb.PairCase(str(i), ("a",), ("1", "2", "3", "4"), frozenset({("a", "1")}), x,
                                  np.zeros(4, dtype=bool)))
    xs = {d.case_id: d.x for d in cases}
    groups = {d.case_id: "g" + str(int(d.case_id) // 2) for d in cases}
    held_out: list[set[str]] = []
    real_fit = arb.fit_lr

    def spy(train, *args, **kw):  # noqa: ANN001, ANN002, ANN003, ANN202
        held_out.append({d.case_id for d in cases} - {d.case_id for d in train})
        return real_fit(train, *args, **kw)

    monkeypatch.setattr(arb, "fit_lr", spy)
    arb.fit_tuned(cases, xs, "lexical", names=("a", "b"), groups=groups)
    assert held_out[1:] == [{"0", "1"}, {"2", "3"}, {"4", "5"}]  # first call: the model on every case


def test_rebuild_reproduces_the_shipped_model(synthetic_dir):
    """The real pool (demo dev + test-2026 + train + synthetic dev) gives the shipped file back, weights included."""
    model = arb.build_model(synthetic_dir, demo_dir())  # writes nothing
    shipped_json = json.loads(SHIPPED.read_text())
    got = model.to_json()
    for k in ("weights", "bias", "threshold", "max_links", "l2"):
        assert np.allclose(got[k], shipped_json[k], atol=1e-9), k
    assert np.allclose(got["scaler"]["mean"], shipped_json["scaler"]["mean"], atol=1e-9)
    for k in ("pool", "sha256", "cases", "links"):
        assert got["training"][k] == shipped_json["training"][k], k


def test_pool_paths_outside_the_checkout_do_not_depend_on_where_the_release_sits(tmp_path):
    # CI has ../shared as a real folder beside the checkout, a workstation may have it anywhere: the model file
    # records the same string either way (the rebuild test compares it with the shipped one)
    from archehr.training import labelled
    for base in (tmp_path / "shared", tmp_path / "elsewhere" / "deep", labelled._ROOT.parent / "shared"):
        assert labelled.portable_source(base / "data" / "synthetic" / "dev") == "data/synthetic/dev"
    assert labelled.portable_source(labelled._ROOT / "data" / "demo" / "dev") == "data/demo/dev"
    assert labelled.portable_source("merged") == "merged"
