"""`--case-ids 121-167,3`: which cases to score, read like the official `--case_ids_to_score`.

The official 2026 scripts take space-separated arguments where `A-B` is an inclusive integer range
(expanded to `str(i)`, so no zero padding) and anything else is a case id compared as a string.
We accept the same pieces separated by commas and/or whitespace. Where the official parser is
silent (a reversed range selects nothing, an empty list scores everything) we raise instead,
because those are almost always typos that would quietly change the numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from archehr.errors import ConfigError, Problem

_RANGE = re.compile(r"^([0-9]+)-([0-9]+)$")


def parse_case_ids(spec: str | Iterable[str] | None) -> frozenset[str] | None:
    """The set of case ids a spec selects; None when there is no restriction (spec is None)."""
    if spec is None:
        return None
    raw = spec if isinstance(spec, str) else " ".join(spec)
    pieces = [p for p in re.split(r"[\s,]+", raw) if p]
    if not pieces:
        raise ConfigError(Problem("--case-ids is empty; give ids or ranges such as 121-167,3", field="--case-ids",
                                  code="option"))
    ids: set[str] = set()
    problems: list[Problem] = []
    for piece in pieces:
        if "-" in piece and not piece.startswith("-"):
            m = _RANGE.match(piece)
            if not m:
                problems.append(Problem(f"invalid case id range {piece!r}; expected the form 1-3", field="--case-ids",
                                        code="option"))
                continue
            start, end = int(m.group(1)), int(m.group(2))
            if start > end:
                problems.append(Problem(f"range {piece!r} selects nothing (start > end)", field="--case-ids",
                                        code="option"))
                continue
            ids.update(str(i) for i in range(start, end + 1))
        else:
            ids.add(piece)
    if problems:
        raise ConfigError(problems)
    return frozenset(ids)


def format_case_ids(ids: Iterable[str]) -> str:
    """Compact form of a set of ids (numeric runs as ranges), for messages and report metadata."""
    def plain(i: str) -> bool:  # ASCII only: "²".isdigit() is true but int("²") raises
        return i.isascii() and i.isdigit() and str(int(i)) == i

    nums = sorted(int(i) for i in ids if plain(i))
    others = sorted(i for i in ids if not plain(i))
    parts: list[str] = []
    run: list[int] = []
    for n in nums + [None]:  # type: ignore[list-item]
        if run and (n is None or n != run[-1] + 1):
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
            run = []
        if n is not None:
            run.append(n)
    return ",".join(parts + others)
