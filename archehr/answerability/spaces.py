"""White space as the answerability rules read it.

A raw note hard-wraps its lines inside a sentence ("is not yet\nback", "on April 8, 2024 at\n9:15 a.m."), and a
pasted table pads its fields with runs of spaces. The rules' patterns join words with single spaces, so each reads a
sentence with its white space folded first; `fold` is that one step, so that every rule folds alike.
"""

from __future__ import annotations


def fold(text: str) -> str:
    """`text` with each run of white space (line breaks, tabs, padding) as one space, and none at its ends."""
    return " ".join(text.split())
