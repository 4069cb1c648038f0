"""Which rule may put another sentence first in an answer, by the question's kind, for `archehr answer`.

Each rule keeps the hand ranking's first line unless it lacks what its kind asks and a line just below gives it:
a when question's event dated (`when_first`), a why question's field (`why_fields.field_first`), a how-long
question's length (`length_first`), a medicine's change (`change_first`), a may-I question's advice
(`advice_first`), a test's result (`first_fact`). When the kind's rule keeps the first, a first line telling only
what was done yields to one telling what is to be done (`story_first`), for the kinds asking what goes on from now,
and a medicine list's row of another medicine than the one asked yields to the asked one's row (`row_first`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def kind_first(kind: str, question: str, order: Sequence[int], rank: np.ndarray, texts: Sequence[str],
               topic: np.ndarray) -> int | None:
    """The sentence (an index of `texts`) the asked `kind`'s rule puts first in `order` (or, when it keeps the first,
    `story_first`, then `row_first`), or None to keep the first."""
    from archehr.answerability.row_first import row_first
    from archehr.answerability.story_first import story_first

    chosen = _kind_rule(kind, question, order, rank, texts, topic)
    if chosen is None:
        chosen = story_first(kind, question, order, rank, texts, topic)
    return chosen if chosen is not None else row_first(question, order, rank, texts)


def _kind_rule(kind: str, question: str, order: Sequence[int], rank: np.ndarray, texts: Sequence[str],
               topic: np.ndarray) -> int | None:
    """The sentence (an index of `texts`) the asked `kind`'s own rule puts first in `order`, or None."""
    from archehr.answerability.advice_first import advice_first
    from archehr.answerability.change_first import change_first
    from archehr.answerability.first_fact import fact_first
    from archehr.answerability.length_first import length_first
    from archehr.answerability.when_first import when_first
    from archehr.answerability.why_fields import field_first

    if kind == "when":
        return when_first(question, order, rank, texts, topic)
    if kind == "why":
        return field_first(question, order, texts, topic)
    if kind == "how_long":
        return length_first(question, order, rank, texts, topic)
    if kind == "med_change":
        return change_first(question, order, rank, texts, topic)
    if kind == "may_i":
        return advice_first(order, rank, texts, topic)
    return fact_first(kind, order, rank, texts, topic)
