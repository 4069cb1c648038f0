"""Scoring ensembles with the official scorer, and fitting weights and threshold on the members' dev runs.

Fitting never sees the test key: the members' dev runs (the same systems run on a dev split) are combined
under each candidate setting and scored against the dev key; the best candidate is kept and applied to
the test runs. Candidates: equal weights, weights proportional to each member's own dev score, their
log-odds, and (vote tasks) the log-likelihood-ratio weights of each member's false negative and false
positive rates on dev (`items.py`), times a threshold grid (vote tasks); ties go to equal weights, then to
the threshold nearest the default.

**The fit must earn its place.** A vote fitted on a small dev set can lose to the best member (when the
members share most of their mistakes there is little to gain) and to the default vote (choosing among many
candidates on few cases overfits). So the whole fit is run again inside k-fold cross-validation over the
dev cases (each fold fitted on the other folds and scored on its own, pooled), and so is the choice of
the best member; the default vote (equal weights, threshold 0.5) fits nothing, so its dev score is
already honest. When the cross-validated best member beats both votes (a tie keeps the vote: it uses
every member's evidence), the ensemble is the member best on all of dev (weight 1, the others 0); else
when the cross-validated fitted vote does not beat the default, the default is kept; else the fitted vote.
run.json records the three scores, the bootstrap SD over the dev cases of each vote's difference to the best
member (`paired_sd`), and the choice. `margin` > 0 keeps a vote only when it beats the best member by more
than `margin` of those SDs; the shipped fit uses 0 (benchmarks/ensemble.py `--margin`: a larger margin did
not stop the rare seed where a vote is below the best member on test, and it gave up gain elsewhere).
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


FOLDS = 5
Weighting = tuple[str, tuple[float, ...] | None, dict[str, Any]]


class _DevScores:
    """Dev scores of candidate settings, each candidate's ensemble built and scored once on all dev cases."""

    def __init__(self, dev: Sequence[Member], key: Any):
        from archehr.ensemble.items import load_key

        self.dev, self.task, self.key = dev, dev[0].task, load_key(key)
        self._reports: dict[tuple[tuple[float, ...] | None, float], Any] = {}
        self._singles = [score_report(self.task, m.predictions, self.key) for m in dev]

    def single(self, k: int, cases: Sequence[str] | None = None) -> float:
        return value(self._singles[k], self.task, cases)

    def score(self, s: Settings, cases: Sequence[str] | None = None) -> float:
        at = (s.weights, s.threshold)
        if at not in self._reports:
            self._reports[at] = score_report(self.task, ensemble_predictions(self.dev, s)[0], self.key)
        return value(self._reports[at], self.task, cases)


def _weightings(sc: _DevScores, cases: Sequence[str] | None, votes: bool) -> list[Weighting]:
    """The candidate weights, from the dev runs over `cases` only (module docstring)."""
    from archehr.ensemble.items import class_rates, patterns

    singles = [sc.single(k, cases) for k in range(len(sc.dev))]
    top = max(singles) or 1.0
    out: list[Weighting] = [("equal", None, {})]
    if len(set(singles)) > 1:
        out.append(("dev score", tuple(round(s / top, 6) for s in singles), {}))
        out.append(("log-odds of dev score", log_odds(singles), {}))
    if votes and len(sc.dev) > 1:
        rates = class_rates(patterns(sc.dev, sc.key, cases))
        out.append(("class rates", rates.weights(), {"rates": rates.record()}))
    return out


def _choose(sc: _DevScores, cases: Sequence[str] | None) -> tuple[float, dict[str, Any], Settings, list[dict]]:
    """The best candidate on `cases`: (score, its record, settings, every candidate's record)."""
    from archehr_scoring.tasks import get_task

    votes = get_task(sc.task).prediction in ("answer", "ids", "links")
    grid = sorted(THRESHOLDS, key=lambda t: (abs(t - DEFAULT_THRESHOLD), t)) if votes else [DEFAULT_THRESHOLD]
    tried: list[dict[str, Any]] = []
    best: tuple[float, int, Settings] | None = None
    for wname, weights, extra in _weightings(sc, cases, votes):
        for t in grid:
            s = Settings(t, weights)
            score = sc.score(s, cases)
            tried.append({"weights": wname, "threshold": t, "dev_score": round(score, 4), **extra})
            if best is None or score > best[0] + 1e-9:
                best = (score, len(tried) - 1, s)
    if best is None:  # the grid is never empty
        raise ValueError("no candidate setting")
    return best[0], tried[best[1]], best[2], tried


