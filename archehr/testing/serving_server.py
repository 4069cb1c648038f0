"""A scripted *realistic* OpenAI-compatible server: the perfect model's answers, served the way vLLM, Ollama
and llama.cpp serve a real model.

`PerfectServer` answers at once; a participant's server does not. `ServingServer` takes the same
answers (`PerfectModel.reply`) and serves them with what made the shipped config fail in practice:

- `slots` requests generate at once; the rest wait in a queue (`max_queue` bounds it: beyond it the
  server answers `overload_status` 503 or 429, with `Retry-After`, as vLLM/TGI/hosted APIs do);
- a token rate (`ms_per_token`, after `prefill_ms` per 1,000 prompt words) and a slow tail (`tail_share`
  of the requests run `tail_factor` times slower), varied per request by `seed` (the server's) and the
  request's own seed;
- the model's served name (`served`, e.g. a Hugging Face id): `GET /v1/models` lists it (vLLM-style,
  with `root` and a `created` stamped at listing time) and a request naming another model gets HTTP 404;
- reasoning (`thinking_tokens` > 0): the model thinks first; with `reasoning_parser` the thinking is in
  `reasoning_content` (vLLM's reasoning parser; `reasoning_field` renames it), without it in the content
  as `<think>...</think>`. Thinking and answer share `max_tokens`: a budget spent before the end of the
  answer stops the reply with `finish_reason: length` (content null when no answer token fitted);
- server-sent events when the request says `stream: true` (`usage` in the last event when asked by
  `stream_options`), a JSON body otherwise;
- structured output like each server: `formats="vllm"` takes json_schema and json_object; `"llamacpp"`
  answers json_schema with HTTP 500 naming response_format and takes `{"type": "json_object", "schema":
  ...}`; `"none"` answers any response_format with HTTP 400;
- a context window (`window`): `GET /v1/models` lists it as `max_model_len`, `POST /tokenize` (at the root)
  counts a prompt, and a request whose prompt and `max_tokens` exceed it gets vLLM's HTTP 400, word for word;
- Ollama's silent cut (`truncate_to`): a prompt over that many tokens loses its start and is answered as if
  nothing happened (`usage.prompt_tokens` says what was read); `ollama_show` answers `POST /api/show`
  with that `num_ctx`;
- a gateway that ignores `stream: true` (`ignore_stream`): one JSON body, sent when the whole reply is done.

Reply tokens are words here (each whitespace-separated piece of the reply is one token); prompt tokens are
words and punctuation marks (archehr/testing/scripted.py), about what a real tokenizer counts. benchmarks/llm_serving.py
runs the shipped `openai-server` config against rows of these settings.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from archehr.data.model import Split
from archehr.testing.perfect_server import PerfectModel, prompt_kind
from archehr.testing.scripted import QuietHandler, ScriptedHTTP, count_tokens, keep_last_tokens, send_json

_PIECES = re.compile(r"\S+\s*")


@dataclass
class ServingSettings:
    served: str = "Qwen/Qwen2.5-7B-Instruct"
    slots: int = 64
    max_queue: int | None = None  # None: an unbounded queue; else beyond it the server refuses
    overload_status: int = 503
    retry_after: float = 1.0
    ms_per_token: float = 30.0
    prefill_ms: float = 20.0  # per 1,000 prompt words
    tail_share: float = 0.05
    tail_factor: float = 4.0
    jitter: float = 0.2  # each request's rate varies by up to +-20%
    thinking_tokens: int = 0
    reasoning_parser: bool = True
    reasoning_field: str = "reasoning_content"
    formats: str = "vllm"  # vllm | llamacpp | none
    seed: int = 0
    window: int = 32768  # max_model_len: prompt + max_tokens over it is vLLM's HTTP 400
    tokenize: bool = True  # POST /tokenize at the root (vLLM, llama.cpp); Ollama has none
    list_window: bool = True  # max_model_len in /v1/models (vLLM); Ollama's list has no window
    truncate_to: int | None = None  # Ollama: a longer prompt silently loses its start (num_ctx)
    ollama_show: bool = False  # POST /api/show answers num_ctx = truncate_to
    ignore_stream: bool = False  # a gateway answering one JSON body to a streamed request


def _tokens(text: str) -> list[str]:
    return _PIECES.findall(text)


def _prompt(payload: dict[str, Any]) -> str:
    return "\n".join(m.get("content") or "" for m in payload.get("messages", []) if isinstance(m, dict)
                     and m.get("role") in ("user", "system"))


def _thinking(n: int, rng: random.Random) -> str:
    steps = ["Let me look at the note sentences again.", "The patient asks about the reason for the treatment.",
             "I should check which sentences state it.", "Wait, the question is about the discharge plan.",
             "So the answer needs the sentences that support it."]
    words: list[str] = []
    while len(words) < n:
        words += rng.choice(steps).split()
    return " ".join(words[:n])


class ServingServer(ScriptedHTTP):
    """`PerfectModel` replies served with slots, a queue, a token rate, reasoning and a served name."""

    def __init__(self, split: Split, settings: ServingSettings | None = None, style: str = "pipes",
                 model: PerfectModel | None = None):
        self.settings = settings or ServingSettings()
        self.model = model or PerfectModel(split, style)
        self.requests: Counter[str] = Counter()
        self.statuses: Counter[int] = Counter()
        self.truncated = 0  # prompts cut silently (truncate_to)
        self.max_waiting = 0
        self.max_running = 0
        self.payloads: list[dict[str, Any]] = []
        self._slots = threading.Semaphore(self.settings.slots)
        self._lock = threading.Lock()
        self._waiting = 0
        self._running = 0
        outer = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server API
                if not self.routed("/v1/models"):
                    return
                s = outer.settings
                entry = {"id": s.served, "object": "model", "created": int(time.time()), "owned_by": "vllm",
                         "root": s.served, "parent": None}
                outer._json(self, 200, {"object": "list", "data": [
                    {**entry, "max_model_len": s.window} if s.list_window else entry]})

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                try:
                    n = int(self.headers.get("Content-Length", 0))
                    payload = json.loads(self.rfile.read(n))
                    if not isinstance(payload, dict):
                        raise ValueError
                except ValueError:
                    outer._json(self, 400, {"error": {"message": "bad request"}})
                    return
                try:
                    outer._route(self, self.path.rstrip("/"), payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a deadline of its own)

        self.serve(Handler, poll_interval=0.05, queue=256)

    # -- one request -----------------------------------------------------------------------------------

    def _route(self, h: BaseHTTPRequestHandler, path: str, payload: dict[str, Any]) -> None:
        s = self.settings
        if path.endswith("/v1/chat/completions"):
            self._complete(h, payload)
        elif path == "/tokenize" and s.tokenize:  # vLLM's: {"count", "max_model_len", "tokens"}
            n = count_tokens(str(payload.get("prompt") or payload.get("content") or ""))
            self._json(h, 200, {"count": n, "max_model_len": s.window, "tokens": list(range(n))})
        elif path == "/api/show" and s.ollama_show:
            self._json(h, 200, {"parameters": f"num_ctx {s.truncate_to or s.window}",
                                "model_info": {"general.architecture": "qwen2", "qwen2.context_length": 32768}})
        else:
            self._json(h, 404, {"error": {"message": f"no route {path}"}})

    def _json(self, h: BaseHTTPRequestHandler, code: int, body: dict[str, Any],
              headers: dict[str, str] | None = None) -> None:
        with self._lock:
            self.statuses[code] += 1
        send_json(h, code, body, headers)

    def _refusal(self, fmt: Any) -> tuple[int, str] | None:
        """The status and message with which this server refuses a response_format, or None."""
        if not isinstance(fmt, dict):
            return None
        kind = self.settings.formats
        if kind == "none":
            return 400, "response_format is not supported by this server"
        if kind == "llamacpp" and fmt.get("type") == "json_schema":
            return 500, ("1 validation error for CreateChatCompletionRequest response_format.type Input should be "
                         "'text' or 'json_object' [type=literal_error, input_value='json_schema']")
        return None

    def _complete(self, h: BaseHTTPRequestHandler, payload: dict[str, Any]) -> None:
        s = self.settings
        with self._lock:
            self.payloads.append({k: v for k, v in payload.items() if k != "messages"})
        if payload.get("model") != s.served:
            self._json(h, 404, {"object": "error", "message": f"The model `{payload.get('model')}` does not exist.",
                                "type": "NotFoundError", "param": None, "code": 404})
            return
        too_long = self._over_window(payload)
        if too_long is not None:
            self._json(h, 400, {"object": "error", "message": too_long, "type": "BadRequestError", "param": None,
                                "code": 400})
            return
        refused = self._refusal(payload.get("response_format"))
        if refused is not None:
            self._json(h, refused[0], {"error": {"message": refused[1], "type": "server_error"}})
            return
        with self._lock:
            if s.max_queue is not None and self._waiting >= s.max_queue and self._running >= s.slots:
                full = True
            else:
                full = False
                self._waiting += 1
                self.max_waiting = max(self.max_waiting, self._waiting)
        if full:
            self._json(h, s.overload_status, {"error": {"message": "the server is overloaded; retry later"}},
                       {"Retry-After": f"{s.retry_after:g}"})
            return
        self._slots.acquire()
        with self._lock:
            self._waiting -= 1
            self._running += 1
            self.max_running = max(self.max_running, self._running)
        try:
            self._generate(h, payload)
        finally:
            with self._lock:
                self._running -= 1
            self._slots.release()

    def _over_window(self, payload: dict[str, Any]) -> str | None:
        """vLLM's refusal of a prompt and reply budget over max_model_len, word for word, or None."""
        s = self.settings
        asked = payload.get("max_tokens") if isinstance(payload.get("max_tokens"), int) else 0
        n = count_tokens(_prompt(payload))
        if s.truncate_to is not None or n + asked <= s.window:
            return None
        return (f"This model's maximum context length is {s.window} tokens. However, you requested {n + asked} tokens "
                f"({n} in the messages, {asked} in the completion). Please reduce the length of the messages or "
                "completion.")

    def _generate(self, h: BaseHTTPRequestHandler, payload: dict[str, Any]) -> None:
        s = self.settings
        prompt = _prompt(payload)
        if s.truncate_to is not None and count_tokens(prompt) > s.truncate_to:
            prompt = keep_last_tokens(prompt, s.truncate_to)  # Ollama: the start is gone, nothing says so
            with self._lock:
                self.truncated += 1
        with self._lock:
            self.requests[prompt_kind(prompt)] += 1
        digest = hashlib.sha256(prompt.encode("utf-8")).hexdigest()[:16]
        rng = random.Random(f"{s.seed}:{payload.get('seed')}:{digest}")
        rate = s.ms_per_token / 1000 * (1 + rng.uniform(-s.jitter, s.jitter))
        if rng.random() < s.tail_share:
            rate *= s.tail_factor
        answer = _tokens(self.model.reply(prompt, payload.get("response_format")))
        think_n = int(s.thinking_tokens * (1 + rng.uniform(-s.jitter, s.jitter))) if s.thinking_tokens else 0
        thinking = _tokens(_thinking(think_n, rng)) if think_n else []
        budget = payload.get("max_tokens")
        budget = budget if isinstance(budget, int) and budget > 0 else 1 << 30
        # (channel, piece): the thinking, then the answer, cut where max_tokens runs out
        stream: list[tuple[str, str]] = [("reasoning", t) for t in thinking] + [("content", t) for t in answer]
        finish = "stop"
        if len(stream) > budget:
            stream, finish = stream[:budget], "length"
        if not s.reasoning_parser and thinking:  # the thinking is in the content, between <think> tags
            open_tag = [("content", "<think>\n")]
            close_at = len(thinking)
            stream = open_tag + [("content", t) for _, t in stream[:close_at]] + \
                ([("content", "\n</think>\n\n")] if len(stream) > close_at else []) + \
                [("content", t) for _, t in stream[close_at:]]
        prompt_tokens = count_tokens(prompt)
        completion_tokens = min(len(thinking) + len(answer), budget)
        time.sleep(s.prefill_ms / 1000 * len(prompt.split()) / 1000)
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                 "total_tokens": prompt_tokens + completion_tokens}
        if payload.get("stream") and not s.ignore_stream:
            options = payload.get("stream_options") if isinstance(payload.get("stream_options"), dict) else {}
            self._stream(h, stream, finish, usage, rate, bool(options.get("include_usage")))
            return
        if self.stopped.wait(rate * len(stream)):
            return
        content = "".join(t for c, t in stream if c == "content")
        reasoning = "".join(t for c, t in stream if c == "reasoning")
        message: dict[str, Any] = {"role": "assistant", "content": content or None}
        if s.reasoning_parser and thinking:
            message[s.reasoning_field] = reasoning or None
        self._json(h, 200, {"id": f"chatcmpl-{digest}", "object": "chat.completion", "model": s.served,
                            "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage})

    def _stream(self, h: BaseHTTPRequestHandler, pieces: list[tuple[str, str]], finish: str, usage: dict[str, Any],
                rate: float, with_usage: bool) -> None:
        s = self.settings
        with self._lock:
            self.statuses[200] += 1
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Cache-Control", "no-cache")
        h.end_headers()

        def event(data: dict[str, Any]) -> None:
            h.wfile.write(b"data: " + json.dumps(data).encode("utf-8") + b"\n\n")
            h.wfile.flush()

        base = {"id": "chatcmpl-stream", "object": "chat.completion.chunk", "model": s.served}
        event({**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]})
        for channel, piece in pieces:
            if self.stopped.wait(rate):
                return
            field = "content" if channel == "content" else s.reasoning_field
            event({**base, "choices": [{"index": 0, "delta": {field: piece}, "finish_reason": None}]})
        event({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
        if with_usage:
            event({**base, "choices": [], "usage": usage})
        h.wfile.write(b"data: [DONE]\n\n")
        h.wfile.flush()
