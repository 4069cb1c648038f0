"""Metric spec strings: `rouge`, `bertscore(model=minilm,layers=4)`, lists of them joined by commas.

A spec names a registered metric and, in parentheses, values for the parameters it declares
(params.py); `str(parse_metric_spec(s))` writes it back in the same form, so a spec can be stored and
parsed again. A value holding `,()="'` or spaces is written in double quotes (backslash escapes).
`apply_metric_specs` turns the `--metrics` list into the metric names plus each metric's own parameter
values (`MetricParams`), merged with those given another way (the API's `metric_params=`, the CLI options
such as `--bertscore-model`), so a spec and the matching option are the same parameter of the same metric.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from archehr.errors import ConfigError, Problem, UnknownNameError
from archehr_scoring.metrics.params import MetricParams, check_given

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
_PLAIN_VALUE = re.compile(r"[^,()=\"'\s]+")
FIELD = "--metrics"


@dataclass(frozen=True)
class MetricSpec:
    """A metric name and the parameter values written for it (as text, in written order)."""

    name: str
    params: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return f"{self.name}({','.join(f'{k}={_quote(v)}' for k, v in self.params)})"


def _quote(value: str) -> str:
    if _PLAIN_VALUE.fullmatch(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _error(message: str) -> ConfigError:
    return ConfigError(Problem(message, field=FIELD, code="option"))


class _Reader:
    """A tiny recursive-descent reader over one spec list."""

    def __init__(self, text: str):
        self.text, self.i = text, 0

    def skip(self) -> None:
        while self.i < len(self.text) and self.text[self.i].isspace():
            self.i += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.i] if self.i < len(self.text) else ""

    def expect(self, ch: str, what: str) -> None:
        if self.peek() != ch:
            got = repr(self.text[self.i]) if self.i < len(self.text) else "the end"
            raise _error(f"metric spec {self.text!r}: expected {what} at position {self.i + 1}, found {got}")
        self.i += 1

    def name(self, what: str) -> str:
        self.skip()
        m = _NAME.match(self.text, self.i)
        if not m:
            got = repr(self.text[self.i]) if self.i < len(self.text) else "the end"
            raise _error(f"metric spec {self.text!r}: expected {what} at position {self.i + 1}, found {got}")
        self.i = m.end()
        return m.group(0)

    def value(self) -> str:
        ch = self.peek()
        if ch in ("'", '"'):
            self.i += 1
            out = []
            while self.i < len(self.text) and self.text[self.i] != ch:
                if self.text[self.i] == "\\" and self.i + 1 < len(self.text):
                    self.i += 1
                out.append(self.text[self.i])
                self.i += 1
            self.expect(ch, "a closing quote")
            return "".join(out)
        m = _PLAIN_VALUE.match(self.text, self.i)
        if not m:
            raise _error(f"metric spec {self.text!r}: expected a value at position {self.i + 1}")
        self.i = m.end()
        return m.group(0)

    def spec(self) -> MetricSpec:
        name = self.name("a metric name")
        params: list[tuple[str, str]] = []
        if self.peek() == "(":
            self.i += 1
            while self.peek() != ")":
                key = self.name("a parameter name")
                self.expect("=", f"'=' after {key}")
                if any(k == key for k, _ in params):
                    raise _error(f"metric spec {self.text!r}: parameter {key} is given twice")
                params.append((key, self.value()))
                if self.peek() != ")":
                    self.expect(",", "',' or ')'")
            self.i += 1
        return MetricSpec(name, tuple(params))

    def specs(self) -> list[MetricSpec]:
        out: list[MetricSpec] = []
        while self.peek():
            if self.peek() == ",":  # tolerate empty items, as the plain comma list always has
                self.i += 1
                continue
            out.append(self.spec())
            if self.peek():
                self.expect(",", "',' between metrics")
        return out


def parse_metric_specs(text: str | Sequence[str]) -> list[MetricSpec]:
    """Every spec of a comma-separated list (or of each string of a list); syntax errors are ConfigErrors."""
    items = [text] if isinstance(text, str) else list(text)
    return [s for item in items for s in _Reader(item).specs()]


def parse_metric_spec(text: str) -> MetricSpec:
    specs = parse_metric_specs(text)
    if len(specs) != 1:
        raise _error(f"expected one metric spec, got {len(specs)} in {text!r}")
    return specs[0]


def _metric_class(name: str, field: str = FIELD) -> type[Any]:
    from archehr_scoring.metrics.registry import METRICS, metric_class

    try:
        return metric_class(name)
    except UnknownNameError:
        raise ConfigError(Problem(METRICS.unknown_message(name), field=field, code="option")) from None


def spec_values(spec: MetricSpec) -> dict[str, Any]:
    """The spec's parameter values checked against the metric's declaration (typed), or ConfigError."""
    return check_given(spec.name, _metric_class(spec.name).parameters, dict(spec.params))


def check_metric_params(params: MetricParams | None) -> dict[str, dict[str, Any]]:
    """Each metric's given values checked against its declaration, values equal to the declared default left out
    (the same scores, the same record and cache key); metrics in name order, parameters in declared order."""
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(params or {}):
        given = (params or {})[name]
        if not isinstance(given, Mapping):
            raise ConfigError(Problem(f"metric {name}: its parameters must be a mapping of name to value, not "
                                      f"{type(given).__name__}", field=name, code="bad-value"))
        declared = _metric_class(name, "metric_params").parameters
        values = check_given(name, declared, given)
        own = {p.name: values[p.name] for p in declared if p.name in values and values[p.name] != p.default}
        if own:
            out[name] = own
    return out


def apply_metric_specs(metrics: str | Sequence[str] | None, params: MetricParams | None = None
                       ) -> tuple[list[str] | None, dict[str, dict[str, Any]]]:
    """(metric names, each metric's own parameter values) for a `--metrics` value and parameters given another way.

    Names without parameters pass through unchecked (the task decides what it runs); a spec with
    parameters must name a registered metric and its declared parameters. A spec value that
    contradicts a value given another way (e.g. `--bertscore-model`) is an error, not a silent pick.
    """
    given = check_metric_params(params)
    if metrics is None:
        return None, given
    names: list[str] = []
    from_specs: dict[str, dict[str, Any]] = {}
    for spec in parse_metric_specs(metrics):
        if spec.name not in names:
            names.append(spec.name)
        if not spec.params:
            continue
        own = from_specs.setdefault(spec.name, {})
        for key, value in spec_values(spec).items():
            if key in own and own[key] != value:
                raise _error(f"metric {spec.name}: parameter {key} is given two values ({own[key]!r} and "
                             f"{value!r})")
            before = given.get(spec.name, {})
            if key in before and before[key] != value:
                raise _error(f"metric {spec.name}: parameter {key}={value!r} contradicts {key}={before[key]!r} "
                             f"given another way (its command-line option or metric_params)")
            own[key] = value
    merged = {name: {**given.get(name, {}), **from_specs.get(name, {})} for name in {*given, *from_specs}}
    return names, check_metric_params(merged)
