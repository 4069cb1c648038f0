"""A medicine question asking about a change: the first answer line tells the change, for `archehr answer`.

To "did they up the thyroid tablet" or "what are they doing with the baclofen now", the hand ranking may lead with
a line naming the medicine but telling no change nor any decision about it: the medicine's list entry ("Dabigatran
150 mg twice daily"), what the patient takes or took ("On methadone 70 mg daily", "has taken hydroxyurea since
October"), the result behind the change ("TSH 9.8 H"), while a line just below tells it ("Reduce dabigatran to 110 mg
twice daily from today", "CHANGE levothyroxine from 75 mcg to 88 mcg"). For a medicine-change question asking about
a change (`_ASKS_CHANGE`: up, down, changed, switched, instead ...) whose first line tells no change and
no decision (`_DECIDES`: a start, a stop, a hold, keeping the same, "no change", an arrow between doses, advice),
`change_first` puts first the best of the next `first_fact.REACH` sentences that names some of the topic, ranks at
least `SHARE` of the first and tells a change (`_CHANGES`: increased, reduced, switched, stopped, "from 50 to 75").
A first line telling any decision keeps its place: which decision is asked is the ranking's call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.first_fact import SHARE, next_with  # (each ranking at least SHARE of the first)
from archehr.answerability.spaces import fold

# a question about a change of a medicine or its dose: "did they up it", "going down", "changed", "instead" (not
# "dose" alone: "what dose is she going home on" asks the dose now, which a list entry gives)
_ASKS_CHANGE = re.compile(r"\b(?:chang\w*|switch\w*|swap\w*|up|down|increas\w*|decreas\w*|reduc\w*|lower\w*|"
                          r"rais\w*|drop\w*|instead|differen\w*)\b", re.I)
# a change told: a dose moved, a medicine switched, replaced or stopped, "from 50 mg to 75 mg"
_CHANGES = re.compile(r"\b(?:increas\w*|decreas\w*|reduc\w*|chang\w*|switch\w*|stop\w*|discontinu\w*|lower\w*|"
                      r"rais\w*|instead|replac\w*)\b|\bfrom\b[^.;]{0,30}?\bto\b", re.I)
# any change or decision told, or advice given: a first line with one is an answer of its own ("keep taking it at
# the same dose", "Tacrolimus 5 mg BID -> 3 mg BID", "not to use the old drops", "UNCHANGED"); a decision put off is
# one too ("will be discussed at clinic", "to consider switching"): the line below it tells another medicine's course
_DECIDES = re.compile(
    r"\b(?:increas\w*|decreas\w*|reduc\w*|chang\w*|unchang\w*|switch\w*|stop\w*|start\w*|discontinu\w*|new|up|down|"
    r"lower\w*|rais\w*|continu\w*|restart\w*|resum\w*|held|hold|instead|replac\w*|swap\w*|add\w*|not prescribed|"
    r"no longer|keep\w*|same|as before|carry on|complet\w*|given|gave|finish\w*|do not|don't|not to|should|"
    r"advised|now|today|discuss\w*|decid\w*|consider\w*|awaiting)\b|\bfrom\b[^.;]{0,30}?\bto\b|->|→", re.I)


def asks_change(question: str) -> bool:
    """The question asks about a change of a medicine or its dose (`_ASKS_CHANGE`)."""
    return bool(_ASKS_CHANGE.search(fold(question)))


def tells_no_decision(text: str) -> bool:
    """The line tells no change, decision or advice about a medicine (`_DECIDES`)."""
    return not _DECIDES.search(fold(text))


def change_first(question: str, order: Sequence[int], rank: np.ndarray, texts: Sequence[str],
                 topic: np.ndarray) -> int | None:
    """The sentence (an index of `texts`) to put first in `order` in place of its first, or None to keep it: for a
    question asking about a change whose first sentence tells no decision (`tells_no_decision`), the first of the
    next `first_fact.REACH` sentences of `order` that names some of the topic (`topic` above 0), ranks at least
    `SHARE` of the first and tells a change (`_CHANGES`)."""
    if not order or not asks_change(question) or not tells_no_decision(texts[order[0]]):
        return None
    return next_with(order, rank, SHARE, lambda i: topic[i] > 0 and bool(_CHANGES.search(fold(texts[i]))))
