"""Which metrics a task runs (`--metrics`), and running registered text metrics honestly.

A metric whose module, model or index is missing is reported *unavailable* with the reason and how
to fix it: never a number. Metric modules are imported only when their metric is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from archehr.errors import ConfigError, Problem, UnavailableError
from archehr_scoring.metrics.base import MetricResult, TextExample
from archehr_scoring.metrics.params import MetricParams
from archehr_scoring.tasks import Task


def resolve_metrics(task: Task, metrics: str | Sequence[str] | None) -> tuple[str, ...]:
    """The metrics to run: the task's own order; `all` (or nothing) = every metric of the task."""
    from archehr_scoring.metrics.registry import METRICS

    if metrics is None:
        return task.metrics
    names = [m.strip() for m in (metrics.split(",") if isinstance(metrics, str) else metrics) if m.strip()]
    if names and not task.metrics:
        raise ConfigError(Problem(f"{task.name} is scored on its own statistics; it takes no --metrics (got "
                                  f"{', '.join(names)})", field="--metrics", code="option"))
    problems: list[Problem] = []
    for n in names:
        if n == "all" or n in task.metrics:
            continue
        if n not in METRICS and n not in task.own_metrics:
            known = ", ".join(task.own_metrics) + ", " if task.own_metrics else ""
            problems.append(Problem(METRICS.unknown_message(n).replace("(known: ", f"(known: {known}"),
                                    field="--metrics", code="option"))
        else:
            problems.append(Problem(f"{task.name} does not use metric {n}; its metrics are {', '.join(task.metrics)}",
                                    field="--metrics", code="option"))
    if problems:
        raise ConfigError(problems)
    if not names:
        raise ConfigError(Problem("no metric requested", field="--metrics", code="option"))
    return tuple(m for m in task.metrics if m in names or "all" in names)


@dataclass
class MetricRows:
    """What the text metrics added: per-case values, signatures, why some could not run, their warnings."""

    signatures: dict[str, str] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list)


def run_metric(name: str, examples: Sequence[TextExample], params: Mapping[str, Any], reference_kind: str | None
               ) -> MetricResult:
    """Build and run one registered metric; a missing module/model becomes `unavailable`, never a number."""
    from archehr_scoring.metrics.registry import build_metric

    try:
        metric = build_metric(name, reference_kind=reference_kind, **params)  # only its own parameters
    except ModuleNotFoundError as e:
        if (e.name or "").startswith("archehr_scoring"):
            why = f"this installation has no implementation of {name!r} ({e.name} is missing)"
        else:
            why = f"module {e.name!r} is not installed (pip install 'archehr[models]')"
        return MetricResult(name, (), f"{name}|unavailable", unavailable=why)
    except UnavailableError as e:
        return MetricResult(name, (), f"{name}|unavailable", unavailable=str(e))
    try:
        return metric.run(examples)
    except UnavailableError as e:
        return MetricResult(name, metric.keys, metric.signature(), unavailable=str(e))


def run_metrics(names: Sequence[str], examples: Sequence[TextExample], rows: dict[str, dict[str, float]],
                params: MetricParams, reference_kind: str | None) -> MetricRows:
    """Run each metric over the examples, built from its own entry of `params`, and add its per-case values to
    `rows` (in place)."""
    out = MetricRows()
    for name in names:
        result = run_metric(name, examples, params.get(name, {}), reference_kind)
        out.signatures[name] = result.signature
        if result.unavailable is not None:
            out.unavailable[name] = result.unavailable
            continue
        for cid, row in rows.items():
            for k in result.keys:
                row[k] = float((result.per_case or {})[cid][k])
        out.warnings += [Problem(w, code="warning-metric") for w in result.warnings]
    return out
