"""A results table's row cited with the line of prose saying what it means, when the row answers first.

A results letter gives a value as a table row ("Vitamin B12 | 118 | L | ng/L | 187-883") and says what it means in
a line of its own, often below the table ("Low B12 is a possible cause of the memory problems and must be treated.",
"Neutrophils in amber range."). A question naming the test finds the row first by its name; the line of prose names
the test too but few of the question's other words ("is it low or normal", "should I worry"), and ranks low.
`row_comment` brings the rows a first line of prose comments on; this is the other way round: for a result question
whose first answer line is a table row, the lines of prose naming the row's test (`names_test`) are cited too, none
when more than `MOST` do (the test is then the note's subject, named all through it) and never a line telling what
to do next (a repeat test, a booking: "Repeat the B12 in 3 months" is no comment on this value) nor a lab's remark
on what was not done ("Lab comment: free PSA not performed").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from archehr.answerability.row_comment import KINDS, cell_name, table_cells

MOST = 2  # prose lines naming the row's test, at most
PROSE_WORDS = 3  # a line of prose: a few words of letters at least
# a test's name: letters first, short
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 ,/^'+-]{1,38}$")
# a line telling what to do next, no comment on the value: a repeat, a recheck, a booking
_NEXT = re.compile(r"\b(?:repeat\w*|recheck\w*|re-check\w*|book\w*|arrange\w*|will|please|due|next|follow[\s-]*up|"
                   r"request\w*|send|sent|not performed|not done|pending|to follow|comment)\b", re.I)


class Sentence(Protocol):
    """What the rule reads of a note sentence (`archehr.data.note_split.SplitSentence` has it)."""

    text: str


def row_test(text: str) -> str | None:
    """The test a table row gives a value of (its first cell, lower case, without what is in brackets), when the
    line is a table row (cells split by bars or runs of spaces) whose second cell holds a number; else None."""
    cells = table_cells(text)
    if cells is None or len(cells) < 2 or not re.search(r"\d", cells[1]):
        return None
    name = cell_name(cells[0])
    return name if _NAME.match(name) and len(name) >= 2 else None


def names_test(line: str, test: str) -> bool:
    """`line` is a line of prose (no table row, `PROSE_WORDS` words of letters at least) naming `test` by its name
    and telling nothing to do next (`_NEXT`)."""
    t = line.strip()
    if table_cells(t) is not None or _NEXT.search(t):
        return False
    if len([w for w in t.split() if re.match(r"^[A-Za-z]", w)]) < PROSE_WORDS:
        return False
    return bool(re.search(rf"(?<![\w-]){re.escape(test)}(?![\w-])", t.lower()))


def prose_on_row(chosen: Sequence[int], sentences: Sequence[Sentence], kind: str) -> list[int]:
    """The lines of prose naming the test of the first chosen line, a table row (`row_test`), not chosen already;
    none when more than `MOST` name it or the question's `kind` is not one of `row_comment.KINDS`."""
    if kind not in KINDS or not chosen:
        return []
    test = row_test(sentences[chosen[0]].text)
    if test is None:
        return []
    named = [j for j, s in enumerate(sentences) if j not in chosen and names_test(s.text, test)]
    return named if len(named) <= MOST else []
