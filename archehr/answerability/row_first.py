"""A first answer line that is the asked medicine's own row of a medicine list, not its neighbour's (`archehr answer`).

A medicine list's rows share their words ("CONTINUE ... as needed for knee pain", "STOP ... as needed"), so to "she
keeps Nurofen in her handbag for the knee, stop or continue?" the hand ranking may lead with the row of another
medicine for the same use ("CONTINUE Paracetamol 1 g up to three times a day as needed for knee pain") while the row
just below names the asked one ("STOP Ibuprofen 200 mg as needed"). When the question names a medicine (by its name,
a brand or a misspelling the drug lexicon reads: `glossary.drugs.drugs_in`) and the first line is a list row
(`is_row`: an order in capitals, or a name with its dose) naming other medicines only, `row_first` puts first the
best of the next `first_fact.REACH` sentences that is a row naming an asked medicine and ranks at least
`first_fact.SHARE` of the first. Any kind: the row answers what is asked of that medicine, whatever the kind read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.first_fact import SHARE, next_with  # (each ranking at least SHARE of the first)
from archehr.answerability.order_rows import ORDERS, row_opening
from archehr.answerability.spaces import fold
from archehr.answerability.story_first import ENTRY

# a row opening with its order in capitals ("STOP Ibuprofen ...", "2. CONTINUE Salbutamol ...", "RESTART ...")
_ORDER = re.compile(row_opening(ORDERS, ("RESTART",)))


def is_row(text: str) -> bool:
    """The line is a medicine list's row: it opens with an order in capitals or with a name and its dose."""
    plain = fold(text)
    return bool(_ORDER.search(plain) or ENTRY.search(plain))


def row_first(question: str, order: Sequence[int], rank: np.ndarray, texts: Sequence[str]) -> int | None:
    """The sentence (an index of `texts`) to put first in `order` in place of its first, or None to keep it: when
    the question names a medicine and the first sentence is a row (`is_row`) naming only others, the first of the
    next `first_fact.REACH` sentences of `order` that is a row naming an asked medicine and ranks at least `SHARE` of
    the first."""
    from archehr.glossary.drugs import drugs_in

    asked = set(drugs_in(question))
    if not asked or not order or not is_row(texts[order[0]]):
        return None
    named = set(drugs_in(texts[order[0]]))
    if not named or named & asked:  # (a row naming no medicine the lexicon knows tells nothing of which it is)
        return None
    return next_with(order, rank, SHARE, lambda i: is_row(texts[i]) and bool(set(drugs_in(texts[i])) & asked))
