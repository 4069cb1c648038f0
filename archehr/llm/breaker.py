"""A circuit breaker: once a server has failed K requests in a row, stop calling it for a while.

Without it a dead server costs every remaining case the full retry sequence. Open, every request
fails at once (the callers fall back and record why); after `cooldown` seconds one request goes
through as a probe (half-open): success closes the breaker, failure opens it for another cooldown.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from archehr.llm.base import BackendError


class CircuitBreaker:
    def __init__(self, after: int, cooldown: float, clock: Callable[[], float] = time.monotonic):
        self.after = int(after)  # 0 disables the breaker
        self.cooldown = float(cooldown)
        self.clock = clock
        self.failures = 0  # consecutive failed requests
        self.opened_at: float | None = None
        self.last_reason = ""
        self.probing = False
        self.events: list[dict[str, Any]] = []  # for run.json: when it opened/closed and why
        self.refused = 0  # requests failed fast while open
        self._lock = threading.Lock()

    def admit(self) -> bool:
        """Before a request: raises BackendError while open; True when this request is the probe."""
        if self.after <= 0:
            return False
        with self._lock:
            if self.opened_at is None:
                return False
            waited = self.clock() - self.opened_at
            if waited >= self.cooldown and not self.probing:
                self.probing = True
                return True
            self.refused += 1
            # the same words for every refusal of one open period, so a case refused twice says it once
            raise BackendError(f"circuit breaker open: the server failed {self.failures} request(s) in a row "
                               f"(last: {self.last_reason}); one probe request goes through {self.cooldown:g}s "
                               "after it opened", retryable=False)

    def success(self) -> None:
        with self._lock:
            if self.opened_at is not None:
                self.events.append({"event": "closed", "after_seconds_open": round(self.clock() - self.opened_at, 1)})
            self.failures, self.opened_at, self.probing = 0, None, False

    def failure(self, reason: str, probe: bool = False) -> None:
        """After a failed request; `probe` is what `admit` returned for it."""
        if self.after <= 0:
            return
        with self._lock:
            self.failures += 1
            self.last_reason = reason
            if probe or (self.opened_at is None and self.failures >= self.after):
                self.events.append({"event": "probe failed" if probe else "opened",
                                    "consecutive_failures": self.failures, "reason": reason})
                self.opened_at = self.clock()
                self.probing = False

    def report(self) -> dict[str, Any]:
        with self._lock:
            return {"after": self.after, "cooldown": self.cooldown, "state": self.state(),
                    "requests_refused": self.refused, "events": list(self.events)}

    def state(self) -> str:
        if self.opened_at is None:
            return "closed"
        return "half-open" if self.probing else "open"
