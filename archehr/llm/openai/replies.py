"""Failed attempts by what they say, and reading a chat-completions reply (a JSON body or a stream's end).

An attempt ends in a reply (`Reply`) or one of the exceptions below; the attempt policy
(`policy.decide`) turns that into retry, wait or give up.
"""

from __future__ import annotations

import email.utils
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from archehr.llm.structured import strip_thinking

# client errors every request of the run gets (bad key, no such model or endpoint, unpaid account): they
# count toward the circuit breaker. Other 4xx (400, 413, 422, ...) may be about this request only.
RUN_WIDE_STATUS = frozenset({401, 402, 403, 404, 405, 407, 410})


class Retryable(Exception):
    """A failed attempt worth another one; `wait` is the server's Retry-After, when it gave one."""

    kind = "broken"  # what it says about the server (breaker): broken | connection | refused | overload

    def __init__(self, reason: str, wait: float | None = None, kind: str | None = None):
        super().__init__(reason)
        self.wait = wait
        if kind:
            self.kind = kind


class TimedOut(Retryable):
    """No first token, a stalled stream or the total deadline: the server may be busy; retried."""

    kind = "overload"


class Final(Exception):
    """A failed attempt another one will not fix."""


class ClientError(Final):
    """An HTTP 4xx the same request would get again: callers must not retry it either."""

    def __init__(self, reason: str, status: int):
        super().__init__(reason)
        self.run_wide = status in RUN_WIDE_STATUS


class ContextTooLong(ClientError):
    """HTTP 400 saying the prompt and the reply budget exceed the model's window (vLLM, OpenAI, llama.cpp wording):
    the same request fails again, a smaller one may not. `window`, `prompt_tokens`: the numbers the server gave."""

    def __init__(self, reason: str, window: int | None, prompt_tokens: int | None):
        super().__init__(reason, 400)
        self.window = window
        self.prompt_tokens = prompt_tokens


class FormatRefused(Exception):
    pass


class OptionRefused(Exception):
    """The server refused a transport option we can do without (stream_options, stream)."""

    def __init__(self, option: str, reason: str):
        super().__init__(reason)
        self.option = option


@dataclass
class Reply:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None
    reasoning: str = ""  # reasoning_content / reasoning, and any <think> text stripped from the content
    first_token: float | None = None  # seconds from sending to the first token (None: not measured)
    parts: list[str] = field(default_factory=list)


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


def load_json(body: bytes, what: str) -> Any:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Retryable(f"{what} is not valid UTF-8 (byte {e.start} of {len(body)})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise Retryable(f"{what} is not JSON ({e.msg} at char {e.pos}): {text[:80]!r}") from None
    except (ValueError, RecursionError) as e:  # a 4300+ digit number, nesting past the recursion limit
        raise Retryable(f"{what} is JSON Python cannot read ({type(e).__name__}): {text[:80]!r}") from None


def reasoning_of(part: Any) -> str:
    """The reasoning text of a message or a stream delta (vLLM: reasoning_content; others: reasoning)."""
    if not isinstance(part, dict):
        return ""
    for k in ("reasoning_content", "reasoning"):
        v = part.get(k)
        if isinstance(v, str) and v:
            return v
    return ""


def parse_completion(body: bytes, max_tokens: int) -> Reply:
    """The assistant text and token usage of a (non-streamed) chat-completions body; raises
    Retryable/Final saying why not. Thinking is kept apart (`reasoning`), never in `text`."""
    data = load_json(body, "reply")
    if not isinstance(data, dict):
        raise Retryable(f"reply is JSON but not an object: {body[:80]!r}")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        raise Retryable("reply has no choices" + (f" (error: {str(data['error'])[:120]})" if "error" in data else ""))
    first = choices[0]
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    finish = first.get("finish_reason") if isinstance(first, dict) else None
    reasoning = reasoning_of(message)
    if content is None and not (reasoning or finish == "length"):
        refusal = message.get("refusal") if isinstance(message, dict) else None
        why = f"; refusal: {refusal!r}" if refusal else ""
        raise Retryable(f"reply has no text (message content is null{why})")
    if content is not None and not isinstance(content, str):
        raise Retryable(f"reply content is {type(content).__name__}, not text")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return finish_reply(content or "", reasoning, finish if isinstance(finish, str) else None, usage, max_tokens)


def finish_reply(content: str, reasoning: str, finish: str | None, usage: dict[str, Any], max_tokens: int,
            first_token: float | None = None) -> Reply:
    text = strip_thinking(content)
    if text != content:  # <think> in the content: a reasoning model served without a reasoning parser
        reasoning = (reasoning + "\n" + content).strip()
    words = len(text.split())
    if words > max_tokens and finish != "length":  # every word costs at least one token: the limit was ignored
        raise Final(f"reply of {words} words is longer than max_tokens={max_tokens} allows (the server ignored "
                     "the limit); refused")
    return Reply(text, as_count(usage.get("prompt_tokens")), as_count(usage.get("completion_tokens")), finish,
                 reasoning, first_token)


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


def as_count(x: Any) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) and x >= 0 else 0
