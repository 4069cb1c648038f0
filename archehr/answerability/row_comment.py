"""A results table's flagged row cited with the line that comments on it.

A lab report or a results letter often gives a value twice: once as a table row ("Platelets | 41 | x10^9/L |
150-400 | L") and once in a line of prose that says what it means ("Platelets are low, so the enoxaparin injections
are held"). The prose line is the one the ranking finds (it names the question's words: why, stop, bleeding ...),
and the row, the value itself, is left out, though a reader checking the answer wants both. So when a cited line of
prose names a test whose row in the note is flagged out of range (H, L, R ...), that row is cited too: named by the
test's name as above, or by its value and unit ("Her K 6.1 mmol/L is too high" / "Potassium | 6.1 | mmol/L | H").

Only for a question asking a result, and only the rows the first answer line comments on: there the row is the
result asked. A comment cited lower, or for another question (why, what to take, when to come), seldom wants its
row: on writers the rule was not written on, the rows a why answer's comment named were the answer for none of
6 questions. Only flagged rows: a comment
names the values that matter, and those are the ones out of range; an unflagged row named in passing ("sodium
normal") adds a citation that rarely answers. Rows are table rows: cells split by bars or by runs of two or more
spaces, the first cell a name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

# a table row's cells: split by bars, or by runs of two or more spaces (a fixed-width table)
_CELLS = re.compile(r"\s*\|\s*|\s{2,}")
# a cell flagging the value out of range, or an organism resistant to a medicine
_FLAG = re.compile(r"^(?:H|L|HH|LL|R|\*|high|low|abnormal|resistant)$", re.I)
_NUMBER = re.compile(r"^[<>]?\d+(?:\.\d+)?$")
# a test's name: letters first, short (a table's first cell, not a line of prose)
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 ,:/^'+-]{1,38}$")
KINDS = frozenset({"test_result"})  # the question kinds whose comments bring their rows
MOST = 3  # rows cited for one comment at most: a line summing up a whole panel is no comment on a row
COMMENT_WORDS = 6  # a comment is a line of prose: a few words at least


class Sentence(Protocol):
    """What the rule reads of a note sentence (`archehr.data.note_split.SplitSentence` has it)."""

    text: str


def table_cells(text: str) -> list[str] | None:
    """The cells of a table's row (split by bars, or by runs of two or more spaces: a fixed-width table), None when
    the line is no table row."""
    t = text.strip()
    if "|" not in t and not re.search(r"\S\s{2,}\S", t):
        return None
    return [c for c in _CELLS.split(t) if c]


def cell_name(cell: str) -> str:
    """A row's test as its first cell names it: lower case, without what is in brackets ("Lamotrigine (trough)":
    "lamotrigine")."""
    return re.sub(r"\s*\([^)]*\)", "", cell).strip().lower()


def flagged_row(text: str) -> tuple[str, str, str] | None:
    """(name, value, unit) of a table row flagged out of range ("Neutrophils | 1.6 | x10^9/L | 2.0-7.5 | L": the
    name "neutrophils", the value "1.6", the unit "x10^9/L"; a row giving no number has value and unit ""), else
    None. The name is the first cell without what is in brackets ("Lamotrigine (trough)": "lamotrigine")."""
    cells = table_cells(text)
    if cells is None or len(cells) < 2 or not any(_FLAG.match(c) for c in cells[1:]):
        return None
    name = cell_name(cells[0])
    if not _NAME.match(name):
        return None
    value = next((c for c in cells[1:] if _NUMBER.match(c)), "")
    unit = ""
    if value:
        after = cells[cells.index(value) + 1:]
        unit = next((c for c in after if re.search(r"[A-Za-z/%]", c) and not _FLAG.match(c)), "")
    return name, value, unit


def comments_on(comment: str, row: tuple[str, str, str]) -> bool:
    """`comment` (a line of prose) names the row's test by its name, or gives its value with its unit."""
    name, value, unit = row
    low = comment.lower()
    if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", low):
        return True
    return bool(value and unit and re.search(rf"(?<![\d.]){re.escape(value)}\s*{re.escape(unit.lower())}", low))


def is_comment(text: str) -> bool:
    """A line of prose: a few words of letters, no table bars, no cells set apart by slashes or runs of spaces."""
    t = text.strip()
    words = [w for w in t.split() if re.match(r"^[A-Za-z]", w)]
    return len(words) >= COMMENT_WORDS and "|" not in t and " / " not in t and not re.search(r"\S\s{3,}\S", t)


def rows_commented(chosen: Sequence[int], sentences: Sequence[Sentence], kind: str) -> list[int]:
    """The flagged table rows (`flagged_row`) the first chosen line, a line of prose, comments on (`comments_on`),
    not chosen already; none when it names more than `MOST` (it sums up a panel) or the question's `kind` is not one
    of `KINDS`."""
    if kind not in KINDS or not chosen or not is_comment(sentences[chosen[0]].text):
        return []
    first = sentences[chosen[0]].text
    named = [j for j, s in enumerate(sentences)
             if j not in chosen and (r := flagged_row(s.text)) is not None and comments_on(first, r)]
    return named if len(named) <= MOST else []
