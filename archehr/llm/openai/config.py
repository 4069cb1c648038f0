"""The `openai` backend's options, checked once: one ConfigError naming what is wrong."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import Any

from archehr.errors import ConfigError, UnavailableError
from archehr.llm.openai.negotiation import STRUCTURED_SETTINGS

HTTPX_FIX = "pip install 'archehr[llm]' (httpx)"


@dataclass(frozen=True)
class Limits:
    """The numeric options, as the backend uses them."""

    timeout: float | None
    first_token_timeout: float
    token_timeout: float
    connect_timeout: float


def check(base_url: str, model: Any, structured_output: Any, thinking_budget: Any, context_window: Any,
          numbers: dict[str, Any]) -> None:
    if not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"openai backend: base_url must start with http:// or https://, not {base_url!r}")
    n = numbers
    if (n["max_concurrency"] is not None and int(n["max_concurrency"]) < 1) or int(n["retries"]) < 0 \
            or (n["timeout"] is not None and float(n["timeout"]) <= 0) or float(n["first_token_timeout"]) <= 0 \
            or float(n["token_timeout"]) <= 0 or int(n["breaker_after"]) < 0 or int(n["max_reply_bytes"]) < 1 \
            or int(n["min_concurrency"]) < 1 or int(n["max_tokens_cap"]) < 1:
        raise ConfigError("openai backend: timeout (or null), first_token_timeout and token_timeout > 0, "
                          "retries >= 0, breaker_after >= 0 (0: no breaker), max_reply_bytes, max_tokens_cap, "
                          "min_concurrency >= 1 and max_concurrency >= 1 (or null) are required")
    if structured_output not in STRUCTURED_SETTINGS:
        raise ConfigError(f"openai backend: structured_output must be true (negotiate from json_schema), "
                          f"json_object (start there: llama.cpp) or false, not {structured_output!r}")
    if not (thinking_budget == "auto" or (isinstance(thinking_budget, int) and thinking_budget >= 0)):
        raise ConfigError(f"openai backend: thinking_budget must be auto or a number of tokens >= 0, "
                          f"not {thinking_budget!r}")
    if context_window is not None and not (isinstance(context_window, int) and context_window >= 256):
        raise ConfigError(f"openai backend: context_window must be the model's window in tokens (>= 256) or null "
                          f"(learned from the server), not {context_window!r}")
    if not isinstance(model, str) or not model.strip():
        raise ConfigError("openai backend: model must be the served model's name, or auto")
    if importlib.util.find_spec("httpx") is None:
        raise UnavailableError("openai backend", "httpx is not installed", HTTPX_FIX)


def limits(timeout: float | None, first_token_timeout: float, token_timeout: float, connect_timeout: float) -> Limits:
    total = None if timeout is None else float(timeout)
    first = float(first_token_timeout) if total is None else min(float(first_token_timeout), total)
    return Limits(total, first, float(token_timeout), min(float(connect_timeout), first))
