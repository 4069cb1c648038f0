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

# the headline score of each task: what "kept" is measured on
HEADLINE = {"2025": "strict_micro_f1", "st1": "overall_score", "st2": "strict_micro_f1", "st3": "overall_score",
            "st4": "micro_f1"}
TEXT_METRICS = {"st1": ["rouge"], "st3": ["bleu", "rouge", "sari"]}


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

    from archehr.pipeline import find_system_file, parse_system

    path = find_system_file(system)
    raw = copy.deepcopy(yaml.safe_load(path.read_text(encoding="utf-8")))
    raw["backend"] = {"name": "openai", "cache": False,
                      "params": {"base_url": url, "model": "perfect", "timeout": 30, "retries": 1, "backoff": 0.1}}
    if structured is not None:
        for section in ("selector", "align"):
            if isinstance(raw.get(section), dict) and "structured" in raw[section]:
                raw[section]["structured"] = structured
    return parse_system(raw, str(path))


def _headline(task: str, submission: Any, split: Split, settings: Any) -> float:
    from archehr_scoring.api import score

    metrics = TEXT_METRICS.get(task, ["factuality"] if task == "2025" else None)
    rep = score(task, submission, split, metrics=metrics, settings=settings)
    value = rep.scores.get(HEADLINE[task])
    if value is None and HEADLINE[task] in rep.partial:  # overall without the model metrics: their partial mean
        value = rep.partial[HEADLINE[task]].value
    if value is None:
        raise RuntimeError(f"{task}: no {HEADLINE[task]} in the score report")
    return float(value)


def measure(split: Split, train: Split | None, tasks: list[str], style: str = "pipes", structured: bool | None = None,
            system: str = "openai-server", settings: Any = None) -> tuple[list[Fidelity], dict[str, int]]:
    """(one Fidelity per task, requests served per prompt kind)."""
    import json

    from archehr.pipeline import System
    from archehr.runs import run_split

    out: list[Fidelity] = []
    with PerfectServer(split, style) as server, tempfile.TemporaryDirectory() as tmp:
        sys_obj = System(system_config(system, server.url, structured))
        sys_obj.prepare(train)
        for task in tasks:
            direct = _headline(task, server.model.direct_submission(task), split, settings)
            result = run_split(sys_obj, split, task, Path(tmp) / task)
            sub = json.loads((Path(tmp) / task / "submission.json").read_text(encoding="utf-8"))
            out.append(Fidelity(task, HEADLINE[task], direct, _headline(task, sub, split, settings),
                                len(result.fallbacks)))
        requests = dict(server.requests)
    return out, requests
