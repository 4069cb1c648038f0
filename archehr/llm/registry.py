"""The backend registry: `build_backend(name, **params)`; modules are imported only when built."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from archehr.errors import ConfigError
from archehr.llm.base import Backend
from archehr.registry import Registry

# name -> "module:Class"; importing a backend module never imports torch (it loads lazily)
BACKENDS: Registry[str] = Registry("LLM backend")
BACKENDS.add("transformers", "archehr.llm.transformers_backend:TransformersBackend")
BACKENDS.add("openai", "archehr.llm.openai_backend:OpenAIBackend")


def build_backend(name: str, cache_dir: str | Path | None = None, **params: Any) -> Backend:
    """A backend by name; with `cache_dir`, wrapped in the on-disk response cache."""
    module, cls = BACKENDS.get(name).split(":")
    klass = getattr(importlib.import_module(module), cls)
    try:
        backend: Backend = klass(**params)
    except TypeError as e:
        raise ConfigError(f"backend {name!r}: bad parameters ({e})") from None
    if cache_dir is not None:
        from archehr.llm.cache import CachedBackend

        backend = CachedBackend(backend, cache_dir)
    return backend
