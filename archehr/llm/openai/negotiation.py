"""What the backend learns from the server: the served model (`GET /models`), the structured-output form
it accepts, its context window and its token counts.

- model: `start()` reads `GET {base_url}/models`; a configured model it does not serve is a ConfigError
  naming what it serves; `model: auto` takes the only one it serves. Nothing listening at all (connection
  refused) is an UnavailableError: the run stops before its first case (exit 3), naming the address.
  A server that accepts the connection but answers late is asked again before the next request;
- structured output: `json_schema` -> `{"type": "json_object", "schema": ...}` (llama.cpp) -> plain text,
  each form dropped for good when the server refuses it;
- the window: the config's `context_window`, else vLLM's `max_model_len` in the model list, llama.cpp's
  `n_ctx` in `GET /props`, Ollama's `num_ctx` from `POST /api/show` (these two at the server's root, not
  under /v1; Ollama's default 2048 when the model sets none), else a 400 naming it, learned when it comes;
- tokens: the server's `POST /tokenize` (vLLM, llama.cpp) where it has one, else `estimate_tokens`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from typing import Any

from archehr.errors import ConfigError, Problem, UnavailableError
from archehr.llm.base import TEMPLATE_TOKENS, estimate_tokens
from archehr.llm.openai.replies import Retryable, load_json, server_message
from archehr.llm.openai.transport import Transport

# structured output, most to least specific: each server is asked in the first form it has not refused
FORMAT_LEVELS = ("json_schema", "json_object", "text")
STRUCTURED_SETTINGS = {True: "json_schema", "auto": "json_schema", "json_schema": "json_schema",
                       "json_object": "json_object", False: "text", "text": "text", "off": "text", None: "text"}
# a `created` this close to our clock is the time of the listing (vLLM stamps it so), not of the weights
_LISTING_TIME = 300.0
OLLAMA_DEFAULT_CTX = 2048


class ModelList:
    """The served model, read once from `GET /models` (again before each request while unanswered, for auto)."""

    def __init__(self, transport: Transport, model: str, check: bool, list_deadline: float):
        self.transport = transport
        self.model = model
        self.check = check
        self.deadline = list_deadline
        self.served: dict[str, Any] | None = None
        self.entry: dict[str, Any] = {}  # the served model's whole entry (max_model_len, ...)
        self.error: str | None = None
        self.failed_at: float | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        if self.served is not None or not self.check:
            return
        with self._lock:
            if self.served is not None or (self.failed_at is not None and self.model != "auto"):
                # asked, and no list came: a named model is asked for without it. `auto` needs the list and asks
                # again before each request (llama-cpp-python answers it only between generations)
                return
            where = f"{self.transport.base_url}/models"
            try:
                status, body = self.transport.get(where, self.deadline)
            except Retryable as e:
                if e.kind == "refused":  # nothing listens: no request of the run can succeed (exit 3, at once)
                    raise UnavailableError("LLM server", f"nothing is listening at {self.transport.base_url} "
                                           f"(connection refused)", "start the server, or correct base_url") from None
                self.error = f"GET {where}: {e}"
                self.failed_at = time.monotonic()
                return
            self.served = self.choose(status, body)
            self.error = None

    def choose(self, status: int, body: bytes) -> dict[str, Any]:
        where = f"{self.transport.base_url}/models"
        ids: list[dict[str, Any]] = []
        if status == 200:
            try:
                data = load_json(body, "the model list")
            except Retryable:
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
        shown = ", ".join(names[:10]) + (", ..." if len(names) > 10 else "")
        if self.model == "auto":
            if len(ids) > 1:
                raise ConfigError(Problem(f"model: auto, but {where} serves {len(ids)} models ({shown}); set model: "
                                          "to one of them", field="backend.model", code="model"))
            chosen = ids[0]
        else:
            # Ollama lists "name:latest" and serves it as "name" too
            chosen = next((m for m in ids if m["id"] in (self.model, f"{self.model}:latest")), None)
            if chosen is None:
                raise ConfigError(Problem(f"model {self.model!r} is not served by {self.transport.base_url} (it serves:"
                                          f" {shown}); set model: to the served name, or model: auto",
                                          field="backend.model", code="model"))
        self.entry = chosen
        out: dict[str, Any] = {"id": chosen["id"]}
        for k in ("root", "owned_by"):
            if isinstance(chosen.get(k), str):
                out[k] = chosen[k]
        created = chosen.get("created")
        if isinstance(created, int) and not isinstance(created, bool) and abs(time.time() - created) > _LISTING_TIME:
            out["created"] = created  # a date of the weights (OpenAI, Ollama); vLLM stamps the listing time
        return out

    def name(self) -> str:
        """The model name to send; Retryable while `auto` has no list, ConfigError when it cannot work."""
        if self.served is None and self.check:
            try:
                self.start()
            except UnavailableError:  # refused mid-run (the run began with it there): retried like any connection
                raise Retryable(f"cannot connect to {self.transport.base_url}: nothing is listening (connection "
                                "refused)", kind="connection") from None
            if self.served is None and self.model == "auto":
                raise Retryable(f"model: auto, and the model list is unreachable ({self.error})", kind="connection")
        return self.served["id"] if self.served is not None else self.model


class Formats:
    """The structured-output form requests use, moving down FORMAT_LEVELS for good on a refusal."""

    def __init__(self, setting: str, base_url: str):
        self.setting = setting
        self.level = FORMAT_LEVELS.index(setting)
        self.base_url = base_url
        self.refusals: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def form(self, response_format: dict[str, Any] | None, level: int) -> dict[str, Any] | None:
        """What to send as `response_format` at a level: the caller's json_schema as is; at json_object,
        `{"type": "json_object", "schema": ...}` (llama.cpp's form; OpenAI and vLLM read it as plain JSON
        mode); at text, nothing (the prompt asks for JSON in words)."""
        if response_format is None or FORMAT_LEVELS[level] == "text":
            return None
        if FORMAT_LEVELS[level] == "json_object" and response_format.get("type") == "json_schema":
            spec = response_format.get("json_schema") if isinstance(response_format.get("json_schema"), dict) else {}
            out: dict[str, Any] = {"type": "json_object"}
            if isinstance(spec.get("schema"), dict):
                out["schema"] = spec["schema"]
            return out
        return response_format

    def refused(self, level: int, reason: str) -> int:
        """Record a refusal of the form at `level`; the level requests use from now on."""
        with self._lock:
            if self.level <= level:
                self.level = min(level + 1, len(FORMAT_LEVELS) - 1)
                self.refusals.append({"format": FORMAT_LEVELS[level], "reason": f"{reason} (from {self.base_url})",
                                      "now": FORMAT_LEVELS[self.level]})
            return self.level

    def next_form(self, response_format: dict[str, Any] | None, level: int, refused: Any,
                  reason: str) -> tuple[int, dict[str, Any] | None]:
        """After a refusal of `refused` at `level`: the next level and the form to send (json_schema's next form
        may be the json_object request just refused: skip it)."""
        level = self.refused(level, reason)
        fmt = self.form(response_format, level)
        while fmt is not None and fmt == refused:
            level = self.refused(level, reason)
            fmt = self.form(response_format, level)
        return level, fmt

    def summary(self) -> str | None:
        with self._lock:
            return "; ".join(f"{r['format']}: {r['reason']}" for r in self.refusals) or None


def _as_window(x: Any) -> int | None:
    return x if isinstance(x, int) and not isinstance(x, bool) and x > 0 else None


class Window:
    """The model's context window (tokens) and a token counter for prompts."""

    def __init__(self, transport: Transport, configured: int | None, deadline: float):
        self.transport = transport
        self.size: int | None = configured
        self.source = "config context_window" if configured else None
        self.deadline = deadline
        self.tokenizer: str | None = None  # "server" once /tokenize answered, "estimate" when it cannot
        self._lock = threading.Lock()
        self._counted: dict[str, int] = {}  # the samples of one prompt are counted once
        self.asked = False  # the server was asked for its window (asked once)

    def learn(self, entry: dict[str, Any], model: str) -> None:
        """From the model list's entry (vLLM), llama.cpp's /props or Ollama's /api/show; once."""
        with self._lock:
            if self.size is not None or self.asked:
                return
            self.asked = True
        found = _as_window(entry.get("max_model_len"))
        if found:
            self._set(found, "max_model_len in /models")
            return
        root = self.transport.root
        props = self._ask(f"{root}/props", None)
        if isinstance(props, dict):
            n_ctx = _as_window(props.get("n_ctx")) or _as_window(
                (props.get("default_generation_settings") or {}).get("n_ctx"))
            if n_ctx:
                self._set(n_ctx, "n_ctx in /props")
                return
        show = self._ask(f"{root}/api/show", {"model": model})
        if isinstance(show, dict) and ("model_info" in show or "parameters" in show):
            m = re.search(r"num_ctx\s+(\d+)", str(show.get("parameters") or ""))
            self._set(int(m.group(1)) if m else OLLAMA_DEFAULT_CTX,
                      "num_ctx in /api/show" if m else "Ollama's default num_ctx (the model sets none)")

    def heard(self, window: int, source: str = "the server's 400 reply") -> None:
        """A 400 named the window (or a server that cut a prompt said how much of it it read)."""
        if window and window != self.size:
            self._set(window, source)

    def _set(self, size: int, source: str) -> None:
        with self._lock:
            self.size, self.source = size, source

    def _ask(self, url: str, body: dict[str, Any] | None) -> Any:
        try:
            status, raw = self.transport.get(url, self.deadline, body)
        except Retryable:
            return None
        if status != 200:
            return None
        try:
            return json.loads(raw.decode("utf-8", "replace"))
        except (ValueError, RecursionError):
            return None

    def count(self, text: str, model: str, exact_above: int | None = None) -> tuple[int, bool]:
        """(tokens of a prompt, whether the server counted them). The estimate overcounts, so a prompt whose
        estimate is at most `exact_above` is not sent to the server's /tokenize (vLLM: its `count`; llama.cpp:
        its tokens); the server is asked once, and estimated from then on when it has no /tokenize."""
        est = estimate_tokens(text)
        if (exact_above is not None and est <= exact_above) or self.tokenizer == "estimate":
            return est, False
        with self._lock:
            if text in self._counted:
                return self._counted[text], True
        got = self._ask(f"{self.transport.root}/tokenize", {"model": model, "prompt": text, "content": text})
        n = _as_window(got.get("count")) if isinstance(got, dict) else None
        if n is None and isinstance(got, dict) and isinstance(got.get("tokens"), list):
            n = len(got["tokens"])
        if n is None:
            self.tokenizer = self.tokenizer or "estimate"
            return est, False
        self.tokenizer = "server"
        with self._lock:
            if len(self._counted) > 4096:
                self._counted.clear()
            self._counted[text] = n + TEMPLATE_TOKENS
        return n + TEMPLATE_TOKENS, True
