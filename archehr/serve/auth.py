"""The token gate: off this computer, every request must carry the server's secret, or it gets 401.

It is the outermost ASGI layer (outside the size limits), so a request without the token never reaches a
handler, the system or a body read. The token travels as `Authorization: Bearer <token>` (API clients) or as
the cookie `archehr_token`, which a browser gets by opening any page once with `?token=<token>` (the address
`archehr serve` prints): the answer is a redirect to the same address without the token, setting the cookie
(HttpOnly, SameSite=Strict: a page of another site cannot send requests with it). Tokens are compared in
constant time.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
from urllib.parse import parse_qsl, urlencode

from archehr.serve.guard import SECURITY_HEADERS, ASGIApp, Receive, Scope, Send

COOKIE = "archehr_token"
ENV = "ARCHEHR_SERVE_TOKEN"
MIN_LENGTH = 16  # a shorter secret on a network could be guessed
MISSING = ("this server needs its token: open the address `archehr serve` printed (it ends in ?token=...), "
           "or send the header Authorization: Bearer <token>")


TOKEN_CHARS = re.compile(r"[A-Za-z0-9._~+/=-]+")  # what a header, a cookie and a URL all carry as it is


def token_problem(token: str) -> str | None:
    """Why this token cannot be used (None: it can)."""
    if len(token) < MIN_LENGTH:
        return f"the token has {len(token)} characters; use at least {MIN_LENGTH}"
    if not TOKEN_CHARS.fullmatch(token):
        return "the token may hold only letters, digits and . _ ~ + / = -"
    return None


def new_token() -> str:
    """A random token (32 URL-safe characters, 192 bits)."""
    return secrets.token_urlsafe(24)


def _cookies(header: bytes) -> dict[str, str]:
    out = {}
    for part in header.decode("latin-1").split(";"):
        name, _, value = part.strip().partition("=")
        if name:
            out[name] = value
    return out


class TokenGate:
    """Let a request through only with the token (header or cookie); `?token=` on a page sets the cookie."""

    def __init__(self, app: ASGIApp, token: str):
        self.app = app
        self.token = token.encode()

    def _ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.token)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        auth = headers.get(b"authorization", b"").decode("latin-1")
        bearer = auth[7:].strip() if auth[:7].lower() == "bearer " else None
        if self._ok(bearer) or self._ok(_cookies(headers.get(b"cookie", b"")).get(COOKIE)):
            await self.app(scope, receive, send)
            return
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = [v for k, v in query if k == "token"]
        if scope.get("method") in ("GET", "HEAD") and given and self._ok(given[-1]):
            rest = urlencode([(k, v) for k, v in query if k != "token"])
            where = scope.get("path", "/") + (f"?{rest}" if rest else "")
            await _reply(send, 303, b"", [(b"location", where.encode()), (b"set-cookie", (
                f"{COOKIE}={given[-1]}; Path=/; HttpOnly; SameSite=Strict").encode())])
            return
        body = json.dumps({"problems": [{"text": f"error: {MISSING}", "message": MISSING, "file": None,
                                         "case_id": None, "field": None, "line": None, "code": "unauthorized"}]})
        await _reply(send, 401, body.encode(), [(b"content-type", b"application/json"),
                                                (b"www-authenticate", b'Bearer realm="archehr serve"')])


async def _reply(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": headers + [(b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})

