"""On-disk response cache: re-running a system never pays twice for the same completion.

The key is a hash of the backend's settings (`describe()`), the prompt and the sampling
parameters (the requested `response_format` included), so changing the model, the endpoint or the
template misses the cache by design. Entries are written atomically, one small JSON file per key;
only successful replies are cached. An entry that cannot be read, or reads but has the wrong shape
(hand-edited, written by another version), is a miss and is rewritten: never a crash.
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from typing import Any

from archehr.atomic import write_json
from archehr.errors import ConfigError, UnavailableError
from archehr.llm.base import Backend, BackendError
from archehr.llm.usage import record_cache_hit


def cache_key(settings: dict[str, Any], prompt: str, **sampling: Any) -> str:
    blob = json.dumps({"backend": settings, "prompt": prompt, "sampling": sampling}, sort_keys=True,
                      ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _entry_completions(data: Any, n: int) -> list[str] | None:
    """The cached completions when the entry has the expected shape, else None (a miss)."""
    if not isinstance(data, dict):
        return None
    comps = data.get("completions")
    if not isinstance(comps, list) or len(comps) != n or not all(isinstance(c, str) for c in comps):
        return None
    return comps


class CachedBackend(Backend):
    """Wraps a backend; `hits` and `misses` count lookups for run.json."""

    def __init__(self, inner: Backend, cache_dir: str | Path):
        self.inner = inner
        self.name = inner.name
        self.fan_out = inner.fan_out
        self.dir = Path(cache_dir)
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()  # counters are shared by the --workers threads

    def _path(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json"

    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256, response_format: dict[str, Any] | None = None) -> list[str]:
        sampling: dict[str, Any] = {"n": n, "temperature": temperature, "seed": seed, "max_tokens": max_tokens}
        if response_format is not None:  # absent from the key when unused: older entries still hit
            sampling["response_format"] = response_format
        try:
            self.inner.start()  # the served model is part of the key: known before the first lookup
        except (ConfigError, UnavailableError) as e:  # run_split starts the backend first: a later request's view
            raise BackendError(str(e), retryable=False) from None
        key = cache_key(self.inner.describe(), prompt, **sampling)
        path = self._path(key)
        cached = None
        if path.is_file():
            try:
                cached = _entry_completions(json.loads(path.read_text(encoding="utf-8")), n)
            except (OSError, ValueError, RecursionError):
                cached = None  # a damaged (or absurdly nested) entry is a miss; it gets rewritten below
        with self._lock:
            if cached is not None:
                self.hits += 1
            else:
                self.misses += 1
        if cached is not None:
            record_cache_hit()
            return cached
        out = self.inner.complete(prompt, **sampling)
        if len(out) == n:  # a vote short of samples that failed is used, but asked in full next time
            write_json(path, {"key": key, "sampling": sampling, "completions": out})
        return out

    def start(self) -> None:
        self.inner.start()

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()

    def context_window(self) -> int | None:
        return self.inner.context_window()

    def count_tokens(self, prompt: str, exact_above: int | None = None) -> int:
        return self.inner.count_tokens(prompt, exact_above)

    def report(self) -> dict[str, Any]:
        return self.inner.report()
