"""Per-case accounting of LLM requests: tokens the server reports, time spent waiting, failures.

`runs.run_split` opens a `track_usage()` scope around each case; backends call `record_request`
and the cache calls `record_cache_hit` from whatever thread does the work. The scope lives in a
context variable, so a backend that fans one case out over threads copies the context
(`contextvars.copy_context().run`) and its requests still land on that case.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

FIELDS = ("requests", "failed", "cache_hits", "prompt_tokens", "completion_tokens", "seconds", "cut_replies")


@dataclass
class Usage:
    requests: int = 0  # completion requests sent (each with its retries and re-asks)
    failed: int = 0  # of which ended in a BackendError
    cache_hits: int = 0  # answered from the on-disk cache, no request
    prompt_tokens: int = 0  # as the server's `usage` reports them (0 when it reports none)
    completion_tokens: int = 0
    seconds: float = 0.0  # wall time spent in requests (latency, retries and waits included)
    cut_replies: int = 0  # replies cut by the token limit (finish_reason: length), asked again or failed
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add_request(self, seconds: float, prompt_tokens: int = 0, completion_tokens: int = 0,
                    failed: bool = False, cut: int = 0) -> None:
        with self._lock:
            self.cut_replies += cut
            self.requests += 1
            self.failed += int(failed)
            self.prompt_tokens += prompt_tokens
            self.completion_tokens += completion_tokens
            self.seconds += seconds

    def add_cache_hit(self) -> None:
        with self._lock:
            self.cache_hits += 1

    @property
    def active(self) -> bool:
        return bool(self.requests or self.cache_hits)

    def to_dict(self) -> dict[str, Any]:
        return {"requests": self.requests, "failed": self.failed, "cache_hits": self.cache_hits,
                "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "seconds": round(self.seconds, 3), "cut_replies": self.cut_replies}


_CURRENT: contextvars.ContextVar[Usage | None] = contextvars.ContextVar("archehr_llm_usage", default=None)


@contextmanager
def track_usage() -> Iterator[Usage]:
    """Everything the LLM backends do inside the block is added to the yielded Usage."""
    usage = Usage()
    token = _CURRENT.set(usage)
    try:
        yield usage
    finally:
        _CURRENT.reset(token)


def record_request(seconds: float, prompt_tokens: int = 0, completion_tokens: int = 0, failed: bool = False,
                   cut: int = 0) -> None:
    """One request (with its retries and re-asks): tokens of every attempt that reported them, failed ones too."""
    usage = _CURRENT.get()
    if usage is not None:
        usage.add_request(seconds, prompt_tokens, completion_tokens, failed, cut)


def record_cache_hit() -> None:
    usage = _CURRENT.get()
    if usage is not None:
        usage.add_cache_hit()


def totals(per_case: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Sum of per-case usage dicts (as `Usage.to_dict` writes them)."""
    out: dict[str, Any] = dict.fromkeys(FIELDS, 0)
    for row in per_case:
        for k in FIELDS:
            v = row.get(k, 0)
            if isinstance(v, int | float) and not isinstance(v, bool):
                out[k] += v
    out["seconds"] = round(float(out["seconds"]), 3)
    return out


def summary_line(tot: dict[str, Any]) -> str:
    """One line for the end of `archehr predict`."""
    return (f"LLM: {tot['requests']} request(s) ({tot['failed']} failed, {tot['cache_hits']} cache hit(s)), "
            f"{tot['prompt_tokens']:,} prompt + {tot['completion_tokens']:,} completion tokens, "
            f"{tot['seconds']:.1f}s waiting on the backend")
