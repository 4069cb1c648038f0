"""The backend registry: `build_backend(name, **options)`; modules are imported only when built."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from archehr.llm.base import Backend
from archehr.registry import Registry

# name -> "module:Class"; importing a backend module never imports torch (it loads lazily)
BACKENDS: Registry[type[Backend]] = Registry("LLM backend")
BACKENDS.add("transformers", "archehr.llm.transformers_backend:TransformersBackend")
BACKENDS.add("openai", "archehr.llm.openai.backend:OpenAIBackend")


def build_backend(name: str, cache_dir: str | Path | None = None, **options: Any) -> Backend:
    """A backend by name; with `cache_dir`, wrapped in the on-disk response cache."""
    backend: Backend = BACKENDS.build(name, **options)  # type: ignore[assignment]
    if cache_dir is not None:
        from archehr.llm.cache import CachedBackend

        backend = CachedBackend(backend, cache_dir)
    return backend
