"""The tail of a cited line the note's splitter cut off, cited with it.

A line wrapped mid-clause and cut at the wrap ("... 100 mg IV at each of the next" / "5 HD sessions.") is one line
to a reader; cited alone, the first part loses its end (how many sessions). A label line standing alone before the
line it labels ("Plan:") was tried too and left out: the answer shows no label line, and the labels it brought
were not among those that answer (docs/answer-methods.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from archehr.answerability.follow_on import Sentence

TAIL_WORDS = 6  # a wrapped line's tail is short: "5 HD sessions."
# a line cut mid-clause ends on a word that cannot end one
_OPEN_END = re.compile(r"\b(?:the|a|an|of|to|at|in|on|for|with|by|from|and|or|each|every|next|than|per|after|"
                       r"before|until|over|under|your|his|her|their)\s*$", re.I)


def wraps_into(line: str, tail: str) -> bool:
    """`tail`, the line after `line`, is the rest of `line` cut mid-clause: `line` ends on a word no clause ends on
    (`_OPEN_END`), and `tail` is short and opens with no list mark, label or capitalised heading of its own."""
    t = tail.strip()
    return (bool(_OPEN_END.search(line.strip())) and 1 <= len(t.split()) <= TAIL_WORDS and ":" not in t
            and not re.match(r"^(?:[-*\u2022]|\d+[.)]\s)", t))


def split_units(chosen: Sequence[int], sentences: Sequence[Sentence]) -> list[int]:
    """The sentences to cite with `chosen`: the tail just after a chosen one wrapped mid-clause (`wraps_into`), when
    not chosen already; in the order of those they go with."""
    out: list[int] = []
    for i in chosen:
        j = i + 1
        if j < len(sentences) and j not in chosen and j not in out and wraps_into(sentences[i].text,
                                                                                     sentences[j].text):
            out.append(j)
    return out
