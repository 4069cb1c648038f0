"""Compare two runs on the same key: per-metric differences with CIs and p-values, and the cases that differ most."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from archehr.leaderboard.html_report import case_key_names
from archehr.leaderboard.portable import portable_text
from archehr_scoring.bootstrap import PAIRED_TESTS, PairedResult, paired_bootstrap
from archehr_scoring.results import ScoreReport
from archehr_scoring.tasks import OVERALL_KEY, TASKS, get_task


@dataclass(frozen=True)
class CaseDiff:
    case_id: str
    a: float | None
    b: float | None

    @property
    def delta(self) -> float | None:
        return None if self.a is None or self.b is None else self.b - self.a


@dataclass(frozen=True)
class Comparison:
    a_name: str
    b_name: str
    task: str
    test: str
    n_resamples: int
    seed: int
    results: dict[str, PairedResult]  # b - a per key
    keys: list[str]
    a_scores: dict[str, float | None]
    b_scores: dict[str, float | None]
    case_key: str
    cases: list[CaseDiff]  # largest |b - a| first
    only_in_one: list[str]
    signatures: dict[str, str] = field(default_factory=dict)  # metric -> signature (one scorer scores A and B)

    @property
    def lower_is_better(self) -> list[str]:
        """The keys where B - A < 0 means B is better (declared by the task's aggregation; none for built-ins)."""
        if self.task not in TASKS:
            return []
        task = get_task(self.task)
        return [k for k in self.keys if not task.higher_is_better(k)]


def compare_reports(a: ScoreReport, b: ScoreReport, a_name: str = "A", b_name: str = "B", *, test: str = "bootstrap",
                    n_resamples: int = 1000, seed: int = 12345, case_key: str | None = None) -> Comparison:
    shared = sorted(set(a.per_case) & set(b.per_case))
    results = paired_bootstrap(b, a, n=n_resamples, seed=seed, partial=True) if shared else {}
    if test != "bootstrap" and shared:  # CIs always come from the bootstrap; p from the test asked for
        ps = PAIRED_TESTS[test](b, a, n=n_resamples, seed=seed, partial=True)
        results = {k: dataclasses.replace(r, p=ps[k].p, method=ps[k].method) for k, r in results.items() if k in ps}
    sa, sb = a.aggregate(shared, partial=True), b.aggregate(shared, partial=True)
    keys = [k for k in a.scores if k in sa] + [k for k in b.scores if k not in a.scores and k in sb]
    if case_key is None:
        case_key = OVERALL_KEY if sa.get(OVERALL_KEY) is not None else case_key_names(a.task)[0]
    cases = [CaseDiff(c, a.aggregate([c], partial=True).get(case_key), b.aggregate([c], partial=True).get(case_key))
             for c in shared]
    cases.sort(key=lambda d: (-(abs(d.delta) if d.delta is not None else -1), d.case_id))
    only = sorted(set(a.per_case) ^ set(b.per_case))
    return Comparison(a_name, b_name, a.task, test, n_resamples, seed, results, keys, sa, sb, case_key, cases, only,
                      {**a.signatures, **b.signatures})


def _f(v: float | None, sign: bool = False) -> str:
    return "n/a" if v is None else (f"{v:+.2f}" if sign else f"{v:.2f}")


def comparison_text(c: Comparison, top: int = 10) -> str:
    test = "paired bootstrap" if c.test == "bootstrap" else "approximate randomisation"
    lines = [f"A = {c.a_name}", f"B = {c.b_name}",
             f"task {c.task}; B - A with 95% paired-bootstrap CI; p = two-sided {test} "
             f"({c.n_resamples} resamples, seed {c.seed})",
             ""]
    lower = set(c.lower_is_better)
    if lower:
        lines.insert(-1, f"lower is better on (marked v): {', '.join(k for k in c.keys if k in lower)}; higher on the "
                         "rest")
    w = max([len(k) + (2 if k in lower else 0) for k in c.keys] + [6])
    lines.append(f"{'score':<{w}}  {'A':>8}  {'B':>8}  {'B - A':>8}  {'95% CI':>18}  {'p':>7}")
    for k in c.keys:
        r = c.results.get(k)
        ci = f"[{_f(r.ci_low, True)}, {_f(r.ci_high, True)}]" if r and r.ci_low is not None else ""
        p = "" if r is None else ("<0.001" if r.p < 0.001 else f"{r.p:.3f}")
        name = f"{k} v" if k in lower else k
        lines.append(f"{name:<{w}}  {_f(c.a_scores.get(k)):>8}  {_f(c.b_scores.get(k)):>8}  "
                     f"{_f(r.delta if r else None, True):>8}  {ci:>18}  {p:>7}")
    diff = [d for d in c.cases if d.delta]
    lines += ["", f"Cases where they differ most on {c.case_key} ({len(diff)} of {len(c.cases)} differ):"]
    for d in diff[:top]:
        lines.append(f"  case {d.case_id:<8} A {_f(d.a):>7}  B {_f(d.b):>7}  B - A {_f(d.delta, True):>8}")
    if c.only_in_one:
        lines.append(f"Cases scored in only one run (left out): {', '.join(c.only_in_one)}")
    if c.signatures:
        lines += ["", "Metric signatures:"] + [f"  {portable_text(s)}" for _, s in sorted(c.signatures.items())]
    return "\n".join(lines) + "\n"


def to_json_dict(c: Comparison) -> dict[str, Any]:
    return {
        "a": c.a_name, "b": c.b_name, "task": c.task,
        "significance": {"test": c.test, "resamples": c.n_resamples, "seed": c.seed, "direction": "b - a"},
        "scores": {k: {"a": c.a_scores.get(k), "b": c.b_scores.get(k),
                       **({"delta": r.delta, "ci95": [r.ci_low, r.ci_high], "p": r.p}
                          if (r := c.results.get(k)) else {})} for k in c.keys},
        "case_key": c.case_key,
        "cases": [{"case_id": d.case_id, "a": d.a, "b": d.b, "delta": d.delta} for d in c.cases],
        "only_in_one": c.only_in_one,
        "signatures": {k: portable_text(s) for k, s in sorted(c.signatures.items())},
        **({"lower_is_better": c.lower_is_better} if c.lower_is_better else {}),
    }
