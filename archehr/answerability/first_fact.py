"""A first answer line that gives the asked fact, for `archehr answer`.

The hand ranking may lead with a sentence naming much of the question's topic but giving none of the asked fact,
while a sentence just below it gives it: "were his inflammation markers raised" led by "Bloods requested (ESR, CRP)"
over "ESR 38 (H), CRP 21 (H)". For a result question whose first line gives no result (`result_first.gives_result`:
an order, a plan, a result only in a condition) or advises (`result_advice.gives_advice`: "Advised not to miss a
session as potassium was high", naming a value only in passing), `fact_first` puts first the best of the next
`REACH` sentences that gives a result and no advice, names some of the topic and ranks at least `SHARE` of the
first. Other kinds, and a first line already giving the fact, keep the hand order. (The same for a why question's
cause was measured and not kept: most wrong why first lines do hold a cause, that of another action;
docs/answer-methods.md.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from archehr.answerability.result_advice import gives_advice
from archehr.answerability.result_first import gives_result

REACH = 5  # the sentences after the first that may take its place (the hand ranking's best 6 in all)
SHARE = 0.5  # ... each ranking at least this share of the first


def _result_unadvised(text: str) -> bool:
    """The sentence gives a result (`gives_result`) and is no advice (`gives_advice`)."""
    return gives_result(text) and not gives_advice(text)


_GIVES = {"test_result": _result_unadvised}


def fact_first(kind: str, order: Sequence[int], rank: np.ndarray, texts: Sequence[str],
               topic: np.ndarray) -> int | None:
    """The sentence (an index of `texts`) to put first in `order` in place of its first, or None to keep it: for a
    result question whose first sentence gives no result, the first of the next `REACH` sentences of `order` that
    gives one (and no advice), names some of the topic (`topic` above 0) and ranks at least `SHARE` of the first."""
    gives = _GIVES.get(kind)
    if gives is None or not order or gives(texts[order[0]]):
        return None
    return next_with(order, rank, SHARE, lambda i: topic[i] > 0 and gives(texts[i]))


# a sentence going on about the one before it, naming it only by a pronoun: "It is planned for 12 months" after the
# injection's line, "This takes about 4 hours" after the day unit's: it names what that one names
_GOES_ON = re.compile(r"^\W*(?:it|this|these|that|they)\b(?!\s+(?:is|was|are|were)\s+(?:a|an|the)\b)", re.I)


def goes_on(i: int, first: int, texts: Sequence[str]) -> bool:
    """Sentence `i` is the one right after `first` in the note and names its thing only by a pronoun (`_GOES_ON`)."""
    return i == first + 1 and bool(_GOES_ON.search(texts[i]))


def next_with(order: Sequence[int], rank: np.ndarray, share: float, accept: Callable[[int], bool]) -> int | None:
    """The first of the next `REACH` sentences of `order` after its first that ranks at least `share` of the first
    and that `accept` takes, or None (the scan stops at the first ranking lower)."""
    floor = share * float(rank[order[0]])
    for i in order[1:1 + REACH]:
        if float(rank[i]) < floor:
            break
        if accept(i):
            return int(i)
    return None
