"""A name -> entry registry, one per kind of part: tasks, metrics, and every kind of system component.

One mechanism for all of them: a duplicate name is an error, an unknown one answers "did you mean".
An entry is the object itself or a lazy `"package.module:attribute"` string, imported the first time
it is asked for (`get`), so listing or checking names imports nothing heavy. A component entry is a
class or factory: `build(name, **options)` calls it, and `options(name)` lists what it declares (its
keyword parameters and their defaults), which is how a system config is checked against it. An option
whose value is itself a part (another component, or a settings dataclass) is declared with the entry
(`add(..., nested={option: Nested(...)})`), so a config is checked and resolved inside it too.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from archehr.errors import ConfigError, DuplicateNameError, Problem, UnknownNameError

T = TypeVar("T")
_EMPTY = inspect.Parameter.empty


def resolve(entry: Any) -> Any:
    """The object a lazy `"module:attribute"` entry names (imported on first use); any other entry as is."""
    if not isinstance(entry, str) or ":" not in entry:
        return entry
    module, _, attr = entry.partition(":")
    return getattr(importlib.import_module(module), attr)


def did_you_mean(name: str, known: list[str] | tuple[str, ...]) -> str:
    """'; did you mean 'x'?' for the near names of `known` (empty when none is near)."""
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.5)
    return ("; did you mean " + " or ".join(repr(c) for c in close) + "?") if close else ""


@dataclass(frozen=True)
class Nested:
    """A component option whose value is itself a part, so a config is checked and resolved inside it.

    `registry` ("module:attr" of a Registry): the value is a component of that registry, `NAME` or
    `{kind: NAME, ...its options}` (a list of them when `many`); `settings` ("module:attr" of a dataclass): the
    value is a mapping of that dataclass's fields. `absent` is what the component uses when the option is not
    given (None: nothing, e.g. a model's own calibrated settings), recorded so in the resolved config.
    """

    registry: str | None = None
    settings: str | None = None
    many: bool = False
    absent: Any = None


class Registry(Generic[T]):
    """Holds named entries of one kind; a duplicate name is an error, an unknown one suggests."""

    def __init__(self, kind: str):
        self.kind = kind
        self._entries: dict[str, T | str] = {}
        self._nested: dict[str, dict[str, Nested]] = {}

    def add(self, name: str, entry: T | str, nested: Mapping[str, Nested] | None = None) -> T | str:
        """Register `entry` (the object, or its `"module:attribute"` path to import when first used);
        `nested`: its options whose values are parts themselves (`Nested`)."""
        if name in self._entries:
            raise DuplicateNameError(f"{self.kind} {name!r} is already registered")
        self._entries[name] = entry
        if nested:
            self._nested[name] = dict(nested)
        return entry

    def register(self, name: str, nested: Mapping[str, Nested] | None = None) -> Callable[[T], T]:
        """Decorator form of :meth:`add`."""

        def deco(entry: T) -> T:
            self.add(name, entry, nested)
            return entry

        return deco

    def nested(self, name: str) -> dict[str, Nested]:
        """The options of component `name` that are parts themselves (option -> `Nested`)."""
        return dict(self._nested.get(name, {}))

    def get(self, name: str) -> T:
        """The entry (imported now if registered lazily); UnknownNameError with "did you mean" otherwise."""
        try:
            entry = self._entries[name]
        except KeyError:
            raise UnknownNameError(self.unknown_message(name)) from None
        return resolve(entry)

    def unknown_message(self, name: str) -> str:
        msg = f"unknown {self.kind} {name!r}" + did_you_mean(name, self.names())
        return msg + f" (known: {', '.join(sorted(self._entries)) or 'none'})"

    def names(self) -> list[str]:
        return list(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    # --- components: entries that are classes or factories -------------------------------------------------

    def options(self, name: str) -> dict[str, Any]:
        """What component `name` declares: each keyword parameter and its default (`inspect.Parameter.empty`
        when it has none). A `**kwargs` parameter is listed as `"**"`."""
        out: dict[str, Any] = {}
        for p in inspect.signature(self.get(name)).parameters.values():  # type: ignore[arg-type]
            if p.kind is inspect.Parameter.VAR_KEYWORD:
                out["**"] = _EMPTY
            elif p.kind is not inspect.Parameter.VAR_POSITIONAL:
                out[p.name] = p.default
        return out

    def takes(self, name: str, option: str) -> bool:
        """Whether component `name` declares `option` (e.g. `backend`: it needs the system's LLM backend)."""
        return option in self.options(name)

    def build(self, name: str, /, **options: Any) -> T:
        """Component `name` made with `options`; an option it does not declare is a ConfigError naming it."""
        factory = self.get(name)
        declared = self.options(name)
        if "**" not in declared:
            unknown = [k for k in options if k not in declared]
            if unknown:
                known = [k for k in declared if k != "**"]
                raise ConfigError(Problem(f"{self.kind} {name!r} has no option {unknown[0]!r}"
                                          + did_you_mean(unknown[0], known)
                                          + f" (its options: {', '.join(known) or 'none'})", code="bad-key"))
        try:
            return factory(**options)  # type: ignore[operator, no-any-return]
        except TypeError as e:
            if "required" not in str(e) and "unexpected keyword" not in str(e):
                raise
            raise ConfigError(Problem(f"{self.kind} {name!r}: bad options ({e})", code="bad-key")) from None
