"""A may-I question's first answer line that allows or forbids, not one telling the story, for `archehr answer`.

To "can he still drive" or "is one glass of champagne ok", the hand ranking may lead with a line naming much of the
question but telling only what happened or was found ("She fell asleep at a red light while driving", "Sodium 131
mmol/L (L)", "this is a 53 year old teacher who sings in a choir"), a caption or a booked visit, while a line just
below gives the advice ("Advised she must not drive", "Avoid salt substitutes", "You can keep swimming"). For a
may-I question whose first line holds no advice, permission, instruction or condition at all (`_ADVISES`),
`advice_first` puts first the best of the next `first_fact.REACH` sentences that names some of the topic, ranks at
least `SHARE` of the first and allows or forbids (`_ALLOWS`: may, can, should, must, avoid, do not, a line opening
with no, OK, safe). A first line with any instruction keeps its place: which instruction is asked is the ranking's call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.first_fact import SHARE, next_with  # (each ranking at least SHARE of the first)
from archehr.answerability.spaces import fold

# a line allowing or forbidding: "may drive", "can keep swimming", "must not", "avoid", "no alcohol", "fine", "OK"
# (a bare "no" or "not" only opening the line or before an instruction: "did not identify the cause", "no shocks
# since the last check" tell findings)
_ALLOWS = re.compile(r"\b(?:may|can|cannot|can't|should|must|avoid\w*|do not|don't|never|ok|okay|allowed|safe|fine)\b|"
                     r"^\W*(?:x\W+)?(?:\d+\W+)?(?:no|not)\b|\bnot (?:to|before|until|for)\b", re.I)
# any advice, permission, instruction or condition: a first line with one is an answer of its own ("Weight bearing
# as tolerated", "Sitting out limited to 1 hour at a time", "aim 1.5 litres a day unless the GP advises otherwise",
# "that rules you out of Saturday's game")
_ADVISES = re.compile(
    r"\b(?:may|can|cannot|can't|should|must|avoid\w*|no|not|don't|never|ok|okay|allowed|safe|fine|stop\w*|"
    r"continu\w*|keep|until|return|call|ring|go|take|use|need|wear|limit\w*|only|please|advised|start|restart|"
    r"resum\w*|hold|drink|eat|drive|fly|seek|attend|contact|if|as tolerated|aim|unless|any|unfit|time off)\b|"
    r"\brul\w* (?:\w+ )?out\b", re.I)


def gives_no_advice(text: str) -> bool:
    """The line holds no advice, permission, instruction or condition (`_ADVISES`)."""
    return not _ADVISES.search(fold(text))


def advice_first(order: Sequence[int], rank: np.ndarray, texts: Sequence[str], topic: np.ndarray) -> int | None:
    """The sentence (an index of `texts`) to put first in `order` in place of its first, or None to keep it: for a
    may-I question whose first sentence gives no advice (`gives_no_advice`), the first of the next
    `first_fact.REACH` sentences of `order` that names some of the topic (`topic` above 0), ranks at least `SHARE`
    of the first and allows or forbids (`_ALLOWS`)."""
    if not order or not gives_no_advice(texts[order[0]]):
        return None
    return next_with(order, rank, SHARE, lambda i: topic[i] > 0 and bool(_ALLOWS.search(fold(texts[i]))))
