"""The openai backend on servers of every size (archehr/testing/serving_server.py): a small context window
(vLLM's 400, max_model_len, /tokenize), Ollama's silent cut of a prompt's start, a gateway that ignores
`stream: true`, and nothing listening at all."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from llm_runs import predict, shipped_system

from archehr.data.releases import load_split
from archehr.llm.base import PromptTooLong
from archehr.llm.registry import build_backend
from archehr.testing.scripted import count_tokens
from archehr.testing.serving_server import ServingServer, ServingSettings

# the openai backend speaks HTTP through httpx (the `llm` extra): without it these tests cannot run
httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install 'archehr[llm]')")

REPO = Path(__file__).resolve().parents[1]
LONG = "The patient asks about the pacemaker and the heart rhythm. " * 60  # 660 tokens of words and stops


@pytest.fixture(scope="module")
def split():
    return load_split(REPO / "data" / "demo", "test")


def serve(split, **kw) -> ServingServer:
    return ServingServer(split, ServingSettings(**{"ms_per_token": 0.5, "tail_share": 0.0, "prefill_ms": 0.0, **kw}))


def backend(url: str, **kw):
    return build_backend("openai", **{"base_url": url, "retries": 1, "backoff": 0.01, **kw})


def test_the_window_is_learned_from_vllms_model_list_and_a_prompt_counted_by_its_tokenize(split):
    with serve(split, window=2048) as srv:
        b = backend(srv.url)
        b.start()
        assert b.context_window() == 2048 and b.report()["window"]["source"] == "max_model_len in /models"
        # far from the window: estimated, no request; near it: counted by the server
        assert b.count_tokens("a short prompt", exact_above=1000) > 0 and b.window.tokenizer is None
        assert b.count_tokens(LONG, exact_above=10) == count_tokens(LONG) + 8 and b.window.tokenizer == "server"


def test_ollamas_window_comes_from_api_show_at_the_servers_root(split):
    with serve(split, list_window=False, tokenize=False, truncate_to=1024, ollama_show=True) as srv:
        b = backend(srv.url)
        b.start()
        assert b.context_window() == 1024 and "api/show" in b.report()["window"]["source"]


def test_a_config_window_wins_and_a_bad_one_is_refused(split):
    from archehr.errors import ConfigError

    with serve(split, window=4096) as srv:
        b = backend(srv.url, context_window=2048)
        b.start()
        assert b.context_window() == 2048
    with pytest.raises(ConfigError, match="context_window"):
        backend("http://127.0.0.1:9/v1", context_window=10)


def test_vllms_400_over_the_window_is_prompt_too_long_with_its_numbers_and_no_server_fault(split):
    with serve(split, window=512, list_window=False) as srv:
        b = backend(srv.url, breaker_after=1)
        with pytest.raises(PromptTooLong) as e:
            b.complete(LONG, max_tokens=100)
        assert e.value.window == 512 and e.value.prompt_tokens == count_tokens(LONG)
        assert "maximum context length is 512 tokens" in e.value.reason
        assert b.context_window() == 512 and b.report()["breaker"]["state"] == "closed"
        assert srv.statuses[400] == 1  # not retried as is: the same prompt gets the same 400


def test_a_cut_reply_is_never_asked_again_with_a_budget_the_window_cannot_hold(split):
    with serve(split, window=1024, thinking_tokens=2000) as srv:
        b = backend(srv.url)
        b.start()
        from archehr.llm.base import CutReply

        with pytest.raises(CutReply):
            b.complete(LONG, max_tokens=100)
        asked = [p["max_tokens"] for p in srv.payloads]
        prompt = count_tokens(LONG)
        assert max(asked) + prompt <= 1024 + 8 and srv.statuses.get(400) is None, asked


def test_components_fit_their_prompt_to_a_2048_token_window_and_say_what_they_left_out(split, tmp_path):
    with serve(split, window=2048) as srv:
        code, out = predict(tmp_path, shipped_system(tmp_path, srv.url, model="auto", retries=1, backoff=0.01),
                            "--task", "2025", "--train-split", "train")
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert code == 0 and run["model_share"]["answered"] == run["model_share"]["cases"]
    assert srv.statuses.get(400) is None  # fitted before sending: nothing refused
    assert run["llm_transport"]["window"]["tokens"] == 2048
    assert "2048-token window" in json.dumps(run["repairs"])  # per case: the demonstrations left out


def test_a_note_that_cannot_fit_even_alone_is_one_clear_reason(split):
    from archehr.relevance.llm import LLMClassifier

    with serve(split, window=300) as srv:
        b = backend(srv.url)
        b.start()
        clf = LLMClassifier(b, n=1)
        got = clf.score_detailed(split.cases[0])
    assert got.fallback is not None and "300-token window" in got.fallback and "no demonstration" in got.fallback


def test_a_silent_cut_is_reported_in_run_json_and_on_the_console(split, tmp_path, caplog):
    with serve(split, list_window=False, tokenize=False, truncate_to=300) as srv, caplog.at_level("WARNING"):
        b = backend(srv.url)
        for i in range(4):  # prompts of 4 lengths cut to the same 300 tokens
            b.complete(LONG * (i + 1) + f" case {i}", max_tokens=20)
        report = b.report()
    assert srv.truncated == 4
    assert report["silent_truncation"]["requests"] >= 1
    assert any("dropped part of the prompt" in r.getMessage() for r in caplog.records)


def test_a_prompt_read_whole_is_never_reported_cut(split):
    with serve(split, list_window=False, tokenize=False) as srv:
        b = backend(srv.url)
        for case in split.cases[:12]:
            b.complete(f"Patient question: {case.question_text}\n" + "\n".join(s.text for s in case.sentences),
                       max_tokens=400)
        assert b.report()["silent_truncation"]["requests"] == 0


def test_a_gateway_that_ignores_streaming_is_recognised_and_its_reply_time_is_no_first_token(split):
    with serve(split, ignore_stream=True, ms_per_token=20.0) as srv:
        b = backend(srv.url)
        b.complete(LONG, max_tokens=50)
        report = b.report()
    assert report["streams_ignored"] == 1
    assert report["concurrency"]["limit"] >= 8  # no reply time read as a queue: concurrency not cut


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_nothing_listening_stops_the_run_before_the_first_case_with_exit_3_naming_the_address(tmp_path, capsys):
    url = f"http://127.0.0.1:{free_port()}/v1"
    t0 = time.perf_counter()
    code, out = predict(tmp_path, shipped_system(tmp_path, url, model="auto"), "--task", "2025")
    seconds = time.perf_counter() - t0
    err = capsys.readouterr().err
    assert code == 3 and url in err and "nothing is listening" in err, err
    assert not (out / "submission.json").exists() and seconds < 5


def test_a_server_that_accepts_but_answers_late_is_waited_for(split):
    with serve(split, slots=1) as srv:
        b = backend(srv.url, model="auto")
        b.start()
        assert b.served is not None  # accepted and answered: no refusal, no error
