"""The runs the server was given (`--runs`), the splits of its release that have a key, and two or more runs
compared on one split: per case, each run's view (citations, answer) and its per-case score.

Scores come from the official scorer (`archehr.leaderboard.scorer`) and per-case scores from its per-case
rows (`ScoreReport.aggregate([case])`, as `archehr compare` and report.html do): no second scoring code.
Reports are kept in memory, keyed by the submission's and key's modification times; nothing is written.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from archehr.data.model import Case, KeyEntry, Split
from archehr.data.releases import KEY_NAME, XML_NAME, find_release, split_dir
from archehr.errors import InputError, Problem, SubmissionError
from archehr.leaderboard.compare import Comparison, compare_reports
from archehr.leaderboard.html_report import CaseView, case_views, load_submission_items
from archehr.leaderboard.run_folders import Run, find_runs, provenance_summary
from archehr_scoring.results import ScoreReport


@dataclass(frozen=True)
class RunEntry:
    id: int
    run: Run
    task: str | None
    split: str | None
    problems: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.run.name

    @property
    def usable(self) -> bool:
        return self.task is not None and self.run.submission.is_file()


@dataclass(frozen=True)
class CaseRow:
    case: Case
    key: KeyEntry | None
    views: tuple[CaseView, ...]  # one per run, in the runs' order
    scores: tuple[float | None, ...]  # the per-case score (`case_key`) of each run
    deltas: tuple[float | None, ...]  # each run minus the first (the first's is 0)

    @property
    def biggest(self) -> float | None:
        """The largest |difference| to the first run: what "sort by difference" orders by."""
        ds = [abs(d) for d in self.deltas[1:] if d is not None]
        return max(ds) if ds else None


@dataclass(frozen=True)
class RunsComparison:
    split: str
    task: str
    runs: tuple[RunEntry, ...]
    reports: tuple[ScoreReport, ...]
    comparisons: tuple[Comparison, ...]  # run i (i >= 1) against the first
    case_key: str
    rows: tuple[CaseRow, ...]  # largest difference first


def _one_line(p: Problem) -> str:
    return f"{'warning' if p.code.startswith('warning') else 'error'}: {p}"


class RunsIndex:
    """The runs and key splits the server shows; scores computed on first use and kept in memory."""

    def __init__(self, run_dirs: Sequence[str | Path], data_dir: str | Path | None = None):
        self.release = find_release(data_dir)
        self.key_splits: dict[str, Path] = {}
        self.n_cases: dict[str, int | None] = {}
        for name in self.release.split_names:
            d = split_dir(self.release, name)
            if (d / KEY_NAME).is_file():
                self.key_splits[name] = d
            self.n_cases[name] = _count_cases(d / XML_NAME)
        self.runs = tuple(self._entry(i, r) for i, r in enumerate(find_runs(run_dirs) if run_dirs else []))
        self._reports: dict[tuple[int, str], tuple[tuple[int, ...], ScoreReport]] = {}
        self._splits: dict[str, tuple[tuple[int, ...], Split]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _entry(i: int, run: Run) -> RunEntry:
        problems = [_one_line(p) for p in run.problems]
        task = run.provenance.get("task") if isinstance(run.provenance.get("task"), str) else None
        split = run.provenance.get("split") if isinstance(run.provenance.get("split"), str) else None
        if task is None and run.submission.is_file():
            from archehr_scoring.api import detect_task, read_submission

            try:
                task = detect_task(read_submission(run.submission)[0])
            except InputError as e:
                problems += [_one_line(p) for p in e.problems]
        return RunEntry(i, run, task, split, tuple(problems))

    def summary(self, entry: RunEntry) -> dict[str, str]:
        return provenance_summary(entry.run.provenance)

    def key_dir(self, split: str) -> Path:
        if split not in self.key_splits:
            have = ", ".join(self.key_splits) or "none"
            raise InputError(Problem(f"no split {split!r} with a key in this release (splits with a key: {have})",
                                     self.release.root, field="key", code="unknown-split"))
        return self.key_splits[split]

    def split(self, name: str) -> Split:
        from archehr.leaderboard.scorer import load_key_with_notes

        d = self.key_dir(name)
        stamp = _stamps(d / KEY_NAME, d / XML_NAME)
        with self._lock:
            got = self._splits.get(name)
            if got is None or got[0] != stamp:
                got = (stamp, load_key_with_notes(d / KEY_NAME))
                self._splits[name] = got
        return got[1]

    def report(self, entry: RunEntry, split: str) -> ScoreReport:
        from archehr.leaderboard.scorer import OfficialScorer

        d = self.key_dir(split)
        if not entry.usable:
            raise InputError([Problem(t) for t in entry.problems] or Problem("run has no submission", entry.name))
        stamp = _stamps(entry.run.submission, d / KEY_NAME, d / XML_NAME)
        with self._lock:
            got = self._reports.get((entry.id, split))
            if got is None or got[0] != stamp:
                got = (stamp, OfficialScorer(entry.task).score(entry.run.submission, d / KEY_NAME))  # type: ignore[arg-type]
                self._reports[(entry.id, split)] = got
        return got[1]

    def get(self, run_id: int) -> RunEntry:
        if not 0 <= run_id < len(self.runs):
            raise InputError(Problem(f"no run with id {run_id}", field="run", code="unknown-run"))
        return self.runs[run_id]

    def compare(self, split: str, run_ids: Sequence[int]) -> RunsComparison:
        """Two or more runs of one task on one split, per case, largest difference to the first run first."""
        entries = [self.get(i) for i in dict.fromkeys(run_ids)]
        if len(entries) < 2:
            raise InputError(Problem("pick two or more runs to compare", field="run", code="too-few-runs"))
        tasks = {e.task for e in entries}
        if len(tasks) != 1 or None in tasks:
            raise InputError(Problem("runs of different subtasks cannot be compared case by case: "
                                     + ", ".join(f"{e.name} ({e.task or 'unreadable'})" for e in entries),
                                     field="run", code="mixed-tasks"))
        task = str(entries[0].task)
        ref = self.split(split)
        reports = [self.report(e, split) for e in entries]
        try:
            items = [load_submission_items(e.run.submission) for e in entries]
        except SubmissionError as e:
            raise InputError(e.problems) from None
        comps = [compare_reports(reports[0], r, entries[0].name, e.name, n_resamples=1000)
                 for e, r in zip(entries[1:], reports[1:], strict=True)]
        case_key = comps[0].case_key
        views = [{v.case.case_id: v for v in case_views(task, ref, it, rep)}
                 for it, rep in zip(items, reports, strict=True)]
        rows = []
        for case in ref.cases:
            vs = [vm.get(case.case_id) for vm in views]
            if any(v is None for v in vs):
                continue  # not scored in every run (the summary lists such cases)
            scores = tuple(v.scores.get(case_key) for v in vs)  # type: ignore[union-attr]
            base = scores[0]
            deltas = tuple(None if s is None or base is None else s - base for s in scores)
            rows.append(CaseRow(case, vs[0].key, tuple(vs), scores, deltas))  # type: ignore[union-attr, arg-type]
        rows.sort(key=lambda r: (-(r.biggest if r.biggest is not None else -1.0), r.case.case_id))
        return RunsComparison(split, task, tuple(entries), tuple(reports), tuple(comps), case_key, tuple(rows))


def _stamps(*paths: Path) -> tuple[int, ...]:
    return tuple(p.stat().st_mtime_ns if p.is_file() else -1 for p in paths)


def _count_cases(xml: Path) -> int | None:
    try:
        with xml.open("rb") as f:
            return sum(line.count(b"<case ") for line in f)
    except OSError:
        return None
