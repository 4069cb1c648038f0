"""Our strict/lenient micro F1 (used for calibration) against the official scorer's golden numbers."""

from __future__ import annotations

import json

import pytest

from archehr.data.releases import load_split
from archehr.relevance.base import Selection
from archehr.relevance.calibration import micro_f1
from archehr.relevance.registry import build_classifier
from archehr.relevance.selector import Selector


def test_cite_all_matches_official_2025_golden(synthetic_dir, golden_dir):
    test = load_split(synthetic_dir, "test", require_key=True)
    expected = json.loads((golden_dir / "2025" / "test-citeall" / "expected.json").read_text())
    sels = [Selector(threshold=0.5).select(s) for s in build_classifier("cite-all").score_many(test.cases)]
    assert 100 * micro_f1(sels, test).f1 == pytest.approx(expected["strict_micro_f1"], abs=1e-9)
    assert 100 * micro_f1(sels, test, lenient=True).f1 == pytest.approx(expected["lenient_micro_f1"], abs=1e-9)


def test_st2_submission_matches_official_2026_golden_strict(synthetic_dir, golden_dir):
    test = load_split(synthetic_dir, "test", require_key=True)
    fixture = golden_dir / "2026" / "st2-lexical"
    sub = json.loads((fixture / "submission.json").read_text())
    expected = json.loads((fixture / "expected.json").read_text())
    sels = [Selection(r["case_id"], tuple(dict.fromkeys(r["prediction"])), 1.0) for r in sub]
    c = micro_f1(sels, test)
    assert 100 * c.f1 == pytest.approx(expected["strict_micro_f1"], abs=1e-9)
    assert 100 * c.precision == pytest.approx(expected["strict_micro_precision"], abs=1e-9)
    assert 100 * c.recall == pytest.approx(expected["strict_micro_recall"], abs=1e-9)
