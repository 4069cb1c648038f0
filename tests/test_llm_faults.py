"""The llm generator against a misbehaving local OpenAI-compatible server: runs always complete."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from archehr.generate.answer import answer_problems
from archehr.llm.base import BackendError
from archehr.llm.registry import BACKENDS, build_backend


class FakeServer:
    """127.0.0.1 server whose replies follow `mode`: ok, timeout, 500, malformed, nocite, offtopic, 400."""

    def __init__(self, mode: str = "ok"):
        self.mode = mode
        self.calls = 0
        self.payloads: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):  # noqa: N802 - http.server API
                n = int(self.headers.get("Content-Length", 0))
                outer.payloads.append(json.loads(self.rfile.read(n)))
                outer.calls += 1
                mode = outer.mode
                if mode == "timeout":
                    time.sleep(1.0)
                    body, code = b"{}", 200
                elif mode in ("500", "400"):
                    body, code = b"boom", int(mode)
                elif mode == "refuse_format" and "response_format" in outer.payloads[-1]:
                    body, code = b'{"error": {"message": "response_format json_schema is not supported"}}', 400
                elif mode == "malformed":
                    body, code = b'{"choices": [ {"message": ', 200
                else:
                    text = {"ok": "The heart tracing was abnormal. |2|\nA pacemaker was placed. |14|",
                            "refuse_format": "The heart tracing was abnormal. |2|\nA pacemaker was placed. |14|",
                            "nocite": "The heart tracing was abnormal.\nA pacemaker was placed.",
                            # what SmolLM2 really wrote for one case: fluent, uncited, about nothing in the note
                            "offtopic": "The patient's story is a testament to the importance of a healthy "
                                        "lifestyle. Why did this happen?"}[mode]
                    body, code = json.dumps({"choices": [{"message": {"content": text}}]}).encode(), 200
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    s = FakeServer()
    yield s
    s.close()


def backend(url: str, **kw):
    params = {"base_url": url, "timeout": 0.3, "retries": 1, "backoff": 0.01}
    params.update(kw)
    return build_backend("openai", **params)


def test_backend_registry():
    assert {"openai", "transformers"} <= set(BACKENDS.names())
    with pytest.raises(KeyError, match="did you mean"):
        build_backend("opneai")


@pytest.mark.parametrize("mode, reason", [("timeout", "timed out"), ("500", "HTTP 500"),
                                          ("malformed", "malformed reply")])
def test_backend_retries_then_raises_with_the_reason(server, mode, reason):
    server.mode = mode
    b = backend(server.url)
    with pytest.raises(BackendError, match=reason):
        b.complete("hi")
    assert server.calls == 2  # one try plus one retry


def test_client_errors_are_not_retried(server):
    server.mode = "400"
    with pytest.raises(BackendError, match="HTTP 400"):
        backend(server.url, retries=3).complete("hi")
    assert server.calls == 1


def test_deterministic_settings_are_sent(server):
    backend(server.url).complete("hi", n=2, temperature=0.0, seed=7, max_tokens=12)
    assert [p["seed"] for p in server.payloads] == [7, 8]
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
    other_model = CachedBackend(backend(server.url, model="m2"), tmp_path)
    other_model.complete("q", seed=1)
    assert server.calls == 4


def test_bounded_concurrency_complete_many(server):
    b = backend(server.url, max_concurrency=2)
    out = b.complete_many(["a", "b", "c"])
    assert all(isinstance(o, list) and o for o in out)


def write_system(tmp_path: Path, url: str) -> Path:
    cfg = tmp_path / "llm.yaml"
    cfg.write_text(f"""
name: fake-llm
selector: {{kind: all}}
generator: {{name: llm, params: {{demonstrations: 0, retries: 1, similarity: lexical, retry_temperature: 0.5}}}}
backend:
  name: openai
  params: {{base_url: "{url}", timeout: 0.3, retries: 1, backoff: 0.01}}
  cache: false
""")
    return cfg


@pytest.mark.parametrize("mode", ["timeout", "500", "malformed", "nocite", "offtopic", "ok"])
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
    if mode in ("timeout", "500", "malformed"):
        assert set(run["fallbacks"]) == {"1", "2"}
        assert all("backend error" in v and "extractive" in v for v in run["fallbacks"].values())
    elif mode == "nocite":
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
    from archehr.generate.answer import official_word_count
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection

    long = " ".join(["word"] * 40)
    b = Scripted([f"{long}. |2|\n{long}. |3|\nShort. |4|"])
    ans = LLMGenerator(backend=b, demonstrations=0, similarity="lexical", keep_selected=False).generate(
        llm_case(), Selection("9", ("2", "3", "4"), 1.0))
    assert official_word_count(ans.render()) <= 75
    assert len(ans.lines) == 2 and set(ans.cited_ids) == {"2", "3", "4"}


def test_demonstrations_never_include_the_case_itself(synthetic_dir):
    from archehr.data.releases import load_split
    from archehr.generate.llm import LLMGenerator

    dev = load_split(synthetic_dir, "dev")
    g = LLMGenerator(backend=Scripted([]), demonstrations=2, similarity="lexical")
    g.prepare(dev)
    for case in dev.cases:
        demos = g.demonstrations(case)
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
