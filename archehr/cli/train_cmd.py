"""`archehr train`: fit a model, or rebuild the shipped ones.

    archehr train logistic        the `trained` relevance classifier (logistic regression over features), its
                                  threshold calibrated leave-one-case-out; a versioned JSON model file
    archehr train cross-encoder   fine-tune a local Hugging Face encoder (transformers.Trainer)
    archehr train rebuild-shipped the shipped model files (the three selector models and the st4 aligner) from
                                  their fixed training splits (archehr.training.shipped)

The older one-command forms (`archehr train --split dev`, `--classifier cross-encoder`, `--rebuild-shipped`)
still work: `legacy_argv` rewrites them to the subcommand, with one deprecation line on stderr. Each
subcommand takes only its own options, so an option of another one (a `--split test` given to
`rebuild-shipped` would look as if the shipped models had been trained on the test split) is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import DataDirOpt, VersionOpt, err

CLASSIFIERS = {"trained": "logistic", "cross-encoder": "cross-encoder"}  # the old --classifier -> subcommand
SUBCOMMANDS = ("logistic", "cross-encoder", "rebuild-shipped")
DEFAULT_CROSS_ENCODER_OUT = Path("cross-encoder-selector")
# The synthetic release lies beside the checkout in the project's layout, and the commands are run from the
# checkout: so the default is relative to the current folder, never to where the package is installed.
DEFAULT_SYNTHETIC = Path("..") / "shared" / "data" / "synthetic"
SYNTHETIC_ENV = "ARCHEHR_SYNTHETIC"

app = typer.Typer(name="train", no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  help="Train a relevance classifier, or rebuild the shipped models.")

# The options the training subcommands share, declared once.
SplitOpt = Annotated[list[str] | None, typer.Option(
    "--split", help="Labelled split to train on (never the split you evaluate on); repeat to train on several.",
    show_default=False)]
AlsoOpt = Annotated[list[str] | None, typer.Option(
    "--also", help="Another labelled split to train on, as RELEASE_DIR:SPLIT (repeatable).", show_default=False)]
TargetOpt = Annotated[str, typer.Option("--target", help="Threshold on P(essential) or P(relevant).")]
ReviewOpt = Annotated[float | None, typer.Option(
    "--review-level", help="Flag cases with a confidence below this (default: the 20th percentile of the "
                           "calibration confidences).", show_default=False)]


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="train", short_help="Train a relevance classifier, or rebuild the shipped models.")


def legacy_argv(argv: list[str]) -> list[str]:
    """`archehr train --OPTIONS` (the one-command form) as `archehr train SUBCOMMAND --OPTIONS`, with one
    deprecation line on stderr; any other command line unchanged."""
    if len(argv) < 2 or argv[0] != "train" or not argv[1].startswith("-") or argv[1] in ("--help", "-h"):
        return argv
    rest, sub = list(argv[1:]), "logistic"
    if "--rebuild-shipped" in rest:
        rest.remove("--rebuild-shipped")
        sub = "rebuild-shipped"
    for i, a in enumerate(rest if sub == "logistic" else ()):  # rebuild-shipped refuses --classifier itself
        if a == "--classifier" or a.startswith("--classifier="):
            value = a.partition("=")[2] if "=" in a else (rest[i + 1] if i + 1 < len(rest) else "")
            del rest[i:i + (1 if "=" in a else 2)]
            if value not in CLASSIFIERS:
                from archehr.errors import ConfigError, Problem

                raise ConfigError(Problem(f"unknown --classifier {value!r} (known: {', '.join(CLASSIFIERS)})",
                                          field="--classifier"))
            sub = CLASSIFIERS[value]
            break
    err(f"note: `archehr train {' '.join(argv[1:])}` is the older form; write `archehr train {sub} ...` "
        f"(`archehr train --help`)")
    return ["train", sub, *rest]


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


@app.command("rebuild-shipped")
def rebuild_shipped(
    synthetic: Annotated[Path | None, typer.Option(
        "--synthetic", envvar=SYNTHETIC_ENV,
        help="The synthetic release folder (its dev split is trained on; default: "
             f"${SYNTHETIC_ENV}, else {DEFAULT_SYNTHETIC.as_posix()} from the current folder).",
        show_default=False)] = None,
    only: Annotated[str | None, typer.Option(
        "--only", help="Rebuild one model, lexical | embedding | interactions | align (default: all four; embedding "
                       "is skipped with a note when MiniLM is not installed).", show_default=False)] = None,
    out_dir: Annotated[Path | None, typer.Option(
        "--out-dir", help="Write the model files here instead of over the shipped ones.", show_default=False)] = None,
) -> None:
    """Rebuild the shipped model files (archehr/relevance/model_*.json and the st4 aligner
    archehr/align/model_pairwise.json) from demo dev + test-2026 + train + synthetic dev."""
    from archehr.data.releases import demo_dir
    from archehr.training.shipped import KINDS, rebuild

    # asked for by name, a model that cannot be built is an error; in the default "all" it is skipped with a note
    rebuild((only,) if only else KINDS, synthetic or DEFAULT_SYNTHETIC.resolve(), demo_dir(), out_dir, log=print,
            skip_unavailable=only is None)


@app.command("cross-encoder")
def cross_encoder(
    base_model: Annotated[Path | None, typer.Option(
        "--base-model", help="A local Hugging Face encoder folder (config.json, weights, tokenizer), e.g. a "
                             "BioClinicalBERT or ModernBERT download.", show_default=False)] = None,
    data_dir: DataDirOpt = None,
    split: SplitOpt = None,
    also: AlsoOpt = None,
    version_dir: VersionOpt = None,
    target: TargetOpt = "essential",
    review_level: ReviewOpt = None,
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder to write.")] = DEFAULT_CROSS_ENCODER_OUT,
    epochs: Annotated[float, typer.Option("--epochs", help="Training epochs.")] = 3.0,
    lr: Annotated[float, typer.Option("--lr", help="Peak learning rate (AdamW, linear decay).")] = 3e-5,
    batch_size: Annotated[int, typer.Option("--batch-size", help="Sentence pairs per device and step.")] = 16,
    max_length: Annotated[int, typer.Option("--max-length", help="Tokens per (question, sentence) pair; the "
                                                                 "sentence is truncated.")] = 256,
    heldout: Annotated[float, typer.Option("--heldout", help="Share of the cases kept out of training to "
                                                             "calibrate the threshold.")] = 0.2,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the held-out choice and of training.")] = 0,
    progress: Annotated[bool, typer.Option("--progress", help="Show the Trainer's progress bar.")] = False,
) -> None:
    """Fine-tune a (question, sentence) cross-encoder with transformers.Trainer, its threshold calibrated on
    held-out cases (`accelerate launch -m archehr train cross-encoder ...` for several GPUs)."""
    from archehr.errors import ConfigError, Problem

    if base_model is None:
        raise ConfigError(Problem("cross-encoder training needs --base-model DIR (a local Hugging Face "
                                  "encoder folder)", field="--base-model"))
    from archehr.training.cross_encoder import FineTuneSettings, finetune

    settings = FineTuneSettings(epochs=epochs, lr=lr, batch_size=batch_size, max_length=max_length,
                                heldout=heldout, seed=seed, target=target)
    if finetune(_training_parts(data_dir, split, also, version_dir), base_model, output, settings,
                review_level=review_level, log=print, progress=progress) is not None:  # None: not the main process
        print(how_to_use(output, cross_encoder=True))


@app.command("logistic")
def logistic(
    data_dir: DataDirOpt = None,
    split: SplitOpt = None,
    also: AlsoOpt = None,
    version_dir: VersionOpt = None,
    features: Annotated[str, typer.Option(
        "--features", help="lexical | lexical+embedding | lexical+everyday | lexical+interactions | "
                           "lexical+everyday+interactions | auto (auto: with embeddings when MiniLM is installed).")
                  ] = "lexical",
    target: TargetOpt = "essential",
    rule: Annotated[str, typer.Option(
        "--rule", help="Selector rule: threshold (calibrated threshold) or expected-f1 (per case, the number of "
                       "sentences of best expected F1; its power is calibrated).")] = "threshold",
    review_level: ReviewOpt = None,
    output: Annotated[Path, typer.Option("-o", "--output", help="Model file to write.")
                      ] = Path("relevance-model.json"),
    sweep: Annotated[bool, typer.Option("--sweep", help="Print the threshold curve and save it as a PNG.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="PNG path for --sweep (default: beside the model "
                                                             "file).")] = None,
) -> None:
    """Train the sentence-relevance classifier on a labelled split (leave-one-case-out calibration of L2 and
    threshold) and save a versioned JSON model file."""
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
        model, cal = fit(parts[0][1], features, target, review_level=review_level, rule=rule)
    else:
        model, cal = train_parts(parts, features, target, review_level=review_level, rule=rule)
    model.save(output)
    n_case = sum(len(sp.cases) for _, sp in parts)
    n_sent = sum(len(c.sentences) for _, sp in parts for c in sp.cases)
    where = ", ".join(f"{lab}={sp.source}" for lab, sp in parts) if len(parts) > 1 else parts[0][1].source
    print(f"trained on {where} ({n_case} cases, {n_sent} sentences), features {features}")
    setting = (f"power {cal.selector.power:g} (expected-F1 rule)" if rule == "expected-f1"
               else f"threshold {cal.selector.threshold:.2f}")
    print(f"leave-one-case-out: L2 {model.l2}, {setting} on P({target}), "
          f"strict micro F1 {100 * cal.f1:.1f}; cases with confidence < {cal.selector.review_level} get flagged")
    print(f"model written to {output}")
    print(how_to_use(output))
    if sweep:
        _print_sweep(cal, plot or output.with_suffix(".sweep.png"),
                     f"{features}, leave-one-case-out on {'+'.join(lab for lab, _ in parts)}")


def _print_sweep(cal, png: Path, title: str) -> None:
    """The threshold curve as a table, and as a PNG."""
    from archehr.relevance.plot import save_sweep_plot

    print(f"{'threshold':>9} {'F1':>6} {'P':>6} {'R':>6}")
    for t, f, p, r in cal.curve:
        mark = "  <- chosen" if abs(t - cal.selector.threshold) < 1e-9 else ""
        print(f"{t:>9.2f} {100 * f:>6.1f} {100 * p:>6.1f} {100 * r:>6.1f}{mark}")
    how = save_sweep_plot(png, cal.curve, cal.selector.threshold, title)
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

