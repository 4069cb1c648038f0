"""The array bootstrap gives exactly what re-aggregating one resample at a time gives (same seed, same draws),
and one-sample reductions add in the official scripts' order (so official scores stay bit-identical)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from archehr_scoring.bootstrap import approx_randomization, bootstrap_ci, paired_bootstrap
from archehr_scoring.results import ScoreReport, partial_scores
from archehr_scoring.stats import Batch
from archehr_scoring.tasks import get_task


def _report(task: str, seed: int, n_cases: int = 37, text_keys: tuple[str, ...] = ()) -> ScoreReport:
    rng = random.Random(seed)
    rows = {}
    for i in range(n_cases):
        row: dict[str, float] = {}
        for mode in ("strict", "lenient"):
            row.update({f"{mode}_{s}": rng.randint(0, 3) for s in ("tp", "fp", "fn")})
        row.update({k: rng.random() * 100 for k in text_keys})
        rows[str(rng.randint(1, 999)) + f"-{i}"] = row
    sigs = {"factuality": "f", **{k: k for k in text_keys}}
    unavailable = {m: "absent" for m in ("bertscore", "alignscore", "medcon")}
    scores = ScoreReport(task, {}, rows, sigs, unavailable).aggregate(list(rows))
    return ScoreReport(task, scores, rows, sigs, unavailable, partial_scores(get_task(task), scores))


TEXT = ("rouge1", "rouge2", "rougeL", "rougeLsum", "bleu", "sari")


def _one_at_a_time(report: ScoreReport, n: int, seed: int) -> dict[str, list[float]]:
    ids = sorted(report.per_case)
    rng = np.random.default_rng(seed)
    out: dict[str, list[float]] = {}
    for _ in range(n):
        sample = [ids[i] for i in rng.integers(0, len(ids), size=len(ids))]
        for k, v in report.aggregate(sample, partial=True).items():
            if v is not None:
                out.setdefault(k, []).append(v)
    return out


def test_bootstrap_ci_equals_one_resample_at_a_time():
    r = _report("2025", 1, text_keys=TEXT)
    assert r.scores["overall_score"] is None and "overall_score" in r.partial  # partial keys are covered too
    ci = bootstrap_ci(r, n=120, seed=9, partial=True)
    slow = _one_at_a_time(r, 120, 9)
    assert set(ci) == set(slow)
    for k, values in slow.items():
        assert ci[k] == (float(np.quantile(values, 0.025)), float(np.quantile(values, 0.975)))


def test_paired_tests_equal_their_per_sample_definitions():
    a, b = _report("2025", 2, text_keys=TEXT), _report("2025", 3, text_keys=TEXT)
    b = ScoreReport(b.task, b.scores, dict(zip(a.per_case, b.per_case.values(), strict=True)), b.signatures,
                    b.unavailable, b.partial)
    ids = sorted(a.per_case)
    key = "strict_micro_f1"
    observed = a.aggregate(ids)[key] - b.aggregate(ids)[key]
    rng = np.random.default_rng(4)
    deltas = []
    for _ in range(150):
        sample = [ids[i] for i in rng.integers(0, len(ids), size=len(ids))]
        deltas.append(a.aggregate(sample)[key] - b.aggregate(sample)[key])
    count = sum(d > 2 * observed for d in deltas) if observed >= 0 else sum(d < 2 * observed for d in deltas)
    res = paired_bootstrap(a, b, n=150, seed=4)[key]
    assert res.p == min(1.0, 2 * (count + 1) / 151) and res.ci_low == float(np.quantile(deltas, 0.025))

    rng = np.random.default_rng(5)
    hits = 0
    for _ in range(80):
        swap = rng.random(len(ids)) < 0.5
        xa = {c: (b if s else a).per_case[c] for c, s in zip(ids, swap, strict=True)}
        xb = {c: (a if s else b).per_case[c] for c, s in zip(ids, swap, strict=True)}
        da = ScoreReport(a.task, {}, xa, a.signatures, a.unavailable).aggregate(ids)[key]
        db = ScoreReport(b.task, {}, xb, b.signatures, b.unavailable).aggregate(ids)[key]
        hits += abs(da - db) >= abs(observed) - 1e-9
    assert approx_randomization(a, b, n=80, seed=5)[key].p == (hits + 1) / 81


@pytest.mark.parametrize("k", [1, 2, 7, 8, 9, 31, 130])
def test_reductions_add_in_the_official_order(k):
    rng = random.Random(k)
    values = [[rng.random() * 100 for _ in range(k)] for _ in range(4)]
    b = Batch({"x": np.array(values).T.copy()})
    assert list(b.mean("x")) == [sum(v) / len(v) for v in values]  # 2025 script: sum(...) / len(...)
    assert list(b.np_mean("x")) == [float(np.mean(v)) for v in values]  # 2026 scripts: numpy.mean
    one = Batch({"x": np.array(values[:1]).T.copy()})  # a single sample (the official scores)
    assert one.mean("x")[0] == sum(values[0]) / k and one.np_mean("x")[0] == float(np.mean(values[0]))
