"""`openai`: any OpenAI-compatible chat endpoint (vLLM, TGI, Ollama, llama.cpp server, OpenAI).

The HTTP client is httpx (imported on first use): its async API lets one `asyncio.wait_for` put a
TOTAL deadline on a request (connect, send, headers, body), which a socket timeout cannot do: a
server trickling one byte a second never trips an idle timeout. Retries are ours, so every fault
has one documented outcome (docs/predict.md, Faults):

- transport faults (refused, reset, DNS, TLS, a reply that is not HTTP or is cut short), HTTP
  408/409/425/429/5xx and unreadable replies (invalid UTF-8, not JSON, no choices, null content) are
  retried with exponential backoff, or after the server's `Retry-After` (capped);
- a request that runs out its deadline is not retried: the server is hung or overloaded, and a
  retry would double both the wait and its load;
- other 4xx (400, 401, 403, 404, 405, 413, 422, ...) fail at once and are not retryable by callers
  either: the same request fails the same way. A 400/422 naming response_format is the exception:
  asked again once without it;
- a reply longer than `max_tokens` allows (the server ignored the limit) fails at once;
- after `breaker_after` failed requests in a row the circuit breaker opens (archehr/llm/breaker.py).
  A 4xx that no request of the run can escape (key, model, endpoint: `_RUN_WIDE_STATUS`) counts; one
  about this request (400, 413, 422: a prompt too long for the context, ...) shows the server is up.

Every failure is a BackendError with its reason; callers fall back and record it in run.json.
Requests from all threads share one event loop (a daemon thread) and one connection pool.
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
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from archehr.errors import ConfigError, UnavailableError
from archehr.llm.base import FORMAT_REFUSAL_STATUS, Backend, BackendError, split_reply_start
from archehr.llm.breaker import CircuitBreaker
from archehr.llm.usage import record_request

_RETRY_STATUS = frozenset({408, 409, 425, 429})  # and every 5xx
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


class _Retryable(Exception):
    """A failed attempt worth another one; `wait` is the server's Retry-After, when it gave one."""

    def __init__(self, reason: str, wait: float | None = None):
        super().__init__(reason)
        self.wait = wait


class _Final(Exception):
    """A failed attempt another one will not fix."""


class _Timeout(_Final):
    pass


class _ClientError(_Final):
    """An HTTP 4xx the same request would get again: callers must not retry it either."""

    def __init__(self, reason: str, status: int):
        super().__init__(reason)
        self.run_wide = status in _RUN_WIDE_STATUS


class _FormatRefused(Exception):
    pass


@dataclass
class _Reply:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


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


