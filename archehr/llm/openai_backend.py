"""`openai`: any OpenAI-compatible chat endpoint (vLLM, TGI, Ollama, llama.cpp server, OpenAI).

Standard library HTTP only (no SDK): timeouts, retries with exponential backoff on timeouts,
connection errors, 429/5xx and malformed replies, and a bound on concurrent requests shared by
every thread using this backend.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from archehr.errors import ConfigError
from archehr.llm.base import Backend, BackendError, split_reply_start


class OpenAIBackend(Backend):
    name = "openai"

    def __init__(self, base_url: str = "http://127.0.0.1:8000/v1", model: str = "default",
                 api_key_env: str = "OPENAI_API_KEY", timeout: float = 60.0, retries: int = 3,
                 backoff: float = 1.0, max_concurrency: int = 4, system_prompt: str | None = None,
                 structured_output: bool = True):
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"openai backend: base_url must start with http:// or https://, not {base_url!r}")
        if int(max_concurrency) < 1 or int(retries) < 0 or float(timeout) <= 0:
            raise ConfigError("openai backend: max_concurrency >= 1, retries >= 0 and timeout > 0 are required")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self.timeout = float(timeout)
        self.retries = int(retries)
        self.backoff = float(backoff)
        self.max_concurrency = int(max_concurrency)
        self.system_prompt = system_prompt
        self.structured_output = bool(structured_output)
        # set once the server refused a response_format: later requests go without it (run.json records why)
        self.structured_output_refused: str | None = None
        self._slots = threading.BoundedSemaphore(self.max_concurrency)

    def describe(self) -> dict[str, Any]:
        # the API key is a credential, never provenance: only the variable's name is recorded
        return {"backend": self.name, "base_url": self.base_url, "model": self.model,
                "system_prompt": self.system_prompt, "structured_output": self.structured_output}

    def _request(self, payload: dict[str, Any]) -> str:
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        req = urllib.request.Request(f"{self.base_url}/chat/completions", data=json.dumps(payload).encode("utf-8"),
                                     headers=headers, method="POST")
        with self._slots, urllib.request.urlopen(req, timeout=self.timeout) as resp:  # noqa: S310 - user's endpoint
            body = resp.read()
        try:
            data = json.loads(body)
            content = data["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise _Retryable(f"malformed reply ({type(e).__name__}): {body[:120]!r}") from None
        if not isinstance(content, str):
            raise _Retryable(f"malformed reply: content is {type(content).__name__}, not text")
        return content

    def _one(self, prompt: str, temperature: float, seed: int, max_tokens: int,
             response_format: dict[str, Any] | None = None) -> str:
        messages = ([{"role": "system", "content": self.system_prompt}] if self.system_prompt else [])
        user, start = split_reply_start(prompt)
        messages.append({"role": "user", "content": f"{user}\n{start}" if start else user})
        payload = {"model": self.model, "messages": messages, "temperature": temperature, "seed": seed,
                   "max_tokens": max_tokens}
        if response_format is not None and self.structured_output and self.structured_output_refused is None:
            payload["response_format"] = response_format
        last = ""
        for attempt in range(self.retries + 1):
            try:
                return self._request(payload)
            except urllib.error.HTTPError as e:
                last = f"HTTP {e.code} from {self.base_url}"
                if e.code == 400 and "response_format" in payload and _refuses_structured(e):
                    # the server cannot do structured output: ask again in plain text, and stop asking
                    self.structured_output_refused = f"{last} refused response_format"
                    return self._one(prompt, temperature, seed, max_tokens, None)
                if e.code != 429 and e.code < 500:
                    raise BackendError(last) from None  # a client error will not fix itself
            except TimeoutError:
                last = f"timed out after {self.timeout:g}s ({self.base_url})"
            except urllib.error.URLError as e:
                last = f"cannot reach {self.base_url}: {e.reason}"
            except _Retryable as e:
                last = str(e)
            except (ConnectionError, OSError) as e:
                last = f"connection error: {e}"
            if attempt < self.retries:
                time.sleep(self.backoff * (2 ** attempt))
        raise BackendError(f"{last} (after {self.retries + 1} attempts)")

    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256, response_format: dict[str, Any] | None = None) -> list[str]:
        # one request per sample with seed+i: many servers ignore `n`, all honour `seed`
        return [self._one(prompt, temperature, seed + i, max_tokens, response_format) for i in range(n)]

    def complete_many(self, prompts: Sequence[str], **kwargs: Any) -> list[list[str] | BackendError]:
        def run(p: str) -> list[str] | BackendError:
            try:
                return self.complete(p, **kwargs)
            except BackendError as e:
                return e

        with ThreadPoolExecutor(max_workers=self.max_concurrency) as pool:
            return list(pool.map(run, prompts))


def _refuses_structured(e: urllib.error.HTTPError) -> bool:
    try:
        body = e.read(4096).decode("utf-8", "replace").lower()
    except OSError:
        return False
    return any(w in body for w in ("response_format", "json_schema", "guided", "structured"))


class _Retryable(Exception):
    """A reply we could not read: worth another attempt."""
