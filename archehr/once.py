"""One instance per process of something slow to make (a model loaded on first use)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def process_wide(factory: Callable[[], T]) -> Callable[[], T]:
    """`factory()` made on the first call and returned by every later one; made under a lock, so threads asking
    at once (`--workers`) share one instead of each loading a model. A failure is not kept: the next call
    tries again."""
    lock = threading.Lock()
    made: list[T] = []

    @functools.wraps(factory)
    def get() -> T:
        with lock:
            if not made:
                made.append(factory())
            return made[0]

    return get
