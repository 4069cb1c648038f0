"""A when question's first answer line that dates the asked event, not the note's own writing, for `archehr answer`.

A note dates its own writing in ways that are no answer to "when is my appointment": the stamp that opens a log
entry ("12/03/2026 09:15 Dressing changed, site clean"), the visit being written up ("I saw him in clinic today").
The hand ranking may lead with such a line when it names the asked thing, while a line just below dates it still to
come ("Line to stay until the antibiotics finish on 18/03, then remove", "We will see him again on 2 May at 10:00").
For a when question not asking the past (`when_answers.asks_past`), `when_first` puts first the best of the next
`first_fact.REACH` sentences that names some of the topic (or a visit, for a question asking one: the note's own
clinic is seldom named in its follow-up line), ranks at least `SHARE` of the first and gives a time to come
(`dates_to_come`), when the first only stamps its entry or tells today's visit (`stamps_only`; a listed booked
slot, a date and time before a clinician or a place, is no stamp). A first line with
any other date, even a past one, keeps its place: a dated line is often another event's date.

A first line may also date what comes after the asked thing rather than the thing itself: "when is her scan"
first answered by "If the scan shows a clot we will start treatment; if clear, we will see her in 6 months", "when
is the heart tracing" by "I will see him in two months with the tracing results", while a line just below books it
("A CT scan has been requested and should take place within the next 2 weeks"). `booked_first`
puts first such a booking line (`books_with_time`: requested, booked, arranged ... and a time to come) naming at
least as much of the topic, when the first line books nothing itself and gives no date of the calendar (a clinic's
visit on its day: the bookings near it are mostly the tests to have before it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.counts import AHEAD_UNIT, COUNT_ASCII
from archehr.answerability.dates import CLOCK, DATE, TOMORROW, WEEKDAY
from archehr.answerability.first_fact import next_with
from archehr.answerability.spaces import fold
from archehr.answerability.when_answers import asks_past, asks_visit, says_visit

SHARE = 0.25  # ... each ranking at least this share of the first (a mere stamp first: a lower bar than `first_fact`)

# a date ("18/03", "18.03.2026", "2026-03-18", "18 March", "March 18, 2026") and a clock time ("09:15", "3pm")
_DATE = DATE
_CLOCK = CLOCK
_WEEKDAY = WEEKDAY
# the stamp opening a log entry: a date and its clock time ("12/03/2026 09:15", "2026-03-12 14:40 -")
_STAMP = re.compile(rf"^\W*(?:{_WEEKDAY},?\s+)?{_DATE},?\s+(?:at\s+)?{_CLOCK}\b\W*", re.I)
# a booked slot listed, not a log entry: its date and time followed by the clinician or the place, with nothing told
# done ("17/12/2026 3:20 PM Jo Bell, MD Lakeshore Surgery Clinic, 2nd floor")
_SLOT_WHO = re.compile(r"\b(?:md|do|dr|doctor|consultant|surgeon|clinic|surgery|practice|suite|floor|room|"
                       r"appointment|appt)\b", re.I)
_TOLD_DONE = re.compile(r"\b(?:\w+ed|seen|taken|given|done|had|was|were|rang|spoke|said|told|sent)\b", re.I)
# today's visit told: "seen today", "thanks for coming in today", "I reviewed her in clinic today"
_TODAY = re.compile(r"\btoday\b", re.I)
# a time to come: a date, a weekday, an interval ahead ("in 2 weeks", "within 10 days", "next week", "tomorrow")
_TIME = re.compile(rf"\b{_DATE}\b|\b{_WEEKDAY}\b|\b(?:in|within)\s+(?:about\s+|the next\s+)?{COUNT_ASCII}"
                   rf"\s*{AHEAD_UNIT}\b|\bnext\s+(?:week|month)\b|\b{TOMORROW}\b", re.I)
# words saying a time is still to come: a plan, a booking, a review, a visit, what waits until then ("will",
# "booked", "review", "clinic", "please attend", "until"); `when_other` reads them too, each rule with its own few more
AHEAD_WORDS = (r"will|shall|next|booked|scheduled|planned|due|appointment|appt|follow[\s-]*up|review|clinic|attend|"
               r"please|to be|return|come back|see (?:you|him|her|them)|until|then|arranged")
# a time said to come after a log stamp: those words, a line kept on ("Line to stay until the antibiotics finish")
# or a visit moved ("rearranged to 2 May")
_AHEAD = re.compile(rf"\b(?:{AHEAD_WORDS}|to stay|rearranged)\b", re.I)


# a thing booked or asked for: "requested", "booked", "arranged", "referred", "to take place"
_BOOKED = re.compile(r"\b(?:request(?:ed)?|book(?:ed)?|arranged?|referr(?:ed|al)|scheduled|ordered|"
                     r"(?:to|will|should|shall) take place)\b", re.I)


# a date of the calendar or a weekday: "24/06/2026", "12 May", "on Tuesday"
_DATED = re.compile(rf"\b{_DATE}\b|\b{_WEEKDAY}\b", re.I)


def books_with_time(text: str) -> bool:
    """The line books something (`_BOOKED`) and gives a time to come ("24-hour tape requested, to take place within
    three weeks")."""
    plain = _after_stamp(text)[2]
    return bool(_BOOKED.search(plain) and _TIME.search(plain))


def booked_first(question: str, order: Sequence[int], rank: np.ndarray, texts: Sequence[str],
                 topic: np.ndarray) -> int | None:
    """For a when question not asking the past whose first line books nothing (`_BOOKED`) and gives no date of the
    calendar (`_DATED`), the first of the next `first_fact.REACH` sentences ranking at least `SHARE` of it that books
    something with a time to come (`books_with_time`) and names at least as much of the topic (above 0); else None."""
    if not order or asks_past(question):
        return None
    first = fold(texts[order[0]])
    if _BOOKED.search(first) or _DATED.search(first):
        return None  # a first line giving a date is mostly the asked event's own (a visit with its day)
    lead = float(topic[order[0]])
    return next_with(order, rank, SHARE,
                     lambda i: float(topic[i]) > 0 and float(topic[i]) >= lead and books_with_time(texts[i]))


def stamps_only(text: str) -> bool:
    """The line dates only its own writing: a log entry's opening stamp with no other date or time to come after it
    ("12/03/2026 09:15 Dressing changed, site clean"), or today's visit told with none ("I saw him today")."""
    plain, stamp, rest = _after_stamp(text)
    if _TIME.search(rest) or (stamp is None and not _TODAY.search(plain)):
        return False
    if stamp is not None and _SLOT_WHO.search(rest) and not _TOLD_DONE.search(rest):
        return False  # a booked slot listed
    return not re.search(r"\b(?:will|next|booked|scheduled|planned)\b", rest, re.I)


def dates_to_come(text: str) -> bool:
    """The line gives a time still to come, beyond any stamp opening it ("review on 24/06", "PICC to stay until
    the course ends on 18/03", "We will see her again in 3 months")."""
    rest = _after_stamp(text)[2]
    return bool(_TIME.search(rest) and _AHEAD.search(rest))


def _after_stamp(text: str) -> tuple[str, re.Match[str] | None, str]:
    """The line with its white space folded, the log stamp opening it (or None) and what follows that stamp."""
    plain = fold(text)
    stamp = _STAMP.match(plain)
    return plain, stamp, plain[stamp.end():] if stamp else plain


def when_first(question: str, order: Sequence[int], rank: np.ndarray, texts: Sequence[str],
               topic: np.ndarray) -> int | None:
    """The sentence (an index of `texts`) to put first in `order` in place of its first, or None to keep it: for a
    when question not asking the past whose first sentence only stamps its entry or tells today's visit, the first
    of the next `first_fact.REACH` sentences of `order` that names some of the topic (`topic` above 0) or a visit
    when one is asked (`when_answers.asks_visit`), ranks at least `SHARE` of the first and gives a time to come."""
    if not order or asks_past(question):
        return None
    if not stamps_only(texts[order[0]]):
        return booked_first(question, order, rank, texts, topic)
    visit = asks_visit(question)
    return next_with(order, rank, SHARE,
                     lambda i: (topic[i] > 0 or (visit and says_visit(texts[i]))) and dates_to_come(texts[i]))
