"""A medicine list's order as the answer to a medicine-change or a may-I question, for `review.fact_given`.

Discharge letters and clinic letters list each medicine with an order in capitals at the start of its row:
"STOP Naproxen 250 mg - NSAID, bleeding risk", "HOLD | Metformin 1 g twice daily | restart when ...",
"CONTINUE Atorvastatin 40 mg - no change", "• START hydroxycarbamide 300 mg once a day". Such a row decides
what happens to the medicine, so it answers "did they change anything about her sugar pill" and, naming the asked
medicine or its class, "can she take Brufen for the pain": the model's middling confidence in it is no reason for
review. Only the capitalised order at the row's start counts: a "stop" in prose ("will stop if the rash comes
back") or a lower-case list ("stop aspirin") was too broad for may-I questions (`may_answers`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from archehr.answerability.order_rows import DOSE_CHANGED, HELD, order_words

if TYPE_CHECKING:
    from archehr.glossary import Glossary

# a row's order in capitals after a bullet, a pipe or a number, before the medicine: "STOP Naproxen", "• START x",
# "HOLD      | Metformin", "1. DO NOT TAKE ibuprofen" (case-sensitive: a capitalised "Stop" opens a prose sentence)
# (its own mark, not `order_rows.ROW_MARK`: six characters at most of spaces, bullets, pipes, dashes, a number; the
# held and dose groups of `order_rows` and words of its own; a name after the order, past a pipe, colon or dash)
LIST_ORDER = re.compile(
    r"^[\s•*·>|\-–\d.)]{0,6}"
    + order_words(("START", "STARTED", "NEW", "STOP", "STOPPED", "CONTINUE", "CONTINUES", "CONTINUED"), HELD,
                  ("OMIT", "OMITTED", "SUSPEND", "SUSPENDED", "WITHHOLD", "WITHHELD", "PAUSE", "PAUSED"), DOSE_CHANGED,
                  ("SWITCH", "SWITCHED", "DO NOT TAKE", "DO NOT USE", "DO NOT STOP", "DO NOT RESTART", "AVOID"))
    + r"(?=\s*[|:\-–]?\s*[A-Za-z])")
# the share of the question's topic the row names: a medicine change asks of a medicine the row must name (as
# `review.HOLDS_MIN`); a may-I question may name the medicine by a brand or class the row names otherwise (as
# `review.FIRST_FACT_MIN`), so its medicine must be one the lexicon knows (`why_may_given.known_named`)
CHANGE_MIN = 0.25
MAY_MIN = 0.1


def list_order(text: str) -> bool:
    """The line opens with a medicine list's order in capitals (`LIST_ORDER`)."""
    return bool(LIST_ORDER.search(text))


def order_given(kind: str, question: str | None, first: str | None, topic: float,
                lexicon: Glossary | None = None) -> bool:
    """A medicine-change or may-I answer whose first line (`first`, naming `topic` of the question's topic) is a
    medicine list's row with its order (`list_order`): to a medicine change naming `CHANGE_MIN` of the topic; to a
    may-I question naming `MAY_MIN` of it and a medicine or activity of the question the lexicon knows, not another
    thing taken in than the asked one (`may_answers.other_activity`)."""
    if first is None or not list_order(first):
        return False
    if kind == "med_change":
        return topic >= CHANGE_MIN
    if kind != "may_i" or question is None or topic < MAY_MIN:
        return False
    from archehr.answerability.may_answers import other_activity
    from archehr.answerability.why_may_given import known_named
    from archehr.glossary import load_lexicon

    lexicon = lexicon or load_lexicon()
    return not other_activity(question, first, lexicon) and known_named(question, first, lexicon)
