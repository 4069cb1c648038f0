"""The generator registry: `build_generator(name, **params)`; modules are imported when built."""

from __future__ import annotations

import importlib
from typing import Any

from archehr.errors import ConfigError
from archehr.generate.base import Generator
from archehr.registry import Registry

GENERATORS: Registry[str] = Registry("generator")
GENERATORS.add("extractive", "archehr.generate.extractive:ExtractiveGenerator")
GENERATORS.add("plain", "archehr.generate.plain:PlainGenerator")
GENERATORS.add("llm", "archehr.generate.llm:LLMGenerator")


def build_generator(name: str, **params: Any) -> Generator:
    module, cls = GENERATORS.get(name).split(":")
    klass = getattr(importlib.import_module(module), cls)
    try:
        return klass(**params)
    except TypeError as e:
        raise ConfigError(f"generator {name!r}: bad parameters ({e})") from None
