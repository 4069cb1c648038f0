"""The metric registry: names -> lazily imported metric classes.

Entries are import paths so that `archehr score --metrics bleu` never imports torch: a metric's
module is imported only when the metric is built.
"""

from __future__ import annotations

import importlib
from typing import Any

from archehr.registry import Registry
from archehr_scoring.metrics.base import TextMetric

METRICS: Registry[str] = Registry("metric")

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


def build_metric(name: str, **settings: Any) -> TextMetric:
    module, cls = METRICS.get(name).split(":")
    return getattr(importlib.import_module(module), cls)(**settings)
