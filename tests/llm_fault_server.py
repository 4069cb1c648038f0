"""A scripted OpenAI-compatible server on 127.0.0.1 that misbehaves on purpose (raw sockets).

Raw sockets rather than http.server, so it can answer with something that is not HTTP, cut a
body short, trickle bytes or reset the connection. `mode` picks the behaviour of every request;
`script` (a list of modes) overrides it request by request, then `mode` applies again.
Also used by benchmarks/llm_workers.py and benchmarks/llm_dead_server.py (with `latency`).
"""

from __future__ import annotations

import json
import socket
import socketserver
import struct
import threading
from collections.abc import Callable

GOOD = "The heart tracing was abnormal. |2|\nA pacemaker was placed. |14|"
TEXTS = {
    "ok": GOOD,
    "nocite": "The heart tracing was abnormal.\nA pacemaker was placed.",
    # what SmolLM2 really wrote for one case: fluent, uncited, about nothing in the note
    "offtopic": "The patient's story is a testament to the importance of a healthy lifestyle. Why did this happen?",
    "huge": " ".join(["word"] * 20_000),
}
# besides these, any other three-digit mode answers that HTTP status with a JSON error message
MODES = ("ok", "nocite", "offtopic", "huge", "500", "400", "429", "refuse_format", "refuse_format_422", "llamacpp",
         "refuse_stream_options",
         "hang", "trickle", "trickle_body", "malformed", "empty_choices", "null_content", "cut", "not_http",
         "bad_utf8", "reset",
         "banner")


def completion(text: str | None, prompt_tokens: int = 11, completion_tokens: int = 7) -> bytes:
    return json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                    "finish_reason": "stop"}],
                       "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}}).encode()


