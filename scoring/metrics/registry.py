"""The metric registry: names -> lazily imported metric classes.

Entries are import paths so that `archehr score --metrics bleu` never imports torch: a metric's
module is imported only when the metric is built (metric modules import their heavy dependencies
inside the class, so reading a metric's declared parameters stays cheap).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from archehr.registry import Registry
from archehr_scoring.metrics.base import MetricSettings, TextMetric

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


def settings_record(settings: MetricSettings) -> dict[str, Any]:
    """The settings as reports record them: every field, a path-like one (a parameter any registered metric
    declares a `path` kind) as `model_ids.path_id` names it, so no machine path reaches a shared score file."""
    from archehr_scoring.metrics.model_ids import path_id

    record = dataclasses.asdict(settings)
    for name in METRICS.names():
        for p in metric_class(name).parameters:
            if p.path and p.setting and isinstance(record.get(p.setting), str):
                record[p.setting] = path_id(record[p.setting], p.path)
    return record


def build_metric(name: str, settings: MetricSettings | None = None, /, reference_kind: str | None = "essential",
                 **params: Any) -> TextMetric:
    """Metric `name` with its own parameters: those of `settings` that are its own, then `params` over them."""
    cls = metric_class(name)
    values = settings.params_for(cls) if settings is not None else {}
    values.update(params)
    return cls(reference_kind=reference_kind, **values)
