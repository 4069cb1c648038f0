"""What every LLM component of the shipped LLM configs asks the model, byte for byte.

A recording backend stands in for each config's backend and answers as the scripted perfect model does
(archehr/testing/perfect_server.py), so every component takes its ordinary path. For three demo dev
cases and every task the config predicts, the prompts (as the chat messages an OpenAI-compatible server
gets) and the sampling options are compared with `tests/golden/llm_prompts/<config>.json`. A change of
prompt or demonstration shows here; regenerate with `ARCHEHR_UPDATE_SNAPSHOTS=1` and explain it in the
commit message.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from archehr.llm.base import Backend, split_reply_start

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "tests" / "golden" / "llm_prompts"
CONFIGS = ("openai-server", "smollm2")
CASES = ("1", "2", "3")
TASKS = ("2025", "st1", "st2", "st4")


class RecordingBackend(Backend):
    name = "recording"

    def __init__(self, model: Any):
        self.model = model
        self.calls: list[dict[str, Any]] = []

    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256, response_format: dict[str, Any] | None = None) -> list[str]:
        user, start = split_reply_start(prompt)
        self.calls.append({"messages": [{"role": "user", "content": f"{user}\n{start}" if start else user}],
                           "n": n, "temperature": temperature, "seed": seed, "max_tokens": max_tokens,
                           "response_format": response_format})
        return [self.model.reply(prompt, response_format) for _ in range(n)]

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name}


def record(config: str) -> list[dict[str, Any]]:
    from archehr.data.releases import load_split
    from archehr.pipeline import System
    from archehr.system_config import load_config
    from archehr.testing.perfect_server import PerfectModel

    demo = REPO / "data" / "demo"
    dev, train = load_split(demo, "dev"), load_split(demo, "train")
    rec = RecordingBackend(PerfectModel(dev))

    class Recorded(System):
        def backend(self) -> Any:
            return rec

    system = Recorded(load_config(config))
    system.prepare(train)
    out = []
    for case_id in CASES:
        case = next(c for c in dev.cases if c.case_id == case_id)
        for task in TASKS:
            rec.calls = []
            system.predict(case, task, dev)
            out += [{"case": case_id, "task": task, **call} for call in rec.calls]
    return out


@pytest.mark.parametrize("config", CONFIGS)
def test_prompts_of_the_shipped_llm_configs_are_unchanged(config):
    got = record(config)
    path = GOLDEN / f"{config}.json"
    if os.environ.get("ARCHEHR_UPDATE_SNAPSHOTS"):
        path.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    want = json.loads(path.read_text(encoding="utf-8"))
    assert len(got) == len(want), f"{config}: {len(got)} requests, the snapshot has {len(want)}"
    for g, w in zip(got, want, strict=True):
        assert g == w, f"{config}: case {w['case']} task {w['task']} asks differently"


def test_the_snapshot_covers_every_llm_component():
    calls = json.loads((GOLDEN / "openai-server.json").read_text(encoding="utf-8"))
    from archehr.testing.perfect_server import prompt_kind

    kinds = {prompt_kind(c["messages"][-1]["content"]) for c in calls}
    assert kinds == {"evidence", "question", "alignment", "answer"}