def http(code: int, body: bytes, headers: dict[str, str] | None = None, length: int | None = None) -> bytes:
    reason = {200: "OK", 400: "Bad Request", 429: "Too Many Requests", 500: "Internal Server Error"}.get(code, "X")
    head = [f"HTTP/1.1 {code} {reason}", "Content-Type: application/json",
            f"Content-Length: {len(body) if length is None else length}", "Connection: close"]
    head += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class FaultServer:
    MODEL = "fault/model-7b"

    def __init__(self, mode: str = "ok", latency: float = 0.0, retry_after: str = "1",
                 reply: Callable[[dict], str] | None = None):
        self.mode = mode
        self.script: list[str] = []
        self.latency = latency  # seconds before every answer (a server busy generating)
        self.retry_after = retry_after
        self.reply = reply  # custom text for "ok" replies, from the request payload
        self.calls = 0  # completion requests (GET /v1/models is counted in `gets`)
        self.gets = 0
        self.models: list[str] | None = [self.MODEL]  # what GET /v1/models lists (None: 404)
        self.hang_models = False  # GET /v1/models never answered: the whole server is hung
        self.payloads: list[dict] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.stopped = threading.Event()
        self._lock = threading.Lock()
        outer = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                try:
                    outer._handle(self.request)
                except OSError:
                    pass  # the client gave up (deadline) or we reset on purpose

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True
            request_queue_size = 64

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.stopped.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def _read_request(self, sock: socket.socket) -> dict:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:  # closed before a whole request (a client giving up on a connection): no request
                return {"_closed": data.decode("latin-1", "replace")}
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        if head.startswith(b"GET "):
            return {"_get": head.split(b" ")[1].decode("latin-1")}
        length = 0
        for line in head.split(b"\r\n")[1:]:
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                length = int(v.strip())
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        path = head.split(b" ")[1].decode("latin-1") if head.count(b" ") >= 2 else ""
        if not path.endswith("/chat/completions"):  # /api/show, /tokenize: endpoints this server does not have
            return {"_other": path}
        try:
            return json.loads(body) if body else {}
        except ValueError:
            return {}

    def _handle(self, sock: socket.socket) -> None:
        if self.mode == "banner":  # speaks first, like an SSH server: a TLS client's handshake fails
            sock.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
            return
        payload = self._read_request(sock)
        if "_closed" in payload:  # nothing to answer, and not a completion request: `calls` does not count it
            return
        if "_other" in payload or ("_get" in payload and not payload["_get"].endswith("/models")):
            sock.sendall(http(404, b'{"error": {"message": "not found"}}'))  # llama.cpp's /props, Ollama's /api/show
            return
        if "_get" in payload:  # GET /v1/models: the model list (`models`), whatever the mode of completions
            self.gets += 1
            if self.hang_models:
                self.stopped.wait(120)
                return
            if self.models is None:
                sock.sendall(http(404, b'{"error": {"message": "not found"}}'))
            else:
                sock.sendall(http(200, json.dumps({"object": "list", "data": [
                    {"id": m, "object": "model", "owned_by": "fault-server"} for m in self.models]}).encode()))
            return
        with self._lock:
            self.calls += 1
            self.payloads.append(payload)
            mode = self.script.pop(0) if self.script else self.mode
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.latency:
                self.stopped.wait(self.latency)
            self._answer(sock, mode, payload)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _answer(self, sock: socket.socket, mode: str, payload: dict) -> None:
        if mode == "hang":
            self.stopped.wait(120)
            return
        if mode == "reset":  # RST instead of FIN
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return
        if mode == "not_http":
            sock.sendall(b"SSH-2.0-OpenSSH_9.6 this is not an HTTP server\r\n")
            return
        if mode == "trickle_body":  # the headers at once, then the body one byte a second
            whole = http(200, completion(GOOD))
            head_end = whole.index(b"\r\n\r\n") + 4
            sock.sendall(whole[:head_end])
            for b in whole[head_end:]:
                if self.stopped.wait(1.0):
                    return
                sock.sendall(bytes([b]))
            return
        if mode == "trickle":  # one byte a second, forever
            for b in http(200, completion(GOOD)):
                if self.stopped.wait(1.0):
                    return
                sock.sendall(bytes([b]))
            return
        if mode == "cut":
            body = completion(GOOD)
            sock.sendall(http(200, body[: len(body) // 2], length=len(body)))
            return
        if mode in ("500", "400"):
            sock.sendall(http(int(mode), b'{"error": {"message": "boom"}}'))
            return
        if mode == "429":
            sock.sendall(http(429, b'{"error": {"message": "slow down"}}', {"Retry-After": self.retry_after}))
            return
        if mode.isdigit():
            sock.sendall(http(int(mode), json.dumps({"error": {"message": f"scripted refusal ({mode})"}}).encode()))
            return
        fmt = payload.get("response_format")
        if mode == "llamacpp" and isinstance(fmt, dict) and fmt.get("type") == "json_schema":
            # llama-cpp-python 0.3: json_schema is not a response_format type it knows, and its error handler
            # turns the validation error into HTTP 500 (it takes {"type": "json_object", "schema": ...})
            sock.sendall(http(500, json.dumps({"error": {
                "message": "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n  Input "
                           "should be 'text' or 'json_object' [type=literal_error, input_value='json_schema']",
                "type": "internal_server_error", "param": None, "code": None}}).encode()))
            return
        if mode == "refuse_stream_options" and "stream_options" in payload:  # a strict server (extra fields forbidden)
            detail = b'{"detail": [{"loc": ["body", "stream_options"], "msg": "extra fields not permitted"}]}'
            sock.sendall(http(422, detail))
            return
        if mode.startswith("refuse_format") and "response_format" in payload:  # refuse_format_422: a 422
            status = 422 if mode.endswith("422") else 400
            sock.sendall(http(status, b'{"error": {"message": "response_format json_schema is not supported"}}'))
            return
        body = {"malformed": b'{"choices": [ {"message": ',
                "empty_choices": b'{"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 0}}',
                "null_content": completion(None),
                "bad_utf8": b'{"choices": [{"message": {"content": "caf\xe9 \xff\xfe"}}]}'}.get(mode)
        if body is None:
            text = self.reply(payload) if (self.reply and mode in ("ok", "refuse_format", "llamacpp")) \
                else TEXTS.get(mode, GOOD)
            body = completion(text, completion_tokens=len(text.split()))
        sock.sendall(http(200, body))


def closed_port_url() -> str:
    """A 127.0.0.1 URL nothing listens on (connection refused)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}/v1"