def cross_validated(sc: _DevScores, folds: int = FOLDS, seed: int = 0) -> dict[str, Any]:
    """Pooled held-out dev scores of the fitted vote and of the best member, each chosen on the other folds."""
    import random

    cases = list(sc.dev[0].case_ids)
    order = cases[:]
    random.Random(seed).shuffle(order)
    k = max(2, min(folds, len(cases)))
    vote_preds: dict[str, Any] = {}
    single_preds: dict[str, Any] = {}
    for held in (order[i::k] for i in range(k)):
        train = [c for c in cases if c not in set(held)]
        s = _choose(sc, train)[2]
        best = max(range(len(sc.dev)), key=lambda r: (sc.single(r, train), -r))
        vote = ensemble_predictions(sc.dev, s, held)[0]
        vote_preds.update(vote)
        single_preds.update({c: sc.dev[best].predictions[c] for c in held})
    pooled = [value(score_report(sc.task, {c: p[c] for c in cases}, sc.key), sc.task)
              for p in (vote_preds, single_preds)]
    default = ensemble_predictions(sc.dev, Settings(), cases)[0]
    return {"folds": k, "vote": round(pooled[0], 4), "best_member": round(pooled[1], 4),
            "sd_vote_minus_best": paired_sd(sc.task, sc.key, vote_preds, single_preds, cases),
            "sd_default_minus_best": paired_sd(sc.task, sc.key, default, single_preds, cases)}


def paired_sd(task: str, key: Any, a: Mapping[str, Any], b: Mapping[str, Any], cases: Sequence[str],
              resamples: int = 400, seed: int = 0) -> float | None:
    """The bootstrap standard deviation over the cases of micro F1(a) - micro F1(b) (points; a vote task's
    citation F1 = 2 TP / (TP + FP + gold), summed over the resampled cases), None for a text task: how much
    the dev difference between two predictions moves with which cases the dev split happens to hold."""
    import random

    from archehr.ensemble.items import gold_items, load_key, member_items
    from archehr_scoring.tasks import get_task

    kind = get_task(task).prediction
    if kind not in ("answer", "ids", "links"):
        return None
    split = load_key(key)
    rows = []
    for c in cases:
        gold = gold_items(kind, split.key_for(c))
        na, nb = member_items(kind, a[c]), member_items(kind, b[c])
        rows.append((len(na & gold), len(na - gold), len(nb & gold), len(nb - gold), len(gold)))

    def diff(sample: Sequence[tuple[int, ...]]) -> float:
        ta, fa, tb, fb, g = (sum(col) for col in zip(*sample, strict=True))
        return 200 * (ta / max(1, ta + fa + g) - tb / max(1, tb + fb + g))

    rng = random.Random(seed)
    ds = [diff([rows[rng.randrange(len(rows))] for _ in rows]) for _ in range(resamples)]
    mean = sum(ds) / len(ds)
    return round(math.sqrt(sum((d - mean) ** 2 for d in ds) / (len(ds) - 1)), 4)


def fit_settings(dev: Sequence[Member], dev_key: Any, folds: int = FOLDS, margin: float = 0.0) -> Settings:
    """Weights and threshold chosen on the dev runs, unless the default vote or the best dev member does as well
    (module docstring); the record says what was tried and why."""
    sc = _DevScores(dev, dev_key)
    score, chosen, settings, tried = _choose(sc, None)
    singles = [sc.single(k) for k in range(len(dev))]
    cv = cross_validated(sc, folds) if len(dev) > 1 else {"folds": 0, "vote": None, "best_member": None}
    cv["default_vote"] = round(sc.score(Settings()), 4)  # nothing fitted: its dev score is not optimistic
    details = {"on": "dev", "metric": headline(sc.task)[0], "dev_runs": [m.path for m in dev],
               "member_dev_scores": [round(s, 4) for s in singles], "best_candidate": chosen, "chosen": chosen,
               "tried": tried, "cross_validated": cv}
    if cv["vote"] is None:
        return Settings(settings.threshold, settings.weights, "fitted on dev", details)
    gain = {"vote": cv["vote"] - cv["best_member"], "default": cv["default_vote"] - cv["best_member"]}
    need = {w: margin * (cv.get(f"sd_{w}_minus_best") or 0.0) for w in gain}
    if all(gain[w] < need[w] - 1e-9 for w in gain):  # a tie keeps the vote
        best = max(range(len(dev)), key=lambda r: (singles[r], -r))
        details["chosen"] = {"weights": "best member", "member": best, "threshold": DEFAULT_THRESHOLD,
                             "dev_score": round(singles[best], 4),
                             "why": "the cross-validated best member beat both the cross-validated fitted "
                                    "vote and the default vote"}
        return Settings(DEFAULT_THRESHOLD, tuple(float(k == best) for k in range(len(dev))),
                        "fitted on dev: best member", details)
    if cv["vote"] <= cv["default_vote"]:
        details["chosen"] = {"weights": "equal", "threshold": DEFAULT_THRESHOLD, "dev_score": cv["default_vote"],
                             "why": "the cross-validated fitted vote did not beat the default vote"}
        return Settings(DEFAULT_THRESHOLD, None, "fitted on dev: default kept", details)
    return Settings(settings.threshold, settings.weights, "fitted on dev", details)
