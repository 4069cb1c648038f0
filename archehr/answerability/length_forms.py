"""The forms a how-long answer's length takes, and what only looks like one.

A how-long question is answered by a duration ("for 12 months", "lifelong"), an end ("until the scan"), or the time
a thing comes off ("remove the plasters in the morning"); a taper's pace, a titration's steps, a dose's frequency and
a length running before the asked event are no answer to it. `archehr.answerability.review` reads the first line of
an answer with these (`course_length`, `any_length`, `before_only`).
"""

from __future__ import annotations

import re

from archehr.answerability.counts import COUNT_ASCII, GIVEN_UNIT
from archehr.answerability.spaces import fold

# a duration of its own: "for 12 months", "x 14 days", "4-6 weeks", "lifelong", "indefinitely"
DURATION_GIVEN = re.compile(
    rf"\b{COUNT_ASCII}\s*-?\s*(?:more\s+)?{GIVEN_UNIT}\b|\b\d+d\b|\blife-?long\b|\bindefinite(?:ly)?\b|"
    rf"\bfor life\b|\bpermanent(?:ly)?\b", re.I)

# an end told by when the thing comes off ("remove the plasters in the morning", "take the dressing off tomorrow"):
# how long it stays on, in the form of its end
OFF_WHEN = re.compile(r"\b(?:remov\w*|take (?:\w+ ){0,2}(?:off|out)|peel (?:\w+ ){1,2}off)\b[^.;]{0,30}?"
                      r"\b(?:in the morning|tomorrow|the next day|the following day|next morning|tonight|"
                      r"this evening)\b", re.I)

# what only looks like a course's length: a taper's pace ("reduce by 10 mg every 2 weeks": how fast, not until when)
# and, to a question asking the whole course (no step asked: `_ASKS_STEP`), a titration's first steps ("1 capsule
# at night for 3 nights, then 1 capsule twice a day"): how long each dose runs, not the course. (A step ending what
# is asked, "for 7 days then stop", "for 1 week, then restart", stays a length.)
_TAPER_PACE = re.compile(
    rf"\b(?:reduc|increas|taper|cut|lower|decreas|wean|titrat)\w*\b[^.;]{{0,40}}?\b(?:every|each)\s+(?:other\s+)?"
    rf"{COUNT_ASCII}?\s*{GIVEN_UNIT}\b(?![^.;]{{0,20}}?\b(?:then|and|until)\s+stop)", re.I)
_TITRATION_STEP = re.compile(
    rf"\bfor\s+{COUNT_ASCII}\s*{GIVEN_UNIT}\s*,?\s*(?:and\s+)?then\s+(?:take\s+|increase\s+to\s+)?"
    r"(?:\d+|one|two|three|four)\b", re.I)
# a question asking the length of one step: "before it goes up", "the small dose", "twice a day", "till"
_ASKS_STEP = re.compile(r"\b(?:before|till|until|til|untill|first|twice|once|times|small|smaller|little|starting|"
                        r"high|higher|big|bigger|low|lower|extra|double)\b|\b(?:go|goes|going|drop|drops|step|steps|"
                        r"cut|come|comes|coming)\s+(?:up|down|back)\b", re.I)


def course_length(text: str, question: str | None = None) -> bool:
    """The line gives a duration of its own (`DURATION_GIVEN`) once a taper's pace and, when the `question` asks
    the whole course, a titration's steps are read out (`_TAPER_PACE`, `_TITRATION_STEP`)."""
    plain = _TAPER_PACE.sub(" ", fold(text))
    if question is not None and not _ASKS_STEP.search(question):
        plain = _TITRATION_STEP.sub(" ", plain)
    return bool(DURATION_GIVEN.search(plain))


_AFTER = re.compile(r"\bafter\b", re.I)
_BEFORE = re.compile(r"\b(?:before|prior|beforehand|ahead)\b", re.I)
_LENGTH_BEFORE = re.compile(rf"\b{COUNT_ASCII}\s*{GIVEN_UNIT}\s+(?:\w+\s+)?(?:before|prior\s+to|beforehand|ahead)\b",
                            re.I)


def before_only(question: str, text: str) -> bool:
    """The question asks how long after something (it says "after", never "before") and every length the line gives
    runs before it ("for 1 week before", "2 days prior to the scan")."""
    if not _AFTER.search(question) or _BEFORE.search(question) or not _LENGTH_BEFORE.search(text):
        return False
    return not DURATION_GIVEN.search(_LENGTH_BEFORE.sub(" ", fold(text)))


def any_length(text: str) -> bool:
    """The line holds a length of time or an end in any form a how-long answer takes (`holds.HOLDS`, `DURATION_GIVEN`,
    `course_link.COURSE_END`), once a dose's frequency and daily limit are read out (`course_link.rates_out`)."""
    from archehr.answerability.course_link import COURSE_END, rates_out
    from archehr.answerability.holds import HOLDS

    plain = rates_out(text)  # (read out once, for the three forms)
    return any(p.search(plain) for p in (HOLDS["how_long"], DURATION_GIVEN, COURSE_END, OFF_WHEN))
