"""The outermost ASGI layer: request size limits (413 before the body is read) and security headers.

It wraps the whole FastAPI app, so a refused request never reaches a handler, a log line about its body, or
Starlette's error middleware. A declared Content-Length over the limit is refused without reading a byte;
a chunked body is read only up to the limit, then refused.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("archehr.serve")

# Everything the pages load comes from this server: no font, script, style or frame from anywhere else.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    # answers quote the note: no copy of a response in the browser's disk cache
    (b"cache-control", b"no-store"),
)


def _kb(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 and n % (1024 * 1024) == 0 else f"{n // 1024} KB"


def too_large_body(limit: int, what: str = "request body") -> bytes:
    text = f"error: field body: the {what} is larger than the {_kb(limit)} this server accepts"
    return json.dumps({"problems": [{"text": text, "message": text[len("error: field body: "):], "file": None,
                                     "case_id": None, "field": "body", "line": None, "code": "too-large"}]}).encode()


class Guard:
    """Body size limit per path (`limits`, else `default`) and the security headers on every response."""

    def __init__(self, app: ASGIApp, limits: Mapping[str, int], default: int = 64 * 1024):
        self.app = app
        self.limits = dict(limits)
        self.default = default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in SECURITY_HEADERS if k not in names]
            await send(message)

        limit = self.limits.get(scope.get("path", ""), self.default)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                await _reply(send_with_headers, 400, b'{"problems": [{"text": "error: bad Content-Length", '
                                                     b'"message": "bad Content-Length", "code": "http"}]}')
                return
            if int(declared) > limit:
                await _reply(send_with_headers, 413, too_large_body(limit))
                return
            await self._run(scope, receive, send_with_headers, lambda: started)
            return
        if scope.get("method") in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self._run(scope, receive, send_with_headers, lambda: started)
            return
        # no declared length (chunked): read at most `limit` bytes here, then hand the body on
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > limit:
                chunks.clear()
                await _reply(send_with_headers, 413, too_large_body(limit))
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replay = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay_receive() -> Message:
            return replay.pop() if replay else await receive()

        await self._run(scope, replay_receive, send_with_headers, lambda: started)

    async def _run(self, scope: Scope, receive: Receive, send: Send, started: Callable[[], bool]) -> None:
        """Run the app; an exception it re-raises after answering 500 (Starlette's error middleware does) stops
        here, logged by type only: uvicorn would log its traceback and message, which may quote the input."""
        try:
            await self.app(scope, receive, send)
        except Exception as e:  # noqa: BLE001 - the last line of defence for the log's privacy
            log.error("internal error on %s %s: %s", scope.get("method"), scope.get("path"), type(e).__name__)
            if not started():
                await _reply(send, 500, b'{"problems": [{"text": "error: internal error", "message": '
                                        b'"internal error", "code": "internal"}]}')


async def _reply(send: Send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
