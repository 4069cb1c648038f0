"""The metric registry: names -> lazily imported metric classes.

Entries are import paths so that `archehr score --metrics bleu` never imports torch: a metric's
module is imported only when the metric is built (metric modules import their heavy dependencies
inside the class, so reading a metric's declared parameters stays cheap).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from archehr.registry import Registry
from archehr_scoring.metrics.base import TextMetric
from archehr_scoring.metrics.params import MetricParams, resolve_params

METRICS: Registry[type[TextMetric]] = Registry("metric")

# name -> "module:Class"; each module imports its heavy dependencies inside the class.
for _name, _path in {
    "bleu": "archehr_scoring.metrics.bleu:Bleu",
    "rouge": "archehr_scoring.metrics.rouge:Rouge",
    "sari": "archehr_scoring.metrics.sari:Sari",
    "bertscore": "archehr_scoring.metrics.bertscore:BertScore",
    "alignscore": "archehr_scoring.metrics.alignscore:AlignScore",
    "medcon": "archehr_scoring.metrics.medcon:Medcon",
}.items():
    METRICS.add(_name, _path)

# Those that need a model, checkpoint or index (unavailable on most machines; model-free scoring leaves them out).
MODEL_METRICS = ("bertscore", "alignscore", "medcon")


def metric_class(name: str) -> type[TextMetric]:
    """The registered class (UnknownNameError with "did you mean" for an unknown name)."""
    return METRICS.get(name)


def params_record(names: Iterable[str], params: MetricParams | None = None) -> dict[str, dict[str, Any]]:
    """Every parameter of each metric in `names` as reports record it (`meta["metric_params"]`): the declared
    defaults with the given values over them, a path-like one (a parameter declared with a `path` kind) as
    `model_ids.path_id` names it, so no machine path reaches a shared score file."""
    from archehr_scoring.metrics.model_ids import path_id

    record: dict[str, dict[str, Any]] = {}
    for name in names:
        cls = metric_class(name)
        values = resolve_params(name, cls.parameters, (params or {}).get(name, {}))
        record[name] = {p.name: path_id(values[p.name], p.path) if p.path and isinstance(values[p.name], str)
                        else values[p.name] for p in cls.parameters}
    return record


def build_metric(name: str, /, reference_kind: str | None = "essential", **params: Any) -> TextMetric:
    """Metric `name` built from its own parameters (`params`; the others keep their declared defaults)."""
    return metric_class(name)(reference_kind=reference_kind, **params)
