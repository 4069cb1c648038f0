"""Significance and parity: paired tests on hand-made rows, leaderboard numbers equal the official golden ones."""

from __future__ import annotations

import json
import shutil

import pytest
from leaderboard_toy import TASK, ToyScorer, toy_report

from archehr.cli.main import main
from archehr.leaderboard import scorer as scorer_mod
from archehr.leaderboard.board import build_leaderboard
from archehr.leaderboard.cache import ScoreCache
from archehr.leaderboard.compare import compare_reports
from archehr_scoring.bootstrap import approx_randomization, paired_bootstrap, paired_bootstrap_p
from archehr_scoring.results import ScoreReport


def _report(counts: list[tuple[int, int, int]]) -> ScoreReport:
    rows = {str(i): {"tp": float(tp), "fp": float(fp), "fn": float(fn)} for i, (tp, fp, fn) in enumerate(counts)}
    return toy_report(rows)


def test_identical_systems_are_never_significant():
    a = _report([(1, 1, 0), (2, 0, 1), (0, 1, 1)] * 10)
    assert approx_randomization(a, a, n=200)["overall_score"].p == 1.0
    r = paired_bootstrap(a, a, n=200)["overall_score"]
    assert r.p == 1.0 and r.delta == 0 and r.ci_low == r.ci_high == 0


def test_a_clearly_better_system_is_significant_with_both_tests():
    good = _report([(2, 0, 0)] * 30)  # F1 100 on every case
    bad = _report([(1, 1, 1)] * 15 + [(2, 0, 0)] * 15)  # F1 50 on half the cases
    for res in (paired_bootstrap(good, bad, n=500), approx_randomization(good, bad, n=500)):
        assert res["overall_score"].p < 0.01
        assert res["overall_score"].delta == pytest.approx(100 - 100 * 45 / 60)
    ci = paired_bootstrap(good, bad, n=500)["overall_score"]
    assert 0 < ci.ci_low <= ci.delta <= ci.ci_high
    # the all-keys version gives exactly the single-key function's p-value (same resamples)
    assert paired_bootstrap(good, bad, n=300, seed=7)["overall_score"].p == paired_bootstrap_p(
        good, bad, "overall_score", n=300, seed=7)


def test_compare_reports_direction_and_differing_cases():
    a = _report([(1, 1, 1), (2, 0, 0), (0, 2, 2)])
    b = _report([(2, 0, 0), (2, 0, 0), (0, 2, 2)])
    c = compare_reports(a, b, n_resamples=100)
    assert c.results["overall_score"].delta > 0  # B - A: B is better
    assert [d.case_id for d in c.cases if d.delta] == ["0"]
    assert c.cases[0].a == pytest.approx(50.0) and c.cases[0].b == pytest.approx(100.0)


def test_compare_cli_prints_table_and_json(golden_dir, synthetic_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(scorer_mod, "make_scorer", lambda task, metrics=None, params=None: ToyScorer())
    key = synthetic_dir / "test" / "archehr-qa_key.json"
    a, b = (golden_dir / "2025" / n / "submission.json" for n in ("test-lexical", "test-clinician"))
    out = tmp_path / "cmp.json"
    assert main(["compare", str(a), str(b), "--key", str(key), "--task", TASK, "--resamples", "100",
                 "--json", str(out), "--test", "randomization"]) == 0
    text = capsys.readouterr().out
    assert "overall_score" in text and "Cases where they differ most" in text
    data = json.loads(out.read_text())
    assert data["scores"]["overall_score"]["delta"] > 0 and data["significance"]["test"] == "randomization"
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["compare", str(a), str(bad), "--key", str(key), "--task", TASK]) == 2


def test_leaderboard_numbers_equal_the_official_golden_ones(golden_dir, synthetic_dir, tmp_path):
    """st2 is set-based (no model): every official key must match the organisers' scorer output."""
    key = synthetic_dir / "test" / "archehr-qa_key.json"
    subs = tmp_path / "subs"
    names = ["st2-lexical", "st2-ess-plus-supp", "st2-some-empty"]
    for n in names:
        (subs / n).mkdir(parents=True)
        shutil.copy(golden_dir / "2026" / n / "submission.json", subs / n / "submission.json")
    lb = build_leaderboard([subs], key, scorer_mod.OfficialScorer("st2"), cache=ScoreCache(None), n_resamples=20)
    for e in lb.entries:
        expected = json.loads((golden_dir / "2026" / e.name / "expected.json").read_text())
        assert e.status == "ok"
        for k, v in expected.items():
            assert e.value(k) == pytest.approx(v, abs=1e-9), (e.name, k)
    overall = [json.loads((golden_dir / "2026" / n / "expected.json").read_text())["overall_score"] for n in names]
    assert [e.value("overall_score") for e in lb.ranked] == pytest.approx(sorted(overall, reverse=True))


def test_2025_factuality_columns_equal_the_golden_ones(golden_dir, synthetic_dir, tmp_path):
    key = synthetic_dir / "test" / "archehr-qa_key.json"
    subs = tmp_path / "subs"
    for n in ("test-citeall", "test-clinician", "test-lexical", "test-oracle"):
        (subs / n).mkdir(parents=True)
        shutil.copy(golden_dir / "2025" / n / "submission.json", subs / n / "submission.json")
    lb = build_leaderboard([subs], key, scorer_mod.OfficialScorer("2025", ["factuality"]), cache=ScoreCache(None),
                           n_resamples=20)
    assert lb.rank_key == "overall_factuality_score"  # the overall needs text metrics that were not run
    for e in lb.entries:
        expected = json.loads((golden_dir / "2025" / e.name / "expected.json").read_text())
        for k in ("strict_micro_f1", "lenient_macro_f1", "overall_factuality_score"):
            assert e.value(k) == pytest.approx(expected[k], abs=1e-9)
