"""On-disk response cache: re-running a system never pays twice for the same completion.

The key is a hash of the backend's settings (`describe()`), the prompt and the sampling
parameters, so changing the model, the endpoint or the template misses the cache by design.
Entries are written atomically, one small JSON file per key; only successful replies are cached.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from archehr.atomic import write_json
from archehr.llm.base import Backend, BackendError


def cache_key(settings: dict[str, Any], prompt: str, **sampling: Any) -> str:
    blob = json.dumps({"backend": settings, "prompt": prompt, "sampling": sampling}, sort_keys=True,
                      ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class CachedBackend(Backend):
    """Wraps a backend; `hits` and `misses` count lookups for run.json."""

    def __init__(self, inner: Backend, cache_dir: str | Path):
        self.inner = inner
        self.name = inner.name
        self.dir = Path(cache_dir)
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json"

    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256) -> list[str]:
        sampling = {"n": n, "temperature": temperature, "seed": seed, "max_tokens": max_tokens}
        key = cache_key(self.inner.describe(), prompt, **sampling)
        path = self._path(key)
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(data.get("completions"), list):
                    self.hits += 1
                    return [str(c) for c in data["completions"]]
            except (OSError, ValueError):
                pass  # a damaged entry is a miss; it gets rewritten below
        self.misses += 1
        out = self.inner.complete(prompt, **sampling)
        write_json(path, {"key": key, "sampling": sampling, "completions": out})
        return out

    def complete_many(self, prompts: Sequence[str], **kwargs: Any) -> list[list[str] | BackendError]:
        return Backend.complete_many(self, prompts, **kwargs)

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()
