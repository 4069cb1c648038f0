"""The llm generator against a misbehaving local OpenAI-compatible server: runs always complete."""

from __future__ import annotations

import _thread
import json
import re
import signal
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from llm_fault_server import FaultServer, closed_port_url
from llm_runs import predict as predict_run
from llm_runs import shipped_system

from archehr.llm.base import BackendError
from archehr.llm.registry import BACKENDS, build_backend
from archehr_scoring.submission2025 import answer_problems

# the openai backend speaks HTTP through httpx (the `llm` extra): without it these tests cannot run
httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install 'archehr[llm]')")


def predict(tmp_path: Path, system: Path, *extra: str) -> tuple[int, Path]:
    return predict_run(tmp_path, system, *extra, force=True)


@pytest.fixture
def server():
    s = FaultServer()
    yield s
    s.close()


def backend(url: str, **kw):
    # a deadline well above any reply under load: a retried timeout would change the counted calls (tests of
    # deadlines set their own)
    params = {"base_url": url, "timeout": 5.0, "retries": 1, "backoff": 0.01}
    params.update(kw)
    return build_backend("openai", **params)


def test_backend_registry():
    assert {"openai", "transformers"} <= set(BACKENDS.names())
    with pytest.raises(KeyError, match="did you mean"):
        build_backend("opneai")


# every fault a server can throw at us: (mode, the reason BackendError gives, requests sent with retries=1)
FAULTS = [
    ("500", "HTTP 500", 2),
    ("429", "HTTP 429", 2),
    # a request that ran out its deadline is retried only when the server answered something meanwhile (busy,
    # tests/test_llm_serving.py); with no sign of life at all it is hung: not waited out again
    ("hang", "deadline", 1),
    ("trickle", "deadline", 1),
    ("malformed", "not JSON", 2),
    ("empty_choices", "no choices", 2),
    ("null_content", "content is null", 2),
    ("cut", "cut short", 2),
    ("not_http", "not HTTP", 2),
    ("bad_utf8", "not valid UTF-8", 2),
    ("reset", "broken reply|transport error", 2),
    ("huge", "longer than max_tokens", 1),  # the server ignored max_tokens: refused, not retried
    ("400", "HTTP 400", 1),  # a client error will not fix itself
]


@pytest.mark.parametrize("mode, reason, calls", FAULTS, ids=[f[0] for f in FAULTS])
def test_each_fault_is_a_backend_error_with_its_reason(server, mode, reason, calls):
    server.mode = mode
    server.retry_after = "0"
    b = backend(server.url, timeout=1.0)
    t = time.perf_counter()
    with pytest.raises(BackendError, match=reason) as info:
        b.complete("hi", max_tokens=200)
    assert time.perf_counter() - t < 4  # the trickle is cut at the deadline, not when it ends
    assert server.calls == calls, info.value.reason
    assert info.value.reason.strip()
    # a spent deadline tells callers not to retry either: the backend retried it, they would wait it out
    # again; a client error comes back the same for the same request
    assert info.value.retryable == (reason not in ("deadline", "HTTP 400"))


def test_a_whole_reply_trickling_in_is_cut_without_a_total_deadline(server):
    # the shipped settings have no total deadline (timeout: null): a body sent one byte a second counted each
    # byte as life and held the request for minutes; a whole reply still arriving token_timeout s after its
    # first byte is cut
    server.mode = "trickle_body"
    b = backend(server.url, timeout=None, first_token_timeout=5.0, token_timeout=1.5)
    t = time.perf_counter()
    with pytest.raises(BackendError, match="trickled: still arriving 1.5s after its first byte"):
        b.complete("hi", max_tokens=200)
    assert time.perf_counter() - t < 6 and server.calls == 1  # no token ever came: hung, not retried


def test_connection_refused_is_retried_then_a_backend_error():
    b = backend(closed_port_url(), retries=2)
    with pytest.raises(BackendError, match="cannot connect") as info:
        b.complete("hi")
    assert "after 3 attempts" in info.value.reason


def test_tls_and_dns_failures_are_retried_backend_errors(server):
    server.mode = "banner"
    https = server.url.replace("http://", "https://")
    with pytest.raises(BackendError, match="cannot connect") as info:
        backend(https, timeout=2.0).complete("hi")
    assert "after 2 attempts" in info.value.reason and server.calls == 0
    t = time.perf_counter()
    with pytest.raises(BackendError, match="archehr-no-such-host|deadline|timed out"):
        backend("http://archehr-no-such-host.invalid/v1", timeout=2.0, connect_timeout=1.0).complete("hi")
    assert time.perf_counter() - t < 10


def test_retry_after_is_honoured_in_seconds_and_http_dates_and_capped(server):
    from email.utils import format_datetime

    from archehr.llm.openai_backend import retry_after_seconds

    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert retry_after_seconds("3") == 3.0 and retry_after_seconds("-1") == 0.0
    assert retry_after_seconds(format_datetime(now + timedelta(seconds=40), usegmt=True), now) == 40.0
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None
    server.script = ["429"]
    server.retry_after = "0.6"
    t = time.perf_counter()
    assert backend(server.url, backoff=0.0).complete("hi") and server.calls == 2
    assert time.perf_counter() - t >= 0.6  # waited as asked, not the (zero) backoff
    server.script = ["429"]
    server.retry_after = "3600"
    t = time.perf_counter()
    assert backend(server.url, max_retry_after=0.2).complete("hi")
    assert time.perf_counter() - t < 2  # an hour is capped


