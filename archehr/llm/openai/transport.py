"""The HTTP side: one asyncio loop and connection pool, a POST streamed or not, and the watchdog.

httpx (imported on first use) runs async on one event loop (a daemon thread) shared by every calling
thread. An attempt is bounded by the time to its first token (`first_token_timeout`: the server may be
queueing) and between tokens (`token_timeout`: a stalled stream), not by the length of the whole reply;
`timeout` adds an optional total. A server that answers a streamed request with one whole JSON body
(it ignores `stream: true`) is read the same way; that reply's time is no time to first token.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import re
import threading
import time
from dataclasses import dataclass
from typing import Any

from archehr.llm.base import FORMAT_REFUSAL_STATUS
from archehr.llm.openai.replies import (
    ClientError,
    ContextTooLong,
    Final,
    FormatRefused,
    OptionRefused,
    Reply,
    Retryable,
    TimedOut,
    as_count,
    finish_reply,
    load_json,
    parse_completion,
    reasoning_of,
    retry_after_seconds,
    server_message,
)

RETRY_STATUS = frozenset({408, 409, 425, 429})  # and every 5xx
OVERLOAD_STATUS = frozenset({429, 503})  # the server is busy: fewer requests in flight
_STRUCTURED_WORDS = ("response_format", "json_schema", "json_object", "guided", "structured", "grammar")
# statuses with which a server refuses a response_format it cannot do, when its message names the format:
# llama-cpp-python answers `json_schema` with HTTP 500 (it takes `{"type": "json_object", "schema": ...}`)
_FORMAT_REFUSAL = FORMAT_REFUSAL_STATUS | {500}
# vLLM/OpenAI: "maximum context length is 2048 tokens. However, you requested 2663 tokens (2363 in the messages,
# 300 in the completion)"; llama.cpp: "the request exceeds the available context size"
_CONTEXT = re.compile(r"context (?:length|size|window)|n_ctx|too many tokens|prompt is too long", re.IGNORECASE)
_WINDOW = re.compile(r"maximum context length is (\d+)", re.IGNORECASE)
_IN_MESSAGES = re.compile(r"(\d+) in the messages|messages resulted in (\d+) tokens", re.IGNORECASE)


class LoopThread:
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
            raise TimedOut(f"no complete reply within the {timeout:g}s deadline") from None


class _Watch:
    """When the current attempt last showed life: the watchdog cuts it on these times."""

    def __init__(self, t0: float):
        self.t0 = t0
        self.first: float | None = None  # first token (or first body byte of a non-streamed reply)
        self.last = t0
        self.body = False  # a whole reply (not streamed) is arriving


@dataclass(frozen=True)
class Deadlines:
    first_token: float
    token: float
    total: float | None  # optional TOTAL seconds per attempt
    connect: float


class Transport:
    """POSTs to `{base_url}/chat/completions` (and GETs) for one backend; `last_life` is when the server last
    answered anything (a reply or a token)."""

    def __init__(self, base_url: str, api_key_env: str, deadlines: Deadlines, max_reply_bytes: int, pool: int):
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.deadlines = deadlines
        self.max_reply_bytes = max_reply_bytes
        self.pool = pool
        self.last_life = -1e18
        self.streams_ignored = 0  # streamed requests answered with a whole JSON body
        self._loop: LoopThread | None = None
        self._client: Any = None
        self._lock = threading.Lock()

    @property
    def root(self) -> str:
        """The server's root, where llama.cpp's /props and Ollama's /api/show sit (not under /v1)."""
        return re.sub(r"/v\d+$", "", self.base_url)

    def loop_thread(self) -> LoopThread:
        with self._lock:
            if self._loop is None:
                self._loop = LoopThread()
            return self._loop

    def http(self) -> Any:
        import httpx

        if self._client is None:  # created on the loop thread, which is the only one using it
            limit = self.pool + 8
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(None, connect=self.deadlines.connect),  # the watchdog bounds the rest
                limits=httpx.Limits(max_connections=limit, max_keepalive_connections=limit),
                follow_redirects=False, trust_env=True)
        return self._client

    def headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def get(self, url: str, deadline: float, body: dict[str, Any] | None = None) -> tuple[int, bytes]:
        """GET (or POST `body` to) `url`: (status, body); Retryable (kind connection) when nothing answers."""
        return self.loop_thread().run(self._get(url, deadline, body), None)

    async def _get(self, url: str, deadline: float, body: dict[str, Any] | None) -> tuple[int, bytes]:
        import httpx

        client = self.http()
        try:
            call = client.get(url, headers=self.headers()) if body is None else \
                client.post(url, json=body, headers=self.headers())
            resp = await asyncio.wait_for(call, deadline)
        except TimeoutError:
            raise TimedOut("no answer within the deadline") from None
        except httpx.ConnectError as e:  # refused (nothing listens) is told apart: no later request can do better
            kind = "refused" if refused(e) else "connection"
            raise Retryable(f"cannot connect: {e or type(e).__name__}", kind=kind) from None
        except httpx.HTTPError as e:
            raise Retryable(f"cannot connect: {e or type(e).__name__}", kind="connection") from None
        return resp.status_code, resp.content[: self.max_reply_bytes]

    async def _post(self, payload: dict[str, Any], watch: _Watch, max_tokens: int) -> tuple[int, dict[str, str],
                                                                                          bytes, Reply | None]:
        async with self.http().stream("POST", f"{self.base_url}/chat/completions", json=payload,
                                      headers=self.headers()) as resp:
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
                    raise Final(f"reply larger than max_reply_bytes={self.max_reply_bytes}; refused")
            return resp.status_code, headers, bytes(body), None

    async def _read_events(self, resp: Any, watch: _Watch, max_tokens: int) -> Reply:
        """A streamed reply (server-sent events): content and reasoning deltas, finish reason, usage."""
        content: list[str] = []
        reasoning: list[str] = []
        finish: str | None = None
        usage: dict[str, Any] = {}
        size = chunks = 0  # chunks: content/reasoning deltas, one token each on llama.cpp, vLLM and Ollama
        done = False
        async for line in resp.aiter_lines():
            now = watch.last = time.monotonic()
            size += len(line)
            if size > self.max_reply_bytes:
                raise Final(f"reply larger than max_reply_bytes={self.max_reply_bytes}; refused")
            if not line.startswith("data:"):
                continue  # comments (": ping"), event names, blank separators
            data = line[5:].strip()
            if data == "[DONE]":
                done = True
                break
            event = _event(data)
            if isinstance(event.get("usage"), dict):
                usage = event["usage"]
            for choice in event.get("choices") or ():
                if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                    continue
                delta = choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
                piece, think = delta.get("content"), reasoning_of(delta)
                if isinstance(piece, str) and piece:
                    content.append(piece)
                if think:
                    reasoning.append(think)
                if piece or think:
                    chunks += 1
                    self.last_life = now  # a token is a sign of life (a stall later is a busy server's)
                    watch.first = now if watch.first is None else watch.first
                if isinstance(choice.get("finish_reason"), str):
                    finish = choice["finish_reason"]
        if not done and finish is None:
            raise Retryable(f"broken reply from {self.base_url} (the stream was cut short)", kind="connection")
        first = (watch.first if watch.first is not None else time.monotonic()) - watch.t0
        if not as_count(usage.get("completion_tokens")):  # no usage in the stream (llama-cpp-python): count deltas
            usage = {**usage, "completion_tokens": chunks}
        return finish_reply("".join(content), "".join(reasoning), finish, usage, max_tokens, first)

    async def _attempt(self, payload: dict[str, Any], max_tokens: int) -> tuple[int, dict[str, str], bytes,
                                                                               Reply | None]:
        """One attempt under the watchdog: cut when no first token comes within first_token_timeout, when
        tokens stop for token_timeout, or past the optional total `timeout`."""
        watch = _Watch(time.monotonic())
        task = asyncio.ensure_future(self._post(payload, watch, max_tokens))
        d = self.deadlines
        tick = min(0.1, d.token / 10, d.first_token / 10)
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=tick)
                if done:
                    return task.result()
                _watchdog(watch, d, time.monotonic(), self.base_url)
        finally:
            if not task.done():
                task.cancel()
                try:
                    await task
                except BaseException:  # noqa: BLE001 - the cancelled attempt's own error is not the outcome
                    pass

    def exchange(self, payload: dict[str, Any], max_tokens: int) -> Reply:
        """One attempt: a reply, or Retryable/Final/FormatRefused/OptionRefused with the reason."""
        import httpx

        try:
            status, headers, body, reply = self.loop_thread().run(self._attempt(payload, max_tokens))
        except (Final, Retryable):
            raise
        except httpx.TimeoutException as e:  # connect timeout
            raise Retryable(f"timed out ({type(e).__name__}) connecting to {self.base_url}",
                            kind="connection") from None
        except httpx.ConnectError as e:  # refused, DNS, TLS handshake
            raise Retryable(f"cannot connect to {self.base_url}: {e or type(e).__name__}", kind="connection") from None
        except httpx.RemoteProtocolError as e:  # not HTTP, or the body cut short
            raise Retryable(f"broken reply from {self.base_url} (not HTTP, or cut short): {e}",
                            kind="connection") from None
        except (httpx.HTTPError, OSError) as e:  # resets, read/write errors, bad content-encoding
            raise Retryable(f"transport error ({type(e).__name__}) with {self.base_url}: {e}",
                            kind="connection") from None
        if status == 200:
            if reply is not None:
                return reply
            got = parse_completion(body, max_tokens)
            if payload.get("stream"):  # a whole body to a streamed request: its time is no first token's
                self.streams_ignored += 1
            return got
        raise self.refusal(status, headers, body, payload)

    def refusal(self, status: int, headers: dict[str, str], body: bytes, payload: dict[str, Any]) -> Exception:
        """What a non-200 answer means for this request."""
        message = server_message(body)
        raw = body[:1000].decode("utf-8", "replace").lower()
        if status in _FORMAT_REFUSAL and "response_format" in payload and any(w in raw for w in _STRUCTURED_WORDS):
            return FormatRefused(f"HTTP {status}: {message}")
        if status in (400, 422) and "stream_options" in payload and "stream_options" in raw:
            return OptionRefused("stream_options", f"HTTP {status}: {message}")
        if status in (400, 422) and payload.get("stream") and ("'stream'" in raw or '"stream"' in raw
                                                               or "streaming" in raw):
            return OptionRefused("stream", f"HTTP {status}: {message}")
        reason = f"HTTP {status} from {self.base_url}" + (f": {message}" if message else "")
        if status in (400, 413) and _CONTEXT.search(raw):
            window, sent = _WINDOW.search(raw), _IN_MESSAGES.search(raw)
            return ContextTooLong(reason, int(window.group(1)) if window else None,
                                  int(sent.group(1) or sent.group(2)) if sent else None)
        if status in RETRY_STATUS or status >= 500:
            return Retryable(reason, retry_after_seconds(headers.get("retry-after")),
                             kind="overload" if status in OVERLOAD_STATUS else "broken")
        if 400 <= status < 500:
            return ClientError(reason, status)
        return Final(reason)  # a redirect (not followed) or a status no server should send

    def close(self) -> None:
        if self._loop is not None:
            if self._client is not None:
                self._loop.run(self._client.aclose(), 10)
            self._loop.loop.call_soon_threadsafe(self._loop.loop.stop)


