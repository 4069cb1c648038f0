"""A result question's first answer line: it must say what the asked test found.

"Was my Keppra level ok" answered first by "CBC: normal", "what did the bone scan show" answered first by the line
booking the scan, "did they send the hernia off" by the operation's line: the note names the asked thing, but the
line the answer leads with gives no result of it. `first_unresulted` tells such a first line: one that gives no
result at all (`test_words.RESULT`, `RESULT_GIVEN`, or a result in plain words), or only a result that sits in a
condition or a plan ("start calcium if it shows thinning"). (A first line giving another test's result, one not naming
the question's most specific concept another sentence names, is not flagged: tried, it flagged right answers whose
rarest concept was a story word; `docs/answer-methods.md`.) `archehr answer` flags such an answer for review
(`review.review_flags`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.dates import DAY_MONTH, HOUR_MINUTE, NUMERIC_DATE, WORD_DATE
from archehr.answerability.spaces import fold
from archehr.answerability.test_words import NOT_DONE, PENDING, RESULT, RESULT_GIVEN, TABLE_RESULT

# a date or a clock time, read out before looking for a result (a date "12/08/2026" is no value "12/08"; a day and
# month after "on", "from", "booked" ...), not a score or a fraction ("MoCA 26/30", "acuity 6/6"); a test's name
# holding a digit ("HbA1c", "B12") likewise. Unlike `asked_thing.DATE_TIME`, a bare day and month counts only after a
# word that dates it or opening the line: a result's "26/30" is its value, which this rule looks for
_DATE = re.compile(rf"\b{NUMERIC_DATE}\b|\b{HOUR_MINUTE}\b|\b{WORD_DATE}|"
                   rf"(?:\b(?:on|from|since|until|till|by|due|date|dated|booked|for|before|after|of)\s+|^\W*)"
                   rf"{DAY_MONTH}\b", re.I)
_NAMED_DIGIT = re.compile(r"\b[A-Za-z]+\d+[A-Za-z]*\b")
# a result in plain words ("blood results acceptable", "nothing abnormal", "fine", "pan-S"), a score or a fraction
# ("26/30", "0/12 nodes"), a finding ruled out after a result's label ("Pathology: appendicitis; no neoplasm",
# "Telemetry: sinus rhythm without AF"), or a table row's value with its flag or reference range ("| 1.9 | mU/L |
# 0.3 - 4.2", "| 8.4 | H |")
_PLAIN = re.compile(r"\b(?:acceptable|fine|ok|okay|good|clear|as expected|no concerns?|nothing (?:abnormal|worrying)|"
                    r"reduced|preserved|pan-?s|sensitive to|resistant to|susceptible)\b|\b\d{1,3}/\d{1,3}\b|"
                    r"^[^:]{2,60}:[^.]*\b(?:no|without)\s+(?!contrast\b|sedation\b|an(?:a)?esth)[a-z]{2,}|"
                    + TABLE_RESULT, re.I)
# a result said only as a condition ("if it shows thinning", "until your sample is clear", "unless it comes back")
_IF = re.compile(r"\b(?:if|unless|until|once|when|in case)\b[^.;]{0,40}$", re.I)


def gives_result(text: str) -> bool:
    """The sentence says what a test found (a value, a verdict, a finding), outside a condition, and does not say the
    test was not done or that its result is awaited and nothing more."""
    plain = _NAMED_DIGIT.sub(" ", _DATE.sub(" ", fold(text)))
    if NOT_DONE.search(plain):
        return False
    for p in (RESULT, RESULT_GIVEN, _PLAIN):
        for m in p.finditer(plain):
            if not _IF.search(plain[:m.start()]):
                return not (PENDING.search(plain) and p is _PLAIN)
    return False


def first_unresulted(kind: str, first: int | None, texts: Sequence[str], named: np.ndarray) -> bool:
    """A result question (`kind`) whose first cited sentence (`first`, an index of `texts`) gives no result. False for
    other kinds, no answer, or a note naming none of the question's concepts (rows of `named`, one column a sentence:
    the decline rules cover that)."""
    if kind != "test_result" or first is None or named.ndim != 2 or not named.any():
        return False
    return not gives_result(texts[first])
