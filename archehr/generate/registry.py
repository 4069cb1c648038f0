"""The generator registry: `build_generator(name, **options)`; modules are imported when built."""

from __future__ import annotations

from typing import Any

from archehr.generate.base import Generator
from archehr.registry import Registry

GENERATORS: Registry[type[Generator]] = Registry("generator")
GENERATORS.add("extractive", "archehr.generate.extractive:ExtractiveGenerator")
GENERATORS.add("plain", "archehr.generate.plain:PlainGenerator")
GENERATORS.add("llm", "archehr.generate.llm:LLMGenerator")


def build_generator(name: str, **options: Any) -> Generator:
    return GENERATORS.build(name, **options)  # type: ignore[return-value]
