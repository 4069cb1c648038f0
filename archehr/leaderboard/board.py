"""Build a leaderboard: score every run (cached), rank by the official overall score, add CIs and p-values.

A run that fails validation (or whose scoring fails) stays in the table with its problems in the
status column; it never stops the others from being scored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from archehr.data.json_io import read_json
from archehr.errors import ArchehrError, ConfigError, DataError, InputError, Problem
from archehr.leaderboard.cache import (
    ScoreCache,
    cache_key,
    ci_from_cache,
    paired_from_cache,
    problems_from_cache,
    problems_to_cache,
    report_to_dict,
    score_entry_from_cache,
    sha256_file,
    sha256_files,
)
from archehr.leaderboard.run_folders import Run, find_runs
from archehr.leaderboard.scorer import Scorer, key_files
from archehr_scoring.bootstrap import PAIRED_TESTS, PairedResult, bootstrap_ci
from archehr_scoring.results import ScoreReport
from archehr_scoring.tasks import OVERALL_KEY, TASKS, detect_task, get_task

# When the official overall cannot be computed here (a model-based metric is unavailable), rank by
# the first of the task's `rank_fallbacks` that every scored run has, and say so in the table.
Progress = Callable[[str], None]


@dataclass
class Entry:
    """One row of the leaderboard."""

    run: Run
    status: str  # "ok" | "invalid" (failed validation) | "error" (scoring failed) | "other-task" (not scored)
    problems: list[Problem] = field(default_factory=list)
    report: ScoreReport | None = None
    ci: dict[str, tuple[float, float]] = field(default_factory=dict)
    vs_top: dict[str, PairedResult] = field(default_factory=dict)
    rank: int | None = None
    submission_sha256: str = ""
    cache_key: str = ""
    cached: bool = False
    _partial_scores: dict[str, float | None] | None = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.run.name

    def value(self, key: str) -> float | None:
        """The official score, else (marked by :meth:`is_partial`) the mean of the parts that could run."""
        if self.report is None:
            return None
        v = self.report.scores.get(key)
        if v is None and key in self.report.partial:
            if self._partial_scores is None:  # aggregate once: tables ask for every cell
                self._partial_scores = self.report.aggregate(sorted(self.report.per_case), partial=True)
            v = self._partial_scores.get(key)
        return v

    def is_partial(self, key: str) -> bool:
        return self.report is not None and self.report.scores.get(key) is None and key in self.report.partial


@dataclass
class Leaderboard:
    task: str
    key_file: Path
    key_sha256: str
    rank_key: str
    rank_note: str | None
    test: str
    n_resamples: int
    seed: int
    entries: list[Entry]
    keys: list[str]  # official score keys, official order
    signatures: dict[str, str]
    unavailable: dict[str, str]
    fingerprint: str
    higher_is_better: bool = True  # of rank_key, as its task's aggregation declares it

    @property
    def direction(self) -> str:
        """How the ranking reads: "higher is better" or "lower is better"."""
        return "higher is better" if self.higher_is_better else "lower is better"

    @property
    def ranked(self) -> list[Entry]:
        return [e for e in self.entries if e.rank is not None]

    @property
    def top(self) -> Entry | None:
        r = self.ranked
        return r[0] if r else None


OTHER_TASK = "other-task"
# Scored and listed, never ranked: the model of an LLM run answered fewer cases than the run's own
# --min-model-share, so its scores are mostly its offline fallback's (docs/leaderboard.md says why not ranked).
FALLBACK = "fallback"
SCORED = ("ok", FALLBACK)
NO_RUNS = ("no runs found: a run is a folder holding submission.json (or run.json), given itself or inside a "
           "submissions folder, or a submission file")


def run_task(run: Run) -> tuple[str | None, str]:
    """The task a run was made for and where that was read: run.json's `task`, else the submission's shape."""
    recorded = run.provenance.get("task")
    if isinstance(recorded, str) and recorded in TASKS:
        return recorded, "run.json"
    if not run.submission.is_file():
        return None, ""
    try:
        return detect_task(read_json(run.submission)).name, "shape"
    except (DataError, ArchehrError):  # unreadable or no task's shape: scoring will say what is wrong
        return None, ""


def other_task(run: Run, task: str) -> str | None:
    """The task of a run made for another task than the board's, else None.

    Only for tasks that read submissions by shape (a test scorer's stand-in task has no detector). The shape
    alone cannot tell st1 questions from st3 answers (both are text), so a shape of the same kind as the board's
    task is never called another task; run.json can.
    """
    if task not in TASKS or TASKS.get(task).detector is None:
        return None
    found, source = run_task(run)
    if found is None or found == task:
        return None
    if source == "shape" and get_task(found).prediction == get_task(task).prediction:
        return None
    return found


def _number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def model_share(run: Run) -> float | None:
    """The share of cases an LLM run's model answered itself (run.json `model_share.share`), else None."""
    ms = run.provenance.get("model_share")
    share = ms.get("share") if isinstance(ms, dict) else None
    return float(share) if _number(share) else None


def below_model_share(run: Run) -> Problem | None:
    """Why the run is not ranked, when its model answered fewer cases than its own `--min-model-share`
    (run.json `model_share`: `share` below `min_share`, or `below_min` as recorded), else None."""
    ms = run.provenance.get("model_share")
    if not isinstance(ms, dict):
        return None
    share, least = ms.get("share"), ms.get("min_share")
    below = share < least if _number(share) and _number(least) else ms.get("below_min") is True
    if not below:
        return None
    answered = f"{ms['answered']} of {ms['cases']} cases" if _number(ms.get("answered")) and _number(
        ms.get("cases")) else "a share of the cases"
    pct = f" ({100 * share:.0f}%)" if _number(share) else ""
    least_text = f" {100 * least:.0f}%" if _number(least) else ""
    return Problem(f"the model answered {answered}{pct}, below this run's --min-model-share{least_text}: its scores "
                   "are mostly its offline fallback's, so it is listed, not ranked", code="below-model-share")


def score_run(run: Run, key: Path, key_sha: str, scorer: Scorer, cache: ScoreCache) -> Entry:
    """Score one run through the cache; its problems become the entry's status, never an exception.

    A ConfigError (a bad option: --metrics, a bad baseline file, ...) is not the run's problem but the same for
    every run: it propagates (exit 2, one message) and is never cached as the run being invalid.
    """
    if not run.submission.is_file() or any(not p.code.startswith("warning") for p in run.problems):
        return Entry(run, "invalid", list(run.problems))  # no submission, or a run.json that cannot be read
    sha = sha256_file(run.submission)
    ck = cache_key("score", submission=sha, key=key_sha, scorer=scorer.fingerprint())
    hit = cache.get(ck, score_entry_from_cache)
    warnings = [p for p in run.problems]
    paths = {"<submission>": str(run.submission), "<key>": str(key)}
    if hit is not None:
        status, cached_report, cached_problems = hit
        if status == "ok":
            return Entry(run, "ok", warnings, cached_report, submission_sha256=sha, cache_key=ck, cached=True)
        return Entry(run, status, warnings + problems_from_cache(cached_problems, paths),
                     submission_sha256=sha, cache_key=ck, cached=True)
    try:
        report = scorer.score(run.submission, key)
    except ConfigError:  # a bad option (metrics, baseline file, ...) is the same for every run: fail the command
        raise
    except InputError as e:
        cache.put(ck, {"status": "invalid", "problems": problems_to_cache(list(e.problems), paths)})
        return Entry(run, "invalid", warnings + list(e.problems), submission_sha256=sha, cache_key=ck)
    except ArchehrError as e:  # e.g. a component unavailable: not cached, it may be fixed by an install
        return Entry(run, "error", warnings + [Problem(str(e), str(run.submission), code="scoring-failed")],
                     submission_sha256=sha, cache_key=ck)
    except Exception as e:  # noqa: BLE001 - one broken run must not stop the others being ranked
        return Entry(run, "error", warnings + [Problem(f"scoring failed: {type(e).__name__}: {e}",
                                                       str(run.submission), code="scoring-failed")],
                     submission_sha256=sha, cache_key=ck)
    cache.put(ck, {"status": "ok", "report": report_to_dict(report)})
    return Entry(run, "ok", warnings, report, submission_sha256=sha, cache_key=ck)


def score_cached(path: Path, key: Path, scorer: Scorer, cache: ScoreCache) -> ScoreReport:
    """One submission's report through the cache; raises the scorer's InputError when it is invalid."""
    e = score_run(Run(path.name, path), key, sha256_files(key_files(key)), scorer, cache)
    if e.status == "invalid":
        raise InputError(e.problems or [Problem("invalid submission", str(path))])
    if e.report is None:
        raise ArchehrError("; ".join(p.message for p in e.problems) or f"could not score {path}")
    return e.report


def choose_rank_key(task: str, entries: Sequence[Entry], wanted: str | None = None) -> tuple[str, str | None]:
    """The key to rank by and, when it is not the official overall, why."""
    ok = [e for e in entries if e.status == "ok"]
    if wanted:
        note = None if wanted == OVERALL_KEY else f"ranked by {wanted} (asked for with --rank-by)"
        return wanted, note
    missing = sorted({m for e in ok for m in (e.report.unavailable if e.report else {})})
    why = f"{OVERALL_KEY} is not computable with the metrics that ran here" + (
        f" ({', '.join(missing)} unavailable)" if missing else "")
    if not ok or all(e.value(OVERALL_KEY) is not None for e in ok):
        n_partial = sum(e.is_partial(OVERALL_KEY) for e in ok)
        if n_partial:
            return OVERALL_KEY, (f"{why}; {OVERALL_KEY}* of {n_partial} run{'s' if n_partial > 1 else ''} is "
                                 "partial: the mean of the parts that could run, not the official score")
        return OVERALL_KEY, None
    for k in get_task(task).rank_fallbacks if task in TASKS else ():
        if all(e.value(k) is not None for e in ok):
            return k, f"ranked by {k}: {why}"
    return OVERALL_KEY, f"{why}; runs without it are not ranked"


def build_leaderboard(dirs: Sequence[str | Path], key: Path, scorer: Scorer, *, cache: ScoreCache,
                      test: str = "bootstrap", n_resamples: int = 1000, seed: int = 12345,
                      rank_by: str | None = None, progress: Progress | None = None) -> Leaderboard:
    if test not in PAIRED_TESTS:
        raise InputError(Problem(f"unknown significance test {test!r}; use one of {', '.join(PAIRED_TESTS)}",
                                 field="--test"))
    runs = find_runs(dirs)
    if not runs:
        raise InputError(Problem(NO_RUNS, ", ".join(str(d) for d in dirs), code="no-runs"))
    key_sha = sha256_files(key_files(key))
    entries: list[Entry] = []
    for i, run in enumerate(runs, 1):
        other = other_task(run, scorer.task)
        if other is not None:  # listed, not scored: another task's key and metrics would call it invalid
            e = Entry(run, OTHER_TASK, [Problem(f"{other} run: use --task {other}", str(run.submission),
                                                code=OTHER_TASK)])
        else:
            e = score_run(run, key, key_sha, scorer, cache)
            why = below_model_share(run) if e.status == "ok" else None
            if why is not None:
                e.status = FALLBACK
                e.problems.append(why)
        entries.append(e)
        if progress:
            progress(f"[{i}/{len(runs)}] {run.name}: {e.status}{' (cached)' if e.cached else ''}")
    rank_key, note = choose_rank_key(scorer.task, entries, rank_by)

    ok = [e for e in entries if e.status == "ok"]
    scored = [e for e in entries if e.status in SCORED]
    for e in scored:
        e.ci = _cached_ci(e, cache, n_resamples, seed)
    higher = rank_higher_is_better(scorer.task, rank_key)
    sign = -1.0 if higher else 1.0  # best first: the largest value, or the smallest for a lower-is-better key
    ranked = sorted((e for e in ok if e.value(rank_key) is not None),
                    key=lambda e: (sign * float(e.value(rank_key)), e.name))  # type: ignore[arg-type]
    for i, e in enumerate(ranked, 1):
        e.rank = i
    if ranked:
        top = ranked[0]
        for e in ranked[1:]:
            e.vs_top = _cached_paired(top, e, cache, test, n_resamples, seed)
    # Ranked runs first (by rank), then scored-but-unranked (fallback runs among them), then failures, each by name.
    order = {id(e): i for i, e in enumerate(ranked)}
    entries.sort(key=lambda e: (0 if e.rank else 1 if e.status in SCORED else 2, order.get(id(e), 0), e.name))

    keys: list[str] = []
    signatures: dict[str, str] = {}
    unavailable: dict[str, str] = {}
    for e in scored:
        if e.report is None:  # a scored run always carries a report
            continue
        keys += [k for k in e.report.scores if k not in keys]
        signatures.update(e.report.signatures)
        unavailable.update(e.report.unavailable)
    return Leaderboard(scorer.task, key, key_sha, rank_key, note, test, n_resamples, seed, entries, keys,
                       signatures, unavailable, scorer.fingerprint(), higher)


def rank_higher_is_better(task: str, key: str) -> bool:
    """Whether a higher `key` ranks first: as the task's aggregation declares it (True for a task or key it does
    not declare, e.g. a test scorer's own task)."""
    return get_task(task).higher_is_better(key) if task in TASKS else True


def _cached_ci(e: Entry, cache: ScoreCache, n: int, seed: int) -> dict[str, tuple[float, float]]:
    ck = cache_key("ci", score=e.cache_key, n=n, seed=seed)
    hit = cache.get(ck, ci_from_cache)
    if hit is not None:
        return hit
    ci = bootstrap_ci(e.report, n=n, seed=seed, partial=True) if e.report is not None else {}
    cache.put(ck, {k: list(v) for k, v in ci.items()})
    return ci


def _cached_paired(top: Entry, e: Entry, cache: ScoreCache, test: str, n: int, seed: int) -> dict[str, PairedResult]:
    """top - e on every key (positive delta: the top run is ahead on a higher-is-better key, behind on a
    lower-is-better one)."""
    ck = cache_key("paired", a=top.cache_key, b=e.cache_key, test=test, n=n, seed=seed)
    hit = cache.get(ck, paired_from_cache)
    if hit is not None:
        return hit
    if top.report is None or e.report is None:
        return {}
    res = PAIRED_TESTS[test](top.report, e.report, n=n, seed=seed, partial=True)
    cache.put(ck, {k: vars(v) for k, v in res.items()})
    return res


def to_json_dict(lb: Leaderboard, relative_to: Path | None = None) -> dict[str, Any]:
    """Everything the tables show, deterministic (no times; paths relative to the output folder or the working
    directory, else file names: see `archehr.leaderboard.portable`)."""
    from archehr.leaderboard.portable import portable_path, portable_text, recorded_paths_to_names
    from archehr.leaderboard.run_folders import provenance_summary

    bases = [relative_to] if relative_to is not None else []

    def rel(p: str | Path | None) -> str | None:
        return None if p is None else portable_path(p, bases)

    def problem(p: Problem) -> dict[str, Any]:
        return p.to_dict() | {"message": portable_text(p.message, bases), "file": rel(p.file) if p.file else None}

    rows = []
    for e in lb.entries:
        r = e.report
        rows.append({
            "rank": e.rank,
            "run": e.name,
            "status": e.status,
            "problems": [problem(p) for p in e.problems],
            "submission": rel(e.run.submission),
            "submission_sha256": e.submission_sha256,
            "scores": dict(r.scores) if r else {},
            "partial_scores": {k: e.value(k) for k in (r.partial if r else {})},
            "ci95": {k: list(v) for k, v in e.ci.items()},
            "vs_top": {k: {"delta": v.delta, "ci95": [v.ci_low, v.ci_high], "p": v.p} for k, v in e.vs_top.items()},
            "partial": {k: p.to_dict() for k, p in r.partial.items()} if r else {},
            "unavailable": {k: portable_text(v, bases) for k, v in r.unavailable.items()} if r else {},
            "provenance": provenance_summary(e.run.provenance),
            "run_json": recorded_paths_to_names(e.run.provenance),
        })
    return {
        "task": lb.task,
        "key": rel(lb.key_file),
        "key_sha256": lb.key_sha256,
        "rank_key": lb.rank_key,
        "rank_note": lb.rank_note,
        "significance": {"test": lb.test, "resamples": lb.n_resamples, "seed": lb.seed, "against": "rank 1",
                         "ci": "95% percentile bootstrap over cases"},
        "keys": lb.keys,
        "signatures": {k: portable_text(v, bases) for k, v in lb.signatures.items()},
        "unavailable": {k: portable_text(v, bases) for k, v in lb.unavailable.items()},
        "entries": rows,
    }
