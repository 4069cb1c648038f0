"""`openai`: any OpenAI-compatible chat endpoint (vLLM, TGI, Ollama, llama.cpp server, OpenAI).

The HTTP client is httpx (imported on first use), async on one event loop (a daemon thread) shared by
every calling thread and one connection pool. Retries are ours, so every fault has one documented
outcome (docs/predict.md, "Serving the model" and "Faults"):

- the server is known before the first case: `start()` reads `GET /models`; a configured model it does
  not serve is a ConfigError naming what it serves; `model: auto` takes the only one it serves. The
  served id (and `root`/`created`) goes into `describe()`: run.json and the response cache's key;
- replies are streamed (`stream: true`, server-sent events) and bounded by the time to the first token
  (`first_token_timeout`: the server may be queueing) and between tokens (`token_timeout`: a stalled
  stream), not by the length of the whole reply; `timeout` adds an optional total per attempt. A server
  that answers plain JSON instead of a stream is read the same way;
- transport faults (refused, reset, DNS, TLS, a reply that is not HTTP or is cut short), timeouts, HTTP
  408/409/425/429/5xx and unreadable replies are retried with exponential backoff or the server's
  `Retry-After` (capped). Other 4xx fail at once and are not retryable by callers either;
- the requests in flight adapt (archehr/llm/concurrency.py): fewer on 429/503, timeouts or a growing
  time to first token; queueing here counts against no deadline;
- circuit breaker (archehr/llm/breaker.py): it counts requests that failed with no sign of life from the
  server: connection failures, broken replies, 5xx, run-wide 4xx (key, model, endpoint). Load symptoms
  (timeouts, 429, 503) count only when the server has answered nothing since the request was sent,
  so a busy server that is still answering other requests never opens it. A timed-out attempt is
  retried when the server showed life meanwhile (busy); with none, it is hung: not retried;
- structured output is negotiated per server: `json_schema` -> `{"type": "json_object", "schema": ...}`
  (llama.cpp) -> plain text; a 400/404/415/422/500 naming the format is a refusal, not a fault;
- reasoning models: `reasoning_content` / `reasoning` is read (counted, never returned), `<think>` blocks
  are stripped from the content; a reply cut by `finish_reason: length` is asked again with a larger
  budget (up to `max_tokens_cap`) and never returned as if complete; `thinking_budget` adds tokens for
  thinking to every request (`auto`: learned from the replies).

Every failure is a BackendError with its reason; callers fall back and record it in run.json.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import email.utils
import importlib.util
import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from archehr.errors import ConfigError, Problem, UnavailableError
from archehr.llm.base import FORMAT_REFUSAL_STATUS, Backend, BackendError, CutReply, split_reply_start
from archehr.llm.breaker import CircuitBreaker
from archehr.llm.concurrency import AdaptiveLimit
from archehr.llm.structured import strip_thinking
from archehr.llm.usage import record_request

_RETRY_STATUS = frozenset({408, 409, 425, 429})  # and every 5xx
_OVERLOAD_STATUS = frozenset({429, 503})  # the server is busy: fewer requests in flight
# client errors every request of the run gets (bad key, no such model or endpoint, unpaid account): they
# count toward the circuit breaker. Other 4xx (400, 413, 422, ...) may be about this request only.
_RUN_WIDE_STATUS = frozenset({401, 402, 403, 404, 405, 407, 410})
_STRUCTURED_WORDS = ("response_format", "json_schema", "json_object", "guided", "structured", "grammar")
# statuses with which a server refuses a response_format it cannot do, when its message names the format:
# llama-cpp-python answers `json_schema` with HTTP 500 (it takes `{"type": "json_object", "schema": ...}`)
_FORMAT_REFUSAL = FORMAT_REFUSAL_STATUS | {500}
# structured output, most to least specific: each server is asked in the first form it has not refused
FORMAT_LEVELS = ("json_schema", "json_object", "text")
_STRUCTURED_SETTINGS = {True: "json_schema", "auto": "json_schema", "json_schema": "json_schema",
                        "json_object": "json_object", False: "text", "text": "text", "off": "text", None: "text"}
HTTPX_FIX = "pip install 'archehr[llm]' (httpx)"
# a `created` this close to our clock is the time of the listing (vLLM stamps it so), not of the weights
_LISTING_TIME = 300.0


class _Retryable(Exception):
    """A failed attempt worth another one; `wait` is the server's Retry-After, when it gave one."""

    kind = "broken"  # what it says about the server (breaker): broken | connection | overload

    def __init__(self, reason: str, wait: float | None = None, kind: str | None = None):
        super().__init__(reason)
        self.wait = wait
        if kind:
            self.kind = kind


class _Timeout(_Retryable):
    """No first token, a stalled stream or the total deadline: the server may be busy; retried."""

    kind = "overload"


