"""`archehr ensemble RUN_DIR... -o OUT_DIR`: combine finished runs of one task by a weighted vote (docs/ensemble.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def ensemble(
    runs: Annotated[list[Path], typer.Argument(help="Run folders written by `archehr predict` (or folders holding "
                                                    "run folders), all of one task over one input. With "
                                                    "--select: the test runs to choose from.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder: submission.json and run.json.")],
    dev: Annotated[list[Path] | None, typer.Option("--dev", help="The members' runs on a dev split (repeat, or a "
                                                                "folder of runs): weights and threshold are fitted "
                                                                "on them with the dev key, never on the test key. "
                                                                "With --select: the runs to select from.",
                                                   show_default=False)] = None,
    dev_key: Annotated[Path | None, typer.Option("--dev-key", help="Key of the dev split (default: the split "
                                                                   "folder the dev runs' run.json names).",
                                                 show_default=False)] = None,
    threshold: Annotated[float | None, typer.Option("--threshold", min=0.0, max=1.0,
                                                    help="Vote threshold: an item is chosen when its weighted "
                                                         "share of votes is at least this (default 0.5, or "
                                                         "fitted with --dev).", show_default=False)] = None,
    select: Annotated[bool, typer.Option("--select", help="Choose which runs to combine: greedy forward "
                                                          "selection with replacement over the --dev runs, inside "
                                                          "cross-validation (its optimism is reported).")] = False,
    key: Annotated[Path | None, typer.Option("--test-key", help="With --select: the test key, to print the chosen "
                                                           "ensemble's test score with a CI beside the best single "
                                                           "run's (used for that report only).",
                                             show_default=False)] = None,
    folds: Annotated[int, typer.Option("--folds", min=2, help="With --select: cross-validation folds.")] = 5,
    steps: Annotated[int | None, typer.Option("--steps", min=1, help="With --select: selection steps "
                                                                     "(default: twice the runs, at least 5).",
                                              show_default=False)] = None,
    resamples: Annotated[int, typer.Option("--resamples", min=0, help="With --select --test-key: bootstrap "
                                                                      "resamples.")] = 1000,
) -> None:
    """Combine finished runs of one task into one submission (2025 and st1-st4)."""
    from archehr.ensemble.build import combine, select_and_combine
    from archehr.errors import InputError, Problem

    if select:
        if not dev:
            raise InputError(Problem("--select chooses among dev runs: give them with --dev", field="--dev",
                                     code="option"))
        built = select_and_combine(runs, dev, out, dev_key, key, folds=folds, steps=steps, resamples=resamples)
    else:
        built = combine(runs, out, dev or (), dev_key, threshold)
    s = built.settings
    weights = "equal" if s.weights is None else ", ".join(f"{w:g}" for w in s.weights)
    print(f"ensemble of {len(built.members)} run(s), task {built.members[0].task}: weights {weights}; "
          f"threshold {s.threshold:g} ({s.source})")
    cv = s.details.get("cross_validated") if not select else None
    if cv and cv.get("vote") is not None:
        print(f"cross-validated on dev ({cv['folds']} folds): the fitted vote {cv['vote']:.2f}, the best member "
              f"{cv['best_member']:.2f}; the default vote {cv['default_vote']:.2f} on dev")
    if select:
        d = s.details
        print(f"selected on dev: {d['dev_score']:.2f} in-sample, {d['cv_dev_score']:.2f} cross-validated "
              f"({d['folds']} folds; optimism {d['optimism']:+.2f})")
        single = built.report["best_single_on_dev"]
        print(f"best single run on dev: {single['path']} ({single['dev_score']:.2f})")
        if built.comparison is not None:
            from archehr.leaderboard.compare import comparison_text

            t = built.report["test"]

            def ci(v: list[float] | None) -> str:
                return f"[{v[0]:.2f}, {v[1]:.2f}]" if v else "[n/a]"

            print(f"test {t['metric']} (95% bootstrap CI): ensemble {t['ensemble']:.2f} {ci(t['ensemble_ci95'])}; "
                  f"best single run on dev {t['best_single']:.2f} {ci(t['best_single_ci95'])}")
            print()
            print(comparison_text(built.comparison, top=5), end="")
    print(f"wrote {built.out_dir / 'submission.json'} and run.json")


def register(app: typer.Typer) -> None:
    app.command("ensemble", short_help="Combine runs of one task into one submission by a vote.")(ensemble)
