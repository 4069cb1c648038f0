"""Which length of time in a note sentence is the course of the thing a how-long question asks about.

A sentence naming the asked medicine or event often holds a length of time that is not its course: a dose's
spacing ("take levothyroxine at least 4 hours apart from the calcium"), a step of a dose schedule ("apixaban 10 mg
BID x 7 days, then 5 mg BID", "increasing to 40 mg daily after 4 weeks"), or another object's course in another
clause ("Adcal-D3 ... for as long as she is on prednisolone": the prednisolone is the condition, the course is the
calcium's). `course_strength` gives each sentence holding a how-long answer (`holds.HOLDS`) its strength for the
rank: 1 when a clause naming the asked thing holds a course or an end ("for 12 weeks", "lifelong", "at least
3 months", "until stopped", "for the rest of her life", "ongoing"), `W_WEAK` else. A sentence naming nothing asked
(a plan line going on from the one before: "Continue for at least 6 months") keeps any course it holds.

`own_conditions_out` reads out of a sentence a condition naming the asked thing ("no live vaccines while on
adalimumab"): it tells what to do during the course, not how long the course runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from archehr.answerability.clause_marks import CLAUSE_STOP
from archehr.answerability.counts import COUNT, NUMBER, SPACING_UNIT, UNIT
from archehr.answerability.dates import WEEKDAY
from archehr.answerability.firm_answers import W_WEAK
from archehr.answerability.holds import LENGTH_COMPOUND, SPACING_LEAD, SPACING_SIDE
from archehr.answerability.spaces import fold

# a course or an end: a length ("for 6 months", "x5d", "14-day", "2-3 weeks"), "lifelong", "indefinitely",
# "at least 3 months", "until stopped", "for the rest of her life", "ongoing", "long term"
COURSE_END = re.compile(
    rf"\b{COUNT}\s*(?:more\s+|additional\s+|further\s+)?{UNIT}\b|\b\d+-(?:day|week|month|year)\b|"
    rf"{LENGTH_COMPOUND}|"
    r"\bx\s*\d|\b\d+\s*d\b|\bindefinite(?:ly)?\b|\blife-?long\b|\bfor life\b|\bpermanent\w*|\blong[- ]term\b|"
    r"\brest of (?:your|his|her|their|my) li|\bongoing\b|\bfor good\b|"
    # "until" or "through" with an end: a date, a stop, a review or a healing ("until stopped", "until seen in GI
    # clinic", "through 10/21"), not any condition ("two tabs until new supply", "not wait until morning")
    rf"\b(?:until|till|through|thru)\s+(?:\[\*\*|\d|{WEEKDAY}\b|"
    r"(?:[\w'-]+\s+){0,5}?(?:stop\w*|finish\w*|complet\w*|review\w*|seen|clinic|appointment|heal\w*|gone|"
    r"resolv\w*|normal|told|advised|otherwise|end\w*|over|off|remov\w*|out)\b)", re.I)
# a dose's spacing or a wait around an event: "4 hours apart", "30 minutes before food" (`holds.SPACING`), and in
# more forms than a how-long answer reads, as it is only taken out of a line: "within 2 hours after intercourse",
# "leave 4 h between it and ..."
_SPACING = re.compile(rf"\b(?:{SPACING_LEAD}|within |leave )?{COUNT}\s*"
                      rf"(?:{SPACING_UNIT}|h)\s+(?:{SPACING_SIDE}|between)\b", re.I)
# a question asking for such a wait or a session's length ("how long before sex", "how long do i wait", "how long
# is each treatment", "how long can he sit out"): a spacing answers it
_WAIT_Q = re.compile(r"\b(?:before|after|wait|apart|between|each|every|at a time|per|session|sit\w*|"
                     r"stay (?:up|upright)|hours?|minutes?|mins?)\b", re.I)
# a step of a dose schedule: a length followed by the next dose ("x 7 days, then 5 mg", "for four weeks, then
# increase to 10 mg"), or a dose change after or every so long ("increasing to 40 mg after 4 weeks")
_STEP = re.compile(
    rf"(?:\bx\s*{NUMBER}\s*{UNIT}\b|\bfor\s+(?:the\s+first\s+)?{NUMBER}\s*{UNIT}\b)(?=\s*[,;]?\s*(?:and\s+)?"
    r"(?:then|followed by)\s+(?:\d|one\b|two\b|half\b|increas|reduc|decreas|go\b|step))|"
    r"\b(?:increas|reduc|decreas|titrat|go(?:ing)? (?:up|down)|step(?:ping)? (?:up|down))\w*\b[^.;]{0,40}?"
    rf"\b(?:after|every|each)\s+(?:{NUMBER}\s*)?{UNIT}\b", re.I)
# a question asking for such a step ("how long twice a day before going down to one pill", "how many weeks before
# the dose goes up"): the step answers it
_STEP_Q = re.compile(r"\b(?:go(?:es|ing)?|come|comes|coming) (?:up|down)\b|\b(?:increas|decreas|reduc|lower|rais|"
                     r"switch|chang|step|drop|cut)\w*|\bhigher\b|\bbefore (?:the |my |her |his )?(?:dose|next)\b", re.I)
# a condition naming a thing: "while on adalimumab", "for as long as she is on prednisolone", "between it and your
# Epclusa", "apart from the calcium tablets" (up to the clause's end)
_CONDITION = re.compile(r"\b(?:while (?:(?:she|he|you|they|i|we) (?:is|are|am|remains?|stays?) )?"
                        r"(?:on|taking|using|receiving|in)|as long as\b[^,;.]{0,25}?\b(?:on|taking|using)|"
                        r"between (?:it|them|this) and|apart from)\b[^,;.()]*", re.I)
# where one clause ends and another begins
# (not a table's cell, a label's colon or a dash: "Flucloxacillin | 1 g | ... | NEW - continue for 7 more days";
# nor a title's full stop: "amoxicillin per Dr. Shah: continue for 5 more days")
_BOUNDARY = re.compile(r";|,?\s*\bthen\b|,?\s*\bfollowed by\b|" + CLAUSE_STOP + r"|\bbut\b|\n\s*\n", re.I)
LINK_SHARE = 0.5  # a clause naming this share of what the sentence names of the topic names the asked thing


def course_out(text: str, question: str) -> str:
    """The sentence with its dose spacings (unless the question asks for a wait or a session's length) and its
    dose schedule's steps (unless it asks for a step) read out."""
    text = text if _STEP_Q.search(question) else _STEP.sub(" ", text)
    return text if _WAIT_Q.search(question) else _SPACING.sub(" ", text)


def own_conditions_out(text: str, names: Callable[[str], float]) -> str:
    """The sentence without the conditions naming the asked thing (`names`: the topic share a piece of text
    names): "no live vaccines while on adalimumab" holds no course of adalimumab."""
    return _CONDITION.sub(lambda m: " " if names(m.group(0)) > 0 else m.group(0), text)


def course_strength(texts: Sequence[str], holds: np.ndarray, topic: np.ndarray, question: str,
                    names: Callable[[str], float]) -> np.ndarray:
    """Each sentence's strength as a how-long answer for the rank (the module's docstring): 1 when a clause naming
    the asked thing (at least `LINK_SHARE` of the sentence's topic, conditions aside) holds a course or an end,
    `W_WEAK` when the sentence holds the kind only in another clause or a weak form, 0 when it does not hold it."""
    out = np.zeros(len(texts))
    for i, t in enumerate(texts):
        if not holds[i]:
            continue
        plain = course_out(fold(t), question)
        if topic[i] <= 0:
            out[i] = 1.0 if COURSE_END.search(plain) else W_WEAK
            continue
        whole = names(t)
        linked = any(COURSE_END.search(c) and names(_CONDITION.sub(" ", c)) >= LINK_SHARE * whole - 1e-9
                     for c in _BOUNDARY.split(plain) if c and c.strip())
        out[i] = 1.0 if linked else W_WEAK
    return out


# a dose's frequency or a day's limit: "every 6 hours", "every 4 to 6 hours", "4-hourly", "q6h", "maximum 4 doses in
# 24 hours", "no more than 8 tablets a day", "in any 24 hours": how often a medicine is taken, never for how long
_HOURS = r"(?:hours?|hrs?|h)"
DOSE_RATE = re.compile(
    rf"\b(?:every|each|q)\s*(?:{COUNT}\s*)?{_HOURS}\b|\b{COUNT}\s*-?\s*hourly\b|"
    r"\b(?:max(?:imum)?\.?|no\s+more\s+than|not\s+more\s+than|up\s+to|at\s+most)\s*(?:of\s+)?"
    r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|ten|twelve)\s*"
    r"(?:doses?|tablets?|tabs?|capsules?|caps|sprays?|puffs?|times|g|grams?|mg)?\s*"
    rf"(?:in|per|a|an|each|every)\s+(?:any\s+)?(?:24\s*-?\s*{_HOURS}|day)\b|"
    rf"\b(?:in|per)\s+(?:any\s+)?24\s*-?\s*{_HOURS}\b", re.I)
# a schedule told by its steps ("Week 1: ...", "Day 3 -"): its steps give a course, whatever each step's rate
_SCHEDULE_STEP = re.compile(r"\b(?:week|wk|day)\s*\d+\s*[:-]", re.I)


def rates_out(text: str) -> str:
    """The line with its doses' frequencies and daily limits read out (`DOSE_RATE`), unless it is a schedule's step
    (`_SCHEDULE_STEP`): what is left holds a course's length only if the line gives one ("every 6 hours when
    needed, maximum 4 doses in 24 hours" holds none)."""
    plain = fold(text)
    return plain if _SCHEDULE_STEP.search(plain) else DOSE_RATE.sub(" ", plain)
