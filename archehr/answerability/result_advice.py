"""A result question's first line that advises instead of telling what the test found, for `archehr answer`.

To "was her phosphate high or normal" or "did the scan pick up a bleed", the hand ranking may lead with a line that
names the test and even a value in passing, yet tells the patient or the team what to do: "Advised not to miss a
session as potassium was high", "Keep taking the tablets until the level is checked", "2. Check sugars every 2 hours
until ketones are below 0.6", "It is normal to have a sore arm after the injection". `gives_advice` tells such a
line: it opens with an order or a piece of advice (`_OPENS`: "go", "keep", "check", "do not", "if", "you should",
"she must keep ...", "Advised"), or is told as advice (`_TOLD`: "was advised", "it is normal to"), and it reports no
result with a verb of reporting ("Check X-ray on day 1 showed a satisfactory position" is a result: `_REPORTED`).
`first_fact.fact_first` puts a line giving the result, itself no advice, first in its place.
"""

from __future__ import annotations

import re

from archehr.answerability.order_rows import ROW_MARK
from archehr.answerability.spaces import fold

# an order or advice opening the line, after a list row's mark (`order_rows.ROW_MARK`: bullet, number) or a tick box
_OPENS = re.compile(
    ROW_MARK + r"(?:\[[ xX]?\]\s*)?(?:go|call|contact|ring|phone|check|keep|continue|avoid|take|use|do not|"
    r"don'?t|consider|stop|start|attend|return|bring|drink|eat|please|seek|tell|ask|remember|make sure|if|when|once|"
    r"until|advised|you (?:should|must|can|may|will)|(?:he|she|they|pt|patient) (?:should|must|needs? to|is to)|"
    r"[a-z]+ (?:must|should|needs? to) (?:keep|continue|take|avoid|have|be|stop|start))\b", re.I)
# advice told in the line: "she was advised to", "it is normal to have a sore arm", "to be reminded about"
_TOLD = re.compile(r"\b(?:(?:was|were|been) advised|it is normal to|is normal to have|to be reminded)\b", re.I)
# a result reported with its verb: the line is a result even if it opens like an order ("Check X-ray showed ...")
_REPORTED = re.compile(r"\b(?:showed|shows|revealed|demonstrated|came back|confirmed)\b", re.I)


def gives_advice(text: str) -> bool:
    """The line advises or orders (`_OPENS`, `_TOLD`) and reports no result with a verb of reporting (`_REPORTED`)."""
    plain = fold(text)
    return bool(_OPENS.search(plain) or _TOLD.search(plain)) and not _REPORTED.search(plain)
