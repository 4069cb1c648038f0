"""The contract of LLM backends and the error they raise when a request finally fails."""

from __future__ import annotations

import contextvars
import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from archehr.errors import ArchehrError


class BackendError(ArchehrError):
    """A completion request failed after its retries (timeout, HTTP error, malformed reply).

    Callers that can fall back (the `llm` generator) catch it and record `reason` in run.json.
    `retryable` False says another request would fail the same way at once (the circuit breaker is
    open, the backend already spent the request's deadline and chose not to retry, or the server
    answered a client error such as HTTP 400/401/404/422 that the same request gets again): callers
    then stop their own retries, so the reason is recorded once, not once per attempt.
    """

    def __init__(self, reason: str, retryable: bool = True):
        self.reason = reason
        self.retryable = retryable
        super().__init__(reason)


class CutReply(BackendError):
    """The reply was still cut by the token limit (finish_reason: length) after it was asked again with a larger
    budget. `text` is the cut reply: never to be read as complete (a caller may use what precedes its last,
    cut line, or fall back). Not retryable: the same prompt runs into the same limit."""

    def __init__(self, reason: str, text: str):
        super().__init__(reason, retryable=False)
        self.text = text


class PromptTooLong(BackendError):
    """The server said the prompt and the reply budget exceed the model's context window (vLLM's HTTP 400
    "maximum context length is 2048 tokens. However, you requested 2663 tokens ..."). Not a server fault and
    not retryable as is: a component asks again with a smaller prompt (`window` is now known)."""

    def __init__(self, reason: str, window: int | None, prompt_tokens: int | None):
        super().__init__(reason, retryable=False)
        self.window = window
        self.prompt_tokens = prompt_tokens


# Without the model's tokenizer: 3 characters a token (English clinical text runs 3.5-4.5 on the Llama, Qwen
# and Mistral tokenizers, so this overcounts) plus 8 tokens of chat template a message.
CHARS_PER_TOKEN = 3.0
TEMPLATE_TOKENS = 8


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN) + TEMPLATE_TOKENS


# the statuses with which a server may refuse a `response_format` it cannot do (the openai backend and
# `structured.StructuredCaller` both drop the format on these)
FORMAT_REFUSAL_STATUS = frozenset({400, 404, 415, 422})

# A prompt may end with REPLY_START + text: the start of the assistant's reply. A local model
# continues that text in its own turn (a tiny model follows a format far better when its reply is
# already begun); a server gets it at the end of the user message. Either way `complete` returns
# the whole assistant reply, that start included, so callers parse one thing.
REPLY_START = "<<reply>>"


def split_reply_start(prompt: str) -> tuple[str, str]:
    """(user message, start of the reply) of a prompt; the start is "" when the prompt has none."""
    user, sep, start = prompt.rpartition(REPLY_START)
    if not sep:
        return prompt, ""
    return user.rstrip("\n"), start.lstrip("\n")


class Backend(ABC):
    """Registered by name in `archehr.llm.registry.BACKENDS`."""

    name: str = ""

    @abstractmethod
    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256, response_format: dict[str, Any] | None = None) -> list[str]:
        """`n` completions of `prompt`; deterministic for temperature 0 or a fixed seed. A backend that
        sends the samples separately may return fewer than `n` (the ones that came back; at least one,
        else it raises): a self-consistency vote uses what it gets.

        `response_format` is an OpenAI-style structured-output request, e.g. `{"type": "json_schema",
        "json_schema": {"name": ..., "schema": {...}}}`. It is a hint: a backend that cannot honour it
        (or whose server refuses it) returns plain text, so callers always parse the text reply.
        """

    def start(self) -> None:
        """Get to know the server before the first request (a served-model check); idempotent. Raises
        ConfigError when the configuration cannot work with it (a model it does not serve)."""
        return None  # a local model has no server to meet

    def context_window(self) -> int | None:
        """The model's context window in tokens, when known (components fit their prompts to it)."""
        return None

    def count_tokens(self, prompt: str, exact_above: int | None = None) -> int:
        """Tokens of `prompt` as sent; a prompt estimated at most `exact_above` may be estimated (the estimate
        overcounts). Without the model's tokenizer: `estimate_tokens`."""
        return estimate_tokens(prompt)

    @abstractmethod
    def describe(self) -> dict[str, Any]:
        """Everything that changes the output (model, revision, endpoint, ...): provenance and cache key."""

    def report(self) -> dict[str, Any]:
        """Transport state worth recording in run.json (retries, circuit breaker, refused options)."""
        return {}

    # how many prompts `complete_many` sends at once (a server batches them; a local model cannot)
    fan_out: int = 1

    def complete_many(self, prompts: Sequence[str], **kwargs: Any) -> list[list[str] | BackendError]:
        """Complete several prompts (keywords as `complete`, `response_format` included), in order;
        a failed one yields its BackendError instead of raising. Up to `fan_out` run at once."""

        def run(p: str) -> list[str] | BackendError:
            try:
                return self.complete(p, **kwargs)
            except BackendError as e:
                return e

        if self.fan_out <= 1 or len(prompts) <= 1:
            return [run(p) for p in prompts]
        # each task runs in a copy of the caller's context, so its LLM usage lands on the caller's case
        with ThreadPoolExecutor(max_workers=min(len(prompts), self.fan_out)) as pool:
            futures = [pool.submit(contextvars.copy_context().run, run, p) for p in prompts]
            return [f.result() for f in futures]
