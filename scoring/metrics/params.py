"""Metric parameters, declared by each metric (ir_measures-style): name, type, choices, default, help.

A metric receives only the parameters it declares, with its declared defaults filled in: BLEU never sees
BERTScore's model. Values come from Python (`build_metric("bertscore", model="minilm")`), from a metric
spec string (`bertscore(model=minilm,layers=4)`, parsed in `spec.py`), or from a mapping metric name ->
its own values (`MetricParams`: the API's `metric_params=`, and what the CLI options `--bertscore-model` ...
become, each option naming the one metric parameter it sets). Bad values are `ConfigError`s naming the
metric and the parameter; an unknown parameter answers "did you mean".
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from archehr.errors import ConfigError, Problem

MetricParams = Mapping[str, Mapping[str, Any]]
"""Metric name -> the values given for its own parameters (`{"bertscore": {"model": "minilm"}}`)."""

_TYPE_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


@dataclass(frozen=True)
class Param:
    """One parameter a metric takes."""

    name: str
    type: type  # str, int, float or bool
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    nullable: bool = False  # None is a valid value (written `none` in a spec string)
    minimum: float | None = None
    # "model" (folder), "file" or "index" (folder) when the value may be a local path: reports name it as
    # model_ids.path_id does (as the signature does), never by the path
    path: str | None = None

    def check(self, metric: str, value: Any) -> Any:
        """`value` (a Python value, or the text of a spec string) as this parameter's type, or ConfigError."""
        if isinstance(value, os.PathLike):
            value = os.fspath(value)
        if value is None or (isinstance(value, str) and value.strip().lower() == "none" and self.type is not str):
            if self.nullable:
                return None
            raise self._error(metric, value)
        if isinstance(value, str) and self.type is not str:
            value = self._from_text(metric, value.strip())
        ok = isinstance(value, self.type) and not (self.type is not bool and isinstance(value, bool))
        if self.type is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise self._error(metric, value)
        if self.choices is not None and value not in self.choices:
            raise ConfigError(Problem(f"metric {metric}: parameter {self.name} must be one of "
                                      f"{', '.join(map(str, self.choices))}, not {value!r}", field=self.where(metric),
                                      code="bad-value"))
        if self.minimum is not None and value < self.minimum:
            raise ConfigError(Problem(f"metric {metric}: parameter {self.name} must be at least {self.minimum:g}, "
                                      f"not {value!r}", field=self.where(metric), code="bad-value"))
        return value

    def _from_text(self, metric: str, text: str) -> Any:
        try:
            if self.type is bool:
                if text.lower() in _TRUE:
                    return True
                if text.lower() in _FALSE:
                    return False
                raise ValueError(text)
            return self.type(text)
        except ValueError:
            raise self._error(metric, text) from None

    def _error(self, metric: str, value: Any) -> ConfigError:
        want = _TYPE_NAMES.get(self.type, self.type.__name__) + (" or none" if self.nullable else "")
        return ConfigError(Problem(f"metric {metric}: parameter {self.name} must be {want}, got {value!r}",
                                   field=self.where(metric), code="bad-value"))

    def where(self, metric: str) -> str:
        return f"{metric}({self.name})"

    def text(self, value: Any) -> str:
        """The value as written in a spec string (parses back to the same value)."""
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


def unknown_param(metric: str, name: str, params: Iterable[Param]) -> ConfigError:
    names = [p.name for p in params]
    if not names:
        return ConfigError(Problem(f"metric {metric} takes no parameters (got {name})", field=f"{metric}({name})",
                                   code="bad-value"))
    close = difflib.get_close_matches(name, names, n=2, cutoff=0.5)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return ConfigError(Problem(f"metric {metric} has no parameter {name!r}{hint} (its parameters: "
                               f"{', '.join(names)})", field=f"{metric}({name})", code="bad-value"))


def check_given(metric: str, params: tuple[Param, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """The values `given` for a metric, each checked against its declaration (an unknown name is an error)."""
    by_name = {p.name: p for p in params}
    out: dict[str, Any] = {}
    for key, value in given.items():
        p = by_name.get(key)
        if p is None:
            raise unknown_param(metric, key, params)
        out[key] = p.check(metric, value)
    return out


def resolve_params(metric: str, params: tuple[Param, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """The metric's parameter values: its declared defaults overridden by `given`, each checked."""
    return {**{p.name: p.default for p in params}, **check_given(metric, params, given)}
