"""Fact-level check of a generated line: every number it states must appear in what it cites.

A similarity check compares meaning, so a fluent line that copies the shape of a note sentence but
changes its numbers ("12.5 mg" for "40 mg", an invented age) passes it. Numbers are the facts a
small model invents most and a patient relies on most (doses, ages, days, lab values), and they are
cheap to check exactly: a line may only state numbers found in its cited sentences or in the
patient's own question.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# 1,200 / 12.5 / 0.9 / 7 ; a "1," or "7." at a sentence end is the number 1 or 7
_NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?![\d])")


def normalise_number(raw: str) -> str:
    """'1,200' -> '1200', '12.50' -> '12.5', '07' -> '7', '3.0' -> '3'."""
    s = raw.replace(",", "")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    s = s.lstrip("0") or "0"
    return "0" + s if s.startswith(".") else s


def numbers(text: str) -> set[str]:
    """The numbers a text states, normalised (ranges "3-4" and dates "2/3" give each part)."""
    return {normalise_number(m.group(0)) for m in _NUMBER.finditer(text)}


def unsupported_numbers(line: str, sources: Iterable[str]) -> list[str]:
    """Numbers of `line` found in none of `sources`, in order of appearance."""
    known: set[str] = set()
    for s in sources:
        known |= numbers(s)
    seen: dict[str, None] = {}
    for m in _NUMBER.finditer(line):
        n = normalise_number(m.group(0))
        if n not in known:
            seen.setdefault(n)
    return list(seen)
