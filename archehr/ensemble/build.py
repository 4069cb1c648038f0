"""What `archehr ensemble` does, as library calls: combine runs (optionally fitted on dev), or select them.

    combine(run_dirs, out_dir, dev_dirs=..., dev_key=...)          -> Built
    select_and_combine(test_dirs, dev_dirs, out_dir, dev_key, key)  -> Built (with the selection and test report)

Run folders may be given one by one or as a folder holding run folders (each with a run.json), taken in
name order. Nothing is written unless every member is read and checked first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from archehr.ensemble.combine import DEFAULT_THRESHOLD, Settings, ensemble_predictions
from archehr.ensemble.fit import fit_settings, headline, pair_runs, score_report, value
from archehr.ensemble.members import RUN_JSON, Member, load_members
from archehr.ensemble.output import write_ensemble
from archehr.errors import InputError, Problem


@dataclass(frozen=True)
class Built:
    out_dir: Path
    members: tuple[Member, ...]
    settings: Settings
    records: dict[str, Any]
    report: dict[str, Any] = field(default_factory=dict)  # --select: dev selection and test comparison
    comparison: Any = None  # archehr.leaderboard.compare.Comparison of the ensemble with the best single run


def expand_runs(paths: Sequence[str | Path]) -> list[Path]:
    """Each path a run folder, or a folder of run folders (name order)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if (p / RUN_JSON).is_file() or not p.is_dir():
            out.append(p)
            continue
        inner = sorted(d for d in p.iterdir() if (d / RUN_JSON).is_file())
        if not inner:
            raise InputError(Problem("neither a run folder (no run.json) nor a folder of run folders", str(p),
                                     code="missing-file"))
        out += inner
    return out


def dev_key_of(dev: Sequence[Member], given: str | Path | None) -> Path:
    """The dev key: given, else the split folder the dev runs name in their run.json `data`."""
    if given is not None:
        return Path(given)
    data = dev[0].data
    if data and Path(data).exists():
        return Path(data)
    raise InputError(Problem(f"the dev runs' data folder {data!r} is not here: give the dev key with --dev-key",
                             str(Path(dev[0].path) / RUN_JSON), field="data", code="no-dev-key"))


def _check_dev(members: Sequence[Member], dev: Sequence[Member]) -> None:
    if dev[0].task != members[0].task:
        raise InputError(Problem(f"dev runs are of task {dev[0].task!r}, the members of {members[0].task!r}",
                                 str(Path(dev[0].path) / RUN_JSON), field="task", code="member-mismatch"))
    if dev[0].input_sha256 == members[0].input_sha256:
        raise InputError(Problem("the dev runs are over the same input as the members: fit on a dev split, never on "
                                 "the split being predicted", str(Path(dev[0].path) / RUN_JSON),
                                 field="input_sha256", code="dev-is-test"))


def combine(run_dirs: Sequence[str | Path], out_dir: str | Path, dev_dirs: Sequence[str | Path] = (),
            dev_key: str | Path | None = None, threshold: float | None = None) -> Built:
    """Combine the runs into OUT_DIR; with dev runs, weights and threshold fitted on them (never on test)."""
    members = load_members(expand_runs(run_dirs))
    settings = Settings(DEFAULT_THRESHOLD if threshold is None else threshold, None,
                        "default" if threshold is None else "given")
    if dev_dirs:
        dev = load_members(expand_runs(dev_dirs), "dev")
        _check_dev(members, dev)
        dev = pair_runs(members, dev, "dev")
        settings = fit_settings(dev, dev_key_of(dev, dev_key))
        if threshold is not None:
            settings = Settings(threshold, settings.weights, settings.source + ", threshold given",
                                settings.details)
    preds, records = ensemble_predictions(members, settings)
    write_ensemble(out_dir, members, settings, preds, records)
    return Built(Path(out_dir), tuple(members), settings, records)


def select_and_combine(test_dirs: Sequence[str | Path], dev_dirs: Sequence[str | Path], out_dir: str | Path,
                       dev_key: str | Path | None = None, key: str | Path | None = None, folds: int = 5,
                       steps: int | None = None, resamples: int = 1000, seed: int = 12345) -> Built:
    """Caruana selection over the dev runs (select.py), applied to their test counterparts (paired by system
    name and config hash); with the test key, the test score with a bootstrap CI beside the best single run's
    (the run best on dev), with a paired test."""
    from archehr.ensemble.select import select

    dev = load_members(expand_runs(dev_dirs), "dev")
    test = load_members(expand_runs(test_dirs))
    _check_dev(test, dev)
    test = pair_runs(dev, test, "test")  # test[k] is dev[k]'s counterpart
    sel = select(dev, dev_key_of(dev, dev_key), steps=steps, folds=folds)
    settings = sel.settings()
    preds, records = ensemble_predictions(test, settings)
    task = test[0].task
    report: dict[str, Any] = {"selection": settings.details,
                              "best_single_on_dev": {"path": dev[sel.best_single].path,
                                                     "dev_score": round(sel.single_scores[sel.best_single], 4)}}
    comparison = None
    if key is not None:
        from archehr.leaderboard.compare import compare_reports, to_json_dict

        single = test[sel.best_single]
        ra = score_report(task, single.predictions, key, bootstrap=resamples, seed=seed)
        rb = score_report(task, preds, key, bootstrap=resamples, seed=seed)
        comparison = compare_reports(ra, rb, single.path, "ensemble", n_resamples=resamples, seed=seed)
        name = headline(task)[0]
        report["test"] = {"metric": name, "ensemble": round(value(rb, task), 4),
                          "ensemble_ci95": _ci(rb, name), "best_single": round(value(ra, task), 4),
                          "best_single_ci95": _ci(ra, name), "comparison": to_json_dict(comparison)}
    write_ensemble(out_dir, test, settings, preds, records, {"select": report})
    return Built(Path(out_dir), tuple(test), settings, records, report, comparison)


def _ci(report: Any, name: str) -> list[float] | None:
    ci = (report.ci or {}).get(name)
    if ci is None:
        return None
    low, high = (ci.low, ci.high) if hasattr(ci, "low") else ci
    return [round(float(low), 4), round(float(high), 4)]
