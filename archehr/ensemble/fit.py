"""Scoring ensembles with the official scorer, and fitting weights and threshold on the members' dev runs.

Fitting never sees the test key: the members' dev runs (the same systems run on a dev split) are combined
under each candidate setting and scored against the dev key; the best candidate is kept and applied to
the test runs. Candidates: equal weights, weights proportional to each member's own dev score, or their
log-odds, times a threshold grid (vote tasks); ties go to equal weights, then to the threshold nearest the default.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from archehr.ensemble.combine import DEFAULT_THRESHOLD, Settings, ensemble_predictions
from archehr.ensemble.members import Member, prediction_field
from archehr.errors import InputError, Problem

THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75)


def headline(task: str) -> tuple[str, list[str] | None]:
    """(the score fitted and selected on, the metrics run for it): a task citing note ids, its citation F1
    (2025: strict micro F1, its factuality; no text metric); a text task, its overall score over the metrics
    that need no model (their partial mean)."""
    from archehr_scoring.metrics.registry import MODEL_METRICS
    from archehr_scoring.tasks import get_task

    spec = get_task(task)
    if spec.cites_note_ids:
        return spec.case_keys[0], list(spec.own_metrics) or None
    return "overall_score", [m for m in spec.metrics if m not in MODEL_METRICS]


def submission_obj(task: str, preds: Mapping[str, Any]) -> list[dict[str, Any]]:
    field = prediction_field(task)
    return [{"case_id": c, field: p} for c, p in preds.items()]


def score_report(task: str, preds: Mapping[str, Any], key: Any, bootstrap: int = 0, seed: int = 12345) -> Any:
    """The official ScoreReport of these predictions (headline metrics only)."""
    from archehr_scoring.api import score

    return score(task, submission_obj(task, preds), key, metrics=headline(task)[1], bootstrap=bootstrap, seed=seed)


def value(report: Any, task: str, case_ids: Sequence[str] | None = None) -> float:
    """The headline score of a report, over `case_ids` when given (the partial mean when the official one is
    not available here)."""
    name = headline(task)[0]
    got = report.aggregate(list(case_ids), partial=True) if case_ids is not None else report.scores
    v = got.get(name)
    if v is None and case_ids is None and name in report.partial:
        v = report.partial[name].value
    return float(v) if v is not None else 0.0


def member_scores(members: Sequence[Member], key: Any) -> list[float]:
    return [value(score_report(m.task, m.predictions, key), m.task) for m in members]


def pair_runs(members: Sequence[Member], others: Sequence[Member], what: str) -> list[Member]:
    """`others` reordered to match `members`: by system name and config hash; several runs of one pair in the
    order given. InputError naming the member without a counterpart."""
    pool: dict[tuple[str, str | None], list[Member]] = {}
    for o in others:
        pool.setdefault((o.system, o.config_sha256), []).append(o)
    out: list[Member] = []
    problems = []
    for m in members:
        got = pool.get((m.system, m.config_sha256)) or []
        if not got:
            problems.append(Problem(f"no {what} run of system {m.system!r} with config {str(m.config_sha256)[:12]}",
                                    str(Path(m.path) / "run.json"), field="system.config_sha256", code="no-pair"))
            continue
        out.append(got.pop(0))
    if problems:
        raise InputError(problems)
    return out


def log_odds(scores: Sequence[float]) -> tuple[float, ...]:
    """log(s / (1 - s)) of each score (0-100, clipped to 5-95), 0 for one at or below 50: the weights of an
    optimal vote of independent voters with these accuracies, normalised to a maximum of 1."""
    raw = [max(0.0, math.log(min(max(s, 5.0), 95.0) / (100.0 - min(max(s, 5.0), 95.0)))) for s in scores]
    top = max(raw) or 1.0
    return tuple(round(r / top, 6) for r in raw)


def fit_settings(dev: Sequence[Member], dev_key: Any) -> Settings:
    """Weights and threshold chosen on the dev runs (module docstring); the record says what was tried."""
    from archehr_scoring.tasks import get_task

    task = dev[0].task
    singles = member_scores(dev, dev_key)
    top = max(singles) or 1.0
    weightings: list[tuple[str, tuple[float, ...] | None]] = [("equal", None)]
    if len(set(singles)) > 1:
        weightings.append(("dev score", tuple(round(s / top, 6) for s in singles)))
        weightings.append(("log-odds of dev score", log_odds(singles)))
    votes = get_task(task).prediction in ("answer", "ids", "links")
    grid = sorted(THRESHOLDS, key=lambda t: (abs(t - DEFAULT_THRESHOLD), t)) if votes else [DEFAULT_THRESHOLD]
    tried = []
    best: tuple[float, int, Settings] | None = None
    for wname, weights in weightings:
        for t in grid:
            s = Settings(t, weights)
            score = value(score_report(task, ensemble_predictions(dev, s)[0], dev_key), task)
            tried.append({"weights": wname, "threshold": t, "dev_score": round(score, 4)})
            if best is None or score > best[0] + 1e-9:
                best = (score, len(tried) - 1, s)
    assert best is not None  # the grid is never empty
    chosen = tried[best[1]]
    details = {"on": "dev", "metric": headline(task)[0], "dev_runs": [m.path for m in dev],
               "member_dev_scores": [round(s, 4) for s in singles], "chosen": chosen, "tried": tried}
    return Settings(best[2].threshold, best[2].weights, "fitted on dev", details)
