"""How many requests a backend keeps in flight: additive increase, multiplicative decrease (AIMD).

A server with few slots queues what it cannot run, and time queued at the server is time a request
waits for its first token. Queued here instead (a thread waiting for a slot), it counts against no
deadline. So the limit halves when the server shows it is overloaded: HTTP 429/503, a request that
timed out, or a time to first token that has grown well past the fastest one seen (the server is
queueing); it grows by about one per round trip while replies come back at the usual speed. At most
one decrease per `cooldown` seconds, so a burst of requests hit by the same overload counts once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

# a first token later than FACTOR x the fastest one seen, plus SLACK seconds, means the server is queueing
LATENCY_FACTOR = 2.0
LATENCY_SLACK = 1.0
_MAX_EVENTS = 50


class AdaptiveLimit:
    def __init__(self, start: int, lowest: int = 1, highest: int = 64, adaptive: bool = True,
                 cooldown: float = 1.0, clock: Callable[[], float] = time.monotonic):
        self.lowest = max(1, int(lowest))
        self.highest = max(self.lowest, int(highest))
        self.limit = float(min(max(int(start), self.lowest), self.highest))
        self.adaptive = bool(adaptive)
        self.cooldown = float(cooldown)
        self.clock = clock
        self.in_flight = 0
        self.max_in_flight = 0
        self.fastest: float | None = None  # the shortest time to first token seen
        self.decreases = 0
        self.events: list[dict[str, Any]] = []  # the first decreases, for run.json
        self._last_decrease = -1e18
        self._cond = threading.Condition()

    def acquire(self) -> None:
        """Wait (without any deadline) until fewer than `limit` requests are in flight."""
        with self._cond:
            while self.in_flight >= max(self.lowest, int(self.limit)):
                self._cond.wait()
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def release(self) -> None:
        with self._cond:
            self.in_flight -= 1
            self._cond.notify_all()

    def answered(self, first_token_seconds: float) -> None:
        """A reply came back; its time to first token says whether the server queued it."""
        if not self.adaptive:
            return
        with self._cond:
            if self.fastest is None or first_token_seconds < self.fastest:
                self.fastest = first_token_seconds
            if first_token_seconds > LATENCY_FACTOR * self.fastest + LATENCY_SLACK:
                self._decrease(f"first token after {first_token_seconds:.1f}s (fastest {self.fastest:.1f}s)")
            else:
                self.limit = min(float(self.highest), self.limit + 1.0 / max(self.limit, 1.0))
            self._cond.notify_all()

    def overloaded(self, why: str) -> None:
        """HTTP 429/503 or a timeout: fewer requests in flight."""
        if not self.adaptive:
            return
        with self._cond:
            self._decrease(why)

    def _decrease(self, why: str) -> None:
        now = self.clock()
        if now - self._last_decrease < self.cooldown or self.limit <= self.lowest:
            return
        self._last_decrease = now
        self.limit = max(float(self.lowest), self.limit / 2)
        self.decreases += 1
        if len(self.events) < _MAX_EVENTS:
            self.events.append({"limit": int(self.limit), "why": why})

    def report(self) -> dict[str, Any]:
        with self._cond:
            return {"adaptive": self.adaptive, "range": [self.lowest, self.highest], "limit": int(self.limit),
                    "max_in_flight": self.max_in_flight, "decreases": self.decreases, "events": list(self.events)}
