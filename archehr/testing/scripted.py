"""What the scripted servers of archehr/testing/ share: a threaded HTTP server on a free port of 127.0.0.1,
JSON replies, and a token count close to a real tokenizer's."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_TOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """Words and punctuation marks: about 4 characters a token on English, as the Llama and Qwen tokenizers."""
    return len(_TOKEN.findall(text))


def keep_last_tokens(text: str, n: int) -> str:
    """The text from its n-th last token on: what a server that cuts a prompt's start keeps."""
    found = list(_TOKEN.finditer(text))
    return text if len(found) <= n else text[found[-n].start():] if n > 0 else ""


def send_json(h: BaseHTTPRequestHandler, code: int, body: Any, headers: dict[str, str] | None = None) -> None:
    data = json.dumps(body).encode("utf-8")
    try:
        h.send_response(code)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(data)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the client gave up (a deadline of its own)


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that logs nothing and answers a path it does not serve with 404."""

    def log_message(self, *args: Any) -> None:
        pass

    def routed(self, suffix: str) -> bool:
        """Whether the request is for a path ending in `suffix`; a 404 naming the path otherwise."""
        if self.path.rstrip("/").endswith(suffix):
            return True
        send_json(self, 404, {"error": {"message": f"no route {self.path}"}})
        return False


class ScriptedHTTP:
    """A server on 127.0.0.1 (a free port) answering with `handler`; `url` is the base URL (`/v1`)."""

    def serve(self, handler: type[BaseHTTPRequestHandler], poll_interval: float = 0.5, queue: int = 5) -> None:
        self.stopped = threading.Event()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.httpd.request_queue_size = queue
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": poll_interval},
                                        daemon=True)

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    @property
    def url(self) -> str:
        return f"{self.root}/v1"

    def __enter__(self) -> Any:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stopped.set()
        self.httpd.shutdown()
        self.httpd.server_close()
