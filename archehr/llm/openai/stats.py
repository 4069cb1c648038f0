"""What the backend saw over a run, for run.json (`llm_transport`): retries, timeouts, cut replies, options
the server refused, the window and each request's tokens, and prompts the server shortened silently."""

from __future__ import annotations

import threading
from typing import Any

MAX_ROWS = 2000  # per list: a run.json of a large split stays readable
# Silent truncation: usage reporting clearly fewer prompt tokens than we counted says the server dropped part of
# the prompt (Ollama cuts the start of a prompt over num_ctx and answers). Counted by the server's own tokenizer,
# only a few tokens of chat template differ: under 0.9 of the count is a cut. Estimated (`base.estimate_tokens`
# overcounts on purpose), the server's tokenizer reads 0.55-0.9 of the estimate depending on the text, so:
# - the server's own ratio is learned, the 90th percentile of reported / estimated over its replies (after 8),
#   and a reply under 0.7 of it is a cut (before 8 replies: under 0.45 of the estimate);
# - a ceiling: 3 replies or more reporting the same prompt tokens, each 10% or more under what the learned ratio
#   predicts for it, are prompts cut to one window.
# A report under MIN_WINDOW tokens is no window of a chat model but a server that reports usage wrongly (a
# constant, a proxy's own count): never read as a cut.
TRUNCATION_SHARE = {"server": 0.9, "estimate": 0.45, "of_learned_ratio": 0.7, "ceiling": 0.9}
MIN_WINDOW = 256


def _learned(ratios: list[float]) -> float | None:
    return sorted(ratios)[int(0.9 * (len(ratios) - 1))] if len(ratios) >= 8 else None


class Stats:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.retried_attempts = 0
        self.timeouts = 0
        self.cut_replies: list[dict[str, Any]] = []
        self.options_dropped: list[str] = []
        self.requests: list[dict[str, int]] = []  # per request: prompt tokens counted, as reported, completion
        self.truncated: list[dict[str, Any]] = []
        self.ratios: list[float] = []  # reported / estimated prompt tokens, per reply
        self.ceilings: dict[int, set[int]] = {}  # reported prompt tokens -> estimates of the prompts under-read so
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
            if not counted or reported < MIN_WINDOW:
                return None
            cut = reported < TRUNCATION_SHARE["server"] * counted if exact else self._cut(counted, reported)
            if cut:
                self.truncated.append({"counted": counted, "reported": reported, "counter": "server" if exact
                                       else "estimate"})
                if len(self.truncated) > 1:
                    return None  # said once on the console; every one is counted in run.json
                return (f"the server read {reported} prompt tokens of about {counted} sent: it dropped part of the "
                        "prompt without saying so (a context window smaller than the prompt, e.g. Ollama's num_ctx); "
                        "prompts are fitted to that from now on. Set context_window, or a larger window on the server")
        return None

    def _cut(self, estimated: int, reported: int) -> bool:
        """Whether a reply's reported prompt tokens say its prompt was cut (estimated count; lock held)."""
        self.ratios.append(reported / estimated)
        learned = _learned(self.ratios)
        if learned is None:
            return reported < TRUNCATION_SHARE["estimate"] * estimated
        if reported < TRUNCATION_SHARE["of_learned_ratio"] * learned * estimated:
            return True
        short = reported < TRUNCATION_SHARE["ceiling"] * learned * estimated  # under what the ratio predicts
        at = self.ceilings.setdefault(reported, set())
        if short:
            at.add(estimated)
        return short and len(at) >= 3

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
