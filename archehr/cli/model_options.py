"""The model-metric options (BERTScore, AlignScore, MEDCON) of every scoring command, declared once.

`archehr score`, `leaderboard`, `compare` and `report` are decorated with `@model_options`: it adds these
seven options to the command (same names, help and validation everywhere) and hands the command one
`metric_params` (metric name -> the values given for its own parameters, or None when no option is given)
built by `model_params()`. Each option is user-facing sugar for one parameter of one metric
(`--bertscore-model` is `bertscore(model=...)`): `MODEL_OPTIONS` names that (metric, parameter), and the
value is checked by the parameter's own declaration (`Param` in the metric class: type, choices, minimum),
never by a second copy here (tests/test_metric_params.py checks the table against the declarations).
`metric_specs` reads the `--metrics` list, whose specs may set the same parameters.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NamedTuple, TypeVar

import typer


def _opt(kind: Any, *flags: str, help: str) -> Any:
    """An optional model option's typer annotation (no default shown: the metric's own default applies)."""
    return Annotated[kind | None, typer.Option(*flags, help=help, show_default=False)]


BertModelOpt = _opt(str, "--bertscore-model", help="BERTScore model: a local folder, a name in the HF cache, or "
                                                   "'minilm'.")
BertLayersOpt = _opt(int, "--bertscore-layers", help="BERTScore layer used (default 4).")
BertBaselineOpt = _opt(Path, "--bertscore-baseline", help="BERTScore rescale baseline TSV (default: bert-score's file "
                                                          "for the model).")
BertImplOpt = _opt(str, "--bertscore-impl", help="auto (torch-only fast path for BERT/DistilBERT, same numbers; the "
                                                 "default) | bert-score (reference implementation) | fast.")
AlignCkptOpt = _opt(Path, "--alignscore-ckpt", help="AlignScore-base.ckpt.")
AlignModelOpt = _opt(str, "--alignscore-model", help="AlignScore's base model: a local roberta-base folder or a name "
                                                     "in the HF cache (default roberta-base).")
QuickumlsOpt = _opt(Path, "--quickumls", "--quickumls-path", help="QuickUMLS index folder (MEDCON).")

class ModelOption(NamedTuple):
    """One option: the command's keyword, its typer annotation, and the one metric parameter it sets."""

    keyword: str
    annotation: Any
    metric: str
    param: str

    @property
    def flag(self) -> str:
        info = self.annotation.__metadata__[0]  # typer takes the first flag in its `default` slot
        return next(d for d in (info.default, *info.param_decls) if isinstance(d, str) and d.startswith("--"))


# In help order. Every option defaults to None (not given: the metric keeps its declared default).
MODEL_OPTIONS: tuple[ModelOption, ...] = (
    ModelOption("bertscore_model", BertModelOpt, "bertscore", "model"),
    ModelOption("bertscore_layers", BertLayersOpt, "bertscore", "layers"),
    ModelOption("bertscore_baseline", BertBaselineOpt, "bertscore", "baseline"),
    ModelOption("bertscore_impl", BertImplOpt, "bertscore", "impl"),
    ModelOption("alignscore_ckpt", AlignCkptOpt, "alignscore", "ckpt"),
    ModelOption("alignscore_model", AlignModelOpt, "alignscore", "model"),
    ModelOption("quickumls", QuickumlsOpt, "medcon", "quickumls"),
)
F = TypeVar("F", bound=Callable[..., Any])


def model_options(command: F) -> F:
    """Add the seven model-metric options to a typer command that takes `metric_params` (they replace it)."""
    sig = inspect.signature(command)
    if "metric_params" not in sig.parameters:
        raise TypeError(f"{command.__name__} must take a `metric_params` parameter to use @model_options")
    params = []
    for p in sig.parameters.values():  # typer needs evaluated annotations; `metric_params` is ours, not an option
        if p.name != "metric_params":
            ann = eval(p.annotation, command.__globals__) if isinstance(p.annotation, str) else p.annotation
            params.append(p.replace(annotation=ann))
    params += [inspect.Parameter(o.keyword, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=o.annotation)
               for o in MODEL_OPTIONS]

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        options = {o.keyword: kwargs.pop(o.keyword, None) for o in MODEL_OPTIONS}
        return command(*args, metric_params=model_params(**options), **kwargs)

    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper  # type: ignore[return-value]


def metric_specs(metrics: str | None, metric_params: dict[str, dict[str, Any]] | None
                 ) -> tuple[list[str] | None, dict[str, dict[str, Any]]]:
    """The metric names of `--metrics` and each metric's parameters, with its specs' (`bertscore(layers=3)`)."""
    from archehr_scoring.metrics.spec import apply_metric_specs

    return apply_metric_specs(metrics or None, metric_params)


def model_params(**options: Any) -> dict[str, dict[str, Any]] | None:
    """metric name -> {parameter: value} from the options given (None when none is: every metric on its
    declared defaults).

    Each value is checked by its parameter's declaration (a ConfigError naming the option, exit 2): a path
    that does not exist makes its metric *unavailable* in the report, as `archehr score` has always done, and
    a bad baseline file is a ConfigError raised when BERTScore reads it.
    """
    from archehr.errors import ConfigError, Problem
    from archehr_scoring.metrics.registry import metric_class

    out: dict[str, dict[str, Any]] = {}
    for o in MODEL_OPTIONS:
        value = options.pop(o.keyword, None)
        if value is None:
            continue
        declared = {p.name: p for p in metric_class(o.metric).parameters}[o.param]
        try:
            out.setdefault(o.metric, {})[o.param] = declared.check(o.metric, value)
        except ConfigError as e:
            raise ConfigError(Problem(e.problems[0].message, field=o.flag, code="option")) from None
    if options:
        raise TypeError(f"unknown model options: {', '.join(options)}")
    return out or None
