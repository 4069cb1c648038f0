"""What the backend saw over a run, for run.json (`llm_transport`): retries, timeouts, cut replies, options
the server refused, the window and each request's tokens, and prompts the server shortened silently."""

from __future__ import annotations

import threading
from typing import Any

MAX_ROWS = 2000  # per list: a run.json of a large split stays readable
# usage reporting this share of the prompt tokens we counted, or fewer, says the server dropped part of the
# prompt (Ollama cuts the start of a prompt over num_ctx and answers). Counted by the server's own tokenizer, a
# few tokens of chat template differ: 0.9. Estimated (negotiation.estimate_tokens overcounts English by 15-45%
# on the common tokenizers), never by half: 0.6.
TRUNCATION_SHARE = {"server": 0.9, "estimate": 0.6}


class Stats:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.retried_attempts = 0
        self.timeouts = 0
        self.cut_replies: list[dict[str, Any]] = []
        self.options_dropped: list[str] = []
        self.requests: list[dict[str, int]] = []  # per request: prompt tokens counted, as reported, completion
        self.truncated: list[dict[str, Any]] = []
        self.refitted = 0  # requests the server refused as too long for its window, asked again smaller
        self.learned_thinking = 0

    def add(self, field: str, n: int = 1) -> None:
        with self._lock:
            vars(self)[field] += n

    def cut(self, row: dict[str, Any]) -> None:
        with self._lock:
            if len(self.cut_replies) < 200:
                self.cut_replies.append(row)

    def dropped(self, option: str) -> None:
        with self._lock:
            if option not in self.options_dropped:
                self.options_dropped.append(option)

    def tokens(self, counted: int | None, reported: int, completion: int, max_tokens: int,
               exact: bool = False) -> str | None:
        """Record one reply's tokens; a warning when the server reports clearly fewer prompt tokens than sent."""
        with self._lock:
            if len(self.requests) < MAX_ROWS:
                self.requests.append({"counted": counted or 0, "prompt": reported, "completion": completion,
                                      "max_tokens": max_tokens})
            share = TRUNCATION_SHARE["server" if exact else "estimate"]
            if counted and reported and reported <= share * counted:
                self.truncated.append({"counted": counted, "reported": reported, "counter": "server" if exact
                                       else "estimate"})
                return (f"the server read {reported} prompt tokens of the about {counted} sent: it dropped part of "
                        "the prompt without saying so (a context window smaller than the prompt, e.g. Ollama's "
                        "num_ctx); set context_window or a larger window on the server")
        return None

    def learn_thinking(self, used: int, cap: int) -> None:
        with self._lock:
            self.learned_thinking = min(cap, max(self.learned_thinking, used))

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {"retried_attempts": self.retried_attempts, "timeouts": self.timeouts,
                    "options_dropped": list(self.options_dropped), "cut_replies": list(self.cut_replies),
                    "requests": list(self.requests), "refitted": self.refitted,
                    "silent_truncation": {"requests": len(self.truncated), "shares": TRUNCATION_SHARE,
                                          "examples": self.truncated[:20]}}
