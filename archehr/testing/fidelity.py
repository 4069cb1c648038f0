"""Glue fidelity: what a system keeps of a perfect model's output, per subtask, scored officially.

`measure(split, train, tasks, style=..., structured=...)` starts a `PerfectServer` over `split` (with
its key), points a copy of a system config's backend at it, runs the system on every task, and scores
both the model's own replies submitted directly (`PerfectModel.direct_submission`) and the system's
submission with the official scorer. `kept = system / direct`. benchmarks/llm_fidelity.py prints it
for every citation style; tests/test_llm_fidelity.py checks it on a few cases.
"""

from __future__ import annotations

import copy
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archehr.data.model import Split
from archehr.testing.perfect_server import PerfectServer


def measured_on(task: str) -> tuple[str, list[str] | None]:
    """(the score "kept" is measured on, the metrics to run for it), from the task registry.

    A task whose predictions cite note ids: its per-case citation F1, from its own metrics only (2025's
    factuality; none to add for st2/st4). A text task: its overall score from the metrics that need no
    model (the model ones are absent on most machines; the overall is then their partial mean).
    """
    from archehr_scoring.metrics.registry import MODEL_METRICS
    from archehr_scoring.tasks import OVERALL_KEY, get_task

    spec = get_task(task)
    if spec.cites_note_ids:
        return spec.case_keys[0], list(spec.own_metrics) or None
    return OVERALL_KEY, [m for m in spec.metrics if m not in MODEL_METRICS]


@dataclass(frozen=True)
class Fidelity:
    task: str
    metric: str
    direct: float
    system: float
    fallbacks: int  # cases the system answered without the model (each is a loss)

    @property
    def kept(self) -> float:
        return self.system / self.direct if self.direct else float("nan")


def system_config(system: str, url: str, structured: bool | None = None) -> Any:
    """The named system config with its backend aimed at `url`, no cache, quick retries."""
    import yaml

    from archehr.system_config import find_system_file, parse_system

    path = find_system_file(system)
    raw = copy.deepcopy(yaml.safe_load(path.read_text(encoding="utf-8")))
    raw["backend"] = {"kind": "openai", "cache": False, "base_url": url, "model": "perfect", "timeout": 30,
                      "retries": 1, "backoff": 0.1}
    if structured is not None:
        for section in ("selector", "align"):
            if isinstance(raw.get(section), dict) and "structured" in raw[section]:
                raw[section]["structured"] = structured
    return parse_system(raw, str(path))


def _headline(task: str, submission: Any, split: Split, metric_params: Any) -> float:
    from archehr_scoring.api import score

    key, metrics = measured_on(task)
    rep = score(task, submission, split, metrics=metrics, metric_params=metric_params)
    value = rep.scores.get(key)
    if value is None and key in rep.partial:  # overall without the model metrics: their partial mean
        value = rep.partial[key].value
    if value is None:
        raise RuntimeError(f"{task}: no {key} in the score report")
    return float(value)


def measure(split: Split, train: Split | None, tasks: list[str], style: str = "pipes", structured: bool | None = None,
            system: str = "openai-server", metric_params: Any = None) -> tuple[list[Fidelity], dict[str, int]]:
    """(one Fidelity per task, requests served per prompt kind)."""
    import json

    from archehr.pipeline import System
    from archehr.runs import run_split

    out: list[Fidelity] = []
    with PerfectServer(split, style) as server, tempfile.TemporaryDirectory() as tmp:
        sys_obj = System(system_config(system, server.url, structured))
        sys_obj.prepare(train)
        for task in tasks:
            direct = _headline(task, server.model.direct_submission(task), split, metric_params)
            result = run_split(sys_obj, split, task, Path(tmp) / task)
            sub = json.loads((Path(tmp) / task / "submission.json").read_text(encoding="utf-8"))
            out.append(Fidelity(task, measured_on(task)[0], direct, _headline(task, sub, split, metric_params),
                                len(result.fallbacks)))
        requests = dict(server.requests)
    return out, requests
