"""Which note sentences `archehr answer` cites after the one that answers first.

The first cited sentence is the best by answer type (`archehr.ask`). The others follow it when they hold the asked
kind of answer nearly as well (`cited_after_first`), and a line that goes on from a cited medication entry to say
what becomes of it ("You no longer need this medicine.", "Finish all of it even if you feel better.") follows that
entry (`follow_on`).

Why the answer-type share: a sentence naming the question's topic without holding the asked kind of answer (a
duration, a date, a result ...) scores `kinds.HOLDS_FLOOR` (0.35) of one naming as much of it and holding it, so
a later sentence scoring under 0.4 of the first on the answer type alone mostly only names the topic; such
sentences were rarely among those that answer (about 1 in 18 on our everyday questions, against about 1 in 4 for
the others cited), so dropping them lets the rank share reach lower. Sentences merely next to the first one in
its paragraph answered too seldom (about 1 in 20) to be cited for that alone (docs/answer.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

import numpy as np

# a dose: "500 mg", "0.3 mg", "300-30 mg", "8 units", "2 puffs", "0.1%"
_DOSE = re.compile(r"\b\d+(?:[.,]\d+)?(?:-\d+(?:[.,]\d+)?)?\s*(?:mg|mcg|micrograms?|g|ml|units?|puffs?|%)(?!\w)",
                   re.I)
# what becomes of the medicine just named: stopped, no longer needed, to be finished, not to be taken or stopped
_WHAT_BECOMES = re.compile(r"\b(?:this (?:medicine|medication|drug|tablet|pill)s?|no longer|status\b|stopped|"
                           r"finish\w*|complete (?:the|all)|(?:whole|full) course|take it|use it|stop it|"
                           r"do not (?:take|stop|use))\b", re.I)
ENTRY_WORDS = 25  # a medication entry is short: its name, dose and how to take it
STATUS_WORDS = 14  # ... and the line saying what becomes of it shorter still


class Sentence(Protocol):
    """What the rule reads of a note sentence (`archehr.data.note_split.SplitSentence` has it)."""

    paragraph_id: int
    text: str


def cited_after_first(order: Sequence[int], rank: np.ndarray, typed: np.ndarray | None, *, most: int,
                      share: float, typed_share: float) -> list[int]:
    """The sentences cited, best first: `order[0]`, then those of `order` (best first) scoring at least `share`
    of its `rank` whose answer-type score (`typed`, `AnswerTypes.ranking`) is at least `typed_share` of its own,
    at most `most` in all. The answer-type test is left out when the first scores 0 on it (or `typed` is None:
    ranking by the selector alone)."""
    if not order:
        return []
    first = order[0]
    best = float(rank[first])
    lead = float(typed[first]) if typed is not None else 0.0
    chosen = [first]
    for i in order[1:]:
        if len(chosen) >= most or float(rank[i]) < share * best:
            break  # `order` runs best first: no later sentence reaches the share
        if lead > 0 and typed is not None and float(typed[i]) < typed_share * lead:
            continue
        chosen.append(i)
    return chosen


def goes_on_from(entry: str, line: str) -> bool:
    """`line`, the one after `entry`, says what becomes of the medication `entry` names: `entry` is short and gives
    a dose, `line` is shorter, gives none and says the medicine is stopped, no longer needed, to be finished ...
    ("acetaminophen-codeine 300-30 mg tablet" / "You no longer need this medicine.")."""
    return (bool(_DOSE.search(entry)) and len(entry.split()) <= ENTRY_WORDS and len(line.split()) <= STATUS_WORDS
            and not _DOSE.search(line) and bool(_WHAT_BECOMES.search(line)))


def follow_on(chosen: Sequence[int], sentences: Sequence[Sentence]) -> list[int]:
    """The sentences to cite after `chosen`: for each chosen sentence, the next one in its paragraph when it goes on
    from it (`goes_on_from`) and is not chosen already; in the order of the sentences they follow."""
    from archehr.relevance.text import is_header

    out: list[int] = []
    for i in chosen:
        j = i + 1
        if j >= len(sentences) or j in chosen or j in out or sentences[j].paragraph_id != sentences[i].paragraph_id:
            continue
        if not is_header(sentences[j].text) and goes_on_from(sentences[i].text, sentences[j].text):
            out.append(j)
    return out
