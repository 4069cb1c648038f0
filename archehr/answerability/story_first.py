"""A first answer line telling what is to be done, not what was done, for `archehr answer`.

A question about what goes on from now ("is he still on the steroid pills now he's home", "how much longer does she
take the phosphate", "which antibiotic do I keep taking", "when will they scope him again") names the same
medicine or procedure as the note's story of the stay, so the hand ranking may lead with the story: "He was treated
with nebulized albuterol, prednisone 40 mg daily and doxycycline", "Phosphorus dropped to 2.1 and oral phosphate
was started", "Given acetazolamide 500 mg and timolol one drop", while a line just below gives the plan: "1.
Prednisone 40 mg daily for 2 more days, then stop", "Timolol stopped.", "repeat EGD 1-2 wk for banding". For a
how-long, medicine-change, when or may-I question not asking about the stay itself (`asks_stay`), whose first line
only tells what happened (`tells_story`: a verb of what was done or found, and nothing planned, advised or ordered),
`story_first` puts first the best of the next `first_fact.REACH` sentences that names some of the topic, ranks at
least `first_fact.SHARE` of the first and plans, advises or orders (`tells_plan`; "she was switched to apixaban"
counts, a decision told as done). A first line with any plan, or telling a decision as done ("NSAIDs were stopped
permanently"), keeps its place: which plan is asked is the ranking's call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.first_fact import SHARE, next_with  # (each ranking at least SHARE of the first)
from archehr.answerability.order_rows import ORDERS, ROW_MARK, order_words
from archehr.answerability.spaces import fold

KINDS = ("how_long", "med_change", "when", "may_i")

# what was done or found, told: "was started", "received", "treated with", "given", "tolerated", "improved", "held"
_DONE = re.compile(
    r"\b(?:was|were|had|has been|have been|received|receiving|treated|given|gave|took|tolerated|improved|resolved|"
    r"dropped|rose|presented|admitted|admits|reported|managed|performed|completed|underwent|transitioned|"
    r"controlled|met|seen|showed|held|remained|stayed|developed|noted|found|did|went)\b", re.I)
# a plan, advice or an order: what will be, should be or is to be done ("will", "continue", "then stop", "for 2 more
# days", "until", "review in", "avoid", "can", "from today"), a medicine's order in capitals ("START", "HOLD":
# `order_rows.ORDERS`)
_PLAN = re.compile(
    r"(?i:\b(?:will|shall|should|must|please|need|needs|can|cannot|may|plan\w*|to be|then|until|avoid\w*|do not|don't|"
    r"not to|advis\w*|recommend\w*|continu\w*|keep\w*|stop|start|take|use|increase|reduce|restart|resume|hold|"
    r"going forward|from (?:now|today|tomorrow)|more days|more weeks|lifelong|long[- ]term|ongoing|next|due|"
    r"follow[- ]?up|review|repeat|book\w*|schedul\w*|arrang\w*|refer\w*|tomorrow|instead|discharge\w*|home|"
    r"now)\b)|\b" + order_words(ORDERS))
# a medicine list's entry: a numbered or bulleted line opening with a name and giving a dose ("1. Prednisone 40 mg
# by mouth daily", "- Ferrous sulfate 325 mg PO every other day"), not a story opening with its verb or its subject
# ("Given acetazolamide 500 mg", "He received ...")
ENTRY = re.compile(ROW_MARK + r"(?!(?:given|received|treated|took|he|she|they|pt|patient)\b)"
                   r"[A-Za-z][\w()/-]*(?:\s+[\w()/-]+){0,4}\s+\d[\d.,/-]*\s*"
                   r"(?:mg|mcg|micrograms?|g|units?|ml|mmol|%|puffs?|tablets?)\b", re.I)
# a decision told as done is still the decision: "NSAIDs were stopped permanently", "switched to apixaban"
_DECIDED = re.compile(r"\b(?:stopped|discontinued|switched|changed|increased|reduced|decreased|replaced|"
                      r"permanently|for good|no longer)\b", re.I)
# a question about the stay itself, or what has been so far: "what did they give her in hospital", "did I have a
# tablet at the hospital", "how long have I been on it", "when did he start"
_ASKS_STAY = re.compile(
    r"\b(?:in|at) (?:the )?(?:hospital|ed|a&e|er|unit|ward)\b|\bhave (?:i|you|we|he|she|they)(?: \w+)? been\b|"
    r"\bhow long ago\b|\bwhen (?:did|was|were|had)\b|\bwhile (?:i|he|she|we|they) (?:was|were)\b|"
    r"\bdid (?:i|he|she|we|they) (?:have|get|take|give)\b", re.I)


def asks_stay(question: str) -> bool:
    """The question asks about the stay or what has been so far (`_ASKS_STAY`), not what goes on from now."""
    return bool(_ASKS_STAY.search(fold(question)))


def tells_plan(text: str) -> bool:
    """The line plans, advises or orders something (`_PLAN`), or is a medicine list's entry with its dose."""
    plain = fold(text)
    return bool(_PLAN.search(plain) or ENTRY.search(plain))


def tells_story(text: str) -> bool:
    """The line tells only what was done or found: a verb of the story (`_DONE`) and no plan (`tells_plan`)."""
    plain = fold(text)
    return bool(_DONE.search(plain)) and not _DECIDED.search(plain) and not tells_plan(text)


def story_first(kind: str, question: str, order: Sequence[int], rank: np.ndarray, texts: Sequence[str],
                topic: np.ndarray) -> int | None:
    """The sentence (an index of `texts`) to put first in `order` in place of its first, or None to keep it: for a
    question of `KINDS` not asking about the stay whose first sentence only tells a story (`tells_story`), the first
    of the next `first_fact.REACH` sentences of `order` that names some of the topic (`topic` above 0), ranks at
    least `SHARE` of the first and tells a plan (`tells_plan`)."""
    if kind not in KINDS or not order or asks_stay(question) or not tells_story(texts[order[0]]):
        return None
    return next_with(order, rank, SHARE, lambda i: topic[i] > 0 and tells_plan(texts[i]))