def parse_completion(body: bytes, max_tokens: int) -> _Reply:
    """The assistant text and token usage of a chat-completions body; _Retryable/_Final says why not."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _Retryable(f"reply is not valid UTF-8 (byte {e.start} of {len(body)})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise _Retryable(f"reply is not JSON ({e.msg} at char {e.pos}): {text[:80]!r}") from None
    except (ValueError, RecursionError) as e:  # a 4300+ digit number, nesting past the recursion limit
        raise _Retryable(f"reply is JSON Python cannot read ({type(e).__name__}): {text[:80]!r}") from None
    if not isinstance(data, dict):
        raise _Retryable(f"reply is JSON but not an object: {text[:80]!r}")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        raise _Retryable("reply has no choices" + (f" (error: {str(data['error'])[:120]})" if "error" in data else ""))
    first = choices[0]
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if content is None:
        refusal = message.get("refusal") if isinstance(message, dict) else None
        why = f"; refusal: {refusal!r}" if refusal else ""
        raise _Retryable(f"reply has no text (message content is null{why})")
    if not isinstance(content, str):
        raise _Retryable(f"reply content is {type(content).__name__}, not text")
    words = len(content.split())
    if words > max_tokens:  # every word costs at least one token: the server ignored max_tokens
        raise _Final(f"reply of {words} words is longer than max_tokens={max_tokens} allows (the server ignored "
                     "the limit); refused")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return _Reply(content, _int(usage.get("prompt_tokens")), _int(usage.get("completion_tokens")))


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

    def run(self, coro: Any, timeout: float) -> Any:
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            # the coroutine has its own deadline; this one only guards against a cleanup that never ends
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise _Timeout(f"no complete reply within the {timeout:g}s deadline") from None


class OpenAIBackend(Backend):
    name = "openai"

    def __init__(self, base_url: str = "http://127.0.0.1:8000/v1", model: str = "default",
                 api_key_env: str = "OPENAI_API_KEY", timeout: float = 20.0, connect_timeout: float = 5.0,
                 retries: int = 3, backoff: float = 1.0, max_backoff: float = 30.0, max_retry_after: float = 60.0,
                 max_concurrency: int | None = None, system_prompt: str | None = None,
                 structured_output: bool = True, breaker_after: int = 2, breaker_cooldown: float = 60.0,
                 max_reply_bytes: int = 2_000_000):
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"openai backend: base_url must start with http:// or https://, not {base_url!r}")
        if (max_concurrency is not None and int(max_concurrency) < 1) or int(retries) < 0 or float(timeout) <= 0 \
                or int(breaker_after) < 0 or int(max_reply_bytes) < 1:
            raise ConfigError("openai backend: timeout > 0, retries >= 0, breaker_after >= 0 (0: no breaker), "
                              "max_reply_bytes >= 1 and max_concurrency >= 1 (or null) are required")
        if importlib.util.find_spec("httpx") is None:
            raise UnavailableError("openai backend", "httpx is not installed", HTTPX_FIX)
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self.timeout = float(timeout)  # TOTAL seconds per attempt, body included
        self.connect_timeout = min(float(connect_timeout), self.timeout)
        self.retries = int(retries)
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.max_retry_after = float(max_retry_after)
        self.max_concurrency = None if max_concurrency is None else int(max_concurrency)
        self.system_prompt = system_prompt
        if structured_output not in _STRUCTURED_SETTINGS:
            raise ConfigError(f"openai backend: structured_output must be true (negotiate from json_schema), "
                              f"json_object (start there: llama.cpp) or false, not {structured_output!r}")
        self.structured_output = structured_output if isinstance(structured_output, bool) else \
            _STRUCTURED_SETTINGS[structured_output] != "text"
        self.structured_setting = _STRUCTURED_SETTINGS[structured_output]
        # the form requests start at; moves down FORMAT_LEVELS for good when the server refuses one
        self._format_level = FORMAT_LEVELS.index(self.structured_setting)
        self.format_refusals: list[dict[str, Any]] = []
        self.max_reply_bytes = int(max_reply_bytes)
        self.breaker = CircuitBreaker(int(breaker_after), float(breaker_cooldown))
        self.fan_out = self.max_concurrency or 8
        self._slots = threading.BoundedSemaphore(self.max_concurrency) if self.max_concurrency else None
        self._loop: _LoopThread | None = None
        self._client: Any = None
        self._init_lock = threading.Lock()
        self._stats_lock = threading.Lock()
        self.retried_attempts = 0

    def describe(self) -> dict[str, Any]:
        # the API key is a credential, never provenance: only the variable's name is recorded.
        # Transport settings (timeouts, retries) do not change a reply, so they stay out of the cache key.
        return {"backend": self.name, "base_url": self.base_url, "model": self.model,
                "system_prompt": self.system_prompt, "structured_output": self.structured_output}

    def report(self) -> dict[str, Any]:
        with self._stats_lock:
            retried = self.retried_attempts
        with self._stats_lock:
            refusals = list(self.format_refusals)
        return {"timeout": self.timeout, "retries": self.retries, "retried_attempts": retried,
                "structured_output": {"configured": self.structured_setting,
                                      "used": FORMAT_LEVELS[self._format_level], "refusals": refusals},
                "structured_output_refused": self.structured_output_refused, "breaker": self.breaker.report()}

    @property
    def structured_output_refused(self) -> str | None:
        """The server's refusals of response_format forms ("json_schema: HTTP 500 ..."), None when none."""
        with self._stats_lock:
            return "; ".join(f"{r['format']}: {r['reason']}" for r in self.format_refusals) or None

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

    async def _post(self, payload: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        import httpx

        if self._client is None:  # created on the loop thread, which is the only one using it
            limit = self.max_concurrency or 100
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout, connect=self.connect_timeout),
                limits=httpx.Limits(max_connections=limit, max_keepalive_connections=limit),
                follow_redirects=False, trust_env=True)
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        async with self._client.stream("POST", f"{self.base_url}/chat/completions", json=payload,
                                       headers=headers) as resp:
            body = bytearray()
            async for chunk in resp.aiter_bytes():
                body += chunk
                if len(body) > self.max_reply_bytes:
                    raise _Final(f"reply larger than max_reply_bytes={self.max_reply_bytes}; refused")
            return resp.status_code, {k.lower(): v for k, v in resp.headers.items()}, bytes(body)

    async def _attempt(self, payload: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        try:
            return await asyncio.wait_for(self._post(payload), self.timeout)
        except TimeoutError:
            raise _Timeout(f"no complete reply within the {self.timeout:g}s deadline ({self.base_url})") from None

    def _exchange(self, payload: dict[str, Any], max_tokens: int) -> _Reply:
        """One attempt: a reply, or _Retryable/_Final/_FormatRefused with the reason."""
        import httpx

        try:
            status, headers, body = self._loop_thread().run(self._attempt(payload), self.timeout + 10)
        except (_Final, _Retryable):
            raise
        except httpx.TimeoutException as e:
            raise _Timeout(f"timed out ({type(e).__name__}) talking to {self.base_url}") from None
        except httpx.ConnectError as e:  # refused, DNS, TLS handshake
            raise _Retryable(f"cannot connect to {self.base_url}: {e or type(e).__name__}") from None
        except httpx.RemoteProtocolError as e:  # not HTTP, or the body cut short
            raise _Retryable(f"broken reply from {self.base_url} (not HTTP, or cut short): {e}") from None
        except (httpx.HTTPError, OSError) as e:  # resets, read/write errors, bad content-encoding
            raise _Retryable(f"transport error ({type(e).__name__}) with {self.base_url}: {e}") from None
        if status == 200:
            return parse_completion(body, max_tokens)
        message = server_message(body)
        raw = body[:1000].decode("utf-8", "replace").lower()
        if status in _FORMAT_REFUSAL and "response_format" in payload and \
                any(w in raw for w in _STRUCTURED_WORDS):
            raise _FormatRefused(f"HTTP {status}: {message}")
        reason = f"HTTP {status} from {self.base_url}" + (f": {message}" if message else "")
        if status in _RETRY_STATUS or status >= 500:
            raise _Retryable(reason, retry_after_seconds(headers.get("retry-after")))
        if 400 <= status < 500:
            raise _ClientError(reason, status)
        raise _Final(reason)  # a redirect (not followed) or a status no server should send

    # -- one request: attempts, waits, breaker ------------------------------------------------------

    def _one(self, prompt: str, temperature: float, seed: int, max_tokens: int,
             response_format: dict[str, Any] | None = None) -> str:
        probe = self.breaker.admit()
        messages = ([{"role": "system", "content": self.system_prompt}] if self.system_prompt else [])
        user, start = split_reply_start(prompt)
        messages.append({"role": "user", "content": f"{user}\n{start}" if start else user})
        payload: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature,
                                   "seed": seed, "max_tokens": max_tokens}
        level = self._format_level
        fmt = self.response_format_for(response_format, level)
        if fmt is not None:
            payload["response_format"] = fmt
        t0 = time.perf_counter()
        attempts = 1 if probe else self.retries + 1  # a probe of an open breaker gets one try
        last = ""
        tried = 0
        retryable = True
        server_up = False  # it answered a client error about this request: no fault of the server's
        while tried < attempts:
            tried += 1
            try:
                if self._slots is None:
                    reply = self._exchange(payload, max_tokens)
                else:
                    with self._slots:
                        reply = self._exchange(payload, max_tokens)
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
            except _Final as e:
                last = str(e)
                # past its deadline the server is hung or overloaded: a caller's retry would wait it out
                # again; a client error comes back the same for the same request
                retryable = not isinstance(e, (_Timeout, _ClientError))
                server_up = isinstance(e, _ClientError) and not e.run_wide
                break
            except _Retryable as e:
                last = str(e)
                if tried < attempts:
                    with self._stats_lock:
                        self.retried_attempts += 1
                    wait = min(self.backoff * (2 ** (tried - 1)), self.max_backoff) if e.wait is None \
                        else min(e.wait, self.max_retry_after)
                    time.sleep(wait)
                continue
            self.breaker.success()
            record_request(time.perf_counter() - t0, reply.prompt_tokens, reply.completion_tokens)
            return reply.text
        if server_up:
            self.breaker.success()
        else:
            self.breaker.failure(last, probe)
        record_request(time.perf_counter() - t0, failed=True)
        raise BackendError(f"{last} (after {tried} attempt{'s' if tried != 1 else ''})", retryable)

    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256, response_format: dict[str, Any] | None = None) -> list[str]:
        # one request per sample with seed+i: many servers ignore `n`, all honour `seed`. The samples go
        # out together (self-consistency votes wait on the slowest, not the sum), each in a copy of the
        # caller's context so its usage lands on the caller's case; the first failure is raised.
        if n <= 1:
            return [self._one(prompt, temperature, seed, max_tokens, response_format)]
        with ThreadPoolExecutor(max_workers=min(n, self.fan_out)) as pool:
            futures = [pool.submit(contextvars.copy_context().run, self._one, prompt, temperature, seed + i,
                                   max_tokens, response_format) for i in range(n)]
            return [f.result() for f in futures]

    def close(self) -> None:
        if self._loop is not None:
            if self._client is not None:
                self._loop.run(self._client.aclose(), 10)
            self._loop.loop.call_soon_threadsafe(self._loop.loop.stop)
