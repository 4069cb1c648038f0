"""Helpers written once: P/R/F1, the word cuts, the header test (scorer and system code share them)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from archehr.relevance.calibration import Counts
from archehr_scoring.aggregate2026 import alignment_case_prf, evidence_case_prf
from archehr_scoring.prf import f1, prf, prf_counts

REPO = Path(__file__).resolve().parents[1]


def _official(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    # compute_factuality_scores_for_variation of the 2025 scoring script, written out
    p = tp / (tp + fp) if (tp + fp) > 0 else 0
    r = tp / (tp + fn) if (tp + fn) > 0 else 0
    return p, r, (2 * p * r / (p + r) if (p + r) > 0 else 0)


@pytest.mark.parametrize("tp,fp,fn", [(0, 0, 0), (0, 3, 0), (0, 0, 2), (1, 0, 0), (2, 1, 3), (7, 5, 11), (3, 3, 3)])
def test_prf_is_the_official_arithmetic(tp: int, fp: int, fn: int) -> None:
    assert prf_counts(tp, fp, fn) == _official(tp, fp, fn)  # exact, not approximate
    assert prf(tp, tp + fp, tp + fn) == _official(tp, fp, fn)
    c = Counts(tp, fp, fn)
    assert (c.precision, c.recall, c.f1) == _official(tp, fp, fn)
    assert alignment_case_prf(tp, tp + fp, tp + fn) == _official(tp, fp, fn)


def test_zero_denominators_give_zero_and_st2_keeps_its_own_empty_rule() -> None:
    assert prf(0, 0, 0) == (0.0, 0.0, 0.0) and f1(0.0, 0.0) == 0.0
    assert evidence_case_prf(frozenset(), frozenset()) == (1.0, 1.0, 1.0)  # official st2: nothing to find
    assert evidence_case_prf(frozenset({"1"}), frozenset()) == (0.0, 0.0, 0.0)
    assert evidence_case_prf(frozenset({"1", "2"}), frozenset({"2", "3", "4"})) == prf(1, 2, 3)


def _definitions() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in list((REPO / "archehr").rglob("*.py")) + list((REPO / "scoring").rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.col_offset == 0:
                out.setdefault(node.name, []).append(f.relative_to(REPO).as_posix())
    return out


@pytest.mark.parametrize("name,home", [("cut_words", "scoring/answer_format.py"),
                                       ("is_header", "archehr/relevance/text.py"),
                                       ("prf", "scoring/prf.py"), ("f1", "scoring/prf.py"),
                                       ("parse_answer", "scoring/answer_format.py")])
def test_each_helper_is_defined_once(name: str, home: str) -> None:
    assert _definitions().get(name) == [home]


def test_medcon_uses_the_helper_with_its_empty_rule() -> None:
    from archehr_scoring.metrics.medcon import medcon_prf

    ref = {"fever": ["C1"], "cough": ["C2"], "rash": ["C3"]}
    assert medcon_prf(ref, {"fever": ["C1"], "pain": ["C9"]}, ["C1", "C9"]) == prf(1, 2, 3)
    assert medcon_prf(ref, {}, []) == (0.0, 0.0, 0.0) and medcon_prf({}, {"x": ["C1"]}, ["C1"]) == (0.0, 0.0, 0.0)