def refused(error: BaseException) -> bool:
    """Whether a connection error is a refusal (nothing listens at the port), anywhere in its chain."""
    seen: BaseException | None = error
    for _ in range(10):
        if seen is None:
            return False
        if isinstance(seen, ConnectionRefusedError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _event(data: str) -> dict[str, Any]:
    event = load_json(data.encode("utf-8"), "a stream event")
    if not isinstance(event, dict):
        raise Retryable(f"a stream event is JSON but not an object: {data[:80]!r}")
    if "error" in event and not event.get("choices"):
        err = event["error"]
        msg = err.get("message") if isinstance(err, dict) else err
        raise Retryable(f"the server reported an error mid-stream: {str(msg)[:160]}")
    return event


def _watchdog(watch: _Watch, d: Deadlines, now: float, where: str) -> None:
    if d.total is not None and now - watch.t0 > d.total:
        raise TimedOut(f"no complete reply within the {d.total:g}s deadline ({where})")
    if watch.first is None and now - watch.t0 > d.first_token:
        raise TimedOut(f"no first token within the {d.first_token:g}s deadline (first_token_timeout; {where})")
    if watch.body and now - watch.last > d.token:
        raise TimedOut(f"the reply trickled: still arriving {d.token:g}s after its first byte "
                       f"(token_timeout deadline; {where})")
    if watch.first is not None and now - watch.last > d.token:
        raise TimedOut(f"the reply stalled: no token for {d.token:g}s (token_timeout deadline; {where})")


