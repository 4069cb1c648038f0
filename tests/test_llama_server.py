"""`archehr predict` against a REAL OpenAI-compatible server: llama-cpp-python's, serving the SmolLM2 GGUF.

Our own scripted servers (archehr/testing/) behave as we think servers behave; this one is somebody else's code.
It checks the wire, not the model: a 135M model's answers are weak, but every request must be answered
(no transport fallback), structured output must be negotiated (llama-cpp-python answers `response_format`
`json_schema` with HTTP 500 and takes `{"type": "json_object", "schema": ...}`), the server must apply the
model's own chat template, and the submission must validate, for every task a system predicts.

The server runs from its own virtualenv, named by ARCHEHR_LLAMA_PYTHON (default `.venv-llama/bin/python` in the
checkout). `.ci/run` builds it from the source distribution (`CMAKE_ARGS=-DGGML_NATIVE=OFF`: a native build dies
with SIGILL on the first request) and sets ARCHEHR_REQUIRE_LLAMA=1, under which a missing server fails these
tests instead of skipping them, so CI cannot pass without running them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from server_process import free_port, running_server

from archehr.data.releases import demo_dir, load_split, write_split

# the openai backend speaks HTTP through httpx (the `llm` extra): without it these tests cannot run
httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install 'archehr[llm]')")

REPO = Path(__file__).resolve().parents[1]
LLAMA_PYTHON = Path(os.environ.get("ARCHEHR_LLAMA_PYTHON") or REPO / ".venv-llama" / "bin" / "python")
REQUIRED = os.environ.get("ARCHEHR_REQUIRE_LLAMA") == "1"
CASES = 2  # per task: the point is the wire, and a CPU server answers one request at a time

pytestmark = pytest.mark.slow


def _unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"ARCHEHR_REQUIRE_LLAMA=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    if not LLAMA_PYTHON.is_file():
        _unavailable(f"no llama-cpp-python server at {LLAMA_PYTHON} (set ARCHEHR_LLAMA_PYTHON; .ci/run builds it)")
    probe = subprocess.run([str(LLAMA_PYTHON), "-c", "import llama_cpp.server"], capture_output=True, text=True)
    if probe.returncode != 0:
        _unavailable(f"{LLAMA_PYTHON} cannot import llama_cpp.server: {probe.stderr.strip()[-300:]}")
    from archehr.llm.transformers_backend import smollm2_location

    folder, name = smollm2_location()
    port = free_port()
    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    base = f"http://127.0.0.1:{port}/v1"
    # n_ctx 8192: SmolLM2's trained context; the prompts carry a note and a demonstration.
    cmd = [str(LLAMA_PYTHON), "-m", "llama_cpp.server", "--model", str(folder / name), "--host", "127.0.0.1",
           "--port", str(port), "--n_ctx", "8192", "--n_threads", "2", "--seed", "0"]
    with running_server(cmd, f"{base}/models", log_path, "llama-cpp-python server", 180) as (_, models):
        yield {"base_url": base, "served": [m["id"] for m in models["data"]], "log": log_path}


@pytest.fixture(scope="module")
def small_split(tmp_path_factory) -> Path:
    """The first cases of the demo test split as a release of their own (predict has no case filter)."""
    split = load_split(demo_dir(), "test")
    keep = [c.case_id for c in split.cases[:CASES]]
    out = tmp_path_factory.mktemp("release")
    write_split(split.subset(keep), out / "test")
    return out


def _config(tmp: Path, base_url: str) -> Path:
    """The shipped openai-server config with only base_url changed (whatever its grammar); its `model: auto`
    takes the one model the server lists."""
    raw = yaml.safe_load((REPO / "configs" / "systems" / "openai-server.yaml").read_text(encoding="utf-8"))
    backend = raw["backend"]
    target = backend["params"] if isinstance(backend.get("params"), dict) else backend
    assert "base_url" in target, f"no base_url in the shipped backend section: {backend}"
    target["base_url"] = base_url
    path = tmp / "openai-server-llama.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("task", ["2025", "st1", "st2", "st3", "st4"])
def test_predict_every_task_on_a_real_llama_cpp_server(llama_server, small_split, tmp_path, task):
    served = llama_server["served"]
    assert len(served) == 1, served
    config = _config(tmp_path, llama_server["base_url"])
    out = tmp_path / "run"
    env = {**os.environ, "ARCHEHR_DATA": str(small_split)}
    env.pop("OPENAI_API_KEY", None)
    cmd = [sys.executable, "-m", "archehr", "predict", "--system", str(config), "--split", "test", "--task", task,
           "-o", str(out), "--no-progress", "--cache-dir", str(tmp_path / "cache"),
           # a 135M model's replies are often unreadable (fallbacks, not transport faults): the wire is checked
           # below, so the model-share gate (exit 3 under 90%) is off here
           "--min-model-share", "0"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1500, cwd=tmp_path)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    run = json.loads((out / "run.json").read_text())

    # the run used the model the server serves, under its real name (a path, for llama-cpp-python)
    transport = run["llm_transport"]
    assert transport["model"]["served"]["id"] == served[0], transport["model"]
    assert run["model_share"]["cases"] == CASES, run["model_share"]

    # every request reached the model: no case fell back for a transport reason
    fallbacks = json.dumps(run.get("fallbacks", {}))
    for word in ("backend error", "cannot connect", "deadline", "breaker", "HTTP 5", "timed out"):
        assert word not in fallbacks, f"transport fallback ({word}): {fallbacks[:2000]}"
    usage = run["llm_usage"]["totals"]
    assert usage["requests"] >= CASES, usage
    assert usage["completion_tokens"] > 0, usage

    # structured output negotiated: tasks that send a schema end on llama.cpp's json_object form
    structured = transport["structured_output"]
    if task in ("2025", "st2", "st3", "st4"):
        assert structured["used"] == "json_object", structured

    # the server applied the GGUF's own chat template (ChatML for SmolLM2) and none of it leaked into replies
    log = llama_server["log"].read_text(errors="replace")
    assert "Using gguf chat template" in log
    submission = (out / "submission.json").read_text()
    assert "<|im_start|>" not in submission and "<|im_end|>" not in submission

    v = subprocess.run([sys.executable, "-m", "archehr", "validate", str(out / "submission.json"), "--task", task,
                        "--key", str(small_split / "test")],  # the split folder: notes and key (st2/st4 need it)
                       capture_output=True, text=True, env=env, timeout=300)
    assert v.returncode == 0, v.stdout + v.stderr
