"""Structured replies: JSON schemas sent as `response_format`, and reading JSON out of any reply.

Callers with a fixed reply shape (evidence ids, alignments) may ask the server for JSON that follows
a schema (vLLM, OpenAI and llama.cpp honour `response_format`). Whatever was asked, a reply is read
JSON first (bare, inside a ```json fence, or the first {...} / [...] in the text) and by the caller's
text parser when no JSON is found, so a server that ignores the schema, or a model that answers JSON
unasked, costs nothing. A server that rejects `response_format` outright (HTTP 400/422 naming it)
is asked again without it, once per backend (the openai backend does it itself and records it in
run.json; a plug-in backend's retryable "HTTP 4xx" error makes the caller do it and note it).
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any

from archehr.llm.base import FORMAT_REFUSAL_STATUS, Backend, BackendError

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_MARKDOWN = re.compile(r"\*\*|__|`")
_LIST_MARK = re.compile(r"^\s*(?:[-*•>]|\d+[.)])\s+")  # a bullet, quote mark or list number opening a line
# a server saying it does not know the parameter: these will not fix themselves on retry
_REJECTED = re.compile("HTTP (" + "|".join(map(str, sorted(FORMAT_REFUSAL_STATUS))) + r")\b")


_THINK_BLOCK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
_THINK_OPEN = re.compile(r"<(?:think|thinking|reasoning)>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</(?:think|thinking|reasoning)>", re.IGNORECASE)


def strip_thinking(text: str) -> str:
    """A reply without the model's thinking: `<think>...</think>` blocks removed, an unterminated `<think>`
    cut to the end (the model ran out of tokens while thinking), and everything before a `</think>` whose
    opening tag the chat template wrote into the prompt (DeepSeek-R1-style templates)."""
    if "<" not in text:
        return text
    out = _THINK_BLOCK.sub("", text)
    closes = list(_THINK_CLOSE.finditer(out))
    if closes:
        out = out[closes[-1].end():]
    opened = _THINK_OPEN.search(out)
    if opened is not None:
        out = out[:opened.start()]
    return text if out == text else out.strip()


def json_schema(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAI-style `response_format` asking for JSON that follows `schema`."""
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}


def ids_array() -> dict[str, Any]:
    """A list of sentence numbers, as strings or integers (models write both)."""
    return {"type": "array", "items": {"type": ["string", "integer"]}}


def extract_json(text: str) -> Any | None:
    """The JSON value a reply holds (bare, fenced, or the first {...} / [...] in prose), else None."""
    candidates = [text.strip()] + [m.group(1).strip() for m in _FENCE.finditer(text)]
    for opener, closer in (("{", "}"), ("[", "]")):
        start, end = text.find(opener), text.rfind(closer)
        if 0 <= start < end:
            candidates.append(text[start:end + 1])
    for c in candidates:
        if not c or c[0] not in "{[":
            continue
        try:
            return json.loads(c)
        except (ValueError, RecursionError):  # a reply nested thousands deep is no answer either
            continue
    return None


def id_list(value: Any) -> list[str]:
    """Sentence ids from a JSON value: [3, "4"], "3, 4", 3 -> ["3", "4"]; anything else -> []."""
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, (int, float)):
        return [str(int(value))]
    if isinstance(value, str):
        return re.findall(r"\d+", value)
    if isinstance(value, list):
        return [i for v in value for i in id_list(v)]
    return []


def strip_markdown(text: str) -> str:
    """A line without emphasis marks (**bold**, __bold__, `code`), which models add unasked."""
    return _MARKDOWN.sub("", text)


def reply_parts(reply: str, list_marks: bool = True) -> tuple[Any | None, list[str]]:
    """A reply as every LLM component reads it: the JSON it holds (None when none) and its non-empty lines
    without emphasis marks (with `list_marks`, without the bullet or list number opening a line), its
    thinking dropped first."""
    reply = strip_thinking(reply)
    lines = (strip_markdown(raw) for raw in reply.replace("\r", "").split("\n"))
    lines = ((_LIST_MARK.sub("", ln) if list_marks else ln).strip() for ln in lines)
    return extract_json(reply), [ln for ln in lines if ln]


def ends_mid_line(reply: str) -> bool:
    """Whether a reply stops inside a line (no final newline or end mark): generation hit its token limit."""
    tail = strip_markdown(reply).rstrip(" ")
    return bool(tail) and not tail.endswith(("\n", ".", "!", "?", "|", "]", "}"))


def pick(item: dict[Any, Any], keys: tuple[str, ...], of: type | None = None) -> Any:
    """The value under the first of `keys` a JSON object has (names in any case; `of`: of that type), or None:
    models name the same field several ways ("citations", "evidence", "ids")."""
    fields = {str(k).lower(): v for k, v in item.items()}
    return next((fields[k] for k in keys if k in fields and (of is None or isinstance(fields[k], of))), None)


class StructuredCaller:
    """Completes with `response_format` when configured, dropping it for good if the server rejects it."""

    def __init__(self, backend: Backend, response_format: dict[str, Any] | None):
        self.backend = backend
        self.response_format = response_format
        self._lock = threading.Lock()
        self.rejected: str | None = None  # the server's refusal, once seen

    def complete(self, prompt: str, **sampling: Any) -> tuple[list[str], list[str]]:
        """(replies, notes); notes say when the schema was refused and text was asked instead."""
        fmt = None if self.rejected else self.response_format
        if fmt is None:
            return self.backend.complete(prompt, **sampling), []
        try:
            return self.backend.complete(prompt, response_format=fmt, **sampling), []
        except BackendError as e:
            # not retryable: an open breaker (its reason quotes the last failure, maybe an HTTP 422) or a
            # client error the backend already judged not to be a refusal of the format
            if not e.retryable or not _REJECTED.search(e.reason):
                raise
            with self._lock:
                self.rejected = e.reason
        except TypeError as e:  # a backend without the keyword (a local model, an older plug-in)
            if "response_format" not in str(e):
                raise
            with self._lock:
                self.rejected = f"backend {self.backend.name or '?'} takes no response_format"
        note = f"the server refused response_format ({self.rejected}): asked for text instead"
        return self.backend.complete(prompt, **sampling), [note]
