"""`archehr predict`: run a system over a split and write OUT_DIR/submission.json and run.json."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from archehr.cli.common import DataDirOpt, VersionOpt, err, print_problems
from archehr.cli.leaderboard_cmd import DEFAULT_TASK
from archehr.errors import ConfigError, Problem
from archehr_scoring.tasks import predicted_tasks

if TYPE_CHECKING:  # (imported when run: the CLI starts without loading systems)
    from archehr.data.model import Split
    from archehr.pipeline import System
    from archehr.runs import RunResult


def register(app: typer.Typer) -> None:
    app.command("predict", short_help="Run a system over a split: submission.json and run.json.")(predict)


def predict(
    data_dir: DataDirOpt = None,
    split: Annotated[str, typer.Option("--split", help="dev | test | test-2026 (or any split folder).")] = "test",
    task: Annotated[str, typer.Option("--task", help=" | ".join(predicted_tasks()) + " (the tasks systems predict)")
                    ] = DEFAULT_TASK,
    system: Annotated[str | None, typer.Option("--system", help="Built-in system name or a YAML path "
                                               "(default: trained-extractive).")] = None,
    out_dir: Annotated[str | None, typer.Option("-o", "--out-dir", help="Run directory "
                                                "(default: runs/<system>-<split>-<task>).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue an interrupted run in OUT_DIR.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Start over in an OUT_DIR that holds a run.")] = False,
    train_split: Annotated[str, typer.Option("--train-split", help="Labelled split for LLM demonstrations "
                                             "(never the split being predicted).")] = "dev",
    workers: Annotated[int, typer.Option("--workers", help="Cases in flight at once (LLM servers).")] = 1,
    cache_dir: Annotated[str | None, typer.Option("--cache-dir", help="LLM response cache "
                                                  "(default: .archehr-cache/llm).")] = None,
    retry_fallbacks: Annotated[bool, typer.Option("--retry-fallbacks", help="With --resume: ask the model again "
                                                  "for the cases that fell back (a server that was down, ...).")
                               ] = False,
    min_model_share: Annotated[float, typer.Option("--min-model-share", min=0.0, max=1.0,
                                                   help="Exit 3 (the submission is still written) when the LLM "
                                                   "answered fewer than this share of the cases; 0 turns it off.")
                               ] = 0.9,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")] = True,
    version_dir: VersionOpt = None,
) -> None:
    """Run a system over a split and write a submission plus its provenance (run.json)."""
    from archehr.data.releases import load_split
    from archehr.pipeline import load_system, predicted_task
    from archehr.runs import run_split
    from archehr.system_config import DEFAULT_SYSTEM

    predicted_task(task)
    if retry_fallbacks and not resume:
        raise typer.BadParameter("--retry-fallbacks continues a run: add --resume", param_hint="--retry-fallbacks")
    data = load_split(data_dir, split, version_dir)
    sys_obj = load_system(system or DEFAULT_SYSTEM, cache_dir=cache_dir)
    print_problems(list(sys_obj.config.warnings))
    sys_obj.prepare(_training_split(sys_obj, data_dir, split, train_split, version_dir))
    out = Path(out_dir) if out_dir else default_run_dir(sys_obj.config.name, data.name, task)

    bar = _Progress(len(data)) if progress else None
    try:
        result = run_split(sys_obj, data, task, out, resume=resume, force=force, workers=workers,
                           on_case=bar.update if bar else None, data_source=str(data.source),
                           retry_fallbacks=retry_fallbacks, min_model_share=min_model_share or None)
    finally:
        if bar:
            bar.close()
    _report(result, out, min_model_share)


def _training_split(sys_obj: System, data_dir: str | None, split: str, train_split: str,
                    version_dir: str | None) -> Split | None:
    """The labelled split a system that wants one learns from (its demonstrations), never the split predicted;
    None when it wants none or the release has no such split."""
    from archehr.data.releases import find_release, load_split

    if not sys_obj.wants_training_split() or train_split == split:
        return None
    if train_split not in find_release(data_dir, version_dir).split_names:
        return None
    return load_split(data_dir, train_split, version_dir)


def _report(result: RunResult, out: Path, min_model_share: float) -> None:
    """Print what the run did (cases run and resumed, LLM usage, flags, fallbacks, the model's share); exit 3 when
    the model answered less than `min_model_share` of the cases."""
    print_problems(result.warnings)
    print(f"{out / 'submission.json'}: {len(result.predictions)} cases ({len(result.done_before)} resumed, "
          f"{len(result.done_now)} run in {result.seconds:.1f}s)")
    if result.llm_usage:
        from archehr.llm.usage import summary_line

        print(summary_line(result.llm_usage))
    if result.flagged:
        n = len(result.flagged)
        print(f"{n} case{'s' if n != 1 else ''} flagged for review: {', '.join(result.flagged)}")
    if result.fallbacks:
        err(f"{len(result.fallbacks)} case(s) fell back to another generator: see {out / 'run.json'} (fallbacks)")
    share = result.model_share
    if share is not None:
        print(f"model: answered {share['answered']} of {share['cases']} cases ({100 * share['share']:.1f}%)")
        if share["below_min"]:
            err(f"error: the model answered only {100 * share['share']:.1f}% of the cases (--min-model-share "
                f"{min_model_share:g}): the other cases are the offline fallback's, not the model's. "
                "Commonest reasons:")
            for r in share["top_fallback_reasons"]:
                err(f"  {r['cases']} case(s): {r['reason']}")
            err(f"The submission is written ({out / 'submission.json'}). Fix the server, then "
                f"`--resume --retry-fallbacks -o {out}` asks the model again for those cases only; "
                "--min-model-share 0 accepts the run as it is.")
            raise typer.Exit(3)


RUNS_DIR = Path("runs")  # git-ignored; submissions/ holds only the committed baselines


def default_run_dir(system: str, split: str, task: str) -> Path:
    """runs/<system>-<split>-<task>, each part reduced to a plain name: a downloaded config's `name:` or a
    `--split` path can never point it elsewhere (and so never make --force delete elsewhere)."""
    from archehr.system_config import safe_name

    out = RUNS_DIR / safe_name(f"{safe_name(system)}-{safe_name(split)}-{safe_name(task)}")
    if out.parent != RUNS_DIR or out.name in ("", ".", ".."):  # cannot happen after safe_name; kept as the guarantee
        raise ConfigError(Problem(f"refusing the run folder {out}", field="--out-dir"))
    return out


class _Progress:
    """A rich progress bar on stderr with cases/s and ETA."""

    def __init__(self, total: int):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._p = Progress(TextColumn("predict"), BarColumn(), MofNCompleteColumn(),
                           TextColumn("{task.fields[rate]}"),
                           TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                           console=Console(stderr=True), transient=False)
        self._task = self._p.add_task("predict", total=total, rate="")
        self._p.start()

    def update(self, done: int, total: int) -> None:
        task = self._p.tasks[0]
        speed = task.speed
        self._p.update(self._task, completed=done, total=total, rate=f"{speed:.1f} cases/s" if speed else "")

    def close(self) -> None:
        self._p.stop()
