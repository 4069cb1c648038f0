"""The openai backend against realistic servers (archehr/testing/serving_server.py): served model names,
streaming, queueing, overload, reasoning output, cut replies, structured-output negotiation."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from llm_runs import predict, shipped_system

from archehr.data.releases import load_split
from archehr.errors import ConfigError
from archehr.llm.base import BackendError
from archehr.llm.registry import build_backend
from archehr.llm.usage import track_usage
from archehr.testing.serving_server import ServingServer, ServingSettings

# the openai backend speaks HTTP through httpx (the `llm` extra): without it these tests cannot run
httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install 'archehr[llm]')")

REPO = Path(__file__).resolve().parents[1]
SCHEMA_FMT = {"type": "json_schema", "json_schema": {"name": "evidence", "schema": {"type": "object"}}}


@pytest.fixture(scope="module")
def split():
    return load_split(REPO / "data" / "demo", "test")


def evidence_prompt(split) -> str:
    case = split.cases[0]
    return f"Patient question: {case.question_text}\nWhich sentences? ESSENTIAL ones."


def serve(split, **kw) -> ServingServer:
    return ServingServer(split, ServingSettings(**{"ms_per_token": 1.0, "tail_share": 0.0, **kw}))


def backend(url: str, **kw):
    return build_backend("openai", **{"base_url": url, "retries": 2, "backoff": 0.01, **kw})


def test_model_auto_takes_the_served_name_and_it_is_in_the_cache_key(split, tmp_path):
    from archehr.llm.cache import CachedBackend

    with serve(split, served="org/Model-7B-Instruct") as srv:
        b = backend(srv.url)
        b.start()
        assert b.describe()["served"] == {"id": "org/Model-7B-Instruct", "root": "org/Model-7B-Instruct"}
        # vLLM stamps `created` with the listing time: it is left out, or the cache would never hit
        assert "created" not in b.describe()["served"]
        assert json.loads(b.complete(evidence_prompt(split), response_format=SCHEMA_FMT)[0])["essential"]
        assert srv.payloads[-1]["model"] == "org/Model-7B-Instruct" and srv.payloads[-1]["stream"] is True
        cached = CachedBackend(backend(srv.url), tmp_path)
        cached.complete("q")
        cached.complete("q")
        assert cached.hits == 1
    with serve(split, served="org/Other-Weights") as srv:  # the same config, other weights: a miss
        other = CachedBackend(backend(srv.url), tmp_path)
        other.complete("q")
        assert other.hits == 0 and other.misses == 1


def test_a_configured_model_that_is_not_served_is_one_clear_error_naming_the_served_one(split):
    with serve(split, served="Qwen/Qwen2.5-7B-Instruct") as srv:
        with pytest.raises(ConfigError, match=r"'default' is not served .*it serves: Qwen/Qwen2.5-7B-Instruct"):
            backend(srv.url, model="default").start()
        backend(srv.url, model="Qwen/Qwen2.5-7B-Instruct").start()


def test_predict_stops_with_exit_2_when_the_model_is_not_served(split, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    with serve(split, served="Qwen/Qwen2.5-7B-Instruct") as srv:
        code, out = predict(tmp_path, shipped_system(tmp_path, srv.url, model="default"))
    printed = capsys.readouterr()
    assert code == 2 and "Qwen/Qwen2.5-7B-Instruct" in printed.err and "Traceback" not in printed.err
    assert len(printed.err.strip().splitlines()) == 1
    assert not (out / "submission.json").exists() and not (out / "run.json").exists()  # nothing half-written


def test_stream_is_read_and_time_to_first_token_bounds_a_queued_request_not_the_whole_reply(split):
    # one slot, replies of ~20 tokens at 40 ms: 0.8 s each; 4 samples queue behind each other (2.4 s for the
    # last); a 1.5 s bound on the whole reply would cut it, a 5 s bound on the first token does not
    with serve(split, slots=1, ms_per_token=40.0, jitter=0.0) as srv:
        b = backend(srv.url, first_token_timeout=5.0, token_timeout=1.0, adaptive_concurrency=False)
        t = time.perf_counter()
        out = b.complete(evidence_prompt(split), n=4, temperature=0.7, max_tokens=64, response_format=SCHEMA_FMT)
        assert len(out) == 4 and time.perf_counter() - t > 2.0
        assert srv.max_waiting >= 2 and b.report()["timeouts"] == 0
        # a stall between tokens is cut by token_timeout, and retried
        srv.settings.ms_per_token = 600.0
        with pytest.raises(BackendError, match="stalled") as info:
            backend(srv.url, token_timeout=0.3, retries=1).complete(evidence_prompt(split), max_tokens=64)
        assert "after 2 attempts" in info.value.reason and not info.value.retryable


def test_a_request_timed_out_while_the_server_was_busy_is_retried_not_a_fallback(split):
    # one slot, ~0.8 s per reply, 0.5 s to the first token: the queued samples time out, but the server is
    # streaming tokens to the first one meanwhile (busy, not hung): they are asked again and all answer
    with serve(split, slots=1, ms_per_token=40.0, jitter=0.0) as srv:
        b = backend(srv.url, first_token_timeout=0.5, retries=5, adaptive_concurrency=False, breaker_after=1)
        with track_usage() as u:
            out = b.complete(evidence_prompt(split), n=3, temperature=0.7, max_tokens=64, response_format=SCHEMA_FMT)
        rep = b.report()
        assert len(out) == 3 and u.failed == 0 and rep["timeouts"] >= 1 and rep["retried_attempts"] >= 1
        assert rep["breaker"]["events"] == []


def test_overload_halves_the_requests_in_flight_and_is_retried_not_a_fallback(split):
    with serve(split, slots=2, max_queue=0, overload_status=503, retry_after=0.05, ms_per_token=5.0) as srv:
        b = backend(srv.url, retries=6, breaker_after=1)
        with track_usage() as u:
            out = b.complete(evidence_prompt(split), n=8, temperature=0.7, max_tokens=64)
        assert len(out) == 8 and u.failed == 0
        rep = b.report()
        assert srv.statuses[503] > 0 and rep["concurrency"]["decreases"] >= 1
        assert rep["concurrency"]["limit"] < 8 and rep["breaker"]["events"] == []  # busy is not dead


def test_a_vote_uses_the_samples_that_came_back(split):
    from llm_fault_server import FaultServer

    server = FaultServer()
    try:
        server.script = ["ok", "500", "ok", "500", "ok"]  # two of the five samples fail (whichever comes 2nd, 4th)
        b = backend(server.url, retries=0, breaker_after=0)
        with track_usage() as u:
            out = b.complete("hi", n=5, temperature=0.7, max_tokens=64)
        assert len(out) == 3 and u.failed == 2 and u.requests == 5
        server.mode, server.script = "500", []
        with pytest.raises(BackendError, match="HTTP 500"):  # none came back: the failure is raised
            b.complete("hi", n=5, temperature=0.7, max_tokens=64)
    finally:
        server.close()


@pytest.mark.parametrize("parser", [True, False], ids=["reasoning_parser", "think_in_content"])
def test_reasoning_is_never_returned_and_a_cut_reply_is_asked_again_with_room(split, parser):
    with serve(split, thinking_tokens=150, reasoning_parser=parser, ms_per_token=0.5) as srv:
        b = backend(srv.url)
        with track_usage() as u:
            out = b.complete(evidence_prompt(split), max_tokens=64, response_format=SCHEMA_FMT)
        assert json.loads(out[0])["essential"]  # the answer, read as JSON: no thinking around it
        assert "think" not in out[0] and "Let me" not in out[0]
        sent = [p["max_tokens"] for p in srv.payloads]
        assert sent[0] == 64 and sent[-1] > 150 and len(sent) >= 2  # cut while thinking, then room to finish
        assert u.cut_replies == len(sent) - 1 and u.completion_tokens > 150  # the cut attempts' tokens count
        rep = b.report()
        assert rep["cut_replies"][0]["max_tokens"] == 64 and rep["thinking"]["learned"] > 0
        # later requests get the learned room at once
        srv.payloads.clear()
        b.complete(evidence_prompt(split) + " again", max_tokens=64)
        assert len(srv.payloads) == 1 and srv.payloads[0]["max_tokens"] > 64


def test_a_reply_still_cut_at_the_cap_is_a_failure_never_a_parsed_reply(split):
    with serve(split, thinking_tokens=400, ms_per_token=0.2) as srv:
        b = backend(srv.url, max_tokens_cap=200, thinking_budget=0)
        with pytest.raises(BackendError, match="cut by the token limit at max_tokens=200") as info:
            b.complete(evidence_prompt(split), max_tokens=64)
        assert not info.value.retryable and b.report()["breaker"]["events"] == []


def test_thinking_budget_is_added_to_every_request(split):
    with serve(split) as srv:
        backend(srv.url, thinking_budget=500).complete("hi", max_tokens=40)
        assert srv.payloads[-1]["max_tokens"] == 540


def test_strip_thinking_everywhere_a_reply_is_parsed():
    from archehr.align.llm import parse_reply as align_reply
    from archehr.generate.llm import parse_reply as answer_reply
    from archehr.llm.structured import strip_thinking
    from archehr.question import reply_question
    from archehr.relevance.llm import parse_reply as evidence_reply

    assert strip_thinking("<think>\nSentence 3 matters? |9|\n</think>\n\nThe answer. |4|") == "The answer. |4|"
    assert strip_thinking("<think>never closed, cut by max_tokens") == ""
    assert strip_thinking("the template opened it</think>\nAnswer") == "Answer"
    assert strip_thinking("No tags <b>here</b>.") == "No tags <b>here</b>."
    assert evidence_reply('<think>ESSENTIAL: 9</think>{"essential": [3], "supplementary": []}', {"3", "9"}) == \
        ({"3"}, set())
    assert align_reply("<think>1: 9</think>\n1: 3") == {"1": ["3"]}
    assert reply_question("<think>Why? Is it this?</think>\nWhy was he given a pacemaker?") == \
        "Why was he given a pacemaker?"
    assert answer_reply("<think>Cite 9. |9|</think>A pacemaker was placed. |4|") == [("A pacemaker was placed.", ["4"])]


def test_llamacpp_like_server_negotiates_json_object_with_the_schema(split):
    with serve(split, formats="llamacpp", slots=1) as srv:
        b = backend(srv.url, breaker_after=1)
        assert json.loads(b.complete(evidence_prompt(split), response_format=SCHEMA_FMT)[0])["essential"]
        assert [p.get("response_format", {}).get("type") for p in srv.payloads] == ["json_schema", "json_object"]
        assert srv.payloads[-1]["response_format"]["schema"] == {"type": "object"}
        assert b.report()["structured_output"]["used"] == "json_object"


def test_the_reply_start_contract_holds_over_http(split):
    from archehr.llm.base import REPLY_START

    with serve(split) as srv:
        out = backend(srv.url).complete("Write the answer." + REPLY_START + "|4|", max_tokens=64)
        assert out[0].startswith("|4|")


def test_the_leaderboard_provenance_column_shows_the_model_share():
    from archehr.leaderboard.run_folders import provenance_summary, system_cell

    prov = provenance_summary({"system": {"name": "openai-server"}, "model_share": {"share": 0.9375}})
    assert system_cell(prov) == "openai-server (model 94%)"
    assert system_cell(provenance_summary({"system": {"name": "trained-extractive"}})) == "trained-extractive"


def test_a_server_without_a_model_list_or_stream_options_still_works():
    from llm_fault_server import FaultServer

    server = FaultServer()
    try:
        server.models = None  # GET /v1/models answers 404
        b = backend(server.url, model="my-model")
        assert b.complete("hi") and server.payloads[-1]["model"] == "my-model"
        assert b.report()["model"]["served"]["listed"] is False
        with pytest.raises(ConfigError, match="model: auto needs the server's model list"):
            backend(server.url).start()
        server.models = ["a", "b"]
        with pytest.raises(ConfigError, match="serves 2 models .a, b.; set model: to one of them"):
            backend(server.url).start()
        server.models = [server.MODEL]
        server.mode = "refuse_stream_options"  # 422 naming stream_options: dropped for the run, not a fault
        b = backend(server.url)
        assert b.complete("hi") and b.complete("again") and server.calls == 1 + 2 + 1
        assert "stream_options" not in server.payloads[-1] and server.payloads[-1]["stream"] is True
        assert b.report()["options_dropped"] == ["stream_options"]
    finally:
        server.close()


def test_a_reply_cut_mid_answer_is_asked_again_once_then_only_its_complete_lines_are_read(split):
    """A model that rambles past any budget: one re-ask with 2x, then CutReply (never doubling to the cap)."""
    from llm_fault_server import FaultServer

    from archehr.generate.llm import LLMGenerator
    from archehr.llm.base import CutReply
    from archehr.relevance.base import Selection

    server = FaultServer()
    server.reply = lambda payload: "A pacemaker was placed. |4|\nThe ECG showed heart block and the"
    orig = server._answer

    def cut_answer(sock, mode, payload):  # the same text, finish_reason length
        import json as _json

        from llm_fault_server import http

        body = _json.dumps({"choices": [{"index": 0, "finish_reason": "length", "message": {
            "role": "assistant", "content": server.reply(payload)}}]}).encode()
        sock.sendall(http(200, body))

    server._answer = cut_answer
    try:
        b = backend(server.url)
        with pytest.raises(CutReply) as info:
            b.complete("hi", max_tokens=100)
        assert [p["max_tokens"] for p in server.payloads] == [100, 200] and "The ECG showed" in info.value.text
        from test_llm_faults import llm_case

        ans = LLMGenerator(backend=b, demonstrations=0, similarity="lexical", keep_selected=False).generate(
            llm_case(), Selection("9", ("4",), 1.0))
        assert ans.fallback is None and [ln.text for ln in ans.lines] == ["A pacemaker was placed."]
        assert any("cut by the token limit" in n for n in ans.notes)
    finally:
        server._answer = orig
        server.close()