def test_circuit_breaker_fails_fast_then_a_probe_closes_it(server):
    server.mode = "500"
    b = backend(server.url, retries=0, breaker_after=2, breaker_cooldown=0.5)
    for _ in range(2):
        with pytest.raises(BackendError, match="HTTP 500"):
            b.complete("hi")
    t = time.perf_counter()
    with pytest.raises(BackendError, match="circuit breaker open"):
        b.complete("hi")
    assert server.calls == 2 and time.perf_counter() - t < 0.1
    time.sleep(0.55)
    server.mode = "ok"
    assert b.complete("hi")  # the half-open probe succeeds: closed again
    assert b.complete("hi") and server.calls == 4
    rep = b.report()["breaker"]
    assert rep["state"] == "closed" and [e["event"] for e in rep["events"]] == ["opened", "closed"]
    assert rep["requests_refused"] == 1


def test_open_breaker_stops_the_callers_retries_and_is_recorded_once(server):
    from archehr.generate.llm import LLMGenerator
    from archehr.llm.structured import StructuredCaller
    from archehr.relevance.base import Selection

    server.mode = "404"  # no such model: every request of the run gets it, so it counts toward the breaker
    b = backend(server.url, retries=0, breaker_after=1, breaker_cooldown=60)
    with pytest.raises(BackendError, match="HTTP 404") as first:
        b.complete("hi")
    assert not first.value.retryable
    # the breaker's reason quotes the 404: not mistaken for a server refusing response_format
    caller = StructuredCaller(b, {"type": "json_object"})
    with pytest.raises(BackendError, match="circuit breaker open") as info:
        caller.complete("hi")
    assert not info.value.retryable and caller.rejected is None
    ans = LLMGenerator(backend=b, demonstrations=0, retries=2, similarity="lexical").generate(
        llm_case(), Selection("9", ("4",), 1.0))
    assert ans.fallback.count("circuit breaker open") == 1 and "attempt 2" not in ans.fallback
    assert server.calls == 1 and b.report()["breaker"]["requests_refused"] == 2


