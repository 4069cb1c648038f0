"""`archehr train`: fit the `trained` relevance classifier on a labelled split and calibrate its threshold."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import DataDirOpt, VersionOpt, err


def register(app: typer.Typer) -> None:
    app.command("train", help="Train the sentence-relevance classifier on a labelled split (leave-one-case-out "
                              "calibration of L2 and threshold) and save a versioned JSON model file.")(train)


def train(
    data_dir: DataDirOpt = None,
    split: Annotated[list[str] | None, typer.Option("--split", help="Labelled split to train on (never the split you "
                                                                   "evaluate on); repeat to train on several.",
                                                    show_default=False)] = None,
    also: Annotated[list[str] | None, typer.Option("--also", help="Another labelled split to train on, as "
                                                                  "RELEASE_DIR:SPLIT (repeatable).",
                                                   show_default=False)] = None,
    version_dir: VersionOpt = None,
    features: Annotated[str, typer.Option("--features", help="lexical | lexical+embedding | auto (auto: with "
                                                             "embeddings when MiniLM is installed).")] = "lexical",
    target: Annotated[str, typer.Option("--target", help="Threshold on P(essential) or P(relevant).")] = "essential",
    review_level: Annotated[float | None, typer.Option(
        "--review-level", help="Flag cases with a confidence below this (default: the 20th percentile of the "
                               "leave-one-case-out confidences).", show_default=False)] = None,
    output: Annotated[Path, typer.Option("-o", "--output", help="Model file to write.")] = Path("relevance-model.json"),
    sweep: Annotated[bool, typer.Option("--sweep", help="Print the threshold curve and save it as a PNG.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="PNG path for --sweep (default: beside the model "
                                                             "file).")] = None,
) -> None:
    from archehr.data.releases import load_split
    from archehr.errors import InputError, Problem
    from archehr.relevance.embedding import embeddings_available
    from archehr.relevance.trained import train as fit
    from archehr.relevance.trained import train_parts

    if features == "auto":
        ok, why = embeddings_available()
        features = "lexical+embedding" if ok else "lexical"
        if not ok:
            err(f"note: training with lexical features only ({why})")
    splits = split or ["dev"]
    parts = [(name, load_split(data_dir, name, version_dir)) for name in splits]
    for spec in also or []:
        where, sep, name = spec.rpartition(":")
        if not sep or not where or not name:
            raise InputError(Problem(f"--also expects RELEASE_DIR:SPLIT, got {spec!r}", field="--also"))
        parts.append((f"{Path(where).name}-{name}", load_split(where, name)))
    if len(parts) == 1:
        data = parts[0][1]
        model, cal = fit(data, features, target, review_level=review_level)
    else:
        model, cal = train_parts(parts, features, target, review_level=review_level)
    model.save(output)
    n_case = sum(len(sp.cases) for _, sp in parts)
    n_sent = sum(len(c.sentences) for _, sp in parts for c in sp.cases)
    where = ", ".join(f"{lab}={sp.source}" for lab, sp in parts) if len(parts) > 1 else parts[0][1].source
    print(f"trained on {where} ({n_case} cases, {n_sent} sentences), features {features}")
    print(f"leave-one-case-out: L2 {model.l2}, threshold {cal.selector.threshold:.2f} on P({target}), "
          f"strict micro F1 {100 * cal.f1:.1f}; cases with confidence < {cal.selector.review_level} get flagged")
    print(f"model written to {output}")
    if sweep:
        print(f"{'threshold':>9} {'F1':>6} {'P':>6} {'R':>6}")
        for t, f, p, r in cal.curve:
            mark = "  <- chosen" if abs(t - cal.selector.threshold) < 1e-9 else ""
            print(f"{t:>9.2f} {100 * f:>6.1f} {100 * p:>6.1f} {100 * r:>6.1f}{mark}")
        from archehr.relevance.plot import save_sweep_plot

        png = plot or output.with_suffix(".sweep.png")
        how = save_sweep_plot(png, cal.curve, cal.selector.threshold,
                              f"{features}, leave-one-case-out on {'+'.join(lab for lab, _ in parts)}")
        print(f"threshold plot written to {png} ({how})")
