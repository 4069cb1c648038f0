"""A first answer line that is no safety-net advice unless the question asks when to seek help, for
`archehr answer`.

A discharge note's safety net ("Return to ED if the headache comes back", "call 999 for chest pain", "Safety net:
if sats drop below 88% ...") names many of the note's words (the drug, the fever, the wound), so the hand ranking may
lead with it. It answers a question about seeking help ("do I need to go back to the ER", "who do we ring", "at what
point do I call an ambulance"), never what a medicine's dose is, what a test found, how long something lasts or
whether one may drive. For a question not asking for help (`asks_help`) whose first line is a safety net,
`safety_first` puts first the best of the next `first_fact.REACH` sentences that is none, names some of the
question's topic and ranks at least `SHARE` of the first. (On the latest writers every answer a safety net gave
was to a question naming help so.) A page's running header or a section banner ("Riverside Clinic   Page 2 of 2",
"---- Section B: completed by the team ----") answers no question: it gives way the same, whatever is asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.first_fact import next_with
from archehr.answerability.spaces import fold
from archehr.data.note_page import has_page_mark

SHARE = 0.25  # ... each ranking at least this share of the first (a safety net answers none of these questions)

# going back for help: an emergency service or a hospital, soon after a verb of going or calling ("Return to the
# ED", "call 911", "go to the nearest emergency room", "come straight to A&E", "seek urgent help")
_GO_BACK = re.compile(r"\b(?:return(?:s|ing)?\s+to|come\s+(?:straight\s+)?(?:back\s+)?(?:to|in)|"
                      r"go\s+(?:straight\s+)?to|call|ring|phone|seek|attend|contact)\b[^.;]{0,50}?\b(?:ed|a\s*&\s*e|"
                      r"a\s+and\s+e|emergency|er|999|911|111|urgent\s+care|hospital|help)\b", re.I)
# ... said for a condition to come ("if", "for fever over 101F", "any bleeding")
_CONDITION = re.compile(r"\b(?:if|for|any)\b", re.I)
_LABEL = re.compile(r"\bsafety[\s-]*net", re.I)
# page furniture: a running header's page count (`note_page.has_page_mark`, as the splitter reads it), or a banner
# between runs of rule characters
_BANNER = re.compile(r"^\W*[-=*_~#]{3,}[^-=*_~#]*[-=*_~#]{3,}\W*$")
FURNITURE_WORDS = 12  # a line longer than this holding a page count was run on into the note's text: kept
# a question about seeking help: a service or a place of it, going back or calling, the signs to worry about
# ("do I need to go back to the ER", "who do we ring", "what signs mean ...", "what should we do", "do we take him
# in"); a hospital only as where to go ("the antibiotic they gave him in hospital" asks no help)
_ASKS_HELP = re.compile(r"\b(?:a\s*&\s*e|a\s+and\s+e|er|ed|emergency|ambulance|999|911|111|casualty|urgent\s+care|"
                        r"(?:go|come|back|rush|take|bring)\b[^.?!]{0,20}\b(?:hospital|in)|go\s+back|come\s+back|ring|"
                        r"call|phone|contact|worr(?:y|ied)|signs?|warning|what\s+(?:do|should|must|can)\b[^.?!]{0,30}"
                        r"\bdo)\b", re.I)


def safety_net(text: str) -> bool:
    """The line is safety-net advice: labelled so, or telling to go back to or call emergency help on a
    condition."""
    plain = fold(text)
    return bool(_LABEL.search(plain) or (_GO_BACK.search(plain) and _CONDITION.search(plain)))


def furniture(text: str) -> bool:
    """The line is page furniture: a short line holding a page count ("Page 1 of 2"), or a banner ("---- X ----")."""
    plain = fold(text)
    return bool(_BANNER.match(plain)) or (has_page_mark(plain) and len(plain.split()) <= FURNITURE_WORDS)


def asks_help(question: str) -> bool:
    """The question asks about seeking help: where to go or whom to call, or the signs that call for it."""
    return bool(_ASKS_HELP.search(fold(question)))


def safety_first(question: str, order: Sequence[int], rank: np.ndarray, texts: Sequence[str],
                 topic: np.ndarray) -> int | None:
    """The sentence (an index of `texts`) to put first in `order` in place of its first, or None to keep it: for a
    question not asking for help (`asks_help`) whose first sentence is a safety net (`safety_net`), the first of the
    next `first_fact.REACH` sentences of `order` that is none, names some of the topic (`topic` above 0) and ranks at
    least `SHARE` of the first; the same for any question whose first sentence is page furniture (`furniture`)."""
    if not order:
        return None
    helps = asks_help(question)

    def no_answer(i: int) -> bool:
        return furniture(texts[i]) or (not helps and safety_net(texts[i]))

    if not no_answer(order[0]):
        return None
    return next_with(order, rank, SHARE, lambda i: topic[i] > 0 and not no_answer(i))
