"""`archehr train`: fit the `trained` relevance classifier on a labelled split and calibrate its threshold.

`archehr train --rebuild-shipped` instead rebuilds the shipped model files (the two selector models and the
st4 aligner) from their fixed training splits (archehr.training.shipped). It is a mode of `train`, not a
sub-command: `train` is a single command whose options come straight after it, and a typer group would make
`archehr train --split dev` ambiguous.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import DataDirOpt, VersionOpt, err

# Options of each mode; giving one to the other mode is an error rather than silently ignored (a `--split test`
# ignored by --rebuild-shipped would look as if the shipped models had been trained on the test split).
CROSS_ENCODER_ONLY = ("base_model", "epochs", "lr", "batch_size", "max_length", "heldout", "seed", "progress")
TRAINED_ONLY = ("features", "sweep", "plot")
TRAIN_ONLY = ("data_dir", "split", "also", "version_dir", "features", "target", "review_level", "output", "sweep",
              "plot", "classifier", *CROSS_ENCODER_ONLY)
REBUILD_ONLY = ("synthetic", "only", "out_dir")
CLASSIFIERS = ("trained", "cross-encoder")
DEFAULT_CROSS_ENCODER_OUT = Path("cross-encoder-selector")


def register(app: typer.Typer) -> None:
    app.command("train", short_help="Train a relevance classifier, or rebuild the shipped models.",
                help="Train the sentence-relevance classifier on a labelled split (leave-one-case-out "
                              "calibration of L2 and threshold) and save a versioned JSON model file; with "
                              "--classifier cross-encoder, fine-tune a Hugging Face encoder folder instead "
                              "(transformers.Trainer; `accelerate launch -m archehr train ...` for several GPUs); "
                              "with --rebuild-shipped, rebuild the shipped model files.")(train)


def _given(ctx: typer.Context, names: tuple[str, ...]) -> list[str]:
    """The flags (longest spelling) of the named parameters that were set on the command line."""
    flags = {p.name: max(p.opts, key=len) for p in ctx.command.params}
    return [flags[n] for n in names if getattr(ctx.get_parameter_source(n), "name", "") == "COMMANDLINE"]


def _refuse(flags: list[str], why: str) -> None:
    from archehr.errors import ConfigError, Problem

    if flags:
        raise ConfigError(Problem(f"{why}: {', '.join(flags)}"))


# The synthetic release lies beside the checkout in the project's layout, and the commands are run from the
# checkout: so the default is relative to the current folder, never to where the package is installed.
DEFAULT_SYNTHETIC = Path("..") / "shared" / "data" / "synthetic"
SYNTHETIC_ENV = "ARCHEHR_SYNTHETIC"


def rebuild_shipped(synthetic: Path | None, only: str | None, out_dir: Path | None) -> None:
    """Retrain every shipped model (or `only` one) on its fixed splits and print what each one got."""
    from archehr.data.releases import demo_dir
    from archehr.training.shipped import KINDS, rebuild

    # asked for by name, a model that cannot be built is an error; in the default "all" it is skipped with a note
    rebuild((only,) if only else KINDS, synthetic or DEFAULT_SYNTHETIC.resolve(), demo_dir(), out_dir, log=print,
            skip_unavailable=only is None)


def _training_parts(data_dir: Path | None, split: list[str] | None, also: list[str] | None,
                    version_dir: str | None) -> list:
    """(label, split) of every --split of the release and every --also RELEASE_DIR:SPLIT."""
    from archehr.data.releases import load_split
    from archehr.errors import InputError, Problem

    parts = [(name, load_split(data_dir, name, version_dir)) for name in split or ["dev"]]
    for spec in also or []:
        where, sep, name = spec.rpartition(":")
        if not sep or not where or not name:
            raise InputError(Problem(f"--also expects RELEASE_DIR:SPLIT, got {spec!r}", field="--also"))
        parts.append((f"{Path(where).name}-{name}", load_split(where, name)))
    return parts


def train(
    ctx: typer.Context,
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
    output: Annotated[Path, typer.Option("-o", "--output", help="Model file to write (--classifier cross-encoder: "
                                                                "a folder, default cross-encoder-selector).")
                      ] = Path("relevance-model.json"),
    sweep: Annotated[bool, typer.Option("--sweep", help="Print the threshold curve and save it as a PNG.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="PNG path for --sweep (default: beside the model "
                                                             "file).")] = None,
    classifier: Annotated[str, typer.Option(
        "--classifier", help="trained (logistic regression over features, the default) | cross-encoder (fine-tune "
                             "--base-model with transformers.Trainer, threshold calibrated on held-out cases).")
                          ] = "trained",
    base_model: Annotated[Path | None, typer.Option(
        "--base-model", help="With --classifier cross-encoder: a local Hugging Face encoder folder (config.json, "
                             "weights, tokenizer), e.g. a BioClinicalBERT or ModernBERT download.",
        show_default=False)] = None,
    epochs: Annotated[float, typer.Option("--epochs", help="Cross-encoder: training epochs.")] = 3.0,
    lr: Annotated[float, typer.Option("--lr", help="Cross-encoder: peak learning rate (AdamW, linear decay).")
                  ] = 3e-5,
    batch_size: Annotated[int, typer.Option("--batch-size", help="Cross-encoder: sentence pairs per device and "
                                                                 "step.")] = 16,
    max_length: Annotated[int, typer.Option("--max-length", help="Cross-encoder: tokens per (question, sentence) "
                                                                 "pair; the sentence is truncated.")] = 256,
    heldout: Annotated[float, typer.Option("--heldout", help="Cross-encoder: share of the cases kept out of "
                                                             "training to calibrate the threshold.")] = 0.2,
    seed: Annotated[int, typer.Option("--seed", help="Cross-encoder: seed of the held-out choice and of "
                                                     "training.")] = 0,
    progress: Annotated[bool, typer.Option("--progress", help="Cross-encoder: show the Trainer's progress bar."
                                           )] = False,
    rebuild: Annotated[bool, typer.Option(
        "--rebuild-shipped", help="Rebuild the shipped model files (archehr/relevance/model_*.json and the st4 "
                                  "aligner archehr/align/model_pairwise.json) from demo dev + test-2026 + train + "
                                  "synthetic dev instead; takes only --synthetic, --only, --out-dir.")] = False,
    synthetic: Annotated[Path | None, typer.Option(
        "--synthetic", envvar=SYNTHETIC_ENV,
        help="With --rebuild-shipped: the synthetic release folder (its dev split is trained on; default: "
             f"${SYNTHETIC_ENV}, else {DEFAULT_SYNTHETIC.as_posix()} from the current folder).",
        show_default=False)] = None,
    only: Annotated[str | None, typer.Option(
        "--only", help="With --rebuild-shipped: rebuild one model, lexical | embedding | align (default: all three; "
                       "embedding is skipped with a note when MiniLM is not installed).", show_default=False)] = None,
    out_dir: Annotated[Path | None, typer.Option(
        "--out-dir", help="With --rebuild-shipped: write the model files here instead of over the shipped ones.",
        show_default=False)] = None,
) -> None:
    if rebuild:
        _refuse(_given(ctx, TRAIN_ONLY), "options --rebuild-shipped does not take (it trains on fixed splits; "
                                         "--out-dir writes elsewhere)")
        rebuild_shipped(synthetic, only, out_dir)
        return
    _refuse(_given(ctx, REBUILD_ONLY), "options of --rebuild-shipped given without it")
    from archehr.errors import ConfigError, Problem

    if classifier not in CLASSIFIERS:
        raise ConfigError(Problem(f"unknown --classifier {classifier!r} (known: {', '.join(CLASSIFIERS)})",
                                  field="--classifier"))
    if classifier == "cross-encoder":
        _refuse(_given(ctx, TRAINED_ONLY), "options of the trained classifier, not of --classifier cross-encoder")
        if base_model is None:
            raise ConfigError(Problem("--classifier cross-encoder needs --base-model DIR (a local Hugging Face "
                                      "encoder folder)", field="--base-model"))
        from archehr.training.cross_encoder import FineTuneSettings, finetune

        settings = FineTuneSettings(epochs=epochs, lr=lr, batch_size=batch_size, max_length=max_length,
                                    heldout=heldout, seed=seed, target=target)
        out = output if _given(ctx, ("output",)) else DEFAULT_CROSS_ENCODER_OUT
        if finetune(_training_parts(data_dir, split, also, version_dir), base_model, out, settings,
                    review_level=review_level, log=print, progress=progress) is not None:  # None: not the main process
            print(how_to_use(out, cross_encoder=True))
        return
    _refuse(_given(ctx, CROSS_ENCODER_ONLY), "options of --classifier cross-encoder given without it")
    from archehr.relevance.embedding import embeddings_available
    from archehr.training.relevance_logistic import train as fit
    from archehr.training.relevance_logistic import train_parts

    if features == "auto":
        ok, why = embeddings_available()
        features = "lexical+embedding" if ok else "lexical"
        if not ok:
            err(f"note: training with lexical features only ({why})")
    parts = _training_parts(data_dir, split, also, version_dir)
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
    print(how_to_use(output))
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


def how_to_use(model: Path, cross_encoder: bool = False) -> str:
    """The system-config line that runs a trained model (a path relative to the YAML would not resolve)."""
    import json

    path = json.dumps(str(model.resolve()))
    line = (f"{{kind: classifier, classifier: {{kind: cross-encoder, checkpoint: {path}}}}}" if cross_encoder
            else f"{{kind: default, model: {path}}}")
    return (f"use it: a system YAML (e.g. a copy of configs/systems/trained-extractive.yaml) with the line\n"
            f"  selector: {line}\n"
            f"then: archehr predict --system THAT.yaml")

