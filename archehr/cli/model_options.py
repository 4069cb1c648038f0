"""The model-metric options (BERTScore, AlignScore, MEDCON) of every scoring command, declared once.

`archehr score`, `leaderboard`, `compare` and `report` are decorated with `@model_options`: it adds these
seven options to the command (same names, help and validation everywhere) and hands the command one
`settings` (`MetricSettings`, or None for the official defaults) built by `model_settings()`. Each option is
a parameter of one metric (`--bertscore-model` is `bertscore(model=...)`); `metric_specs` reads the
`--metrics` list, whose specs may set the same parameters.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:  # the scorer package is imported when a command runs, not at CLI start-up
    from archehr_scoring.metrics.base import MetricSettings

BertModelOpt = Annotated[str | None, typer.Option("--bertscore-model", help="BERTScore model: a local folder, a name "
                                                                            "in the HF cache, or 'minilm'.",
                                                  show_default=False)]
# min=0: layer 0 (the embeddings) is valid in bert-score; a negative layer would only fail later, misnamed
# as a bad baseline row.
BertLayersOpt = Annotated[int | None, typer.Option("--bertscore-layers", min=0, help="BERTScore layer used "
                                                                                     "(default 4).",
                                                   show_default=False)]
BertBaselineOpt = Annotated[Path | None, typer.Option("--bertscore-baseline", help="BERTScore rescale baseline TSV "
                                                                                   "(default: bert-score's file for "
                                                                                   "the model).",
                                                      show_default=False)]
BertImplOpt = Annotated[str, typer.Option("--bertscore-impl", help="auto (torch-only fast path for BERT/DistilBERT, "
                                                                   "same numbers) | bert-score (reference "
                                                                   "implementation) | fast.")]
AlignCkptOpt = Annotated[Path | None, typer.Option("--alignscore-ckpt", help="AlignScore-base.ckpt.",
                                                   show_default=False)]
AlignModelOpt = Annotated[str | None, typer.Option("--alignscore-model", help="AlignScore's base model: a local "
                                                                              "roberta-base folder or a name in the "
                                                                              "HF cache (default roberta-base).",
                                                   show_default=False)]
QuickumlsOpt = Annotated[Path | None, typer.Option("--quickumls", "--quickumls-path", help="QuickUMLS index folder "
                                                                                           "(MEDCON).",
                                                   show_default=False)]


# (parameter name, annotation, default) of each option, in help order.
MODEL_OPTIONS: tuple[tuple[str, Any, Any], ...] = (
    ("bertscore_model", BertModelOpt, None),
    ("bertscore_layers", BertLayersOpt, None),
    ("bertscore_baseline", BertBaselineOpt, None),
    ("bertscore_impl", BertImplOpt, "auto"),
    ("alignscore_ckpt", AlignCkptOpt, None),
    ("alignscore_model", AlignModelOpt, None),
    ("quickumls", QuickumlsOpt, None),
)
F = TypeVar("F", bound=Callable[..., Any])


def model_options(command: F) -> F:
    """Add the seven model-metric options to a typer command that takes `settings` (they replace it)."""
    sig = inspect.signature(command)
    if "settings" not in sig.parameters:
        raise TypeError(f"{command.__name__} must take a `settings` parameter to use @model_options")
    params = []
    for p in sig.parameters.values():  # typer needs evaluated annotations; `settings` is ours, not an option
        if p.name != "settings":
            ann = eval(p.annotation, command.__globals__) if isinstance(p.annotation, str) else p.annotation
            params.append(p.replace(annotation=ann))
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=ann)
               for name, ann, default in MODEL_OPTIONS]

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        options = {name: kwargs.pop(name, default) for name, _, default in MODEL_OPTIONS}
        return command(*args, settings=model_settings(**options), **kwargs)

    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper  # type: ignore[return-value]


def metric_specs(metrics: str | None, settings: MetricSettings | None
                 ) -> tuple[list[str] | None, MetricSettings | None]:
    """The metric names of `--metrics` and the settings with its specs' parameters (`bertscore(layers=3)`)."""
    from archehr_scoring.metrics.spec import apply_metric_specs

    return apply_metric_specs(metrics or None, settings)


def model_settings(*, bertscore_model: str | None = None, bertscore_layers: int | None = None,
                   bertscore_baseline: Path | None = None, bertscore_impl: str = "auto",
                   alignscore_ckpt: Path | None = None, alignscore_model: str | None = None,
                   quickumls: Path | None = None) -> MetricSettings | None:
    """MetricSettings from the options, or None (the official defaults, what the scorers use for None) when no
    option changes anything.

    Only the implementation choice is checked here (ConfigError naming the option, exit 2): a path that does
    not exist makes its metric *unavailable* in the report, as `archehr score` has always done, and a bad
    baseline file is a ConfigError raised when BERTScore reads it.
    """
    import dataclasses

    from archehr.errors import ConfigError, Problem
    from archehr_scoring.metrics.base import MetricSettings

    changes: dict[str, object] = {}
    if bertscore_model:
        changes["bertscore_model"] = bertscore_model
    if bertscore_layers is not None:
        changes["bertscore_layers"] = bertscore_layers
    if bertscore_baseline is not None:
        changes["bertscore_baseline"] = str(bertscore_baseline)
    if bertscore_impl != "auto":
        if bertscore_impl not in ("fast", "bert-score"):
            raise ConfigError(Problem(f"unknown --bertscore-impl {bertscore_impl!r}; expected auto, fast or bert-score",
                                      field="--bertscore-impl", code="option"))
        changes["bertscore_impl"] = bertscore_impl
    if alignscore_ckpt is not None:
        changes["alignscore_ckpt"] = str(alignscore_ckpt)
    if alignscore_model:
        changes["alignscore_model"] = alignscore_model
    if quickumls is not None:
        changes["quickumls_path"] = str(quickumls)
    return dataclasses.replace(MetricSettings(), **changes) if changes else None  # type: ignore[arg-type]
