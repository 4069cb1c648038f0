"""Lines that go on from a cited line by their form, whatever the question's words: cited with it.

The ranking finds a line by the question's words; the line after it often finishes what it says without naming any
of them, so it ranks low and is left out, though the writer of the note (and a reader of the answer) reads the two
as one. Two shapes, each read in the cited line's paragraph:

- a sentence the note's layout broke off mid-phrase ("... iron sucrose 100 mg IV at each of the next" / "5 HD
  sessions."): the cited part ends on a word no sentence ends on (`_OPEN_END`) and the other part opens in lower
  case or with a number, not a list item's mark (`broken_off`, both ways: either part cited brings the other);
- a line refusing a stopped medicine's return ("STOP Alendronic acid 70 mg once weekly" / "Do not restart."): the
  cited line stops or holds something, the next says only not to take it up again (`not_restarted`).

Why these shapes and no more: a line next to a cited one in its paragraph was among those that answer about 1 time
in 20 on the development writers, too seldom to cite for that alone; a broken sentence's other part is the cited
sentence itself, and a refusal to restart the answer to what became of the medicine. A line referring back to explain
a cited instruction ("It can be poisonous ...") was measured and left out (docs/answer-methods.md, "Lines going on
from a cited one").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from archehr.answerability.follow_on import LIST_MARK, Sentence

# a word no sentence ends on: an article, a preposition, a conjunction, a possessive ("... at each of the next")
_OPEN_END = re.compile(r"\b(?:the|a|an|of|to|and|or|with|for|at|in|on|next|as|by|from|than|into|per|every|each|"
                       r"your|his|her|their|its|our|my)\W*$", re.I)
# the rest of a broken sentence opens in lower case or with a number ("5 HD sessions.", "may harm an unborn baby.")
_GOES_ON = re.compile(r"^[\s\"'(]*[a-z0-9]")
# a line saying only not to take a stopped medicine up again: "Do not restart.", "Do not restart it."
_NOT_AGAIN = re.compile(r"^\W*(?:do not|don't|never)\s+(?:re-?start|resume|take (?:it|them|this) again)\b"
                        r"(?:\s+(?:it|them|this|these))?\W*$", re.I)
# ... after a line stopping or holding it
_STOPPED = re.compile(r"\b(?:stop\w*|discontinu\w*|ceased?|withdrawn|held|hold|withh[eo]ld\w*|omit\w*)\b", re.I)

def _same_paragraph(sentences: Sequence[Sentence], a: int, b: int) -> bool:
    inside = 0 <= a < len(sentences) and 0 <= b < len(sentences)
    return inside and sentences[a].paragraph_id == sentences[b].paragraph_id


def broken(head: str, tail: str) -> bool:
    """`head` and `tail` (the line after it) are one sentence broken off mid-phrase: `head` ends on a word no sentence
    ends on, `tail` opens in lower case or with a number, with no list item's mark ("2. In addition ...") and no
    label ("a:") of its own."""
    tail = tail.strip()
    return (bool(_OPEN_END.search(head)) and not head.rstrip().endswith(":") and bool(_GOES_ON.match(tail))
            and not LIST_MARK.match(tail) and not tail.endswith(":") and len(tail.split()) >= 2)


def broken_off(chosen: Sequence[int], sentences: Sequence[Sentence]) -> list[int]:
    """The other part of each chosen sentence broken off mid-phrase (`broken`: the part after it, or before it), in
    the order of the chosen ones."""
    out: list[int] = []
    for i in chosen:
        for a, b, j in ((i, i + 1, i + 1), (i - 1, i, i - 1)):
            if (j not in chosen and j not in out and _same_paragraph(sentences, a, b)
                    and broken(sentences[a].text, sentences[b].text)):
                out.append(j)
    return out


def not_restarted(chosen: Sequence[int], sentences: Sequence[Sentence]) -> list[int]:
    """The line after each chosen one stopping or holding something (`_STOPPED`) that says only not to take it up
    again (`_NOT_AGAIN`: "Do not restart.")."""
    out: list[int] = []
    for i in chosen:
        j = i + 1
        if (j not in chosen and j not in out and _same_paragraph(sentences, i, j)
                and _STOPPED.search(sentences[i].text) and _NOT_AGAIN.match(sentences[j].text)):
            out.append(j)
    return out