class _Final(Exception):
    """A failed attempt another one will not fix."""


class _ClientError(_Final):
    """An HTTP 4xx the same request would get again: callers must not retry it either."""

    def __init__(self, reason: str, status: int):
        super().__init__(reason)
        self.run_wide = status in _RUN_WIDE_STATUS


class _FormatRefused(Exception):
    pass


class _OptionRefused(Exception):
    """The server refused a transport option we can do without (stream_options, stream)."""

    def __init__(self, option: str, reason: str):
        super().__init__(reason)
        self.option = option


@dataclass
class _Reply:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None
    reasoning: str = ""  # reasoning_content / reasoning, and any <think> text stripped from the content
    first_token: float | None = None  # seconds from sending to the first token (None: not measured)
    parts: list[str] = field(default_factory=list)


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: delay-seconds or an HTTP-date (RFC 9110 10.2.3)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def _load_json(body: bytes, what: str) -> Any:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _Retryable(f"{what} is not valid UTF-8 (byte {e.start} of {len(body)})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise _Retryable(f"{what} is not JSON ({e.msg} at char {e.pos}): {text[:80]!r}") from None
    except (ValueError, RecursionError) as e:  # a 4300+ digit number, nesting past the recursion limit
        raise _Retryable(f"{what} is JSON Python cannot read ({type(e).__name__}): {text[:80]!r}") from None


def _reasoning_of(part: Any) -> str:
    """The reasoning text of a message or a stream delta (vLLM: reasoning_content; others: reasoning)."""
    if not isinstance(part, dict):
        return ""
    for k in ("reasoning_content", "reasoning"):
        v = part.get(k)
        if isinstance(v, str) and v:
            return v
    return ""


def parse_completion(body: bytes, max_tokens: int) -> _Reply:
    """The assistant text and token usage of a (non-streamed) chat-completions body; raises
    _Retryable/_Final saying why not. Thinking is kept apart (`reasoning`), never in `text`."""
    data = _load_json(body, "reply")
    if not isinstance(data, dict):
        raise _Retryable(f"reply is JSON but not an object: {body[:80]!r}")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        raise _Retryable("reply has no choices" + (f" (error: {str(data['error'])[:120]})" if "error" in data else ""))
    first = choices[0]
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    finish = first.get("finish_reason") if isinstance(first, dict) else None
    reasoning = _reasoning_of(message)
    if content is None and not (reasoning or finish == "length"):
        refusal = message.get("refusal") if isinstance(message, dict) else None
        why = f"; refusal: {refusal!r}" if refusal else ""
        raise _Retryable(f"reply has no text (message content is null{why})")
    if content is not None and not isinstance(content, str):
        raise _Retryable(f"reply content is {type(content).__name__}, not text")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return _finish(content or "", reasoning, finish if isinstance(finish, str) else None, usage, max_tokens)


def _finish(content: str, reasoning: str, finish: str | None, usage: dict[str, Any], max_tokens: int,
            first_token: float | None = None) -> _Reply:
    text = strip_thinking(content)
    if text != content:  # <think> in the content: a reasoning model served without a reasoning parser
        reasoning = (reasoning + "\n" + content).strip()
    words = len(text.split())
    if words > max_tokens and finish != "length":  # every word costs at least one token: the limit was ignored
        raise _Final(f"reply of {words} words is longer than max_tokens={max_tokens} allows (the server ignored "
                     "the limit); refused")
    return _Reply(text, _int(usage.get("prompt_tokens")), _int(usage.get("completion_tokens")), finish, reasoning,
                  first_token)


def server_message(body: bytes, limit: int = 160) -> str:
    """A short excerpt of an error reply: its message (OpenAI `error.message`, FastAPI `detail`, ...),
    else the body's text, on one line."""
    text = body[:4000].decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict):
        err = data.get("error")
        for found in (err.get("message") if isinstance(err, dict) else err, data.get("detail"), data.get("message")):
            if found:
                text = found if isinstance(found, str) else json.dumps(found)
                break
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _int(x: Any) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) and x >= 0 else 0