def test_dead_server_each_case_names_the_breaker_once(server, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    server.mode = "reset"  # it takes connections (the run starts) and drops every request
    system = shipped_system(tmp_path, server.url, timeout=1.0, backoff=0.01)
    code, out = predict(tmp_path, system)
    assert code == 3  # the model answered no case: said loudly, the submission still written
    run = check_complete_submission(out)
    assert sorted(run["fallbacks"]) == sorted(run["input_sha256"])
    # evidence and answer of one case share the backend: the open breaker is named once per case
    assert all(v.count("circuit breaker open") == 1 for v in run["fallbacks"].values()), run["fallbacks"]
    assert not any("attempt 2" in v for v in run["fallbacks"].values())


def test_model_auto_with_a_model_list_that_never_comes_falls_back_loudly(server, tmp_path, monkeypatch):
    # model: auto needs the list: no completion request is sent without it, and the run says so (exit 3)
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    server.hang_models = True
    system = shipped_system(tmp_path, server.url, first_token_timeout=0.5, timeout=None)
    code, out = predict(tmp_path, system)
    assert code == 3 and server.calls == 0
    run = check_complete_submission(out)
    assert sorted(run["fallbacks"]) == sorted(run["input_sha256"])
    assert "no answer within the deadline" in run["llm_transport"]["model"]["error"]


def test_a_slow_model_list_alone_does_not_switch_the_model_off(server, tmp_path, monkeypatch):
    # a named model: a list that does not come (llama-cpp-python answers it only between generations) is
    # recorded, and the completions are still asked
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    server.hang_models = True
    system = shipped_system(tmp_path, server.url, model=server.MODEL, first_token_timeout=2.0, timeout=None)
    predict(tmp_path, system)
    run = json.loads((out := tmp_path / "run").joinpath("run.json").read_text())
    assert server.calls > 0 and server.gets == 1  # asked once, then the named model is asked for without it
    assert not any("model list" in v or "circuit breaker" in v for v in run["fallbacks"].values())
    assert "no answer within the deadline" in run["llm_transport"]["model"]["error"]
    assert (out / "submission.json").is_file()


def test_usage_and_latency_are_tracked_per_scope(server):
    from archehr.llm.usage import track_usage

    b = backend(server.url)
    with track_usage() as u:
        b.complete("hi", n=2)
    assert u.requests == 2 and u.prompt_tokens == 22 and u.completion_tokens == 22 and u.seconds > 0
    server.mode = "500"
    with track_usage() as u2:
        with pytest.raises(BackendError):
            b.complete("hi")
        assert b.complete_many(["a", "b"])  # fanned out over threads: still this scope's requests
    assert u2.requests == 3 and u2.failed == 3 and u.requests == 2


# a client error the same request would get again (bad request, key, model, endpoint, size, schema)
CLIENT_ERRORS = [400, 401, 403, 404, 405, 413, 422]
# transient statuses (timeout, conflict, too early, rate limit, server faults): worth another attempt
TRANSIENT = [408, 409, 425, 429, 500, 502, 503, 504]


@pytest.mark.parametrize("status", CLIENT_ERRORS)
def test_client_errors_are_not_retried_by_the_backend_nor_its_callers(server, status):
    server.mode = str(status)
    with pytest.raises(BackendError, match=f"HTTP {status}") as info:
        backend(server.url, retries=3).complete("hi")
    assert server.calls == 1 and not info.value.retryable
    # the server's own words (error.message, not the JSON around it), not only the code
    assert ("boom" if status == 400 else f"scripted refusal ({status})") in info.value.reason
    assert '{"error"' not in info.value.reason


@pytest.mark.parametrize("status", TRANSIENT)
def test_transient_statuses_are_retried(server, status):
    server.mode = str(status)
    server.retry_after = "0"
    with pytest.raises(BackendError, match=f"HTTP {status}") as info:
        backend(server.url, retries=2).complete("hi")
    assert server.calls == 3 and info.value.retryable


def test_the_llm_generator_asks_once_on_a_client_error_and_retries_a_503(server):
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection

    server.mode = "400"
    gen = LLMGenerator(backend=backend(server.url, retries=3, breaker_after=0), demonstrations=0, retries=2,
                       similarity="lexical")
    ans = gen.generate(llm_case(), Selection("9", ("4",), 1.0))
    assert server.calls == 1 and ans.fallback.count("HTTP 400") == 1 and "attempt 2" not in ans.fallback
    server.mode, server.calls = "503", 0
    ans = gen.generate(llm_case(), Selection("9", ("4",), 1.0))
    assert server.calls == 3 * 4 and ans.fallback.count("HTTP 503") == 3  # 3 generator attempts x 4 tries


def test_run_wide_client_errors_open_the_breaker_and_request_specific_ones_do_not(server):
    b = backend(server.url, breaker_after=2, breaker_cooldown=0.3)
    server.mode = "400"  # about this request (a prompt too long for the context, ...): the server is up
    for _ in range(3):
        with pytest.raises(BackendError, match="HTTP 400"):
            b.complete("hi")
    assert server.calls == 3 and b.report()["breaker"]["state"] == "closed"
    server.script = ["401", "400", "401"]  # a request-specific error answered in between: not in a row
    for _ in range(3):
        with pytest.raises(BackendError, match="HTTP 40"):
            b.complete("hi")
    assert b.report()["breaker"]["state"] == "closed"
    server.mode = "401"  # a wrong key fails every request of the run: the breaker opens
    with pytest.raises(BackendError, match="HTTP 401"):
        b.complete("hi")
    with pytest.raises(BackendError, match=r"circuit breaker open.*last: HTTP 401") as info:
        b.complete("hi")
    assert not info.value.retryable and server.calls == 7
    time.sleep(0.35)
    server.mode = "422"  # the probe is answered, if with a request-specific error: the server is up
    with pytest.raises(BackendError, match="HTTP 422"):
        b.complete("hi")
    assert b.report()["breaker"]["state"] == "closed"


def test_deterministic_settings_are_sent(server):
    backend(server.url).complete("hi", n=2, temperature=0.0, seed=7, max_tokens=12)
    assert sorted(p["seed"] for p in server.payloads) == [7, 8]  # the two samples go out together
    assert all(p["temperature"] == 0.0 and p["max_tokens"] == 12 for p in server.payloads)


def test_cache_hits_do_not_call_the_server_and_keys_depend_on_settings(server, tmp_path):
    b = backend(server.url, )
    from archehr.llm.cache import CachedBackend

    cached = CachedBackend(b, tmp_path)
    first = cached.complete("q", seed=1)
    assert cached.complete("q", seed=1) == first and server.calls == 1 and cached.hits == 1
    cached.complete("q", seed=2)
    cached.complete("other", seed=1)
    assert server.calls == 3
    server.models = [server.MODEL, "m2"]
    other_model = CachedBackend(backend(server.url, model="m2"), tmp_path)
    other_model.complete("q", seed=1)
    assert server.calls == 4


def test_bounded_concurrency_complete_many(server):
    b = backend(server.url, max_concurrency=2)
    out = b.complete_many(["a", "b", "c"])
    assert all(isinstance(o, list) and o for o in out)
    server.latency = 0.3
    server.max_in_flight = 0
    t = time.perf_counter()
    assert len(backend(server.url, timeout=2.0).complete("hi", n=4)) == 4
    assert server.max_in_flight == 4 and time.perf_counter() - t < 1.1  # samples together, not one by one
    server.max_in_flight = 0
    backend(server.url, timeout=2.0, max_concurrency=2).complete_many(["a", "b", "c", "d"])
    assert server.max_in_flight == 2  # max_concurrency caps what is in flight


def write_system(tmp_path: Path, url: str) -> Path:
    cfg = tmp_path / "llm.yaml"
    cfg.write_text(f"""
name: fake-llm
selector: {{kind: all}}
generator: {{kind: llm, demonstrations: 0, retries: 1, similarity: lexical, retry_temperature: 0.5}}
backend: {{kind: openai, base_url: "{url}", timeout: 0.3, retries: 1, backoff: 0.01, cache: false}}
""")
    return cfg


@pytest.mark.parametrize("mode", ["nocite", "offtopic", "ok"])
def test_run_completes_with_valid_answers_and_records_fallbacks(server, tmp_path, synthetic_dir, mode):
    from archehr.data.releases import load_split
    from archehr.pipeline import load_system
    from archehr.runs import run_split

    server.mode = mode
    split = load_split(synthetic_dir, "dev").subset(["1", "2"])
    system = load_system(str(write_system(tmp_path, server.url)))
    res = run_split(system, split, "2025", tmp_path / "run")
    sub = json.loads((tmp_path / "run" / "submission.json").read_text())
    assert [r["case_id"] for r in sub] == ["1", "2"]
    for r in sub:
        assert answer_problems(r["answer"], set(split.case(r["case_id"]).sentence_ids)) == []
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run["status"] == "complete"
    if mode == "nocite":
        # Uncited lines are re-attached only where the note supports them. Case 1 is the pacemaker
        # case: "A pacemaker was placed." is backed by a note sentence, so it is kept with that
        # citation and the repair is recorded. Case 2 (heart failure, diuretics) backs neither line:
        # retried, then the extractive answer, with the reason.
        assert set(run["fallbacks"]) == {"2"}
        assert "no line of the reply is supported by the note" in run["fallbacks"]["2"]
        lines = sub[0]["answer"].split("\n")
        pace = [ln for ln in lines if ln.startswith("A pacemaker was placed.")]
        assert pace, sub[0]["answer"]
        cited = pace[0].rsplit("|", 2)[1].split(",")
        assert any("pacemaker" in split.case("1").sentence(i).text.lower() for i in cited)
        assert any("attached" in n for n in run["repairs"]["1"])
    elif mode == "offtopic":
        # generic text supported by nothing, plus a question: never passed off as a grounded answer
        assert set(run["fallbacks"]) == {"1", "2"}
        assert all("extractive" in v for v in run["fallbacks"].values())
        assert "healthy lifestyle" not in " ".join(r["answer"] for r in sub)
    else:
        assert run["fallbacks"] == {} and res.fallbacks == {}
        assert "heart tracing" in sub[0]["answer"]


def check_complete_submission(out: Path) -> dict:
    from archehr.data.releases import load_split

    split = load_split("data/demo", "test")
    sub = json.loads((out / "submission.json").read_text())
    assert [r["case_id"] for r in sub] == [c.case_id for c in split.cases]
    for r in sub:
        assert answer_problems(r["answer"], set(split.case(r["case_id"]).sentence_ids)) == []
    run = json.loads((out / "run.json").read_text())
    assert run["status"] == "complete"
    return run


# (mode, what the first case's fallback says); "reset": a server that takes connections and drops them (a port
# nobody listens on stops the run before its first case: tests/test_llm_window.py)
RUN_FAULTS = [("500", "HTTP 500"), ("429", "HTTP 429"), ("hang", "deadline"), ("trickle", "deadline"),
              ("malformed", "not JSON"), ("empty_choices", "no choices"), ("null_content", "content is null"),
              ("cut", "cut short"), ("not_http", "not HTTP"), ("bad_utf8", "not valid UTF-8"),
              ("huge", "longer than max_tokens"), ("reset", "transport error|broken reply|cannot connect|deadline")]


@pytest.mark.parametrize("mode, reason", RUN_FAULTS, ids=[f[0] for f in RUN_FAULTS])
def test_predict_with_the_shipped_system_survives_every_fault(server, tmp_path, capsys, monkeypatch, mode, reason):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    server.mode = mode
    system = shipped_system(tmp_path, server.url, timeout=1.0, backoff=0.01, max_retry_after=0.1)
    t = time.perf_counter()
    code, out = predict(tmp_path, system)
    seconds = time.perf_counter() - t
    printed = capsys.readouterr()
    assert code == 3 and "Traceback" not in printed.out + printed.err
    assert "answered 0 of 10 cases" in printed.out and "the model answered only 0.0%" in printed.err
    run = check_complete_submission(out)
    assert run["model_share"]["answered"] == 0 and run["model_share"]["below_min"]
    cases = [c for c in run["input_sha256"]]
    assert sorted(run["fallbacks"]) == sorted(cases)  # every case fell back, and says why
    first = run["fallbacks"][cases[0]]
    assert "backend error" in first and re.search(reason, first), first
    # the breaker opened after two failed requests: the other cases did not wait on the server
    assert all("circuit breaker open" in run["fallbacks"][c] for c in cases[1:])
    assert run["llm_transport"]["breaker"]["events"][0]["event"] == "opened"
    tot = run["llm_usage"]["totals"]
    assert tot["requests"] == tot["failed"] >= 2 and "LLM:" in printed.out
    # bounded: only the first case sent requests (its evidence samples go out together); the others
    # were refused by the open breaker without waiting on the server
    assert list(run["llm_usage"]["per_case"]) == [cases[0]] and tot["requests"] <= 8
    assert seconds < 60


def test_predict_against_a_server_answering_400_asks_each_request_once(server, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    server.mode = "400"
    code, out = predict(tmp_path, shipped_system(tmp_path, server.url, timeout=2.0, backoff=0.01))
    printed = capsys.readouterr()
    assert code == 3 and "Traceback" not in printed.out + printed.err
    # the reason as written: the real status and address, not a pattern of them
    assert f"10 case(s): trained evidence: backend error: HTTP 400 from {server.url}: boom" in printed.err
    run = check_complete_submission(out)
    cases = list(run["input_sha256"])
    assert sorted(run["fallbacks"]) == sorted(cases)
    # each case: its 5 evidence samples (sent together) and its answer, each one request, none retried;
    # a 400 is about the request, so the breaker stays closed and every case asks for itself
    assert {c: u["requests"] for c, u in run["llm_usage"]["per_case"].items()} == {c: 6 for c in cases}
    assert server.calls == 6 * len(cases) and run["llm_transport"]["retried_attempts"] == 0
    assert run["llm_transport"]["breaker"]["events"] == []
    assert all(v.count("HTTP 400") == 1 and "attempt 2" not in v for v in run["fallbacks"].values()), run["fallbacks"]
    assert run["llm_transport"]["structured_output_refused"] is None  # not a refusal of response_format


def test_predict_against_a_server_answering_401_opens_the_breaker(server, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    server.mode = "401"
    # (a 401 comes back at once: the long timeout only keeps a busy machine's slow thread from timing out instead)
    code, out = predict(tmp_path, shipped_system(tmp_path, server.url, timeout=10.0, backoff=0.01))
    assert code == 3
    run = check_complete_submission(out)
    cases = list(run["input_sha256"])
    # at most the first case's 5 evidence samples reach the server, each asked once (without the breaker every
    # case would send its 6 requests); then the breaker refuses every other request. The samples go out together
    # over the client's slots, so on a busy machine the failures that open it can come back before the last
    # samples leave, and those are refused instead
    assert 1 <= server.calls <= 5 and list(run["llm_usage"]["per_case"]) == [cases[0]]
    assert run["llm_transport"]["breaker"]["events"][0]["event"] == "opened"
    assert all(run["fallbacks"][c].count("HTTP 401") == 1 for c in cases[1:]), run["fallbacks"]


@pytest.mark.parametrize("task", ["st1", "st2", "st4"])  # 2025 (and its answer, as st3 uses it) above
def test_every_subtask_of_the_shipped_system_survives_a_dead_server(server, tmp_path, capsys, monkeypatch, task):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    server.mode = "reset"
    system = shipped_system(tmp_path, server.url, timeout=1.0, backoff=0.01)
    code, out = predict(tmp_path, system, "--task", task)
    printed = capsys.readouterr()
    assert code == 3 and "Traceback" not in printed.out + printed.err
    run = json.loads((out / "run.json").read_text())
    sub = json.loads((out / "submission.json").read_text())
    assert run["status"] == "complete" and len(sub) == run["n_cases"] == 10
    assert sorted(run["fallbacks"]) == sorted(run["input_sha256"])
    assert all(re.search("transport error|broken reply|cannot connect|circuit breaker open", v)
               for v in run["fallbacks"].values())
    assert all(v.count("circuit breaker open") <= 1 for v in run["fallbacks"].values())


def test_workers_keep_requests_in_flight_across_cases_and_runs_stay_identical(server, tmp_path, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    server.latency = 0.1
    # the trained selector: one request per case, so what is in flight is cases (the LLM evidence's 5
    # samples go out together, tested in test_bounded_concurrency_complete_many)
    system = shipped_system(tmp_path, server.url, selector={"kind": "default", "model": "auto"})
    runs = {}
    for workers in (1, 4):
        server.max_in_flight = 0
        code, out = predict(tmp_path / str(workers), system, "--workers", str(workers), "--cache-dir",
                            str(tmp_path / f"cache{workers}"))
        assert code == 0
        runs[workers] = (check_complete_submission(out), (out / "submission.json").read_text(), server.max_in_flight)
    assert runs[1][2] == 1 and runs[4][2] == 4
    assert runs[1][1] == runs[4][1]  # the same submission, in the same order
    for key in ("fallbacks", "repairs", "cases_run"):
        assert runs[1][0][key] == runs[4][0][key]
    usage = {w: {c: {k: v for k, v in u.items() if k != "seconds"} for c, u in r[0]["llm_usage"]["per_case"].items()}
             for w, r in runs.items()}
    assert usage[1] == usage[4] and all(u["requests"] >= 1 for u in usage[1].values())


class Scripted:
    """A backend replying from a list (one reply per call)."""

    name = "scripted"

    def __init__(self, replies):
        self.replies = list(replies)
        self.calls = 0

    def complete(self, prompt, *, n=1, temperature=0.0, seed=0, max_tokens=256):
        self.calls += 1
        return [self.replies.pop(0)]

    def describe(self):
        return {"backend": "scripted"}


def llm_case():
    from archehr.data.model import Case, NoteSentence

    texts = ["History:", "He fainted in the kitchen.", "The ECG showed heart block.", "A pacemaker was placed."]
    return Case("9", patient_narrative="Why a pacemaker?",
                sentences=tuple(NoteSentence(str(i + 1), 1, 0, t) for i, t in enumerate(texts)))


def test_repair_drops_unknown_ids_attaches_uncited_lines_and_keeps_selected_evidence():
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection

    b = Scripted(["1. His ECG showed heart block. [3, 77]\nSo a pacemaker was placed to fix it."])
    g = LLMGenerator(backend=b, demonstrations=0, similarity="lexical")
    ans = g.generate(llm_case(), Selection("9", ("2", "3", "4"), 1.0))
    assert ans.fallback is None
    assert [ln.citations for ln in ans.lines] == [("2", "3"), ("4",)]
    assert ans.lines[0].text == "His ECG showed heart block."
    assert any("77" in n for n in ans.notes) and any("uncited" in n for n in ans.notes)


def test_a_reply_left_with_no_cited_line_is_never_an_answer():
    # found on the real llama.cpp server: with uncited: keep, the number check dropped every cited line and left
    # one uncited line; the 2025 writer then refused the whole submission (the official scorer asserts on it)
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection

    b = Scripted(["Yes, the pacemaker was needed.\nHe had 37 fainting spells. |2|",
                  "Yes, the pacemaker was needed.\nHe had 37 fainting spells. |2|"])
    g = LLMGenerator(backend=b, demonstrations=0, similarity="lexical", uncited="keep", keep_selected=False,
                     retries=1)
    g.number_repair = "drop"  # as `archehr answer` checks numbers (predict re-writes the line and keeps |2|)
    ans = g.generate(llm_case(), Selection("9", ("2", "3", "4"), 1.0))
    assert ans.fallback and "no line of the reply cites the note" in ans.fallback
    assert all(ln.citations for ln in ans.lines)


def test_invalid_reply_is_retried_with_another_seed_before_falling_back():
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection

    b = Scripted(["no citations here", "A pacemaker was placed. |4|"])
    ans = LLMGenerator(backend=b, demonstrations=0, retries=1, similarity="lexical").generate(
        llm_case(), Selection("9", ("4",), 1.0))
    assert b.calls == 2 and ans.fallback is None and ans.cited_ids == ("4",)
    b2 = Scripted([" ".join(["word"] * 80) + " |4|"] * 2)
    ans2 = LLMGenerator(backend=b2, demonstrations=0, retries=1, similarity="lexical").generate(
        llm_case(), Selection("9", ("4",), 1.0))
    assert ans2.fallback and "over 75" in ans2.fallback and ans2.generator == "llm"
    assert answer_problems(ans2.render(), {"1", "2", "3", "4"}) == []


def test_over_budget_reply_keeps_whole_lines_and_their_citations():
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection
    from archehr_scoring.answer_format import word_count

    long = " ".join(["word"] * 40)
    b = Scripted([f"{long}. |2|\n{long}. |3|\nShort. |4|"])
    ans = LLMGenerator(backend=b, demonstrations=0, similarity="lexical", keep_selected=False).generate(
        llm_case(), Selection("9", ("2", "3", "4"), 1.0))
    assert word_count(ans.render()) <= 75
    assert len(ans.lines) == 2 and set(ans.cited_ids) == {"2", "3", "4"}


def test_demonstrations_never_include_the_case_itself(synthetic_dir):
    from archehr.data.releases import load_split
    from archehr.generate.llm import LLMGenerator

    dev = load_split(synthetic_dir, "dev")
    g = LLMGenerator(backend=Scripted([]), demonstrations=2, similarity="lexical")
    g.prepare(dev)
    for case in dev.cases:
        demos = g.pool.nearest(case)
        assert len(demos) == 2 and case.case_id not in {c.case_id for c, _ in demos}
        assert "Example answer" in g.prompt(case, __import__("archehr.relevance.base").relevance.base.Selection(
            case.case_id, case.sentence_ids[:2], 1.0))


def test_verify_cited_removes_citations_the_note_does_not_back():
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection

    # line 1 is backed by sentence 4; line 2 (copied from a demonstration) is backed by nothing
    b = Scripted(["|4| A pacemaker was placed.\n|3| She drinks tea every day for her sodium."])
    ans = LLMGenerator(backend=b, demonstrations=0, similarity="lexical", verify_cited=True,
                       keep_selected=False).generate(llm_case(), Selection("9", ("4",), 1.0))
    assert ans.fallback is None
    assert [(ln.text, ln.citations) for ln in ans.lines] == [("A pacemaker was placed.", ("4",))]
    assert any("not supported by their citations" in n for n in ans.notes)
    assert any("unsupported" in n for n in ans.notes)


def test_leading_citations_and_copied_note_labels_are_parsed():
    from archehr.generate.llm import parse_reply

    assert parse_reply("|4| A pacemaker was placed.\n3: The ECG showed heart block.") == [
        ("A pacemaker was placed.", ["4"]), ("The ECG showed heart block.", ["3"])]


def test_uncited_paragraph_is_split_and_questions_and_repeats_are_dropped():
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection

    reply = ("A pacemaker was placed. The ECG showed heart block. Why a pacemaker? "
             "A pacemaker was placed.")
    ans = LLMGenerator(backend=Scripted([reply]), demonstrations=0, similarity="lexical",
                       keep_selected=False).generate(llm_case(), Selection("9", ("3", "4"), 1.0))
    assert [(ln.text, ln.citations) for ln in ans.lines] == [("A pacemaker was placed.", ("4",)),
                                                             ("The ECG showed heart block.", ("3",))]
    assert any("ask or repeat the question" in n for n in ans.notes) and any("repeated" in n for n in ans.notes)


def test_lexical_support_needs_two_shared_words():
    from archehr.generate.similarity import Similarity

    sim = Similarity("lexical").support(["The heart tracing was abnormal.", "A pacemaker was placed."],
                                        ["Heart failure with reduced ejection fraction.",
                                         "A dual-chamber pacemaker was placed on day 2."])
    assert sim[0, 0] == 0.0  # only "heart" shared
    assert sim[1, 1] == 1.0  # "pacemaker", "placed" both found


def test_last_line_cut_off_by_the_token_limit_is_dropped():
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection

    b = Scripted(["A pacemaker was placed. |4|\nThe ECG showed heart block and the"])
    ans = LLMGenerator(backend=b, demonstrations=0, similarity="lexical", keep_selected=False).generate(
        llm_case(), Selection("9", ("4",), 1.0))
    assert [ln.text for ln in ans.lines] == ["A pacemaker was placed."]
    assert any("cut off" in n for n in ans.notes)


def test_response_format_is_sent_and_dropped_for_good_when_the_server_refuses_it(server):
    fmt = {"type": "json_schema", "json_schema": {"name": "ids", "schema": {"type": "object"}}}
    b = backend(server.url)
    assert b.complete("hi", response_format=fmt)
    assert server.payloads[-1]["response_format"] == fmt
    backend(server.url, structured_output=False).complete("hi", response_format=fmt)
    assert "response_format" not in server.payloads[-1]
    server.mode = "refuse_format"
    out = b.complete("hi", response_format=fmt)
    assert out and "response_format" not in server.payloads[-1]
    assert "response_format" in server.payloads[-2]  # refused once, asked again without
    n = server.calls
    b.complete("again", response_format=fmt)
    assert server.calls == n + 1 and "response_format" not in server.payloads[-1]  # remembered
    assert b.structured_output_refused and "400" in b.structured_output_refused


def test_a_422_naming_response_format_is_a_refusal_too_and_error_messages_are_excerpted(server):
    from archehr.llm.openai_backend import server_message

    server.mode = "refuse_format_422"  # FastAPI-style servers (TGI) reject an unknown field with 422
    b = backend(server.url)
    assert b.complete("hi", response_format={"type": "json_object"}) and server.calls == 2
    assert "HTTP 422" in b.structured_output_refused
    assert server_message(b'{"detail": "model `x` not found"}') == "model `x` not found"
    assert server_message(b'{"error": "bad   key"}') == "bad key"
    assert server_message(b"<html>" + b"x" * 500).endswith("...") and len(server_message(b"x" * 500)) == 160


def test_cache_entry_of_the_wrong_shape_is_a_miss_and_is_rewritten(server, tmp_path):
    from archehr.llm.cache import CachedBackend

    cached = CachedBackend(backend(server.url), tmp_path)
    first = cached.complete("q")
    (entry,) = tmp_path.rglob("*.json")
    for bad in ("[1, 2]", '{"completions": [null]}', '{"completions": "text"}', '{"completions": []}', "{", '"x"'):
        entry.write_text(bad)
        assert cached.complete("q") == first
        assert json.loads(entry.read_text())["completions"] == first
    assert cached.hits == 0 and server.calls == 7
    assert cached.complete("q") == first and cached.hits == 1
    fmt = {"type": "json_object"}
    cached.complete("q", response_format=fmt)
    assert server.calls == 8  # the format is part of the key


def test_a_failure_under_workers_stops_the_run_and_resume_completes_it(synthetic_dir, tmp_path, request):
    from archehr.data.releases import load_split
    from archehr.pipeline import load_system
    from archehr.runs import _read_checkpoint, run_split

    dev = load_split(synthetic_dir, "dev")
    system = load_system("lexical-extractive")
    out = tmp_path / "run"
    seen: list[str] = []
    # Ctrl-C reaches Python as KeyboardInterrupt only under Python's own SIGINT handler (interrupt_main does
    # nothing under SIG_DFL/SIG_IGN): in the whole suite something loaded earlier can leave another one installed
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    request.addfinalizer(lambda: signal.signal(signal.SIGINT, previous))

    def kill_at_2(cid):  # Ctrl-C after the second case: the main thread gets KeyboardInterrupt
        seen.append(cid)
        if len(seen) == 2:
            _thread.interrupt_main()
        time.sleep(0.1)

    with pytest.raises(KeyboardInterrupt):
        run_split(system, dev, "2025", out, workers=2, after_case=kill_at_2)
    done = _read_checkpoint(out / "checkpoint.jsonl")
    assert 2 <= len(done) < len(dev.cases)  # the cases not yet started were dropped, not run
    assert not (out / "submission.json").exists()
    res = run_split(system, dev, "2025", out, resume=True, workers=2)
    assert sorted(res.done_before) == sorted(done)
    fresh = tmp_path / "fresh"
    run_split(system, dev, "2025", fresh)
    assert (out / "submission.json").read_text() == (fresh / "submission.json").read_text()


def test_a_server_without_structured_output_is_asked_in_plain_text_and_run_json_says_so(server, tmp_path,
                                                                                       monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    server.mode = "refuse_format"
    # (its canned reply is no evidence list: every case's evidence falls back, which --min-model-share would
    # turn into exit 3; this test is about how the server is asked)
    code, out = predict(tmp_path, shipped_system(tmp_path, server.url, timeout=2.0), "--min-model-share", "0")
    assert code == 0
    run = check_complete_submission(out)
    assert "HTTP 400" in run["llm_transport"]["structured_output_refused"]
    assert run["llm_transport"]["structured_output"]["used"] == "text"
    refusals = run["llm_transport"]["structured_output"]["refusals"]
    assert [r["format"] for r in refusals] == ["json_schema", "json_object"]
    with_format = [i for i, p in enumerate(server.payloads) if "response_format" in p]
    # refused for the first case's evidence samples (sent together: each may try json_schema, then
    # json_object with the schema), then never sent again in the run
    assert 0 < len(with_format) <= 10 and max(with_format) < 20 and len(server.payloads) > 20
    assert not any("backend error" in v for v in run["fallbacks"].values())


def test_structured_output_is_negotiated_json_schema_then_json_object_with_the_schema(server):
    """llama-cpp-python answers json_schema with HTTP 500 naming response_format: a refusal, not a fault."""
    schema = {"type": "object", "properties": {"ids": {"type": "array"}}}
    fmt = {"type": "json_schema", "json_schema": {"name": "ids", "schema": schema, "strict": True}}
    server.mode = "llamacpp"
    b = backend(server.url, retries=3, breaker_after=1)
    assert b.complete("hi", response_format=fmt)
    assert [p.get("response_format") for p in server.payloads] == [fmt, {"type": "json_object", "schema": schema}]
    assert b.complete("again", response_format=fmt) and server.calls == 3
    assert server.payloads[-1]["response_format"] == {"type": "json_object", "schema": schema}  # remembered
    rep = b.report()
    assert rep["structured_output"]["used"] == "json_object" and rep["retried_attempts"] == 0
    assert rep["structured_output"]["refusals"][0]["format"] == "json_schema"
    assert "HTTP 500" in rep["structured_output"]["refusals"][0]["reason"]
    assert rep["breaker"]["events"] == []  # a refusal is not a transport fault
    # configured to start at json_object (llama.cpp known in advance): json_schema is never sent
    server.payloads.clear()
    assert backend(server.url, structured_output="json_object").complete("hi", response_format=fmt)
    assert [p["response_format"]["type"] for p in server.payloads] == ["json_object"]
    # a 500 that does not name the format is a server fault, retried as before
    server.mode, server.calls = "500", 0
    with pytest.raises(BackendError, match="HTTP 500"):
        backend(server.url, retries=1).complete("hi", response_format=fmt)
    assert server.calls == 2
    with pytest.raises(Exception, match="structured_output"):
        backend(server.url, structured_output="xml")


def test_predict_against_a_llamacpp_like_server_negotiates_json_object(server, tmp_path, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    server.mode = "llamacpp"
    code, out = predict(tmp_path, shipped_system(tmp_path, server.url, timeout=20.0), "--task", "st2")
    run = json.loads((out / "run.json").read_text())
    assert run["llm_transport"]["structured_output"]["used"] == "json_object"
    assert not any("backend error" in v for v in run["fallbacks"].values())
    assert run["llm_transport"]["breaker"]["events"] == []


def test_a_run_the_model_mostly_did_not_answer_exits_3_and_retry_fallbacks_asks_only_those(server, tmp_path, capsys,
                                                                                           monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    system = shipped_system(tmp_path, server.url, timeout=2.0, backoff=0.01, breaker_after=0,
                            selector={"kind": "default", "model": "auto"})
    # the first 3 cases' answers fail (3 generator attempts of 4 tries each), then the server is fine
    server.script = ["503"] * 3 * 4 * 3
    code, out = predict(tmp_path, system, "--task", "2025")
    printed = capsys.readouterr()
    run = json.loads((out / "run.json").read_text())
    fell = sorted(run["fallbacks"])
    assert code == 3 and len(fell) == 3 and run["model_share"] == {
        "answered": 7, "cases": 10, "share": 0.7, "min_share": 0.9, "below_min": True,
        "top_fallback_reasons": [{"reason": run["model_share"]["top_fallback_reasons"][0]["reason"], "cases": 3}]}
    shown = run["model_share"]["top_fallback_reasons"][0]["reason"]
    assert f"HTTP 503 from {server.url}" in shown and "HTTP N" not in shown and "URL" not in shown
    assert shown.endswith(" ...") or len(shown) <= 240
    assert "answered 7 of 10 cases (70.0%)" in printed.out and "--resume --retry-fallbacks" in printed.err
    assert (out / "submission.json").is_file()
    # --min-model-share 0 accepts such a run; --retry-fallbacks needs --resume
    from archehr.cli.main import main

    assert main(["predict", "--data-dir", "data/demo", "--retry-fallbacks", "-o", str(out), "--no-progress"]) == 2
    calls = server.calls
    code, out = predict(tmp_path, system, "--task", "2025", "--resume", "--retry-fallbacks")
    run = json.loads((out / "run.json").read_text())
    assert code == 0 and run["fallbacks"] == {} and run["fallbacks_retried"] == fell
    assert server.calls - calls == 3 and sorted(run["cases_run"]) == fell  # only the fallen-back cases asked
    assert run["model_share"]["answered"] == 10
    code, _ = predict(tmp_path / "again", system, "--task", "2025", "--min-model-share", "0")
    assert code == 0


def test_run_json_names_every_prompt_with_its_hash(server, tmp_path, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    code, out = predict(tmp_path, shipped_system(tmp_path, server.url, timeout=2.0), "--task", "st4",
                        "--min-model-share", "0")
    system = json.loads((out / "run.json").read_text())["system"]
    assert system["question"]["prompt"] == "question_v2" and len(system["question"]["prompt_sha256"]) == 64
    assert system["align"]["prompt"] == "align_v2" and len(system["align"]["prompt_sha256"]) == 64
    assert system["selector"]["classifier"]["prompt"] == "evidence_v2"
    assert system["backend"]["served"] == {"id": server.MODEL}