class _LoopThread:
    """One asyncio loop on a daemon thread: every calling thread's requests share its connection pool."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="archehr-openai", daemon=True)
        self.thread.start()

    def run(self, coro: Any, timeout: float | None = None) -> Any:
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            # the coroutine bounds itself (watchdog); this only guards against a cleanup that never ends
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise _Timeout(f"no complete reply within the {timeout:g}s deadline") from None


class _Watch:
    """When the current attempt last showed life: the watchdog cuts it on these times."""

    def __init__(self, t0: float):
        self.t0 = t0
        self.first: float | None = None  # first token (or first body byte of a non-streamed reply)
        self.last = t0
        self.body = False  # a whole reply (not streamed) is arriving


class OpenAIBackend(Backend):
    name = "openai"

    def __init__(self, base_url: str = "http://127.0.0.1:8000/v1", model: str = "auto",
                 api_key_env: str = "OPENAI_API_KEY", timeout: float | None = None,
                 first_token_timeout: float = 300.0, token_timeout: float = 60.0, connect_timeout: float = 5.0,
                 retries: int = 3, backoff: float = 1.0, max_backoff: float = 30.0, max_retry_after: float = 60.0,
                 max_concurrency: int | None = None, min_concurrency: int = 1, adaptive_concurrency: bool = True,
                 system_prompt: str | None = None, structured_output: bool | str = True, breaker_after: int = 2,
                 breaker_cooldown: float = 60.0, max_reply_bytes: int = 2_000_000, stream: bool = True,
                 thinking_budget: int | str = "auto", max_tokens_cap: int = 8192, check_model: bool = True):
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"openai backend: base_url must start with http:// or https://, not {base_url!r}")
        if (max_concurrency is not None and int(max_concurrency) < 1) or int(retries) < 0 \
                or (timeout is not None and float(timeout) <= 0) or float(first_token_timeout) <= 0 \
                or float(token_timeout) <= 0 or int(breaker_after) < 0 or int(max_reply_bytes) < 1 \
                or int(min_concurrency) < 1 or int(max_tokens_cap) < 1:
            raise ConfigError("openai backend: timeout (or null), first_token_timeout and token_timeout > 0, "
                              "retries >= 0, breaker_after >= 0 (0: no breaker), max_reply_bytes, max_tokens_cap, "
                              "min_concurrency >= 1 and max_concurrency >= 1 (or null) are required")
        if structured_output not in _STRUCTURED_SETTINGS:
            raise ConfigError(f"openai backend: structured_output must be true (negotiate from json_schema), "
                              f"json_object (start there: llama.cpp) or false, not {structured_output!r}")
        if not (thinking_budget == "auto" or (isinstance(thinking_budget, int) and thinking_budget >= 0)):
            raise ConfigError(f"openai backend: thinking_budget must be auto or a number of tokens >= 0, "
                              f"not {thinking_budget!r}")
        if not isinstance(model, str) or not model.strip():
            raise ConfigError("openai backend: model must be the served model's name, or auto")
        if importlib.util.find_spec("httpx") is None:
            raise UnavailableError("openai backend", "httpx is not installed", HTTPX_FIX)
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self.timeout = None if timeout is None else float(timeout)  # optional TOTAL seconds per attempt
        self.first_token_timeout = float(first_token_timeout)
        self.token_timeout = float(token_timeout)
        if self.timeout is not None:
            self.first_token_timeout = min(self.first_token_timeout, self.timeout)
        self.connect_timeout = min(float(connect_timeout), self.first_token_timeout)
        self.retries = int(retries)
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.max_retry_after = float(max_retry_after)
        self.max_concurrency = None if max_concurrency is None else int(max_concurrency)
        self.system_prompt = system_prompt
        self.structured_output = structured_output if isinstance(structured_output, bool) else \
            _STRUCTURED_SETTINGS[structured_output] != "text"
        self.structured_setting = _STRUCTURED_SETTINGS[structured_output]
        # the form requests start at; moves down FORMAT_LEVELS for good when the server refuses one
        self._format_level = FORMAT_LEVELS.index(self.structured_setting)
        self.format_refusals: list[dict[str, Any]] = []
        self.max_reply_bytes = int(max_reply_bytes)
        self.stream = bool(stream)
        self.stream_options = True  # ask for usage in the last stream event (dropped if the server refuses it)
        self.thinking_budget = thinking_budget
        self.learned_thinking = 0  # tokens the model was seen to think (thinking_budget: auto)
        self.max_tokens_cap = int(max_tokens_cap)
        self.check_model = bool(check_model)
        self.breaker = CircuitBreaker(int(breaker_after), float(breaker_cooldown))
        highest = self.max_concurrency or 64
        self.limit = AdaptiveLimit(start=min(highest, 8), lowest=min(int(min_concurrency), highest),
                                   highest=highest, adaptive=bool(adaptive_concurrency))
        self.fan_out = highest
        self.served: dict[str, Any] | None = None  # from GET /models, once start() has read it
        self.models_error: str | None = None
        self._models_failed_at: float | None = None  # monotonic time the list was last asked for in vain
        self._loop: _LoopThread | None = None
        self._client: Any = None
        self._init_lock = threading.Lock()
        self._start_lock = threading.Lock()
        self._stats_lock = threading.Lock()
        self._last_life = -1e18  # when the server last answered anything (a reply or a token)
        self.retried_attempts = 0
        self.timeouts = 0
        self.cut_replies: list[dict[str, Any]] = []
        self.options_dropped: list[str] = []

    # -- provenance ---------------------------------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        # the API key is a credential, never provenance: only the variable's name is recorded. Transport
        # settings (timeouts, retries) do not change a reply, so they stay out of the cache key; the served
        # model does: other weights under the same name never hit old entries
        out = {"backend": self.name, "base_url": self.base_url, "model": self.model,
               "system_prompt": self.system_prompt, "structured_output": self.structured_output}
        if self.served is not None:
            out["served"] = {k: v for k, v in self.served.items() if k in ("id", "root", "created")}
        return out

    def report(self) -> dict[str, Any]:
        with self._stats_lock:
            retried, timeouts = self.retried_attempts, self.timeouts
            refusals = list(self.format_refusals)
            cut = list(self.cut_replies)
        return {"timeout": self.timeout, "first_token_timeout": self.first_token_timeout,
                "token_timeout": self.token_timeout, "retries": self.retries, "retried_attempts": retried,
                "timeouts": timeouts, "stream": self.stream, "options_dropped": list(self.options_dropped),
                "model": {"configured": self.model, "served": self.served, "error": self.models_error},
                "structured_output": {"configured": self.structured_setting,
                                      "used": FORMAT_LEVELS[self._format_level], "refusals": refusals},
                "structured_output_refused": self.structured_output_refused,
                "thinking": {"budget": self.thinking_budget, "learned": self.learned_thinking,
                             "max_tokens_cap": self.max_tokens_cap},
                "cut_replies": cut, "concurrency": self.limit.report(), "breaker": self.breaker.report()}

    @property
    def structured_output_refused(self) -> str | None:
        """The server's refusals of response_format forms ("json_schema: HTTP 500 ..."), None when none."""
        with self._stats_lock:
            return "; ".join(f"{r['format']}: {r['reason']}" for r in self.format_refusals) or None

    # -- the served model: GET /models --------------------------------------------------------------

    def start(self) -> None:
        """Read the served models once, before the first request: ConfigError when the configured model is
        not served (naming what is), or `auto` cannot choose. An unreachable server is not an error here
        (its requests fail and fall back, recorded); `auto` then tries again at the next request."""
        if self.served is not None or not self.check_model:
            return
        with self._start_lock:
            if self.served is not None:
                return
            if self._models_failed_at is not None and self.model != "auto":
                # asked, and no list came: a named model is asked for without it (before, every request of
                # every case asked again, the list's deadline each: 30 s). `auto` needs the list and asks
                # again before each request: a list that came late is not a dead server (llama-cpp-python
                # answers it only between generations), and a busy server's list comes eventually
                return
            try:
                status, body = self._loop_thread().run(self._get_models(), None)
            except _Retryable as e:
                self.models_error = f"GET {self.base_url}/models: {e}"
                self._models_failed_at = time.monotonic()
                return
            self.served = self._choose_model(status, body)
            self.models_error = None

    async def _get_models(self) -> tuple[int, bytes]:
        import httpx

        client = self._http()
        try:
            resp = await asyncio.wait_for(client.get(f"{self.base_url}/models", headers=self._headers()),
                                          min(self.first_token_timeout, 30.0))
        except TimeoutError:
            raise _Timeout("no answer within the deadline") from None
        except httpx.HTTPError as e:
            raise _Retryable(f"cannot connect: {e or type(e).__name__}", kind="connection") from None
        return resp.status_code, resp.content[: self.max_reply_bytes]

    def _choose_model(self, status: int, body: bytes) -> dict[str, Any]:
        where = f"{self.base_url}/models"
        ids: list[dict[str, Any]] = []
        if status == 200:
            try:
                data = _load_json(body, "the model list")
            except _Retryable:
                data = None
            items = data.get("data") if isinstance(data, dict) else None
            ids = [m for m in items or () if isinstance(m, dict) and isinstance(m.get("id"), str)]
        if not ids:
            why = f"HTTP {status}: {server_message(body)}" if status != 200 else "no model listed"
            if self.model == "auto":
                raise ConfigError(Problem(f"model: auto needs the server's model list, and GET {where} gave {why}; "
                                          "set model: to the name the server serves", field="backend.model",
                                          code="model"))
            return {"id": self.model, "listed": False, "note": f"GET {where}: {why}"}
        names = [m["id"] for m in ids]
        if self.model == "auto":
            if len(ids) > 1:
                raise ConfigError(Problem(f"model: auto, but {where} serves {len(ids)} models ({', '.join(names[:10])}"
                                          f"{', ...' if len(names) > 10 else ''}); set model: to one of them",
                                          field="backend.model", code="model"))
            chosen = ids[0]
        else:
            # Ollama lists "name:latest" and serves it as "name" too
            chosen = next((m for m in ids if m["id"] in (self.model, f"{self.model}:latest")), None)
            if chosen is None:
                shown = ", ".join(names[:10]) + (", ..." if len(names) > 10 else "")
                raise ConfigError(Problem(f"model {self.model!r} is not served by {self.base_url} (it serves: "
                                          f"{shown}); set model: to the served name, or model: auto",
                                          field="backend.model", code="model"))
        out: dict[str, Any] = {"id": chosen["id"]}
        for k in ("root", "owned_by"):
            if isinstance(chosen.get(k), str):
                out[k] = chosen[k]
        created = chosen.get("created")
        if isinstance(created, int) and not isinstance(created, bool) and abs(time.time() - created) > _LISTING_TIME:
            out["created"] = created  # a date of the weights (OpenAI, Ollama); vLLM stamps the listing time
        return out

    def _model_name(self) -> str:
        if self.served is None and self.check_model:
            try:
                self.start()
            except ConfigError as e:
                raise _Final(str(e)) from None
            if self.served is None and self.model == "auto":
                raise _Retryable(f"model: auto, and the model list is unreachable ({self.models_error})",
                                 kind="connection")
        return self.served["id"] if self.served is not None else self.model

    # -- structured output ----------------------------------------------------------------------------

    def response_format_for(self, response_format: dict[str, Any] | None, level: int) -> dict[str, Any] | None:
        """What to send as `response_format` at a negotiation level (FORMAT_LEVELS): the caller's json_schema
        as is; at json_object, `{"type": "json_object", "schema": ...}` (llama.cpp's form; OpenAI and vLLM
        read it as plain JSON mode); at text, nothing (the prompt asks for JSON in words)."""
        if response_format is None or FORMAT_LEVELS[level] == "text":
            return None
        if FORMAT_LEVELS[level] == "json_object" and response_format.get("type") == "json_schema":
            spec = response_format.get("json_schema") if isinstance(response_format.get("json_schema"), dict) else {}
            out: dict[str, Any] = {"type": "json_object"}
            if isinstance(spec.get("schema"), dict):
                out["schema"] = spec["schema"]
            return out
        return response_format

    def _format_refused(self, level: int, reason: str) -> int:
        """Record a refusal of the form at `level`; the level requests use from now on."""
        with self._stats_lock:
            if self._format_level <= level:
                self._format_level = min(level + 1, len(FORMAT_LEVELS) - 1)
                self.format_refusals.append({"format": FORMAT_LEVELS[level],
                                             "reason": f"{reason} (from {self.base_url})",
                                             "now": FORMAT_LEVELS[self._format_level]})
            return self._format_level

    # -- one HTTP exchange, run on the loop thread -------------------------------------------------

    def _loop_thread(self) -> _LoopThread:
        with self._init_lock:
            if self._loop is None:
                self._loop = _LoopThread()
            return self._loop

    def _http(self) -> Any:
        import httpx

        if self._client is None:  # created on the loop thread, which is the only one using it
            limit = self.fan_out + 8
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(None, connect=self.connect_timeout),  # the watchdog bounds the rest
                limits=httpx.Limits(max_connections=limit, max_keepalive_connections=limit),
                follow_redirects=False, trust_env=True)
        return self._client

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    async def _post(self, payload: dict[str, Any], watch: _Watch, max_tokens: int) -> tuple[int, dict[str, str],
                                                                                          bytes, _Reply | None]:
        async with self._http().stream("POST", f"{self.base_url}/chat/completions", json=payload,
                                       headers=self._headers()) as resp:
            headers = {k.lower(): v for k, v in resp.headers.items()}
            if resp.status_code == 200 and "text/event-stream" in headers.get("content-type", ""):
                return 200, headers, b"", await self._read_events(resp, watch, max_tokens)
            body = bytearray()
            async for chunk in resp.aiter_bytes():
                if watch.first is None:
                    # a whole (not streamed) reply is sent at once when it is ready: its bytes are no tokens, and
                    # one still arriving token_timeout s after its first byte is cut as stalled (counting each byte
                    # as life, a server sending one byte a second held a request for minutes, a run for hours)
                    watch.first = watch.last = time.monotonic()
                    watch.body = True
                body += chunk
                if len(body) > self.max_reply_bytes:
                    raise _Final(f"reply larger than max_reply_bytes={self.max_reply_bytes}; refused")
            return resp.status_code, headers, bytes(body), None

    async def _read_events(self, resp: Any, watch: _Watch, max_tokens: int) -> _Reply:
        """A streamed reply (server-sent events): content and reasoning deltas, finish reason, usage."""
        content: list[str] = []
        reasoning: list[str] = []
        finish: str | None = None
        usage: dict[str, Any] = {}
        size = 0
        chunks = 0  # content/reasoning deltas: one token each on llama.cpp, vLLM and Ollama
        done = False
        async for line in resp.aiter_lines():
            now = time.monotonic()
            watch.last = now
            size += len(line)
            if size > self.max_reply_bytes:
                raise _Final(f"reply larger than max_reply_bytes={self.max_reply_bytes}; refused")
            if not line.startswith("data:"):
                continue  # comments (": ping"), event names, blank separators
            data = line[5:].strip()
            if data == "[DONE]":
                done = True
                break
            event = _load_json(data.encode("utf-8"), "a stream event")
            if not isinstance(event, dict):
                raise _Retryable(f"a stream event is JSON but not an object: {data[:80]!r}")
            if "error" in event and not event.get("choices"):
                err = event["error"]
                msg = err.get("message") if isinstance(err, dict) else err
                raise _Retryable(f"the server reported an error mid-stream: {str(msg)[:160]}")
            if isinstance(event.get("usage"), dict):
                usage = event["usage"]
            for choice in event.get("choices") or ():
                if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                    continue
                delta = choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
                piece = delta.get("content")
                if isinstance(piece, str) and piece:
                    content.append(piece)
                think = _reasoning_of(delta)
                if think:
                    reasoning.append(think)
                if piece or think:
                    chunks += 1
                    self._last_life = now  # a token is a sign of life (a stall later is a busy server's)
                    if watch.first is None:
                        watch.first = now
                if isinstance(choice.get("finish_reason"), str):
                    finish = choice["finish_reason"]
        if not done and finish is None:
            raise _Retryable(f"broken reply from {self.base_url} (the stream was cut short)", kind="connection")
        if watch.first is None:
            watch.first = time.monotonic()
        first = watch.first - watch.t0
        if not _int(usage.get("completion_tokens")):  # no usage in the stream (llama-cpp-python): count the deltas
            usage = {**usage, "completion_tokens": chunks}
        return _finish("".join(content), "".join(reasoning), finish, usage, max_tokens, first)

    async def _attempt(self, payload: dict[str, Any], max_tokens: int) -> tuple[int, dict[str, str], bytes,
                                                                               _Reply | None, float]:
        """One attempt under the watchdog: cut when no first token comes within first_token_timeout, when
        tokens stop for token_timeout, or past the optional total `timeout`."""
        watch = _Watch(time.monotonic())
        task = asyncio.ensure_future(self._post(payload, watch, max_tokens))
        tick = min(0.1, self.token_timeout / 10, self.first_token_timeout / 10)
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=tick)
                if done:
                    status, headers, body, reply = task.result()
                    first = (watch.first or time.monotonic()) - watch.t0
                    return status, headers, body, reply, first
                now = time.monotonic()
                if self.timeout is not None and now - watch.t0 > self.timeout:
                    raise _Timeout(f"no complete reply within the {self.timeout:g}s deadline ({self.base_url})")
                if watch.first is None and now - watch.t0 > self.first_token_timeout:
                    raise _Timeout(f"no first token within the {self.first_token_timeout:g}s deadline "
                                   f"(first_token_timeout; {self.base_url})")
                if watch.body and now - watch.last > self.token_timeout:
                    raise _Timeout(f"the reply trickled: still arriving {self.token_timeout:g}s after its first byte "
                                   f"(token_timeout deadline; {self.base_url})")
                if watch.first is not None and now - watch.last > self.token_timeout:
                    raise _Timeout(f"the reply stalled: no token for {self.token_timeout:g}s (token_timeout "
                                   f"deadline; {self.base_url})")
        finally:
            if not task.done():
                task.cancel()
                try:
                    await task
                except BaseException:  # noqa: BLE001 - the cancelled attempt's own error is not the outcome
                    pass

    def _exchange(self, payload: dict[str, Any], max_tokens: int) -> _Reply:
        """One attempt: a reply, or _Retryable/_Final/_FormatRefused/_OptionRefused with the reason."""
        import httpx

        try:
            status, headers, body, reply, first = self._loop_thread().run(self._attempt(payload, max_tokens))
        except (_Final, _Retryable):
            raise
        except httpx.TimeoutException as e:  # connect timeout
            raise _Retryable(f"timed out ({type(e).__name__}) connecting to {self.base_url}",
                             kind="connection") from None
        except httpx.ConnectError as e:  # refused, DNS, TLS handshake
            raise _Retryable(f"cannot connect to {self.base_url}: {e or type(e).__name__}", kind="connection") from None
        except httpx.RemoteProtocolError as e:  # not HTTP, or the body cut short
            raise _Retryable(f"broken reply from {self.base_url} (not HTTP, or cut short): {e}",
                             kind="connection") from None
        except (httpx.HTTPError, OSError) as e:  # resets, read/write errors, bad content-encoding
            raise _Retryable(f"transport error ({type(e).__name__}) with {self.base_url}: {e}",
                             kind="connection") from None
        if status == 200:
            got = reply if reply is not None else parse_completion(body, max_tokens)
            if got.first_token is None:
                got.first_token = first
            return got
        message = server_message(body)
        raw = body[:1000].decode("utf-8", "replace").lower()
        if status in _FORMAT_REFUSAL and "response_format" in payload and \
                any(w in raw for w in _STRUCTURED_WORDS):
            raise _FormatRefused(f"HTTP {status}: {message}")
        if status in (400, 422) and "stream_options" in payload and "stream_options" in raw:
            raise _OptionRefused("stream_options", f"HTTP {status}: {message}")
        if status in (400, 422) and payload.get("stream") and ("'stream'" in raw or '"stream"' in raw
                                                                or "streaming" in raw):
            raise _OptionRefused("stream", f"HTTP {status}: {message}")
        reason = f"HTTP {status} from {self.base_url}" + (f": {message}" if message else "")
        if status in _RETRY_STATUS or status >= 500:
            raise _Retryable(reason, retry_after_seconds(headers.get("retry-after")),
                             kind="overload" if status in _OVERLOAD_STATUS else "broken")
        if 400 <= status < 500:
            raise _ClientError(reason, status)
        raise _Final(reason)  # a redirect (not followed) or a status no server should send

    # -- one request: attempts, waits, breaker ------------------------------------------------------

    def _budget(self, max_tokens: int) -> int:
        """max_tokens sent: the caller's reply budget plus room to think (thinking_budget, or learned)."""
        extra = self.thinking_budget if isinstance(self.thinking_budget, int) else self.learned_thinking
        return min(self.max_tokens_cap, max_tokens + extra)

    def _learn_thinking(self, reply: _Reply, sent: int) -> None:
        if self.thinking_budget != "auto" or not reply.reasoning:
            return
        words = len(reply.reasoning.split())
        used = reply.completion_tokens - len(reply.text.split()) if reply.completion_tokens else int(words * 1.4)
        with self._stats_lock:
            self.learned_thinking = min(self.max_tokens_cap, max(self.learned_thinking, int(used * 1.25)))

    def _one(self, prompt: str, temperature: float, seed: int, max_tokens: int,
             response_format: dict[str, Any] | None = None) -> str:
        probe = self.breaker.admit()
        t0 = time.perf_counter()
        sent_at = time.monotonic()
        messages = ([{"role": "system", "content": self.system_prompt}] if self.system_prompt else [])
        user, start = split_reply_start(prompt)
        messages.append({"role": "user", "content": f"{user}\n{start}" if start else user})
        budget = self._budget(max_tokens)
        payload: dict[str, Any] = {"messages": messages, "temperature": temperature, "seed": seed,
                                   "max_tokens": budget}
        level = self._format_level
        fmt = self.response_format_for(response_format, level)
        if fmt is not None:
            payload["response_format"] = fmt
        attempts = 1 if probe else self.retries + 1  # a probe of an open breaker gets one try
        last = ""
        tried = 0
        retryable = True
        kind = "broken"
        tokens = [0, 0]  # prompt, completion: every attempt's, failed and re-asked ones too
        cut = 0
        answer_cuts = 0  # re-asks of a reply cut mid-answer (at most one)
        while tried < attempts:
            tried += 1
            if self.stream:
                payload["stream"] = True
                if self.stream_options:
                    payload["stream_options"] = {"include_usage": True}
            try:
                payload["model"] = self._model_name()
                self.limit.acquire()
                try:
                    reply = self._exchange(payload, payload["max_tokens"])
                finally:
                    self.limit.release()
            except _FormatRefused as e:
                # the server cannot do this form of structured output: ask again in the next form (a free
                # attempt: json_schema -> json_object with the schema -> plain text), for the rest of the run
                refused = payload.get("response_format")
                level = self._format_refused(level, str(e))
                fmt = self.response_format_for(response_format, level)
                while fmt is not None and fmt == refused:  # a json_object request: json_schema's next form is itself
                    level = self._format_refused(level, str(e))
                    fmt = self.response_format_for(response_format, level)
                if fmt is None:
                    payload.pop("response_format", None)
                else:
                    payload["response_format"] = fmt
                attempts += 1
                continue
            except _OptionRefused as e:  # e.g. stream_options unknown to the server: drop it for the run
                with self._stats_lock:
                    if e.option == "stream_options":
                        self.stream_options = False
                    else:
                        self.stream = False
                    if e.option not in self.options_dropped:
                        self.options_dropped.append(e.option)
                payload.pop("stream_options", None)
                if e.option == "stream":
                    payload.pop("stream", None)
                attempts += 1
                continue
            except _Final as e:
                last = str(e)
                # a client error comes back the same for the same request; a reply the server sent past
                # max_tokens may not (another seed)
                retryable = not isinstance(e, _ClientError)
                kind = "request" if isinstance(e, _ClientError) and not e.run_wide else "broken"
                break
            except _Retryable as e:
                last = str(e)
                kind = e.kind
                if isinstance(e, _Timeout):
                    with self._stats_lock:
                        self.timeouts += 1
                    retryable = False  # callers must not wait it out again: the backend retries it itself
                    if self._last_life < sent_at:
                        # no reply and no token from the server since this request was sent: hung, not
                        # busy. Waiting again would cost the deadline again; the breaker counts it instead
                        break
                if e.kind == "overload":
                    self.limit.overloaded(last.split(" (")[0][:80])
                    if not isinstance(e, _Timeout) and self._last_life >= sent_at and \
                            time.monotonic() - sent_at < self.first_token_timeout:
                        # a busy server's "retry later" (429/503) while it answers other requests: not one of
                        # the request's retries; it waits as long as a first token may take
                        attempts += 1
                if tried < attempts:
                    with self._stats_lock:
                        self.retried_attempts += 1
                    wait = min(self.backoff * (2 ** (tried - 1)), self.max_backoff) if e.wait is None \
                        else min(e.wait, self.max_retry_after)
                    time.sleep(wait)
                continue
            self._alive()
            tokens[0] += reply.prompt_tokens
            tokens[1] += reply.completion_tokens
            if reply.first_token is not None:
                self.limit.answered(reply.first_token)
            self._learn_thinking(reply, payload["max_tokens"])
            if reply.finish_reason == "length":
                cut += 1
                sent = payload["max_tokens"]
                # still thinking when cut: it needs far more room (4x, up to max_tokens_cap); cut mid-answer, it
                # is asked once more with 2x (a model that rambles would otherwise double its way to the cap)
                thinking = bool(reply.reasoning) and not reply.text
                grow = 4 if thinking else 2
                bigger = min(self.max_tokens_cap, max(grow * sent, sent + self.learned_thinking))
                if not thinking and answer_cuts:
                    bigger = sent
                with self._stats_lock:
                    if len(self.cut_replies) < 200:
                        self.cut_replies.append({"max_tokens": sent, "thinking": thinking,
                                                 "asked_again_with": bigger if bigger > sent else None})
                if bigger > sent:  # asked again with room to finish: a free attempt
                    answer_cuts += not thinking
                    payload["max_tokens"] = bigger
                    attempts += 1
                    continue
                self.breaker.success()
                record_request(time.perf_counter() - t0, tokens[0], tokens[1], failed=True, cut=cut)
                raise CutReply(f"reply cut by the token limit at max_tokens={sent} (finish_reason: length"
                               f"{', still thinking' if thinking else ''}) after asking again with a larger budget; "
                               "a cut reply is never read as complete", reply.text)
            self.breaker.success()
            record_request(time.perf_counter() - t0, tokens[0], tokens[1], cut=cut)
            text = reply.text
            if start and not text.lstrip().startswith(start.strip()):
                text = start + text  # the contract of base.REPLY_START: the whole reply, its given start included
            return text
        if kind == "request":  # about this request only (a 400, a reply cut at the cap): the server is up
            self.breaker.success()
        elif kind == "overload" and self._last_life >= sent_at:
            pass  # busy, but it answered other requests meanwhile: not a dead server
        else:
            self.breaker.failure(last, probe)
        record_request(time.perf_counter() - t0, tokens[0], tokens[1], failed=True, cut=cut)
        raise BackendError(f"{last} (after {tried} attempt{'s' if tried != 1 else ''})", retryable)

    def _alive(self) -> None:
        self._last_life = time.monotonic()

    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256, response_format: dict[str, Any] | None = None) -> list[str]:
        # one request per sample with seed+i: many servers ignore `n`, all honour `seed`. The samples go
        # out together (self-consistency votes wait on the slowest, not the sum), each in a copy of the
        # caller's context so its usage lands on the caller's case. The samples that came back are
        # returned (a vote uses them); only when every sample failed is the first failure raised.
        if n <= 1:
            return [self._one(prompt, temperature, seed, max_tokens, response_format)]
        with ThreadPoolExecutor(max_workers=min(n, self.fan_out)) as pool:
            futures = [pool.submit(contextvars.copy_context().run, self._one, prompt, temperature, seed + i,
                                   max_tokens, response_format) for i in range(n)]
            got: list[str] = []
            errors: list[BackendError] = []
            for f in futures:
                try:
                    got.append(f.result())
                except BackendError as e:
                    errors.append(e)
        if not got:  # the server's own failure says more than the breaker it opened for the other samples
            raise next((e for e in errors if not e.reason.startswith("circuit breaker open")), errors[0])
        return got

    def close(self) -> None:
        if self._loop is not None:
            if self._client is not None:
                self._loop.run(self._client.aclose(), 10)
            self._loop.loop.call_soon_threadsafe(self._loop.loop.stop)
