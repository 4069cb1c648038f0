"""How firmly a note sentence gives the date or time of what a when question asks, for the rank of `archehr answer`.

`archehr.answerability.kinds` tells a sentence holding a when answer (`holds.HOLDS["when"]`: a date, an interval,
an appointment word); many hold one in a form that does not answer "when is ...":

- a date of something already done ("The pacemaker was inserted ... on 10/06/2026", "Procedure: ..., 10/06/2026",
  "Her pelvic MRI from 24/07/2026 shows ...") answers "when did", not "when is his first pacemaker check": it
  counts `W_PAST` of a when answer for a question about what comes;
- a booked slot, a date or a weekday with its clock time ("Pacemaker clinic ... on 20/07/2026 at 10:15am",
  "Attend the hepatology clinic ... on 24/06/2026 at 14:20"), is the firmest answer to a question asking for an
  appointment, a date or a time, and counts `1 + W_SLOT`;
- an interval after an event or a step ("give the second adrenaline pen after 5 minutes", "within the next 4
  weeks") holds a when answer although the kind's table may miss it;
- "next" asked ("next lithium blood test when") and said ("Next lithium level ... in 3 months") counts `1 + W_NEXT`.

A question may tell a story before it asks ("My husband had the snip on Friday. When does he have to do the sperm
test?", "my chest still aches ..., but when can i go back to work"): the words of the story are background, so a
concept named only there counts `W_STORY` of the rank's topic (`story_shares`, reading the asking clauses as
`archehr.answerability.asking` tells them apart).

These cues weigh the rank only: the typed confidence reads `holds` and `score`, which they leave as they are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.asking import asking_part
from archehr.answerability.counts import COUNT_ASCII, RANGE_ASCII, SPAN_UNIT
from archehr.answerability.counts import NUMBER as _N
from archehr.answerability.cues import VISIT, asks_booked_event, plain_question
from archehr.answerability.dates import (
    AM_PM,
    HOUR_MINUTE,
    ISO_DATE,
    MONTH_DAY,
    MONTH_STEM,
    SLASH_DATE,
    WEEKDAY,
    WEEKDAY_SHORT,
)
from archehr.answerability.features import Concept
from archehr.answerability.spaces import fold
from archehr.relevance.text import tokens

W_PAST = 0.5  # the share of a when answer a date of something already done keeps, for a question about what comes
W_SLOT = 0.15  # what a booked slot adds for a question asking an appointment, a date or a time
W_NEXT = 0.1  # what "next" said adds for a question asking the next one
W_NOT_VISIT = 0.6  # the share a when answer that is no visit keeps for a question asking a visit
W_VISIT = 0.3  # what a visit line with its date or interval adds to the rank for a question asking a visit
W_STORY = 0.4  # the topic share of a concept the question names only in its story before the asked clause

_MONTH = MONTH_STEM
# narrower than `dates.DATE` and `dates.CLOCK` (which `when_first` reads) on purpose: with a dotted date and a bare
# dotted clock time, a log's entry stamp ("18.03.2026 10:20 Returned from ...") and a measurement ("FiO2 0.50")
# read as a booked slot; leaving one writer out over the 57 writers, the wider forms changed no first line and only
# added sentences that are no answer to 6 answers' citations
# (a month's name before its day too, "April 8, 2024 at 9:15 a.m.", as US letters write a booked slot)
_DATE = rf"(?:{SLASH_DATE}|{ISO_DATE}|\d{{1,2}}\s+{_MONTH}\w*(?:\s+\d{{4}})?|{MONTH_DAY})"
_WEEKDAY = rf"(?:{WEEKDAY}|{WEEKDAY_SHORT})"
_CLOCK = rf"(?:{HOUR_MINUTE}(?:\s*{AM_PM})?|\d{{1,2}}(?:\.\d{{2}})?\s*{AM_PM})"
# a booked slot: a date or a weekday, then its clock time ("Tuesday 09/29/2026 at 8:00 AM", "on 20/07/2026 at
# 10:15am"); not a range of opening hours ("Monday to Friday, 8am to 6pm")
BOOKED_SLOT = _SLOT = re.compile(rf"(?<!to )(?<![-–] )\b(?:{_DATE}|{_WEEKDAY})\b(?!\s*(?:to|-|–)\s*{_WEEKDAY}\b)"
                                 rf"[^.;]{{0,40}}?(?<!to )(?<![-–] )(?<![-–])(?<![:.])\b{_CLOCK}"
                                 # (nor a range's first hour read without its "am", nor its last one's minutes:
                                 # "8:30 am to 5:30 pm")
                                 rf"(?!(?:\s*{AM_PM})?\s*(?:to|-|–)\s*\d)", re.I)
# a date of something done: a verb of a step taken before the date ("inserted ... on 10/06/2026", "started
# 21/10/2026"), a result dated ("MRI from 24/07/2026 shows"), a label of what was done ("Procedure: ...",
# "Reaction on 10/08/2026:", "Admitted 02/03")
_DONE_VERB = (r"(?:inserted|implanted|fitted|performed|done|carried out|placed|started|began|begun|admitted|drawn|"
              r"measured|sampled|tested|checked|obtained|"
              r"discharged|diagnosed|presented|seen|given|taken|sent|received|completed|finished|operated|"
              r"removed|had|underwent|attended|collected|reported|happened|occurred|stung|injured|fell)")
_PAST_EVENT = re.compile(
    rf"\b{_DONE_VERB}\b[^.;]{{0,60}}?\b(?:on|at|from)?\s*{_DATE}\b|"
    rf"\b(?:from|dated|of|on)\s+{_DATE}\b[^.;]{{0,20}}?\b(?:show\w*|reveal\w*|confirm\w*|demonstrat\w*|found)\b|"
    r"^\W*(?:procedure|operation|surgery|admission|admitted|discharged?|reaction|event|incident|presentation|"
    r"date of (?:admission|procedure|surgery|operation|discharge|injury|event))\b[^:]{0,30}:", re.I)
# what comes, said beside a date: a plan, a booking, a visit to come ("will", "next", "booked", "review on ...")
_TO_COME = re.compile(r"\b(?:will|next|booked|scheduled|planned|due|appointment|appt|follow[\s-]*up|review|"
                      r"clinic|attend|please|to be|return|come back|check)\b", re.I)
# an interval that tells when a step falls: after an event or within the coming weeks
_INTERVAL = re.compile(
    rf"\bafter\s+(?:about\s+|at least\s+|another\s+)?{_N}\s*(?:-|to)?\s*(?:{_N}\s*)?{SPAN_UNIT}\b|"
    rf"\b{_N}\s*{SPAN_UNIT}\s+after\b|\b(?:in|within|over) the (?:next|coming)\s+{_N}?\s*(?:days?|weeks?|months?)\b",
    re.I)
# a sentence telling what was ("Blood pressure was 112/64 after 3 minutes standing"): its interval is no step to come
_WAS = re.compile(r"\b(?:was|were|had|did)\b", re.I)
_ASKS_PAST = re.compile(r"\bwhen\s+(?:did|was|were|had|has|have)\b|\bwhat (?:date|day|time) (?:was|did|were)\b|"
                        r"\bhow long ago\b", re.I)
_ASKS_SLOT = re.compile(r"\b(?:date|dates|time|day|be there|get there|arrive|booked|appointments?|"
                        r"appts?)\b", re.I)
_NEXT = re.compile(r"\bnext\b", re.I)
# the next one of something done before, asked ("when do i need my sugar blood test again") and said ("Repeat A1c in
# 3 months", "checked again at your GP surgery in 6 weeks"): what comes of it, not what was
_AGAIN_ASKED = re.compile(r"\b(?:again|next|another|repeat\w*|recheck\w*|follow[\s-]*up)\b", re.I)
_AGAIN_SAID = re.compile(r"\b(?:repeat\w*|recheck\w*|re-check\w*|again|further|next|follow[\s-]*up)\b", re.I)
# a test asked about: "my bloods", "the sugar blood test", "labs", "my INR", "the scan"
_TEST_ASKED = re.compile(r"\b(?:tests?|testing|bloods|blood ?work|labs?|levels?|scans?|x-?rays?|monitoring|checks?|"
                         r"inr|u\s*&\s*es?|lfts?|a1c|hba1c|tsh|psa|swabs?|smears?|screen\w*)\b", re.I)
# a test's schedule said: a test, a scan or a sample named ("blood monitoring", "U&E", "INR", "bloods", "pelvic
# ultrasound", "have your sodium ... checked again") with its interval, frequency or date ("every 2 weeks", "in 1
# week", "weekly", "on 14/10")
_TEST_SAID = re.compile(r"\b(?:repeat\w*|recheck\w*|re-check\w*|(?:checked|tested|measured|done) again|monitor\w*|"
                        r"bloods|blood (?:tests?|work|monitoring|films?|counts?)|labs?|levels?|inr|u\s*&\s*es?|lfts?|"
                        r"fbc|cbc|bmp|cmp|a1c|hba1c|tsh|psa|tests?|scans?|ultrasound|mri|ct|x-?rays?|echo\w*|ecg|ekg|"
                        r"colonoscopy|endoscopy|mammogram|smears?|swabs?|cultures?|biops(?:y|ies))\b", re.I)
_FREQUENCY = re.compile(rf"\bevery\s+(?:other\s+)?(?:{_N}\s*)?(?:days?|weeks?|wks?|months?|years?)\b|"
                        rf"\b(?:weekly|fortnightly|monthly|yearly|annually|daily)\b|"
                        rf"\b(?:in|within|after)\s+(?:about\s+)?{COUNT_ASCII}\s*{SPAN_UNIT}\b|"
                        rf"\b{_N}\s*{SPAN_UNIT}\s+(?:after|before|from)\b|\b(?:on|for)\s+{_DATE}\b|"
                        rf"\bdue\s+(?:in\s+)?(?:(?:early|mid|late)\s+)?{_MONTH}\w*\s+\d{{4}}\b", re.I)
W_SCHEDULE = 0.3  # what a test's schedule adds to the rank for a when question asking a test
W_AGAIN = 0.1  # what a repeat said adds for a when question asking the next one ("again", "next")
# a visit asked: an appointment, a check-up, a doctor or a clinic ("when do we go back to the allergy dr", "when is
# my next physio appointmant"); and a visit said: a follow-up, a review, a return to clinic, an appointment
_VISIT_ASKED = re.compile(r"\b(?:appointments?|appointmants?|appts?|visits?|follow[\s-]*ups?|check[\s-]*ups?|"
                          r"review|see (?:the|my|his|her|a|dr)|come back to see|go back to (?:the|see)|doctors?|dr|"
                          r"docs?|clinic|specialist|physio\w*|consultant|nurse|surgeon|gp)\b", re.I)
_VISIT_SAID = re.compile(r"\b(?:follow[\s-]*up|f/u|review|return (?:to|in)|rtc|appointments?|appts?|clinic|"
                         r"see (?:you|him|her|them) again|will see|be seen|visit|recheck|check[\s-]*up)\b", re.I)
_DATED = re.compile(rf"\b{_DATE}\b|\b(?:in|within)\s+{_N}|\b{RANGE_ASCII}\s*{SPAN_UNIT}|\b{_N}\s*{SPAN_UNIT}\b",
                    re.I)


# (read by `first_leads.visit_dated`: a visit line with its date leading a when answer)
VISIT_SAID, DATED = _VISIT_SAID, _DATED


def asks_past(question: str) -> bool:
    """The question asks when something was done ("when did he start", "when was the scan")."""
    return bool(_ASKS_PAST.search(plain_question(question)))


def asks_slot(question: str) -> bool:
    """The question asks an appointment, a date or a time ("liver clinic date?", "what time do we need to be
    there", "when is the appointment with the doctor of the eyes")."""
    q = plain_question(question)
    return asks_booked_event(q) or bool(VISIT.search(q) or _ASKS_SLOT.search(q))


# where a thing asked is done, not a visit asked: "when's his next hormone jab due at the GP", "my blood test at the
# surgery"
_AT_PLACE = re.compile(r"\b(?:at|in|from) (?:the|our|my|his|her|their|your) (?:gp|gps|doctors?'?s?|surgery|clinic|"
                       r"practice|hospital|health cent(?:re|er))(?: surgery| practice| office)?\b", re.I)


def books_slot(text: str, question: str) -> bool:
    """A when question about what comes (not `asks_past`) whose line books a slot, a date or a weekday with its clock
    time (`BOOKED_SLOT`: "on 2026-03-02 at 10:40", "Thursday 9 April at 2:15 pm"): the firmest when answer there is,
    given even when the line names a quarter or less of the question's words (a patient's "rendez-vous" or "appt"
    for the note's "review", the clinic's name left out)."""
    return not asks_past(question) and bool(_SLOT.search(fold(text)))


def asks_visit(question: str) -> bool:
    """The question asks a visit: an appointment, a check-up, a doctor or a clinic ("when do we go back to the
    allergy dr"), not a step ("when can I take the plasters off") nor a thing done at a place named ("when's his
    next jab due at the GP")."""
    return bool(_VISIT_ASKED.search(_AT_PLACE.sub(" ", plain_question(question))))


def visit_lift(texts: list[str], question: str) -> np.ndarray:
    """What each sentence's rank gains as the visit a question asks: `W_VISIT` for a visit line with its date or
    interval ("Follow-up: 2 weeks (11/10/2026) in clinic", "Return in 12 months"), whatever it names, since the
    note's own clinic is seldom named in its follow-up line; 0 else, and 0 for a question asking no visit."""
    if not asks_visit(question):
        return np.zeros(len(texts))
    clinician = asks_clinician(question)
    return np.array([W_VISIT if ((_VISIT_SAID.search(t) and _DATED.search(t)) or _SLOT.search(t))
                     and not (clinician and books_a_test(t)) else 0.0
                     for t in (fold(x) for x in texts)])


# a clinician asked to be seen ("when do i see the heart doctor again", "next appointment with the physio"), not a
# test done at a visit
_CLINICIAN_ASKED = re.compile(r"\b(?:see|seeing|appointment with|appt with|back to)\s+(?:the\s+|my\s+|his\s+|her\s+|"
                              r"a\s+|our\s+)?(?:\w+\s+)?(?:doctors?|dr|docs?|specialist|consultant|surgeon|physio\w*|"
                              r"nurse|gp|team)\b|\b(?:doctors?|dr|docs?|specialist|consultant|surgeon)\s+again\b",
                              re.I)
# a clinician said on a line: a title, a post-nominal or a person's role ("Dr. Halloran", "Helena Soto-Park, MD",
# "with Sam Whitcombe (Physiotherapist)", a clinic, a review or a follow-up)
_CLINICIAN_SAID = re.compile(r"\b(?:dr|doctor|md|np|pa-c|frcs|mrcp|consultant|surgeon|physio\w*|nurse|"
                             r"specialist|registrar|clinician|provider|gp|clinic|review|follow[\s-]*up|"
                             r"consultation|appointment|see (?:me|us|you|him|her|them)|be seen|will see|"
                             r"seen (?:again|in))\b", re.I)
# the note's own date: a date field alone on its unit ("Date: 21/10/2026", "Clinic date: 3 May 2026", "Dictated
# 04/05/2026") among the note's first units, where a header stands
_NOTE_DATE = re.compile(rf"^\W*(?:(?:clinic|letter|visit|report|encounter|service|consultation|note|print(?:ed)?)\s+)?"
                        rf"(?:date(?:\s+of\s+(?:letter|visit|clinic|consultation|report|service|note))?|dated|"
                        rf"dictated|typed|printed|signed|seen)\s*:?\s*(?:{_WEEKDAY},?\s+)?{_DATE}\W*$", re.I)
HEADER_UNITS = 8  # how many of a note's first units may be its header
W_TEST_VISIT = 0.6  # the share a test's slot keeps for a question asking to see a clinician


def says_visit(text: str) -> bool:
    """The line says a visit: a follow-up, a review, a return to clinic, an appointment ("We will see her again in
    the follow-up clinic")."""
    return bool(_VISIT_SAID.search(fold(text)))


def asks_clinician(question: str) -> bool:
    """The question asks to see a clinician ("when do I go back in to see the doctor"), not a test or a step."""
    return bool(_CLINICIAN_ASKED.search(plain_question(question)))


def books_a_test(text: str) -> bool:
    """A line booking a test, a sample or a scan with no clinician on it ("Lab visit (fasting not needed) Monday,
    April 19 at 8:00 AM"): a slot, yet not the visit to a doctor a patient asks for."""
    plain = fold(text)
    return bool(_TEST_SAID.search(plain)) and not _CLINICIAN_SAID.search(plain)


def asks_test(question: str) -> bool:
    """The question asks about a test, not when it was done ("when do i need my bloods", "how often is the INR")."""
    q = plain_question(question)
    return bool(_TEST_ASKED.search(q)) and not asks_past(q)


def schedule_lift(texts: list[str], question: str) -> np.ndarray:
    """What each sentence's rank gains as the schedule of a test a when question asks (`asks_test`): `W_SCHEDULE` for
    a sentence naming a test or a sample with its interval, frequency or date ("She will need blood monitoring every
    2 weeks", "Repeat U&E in 1 week", "INR weekly"), whatever it names, since a patient's "bloods" seldom says which
    analytes; and `W_AGAIN` more for a repeat said when the question asks the next one ("again", "next"). 0 else."""
    if not asks_test(question):
        return np.zeros(len(texts))
    again = bool(_AGAIN_ASKED.search(question))
    out = np.zeros(len(texts))
    for i, t in enumerate(fold(x) for x in texts):
        if _TEST_SAID.search(t) and (_FREQUENCY.search(t) or _SLOT.search(t)) and not _WAS.search(t):
            out[i] = W_SCHEDULE + (W_AGAIN if again and _AGAIN_SAID.search(t) else 0.0)
    return out


def when_lift(texts: list[str], question: str) -> np.ndarray:
    """The rank's lifts for a when question: the follow-up line of a visit asked (`visit_lift`) and the schedule of a
    test asked (`schedule_lift`)."""
    return visit_lift(texts, question) + schedule_lift(texts, question)


def when_strength(texts: list[str], holds: np.ndarray, held: np.ndarray,
                  question: str) -> tuple[np.ndarray, np.ndarray]:
    """The rank's (holds, held) for a when question: `held` (how fully each sentence holds a when answer) with a
    past event's date discounted, a booked slot and "next" raised, and an interval after an event held."""
    holds, held = holds.copy(), held.astype(float).copy()
    past_asked = asks_past(question)
    slot_asked, next_asked = asks_slot(question), bool(_NEXT.search(question))
    visit_asked = asks_visit(question)
    clinician_asked = visit_asked and asks_clinician(question)
    for i, t in enumerate(texts):
        plain = fold(t)
        if _INTERVAL.search(plain) and not _WAS.search(plain):
            holds[i], held[i] = True, max(held[i], 1.0)
        slot = bool(_SLOT.search(plain))
        if slot:
            holds[i], held[i] = True, max(held[i], 1.0)  # "Wound check ..., 9 June 2026, 10:15"
        if not holds[i]:
            continue
        if not past_asked and not slot and (_PAST_EVENT.search(plain) and not _TO_COME.search(plain) or
                                            i < HEADER_UNITS and _NOTE_DATE.search(plain)):
            held[i] *= W_PAST
        if slot_asked and slot:
            held[i] *= 1 + W_SLOT
        if next_asked and _NEXT.search(plain):
            held[i] *= 1 + W_NEXT
        if visit_asked and not slot and not _VISIT_SAID.search(plain):
            held[i] *= W_NOT_VISIT
        if clinician_asked and books_a_test(plain):
            held[i] *= W_TEST_VISIT
    return holds, held


def story_shares(concepts: Sequence[Concept], question: str) -> np.ndarray:
    """Each concept's share of the rank's topic: `W_STORY` for one the question names only in the story told apart
    from what it asks (`asking.asking_part`), 1 else. A story concept naming the asked thing again in other words
    ("the catheter ... I hate the leg bag": both are the catheter, one of their phrases shared) counts whole, and
    so do all when none is named in the asking clauses or they point back into the story ("is that ok")."""
    asking = asking_part(question).apart
    out = np.ones(len(concepts))
    if asking is None:
        return out
    asked = set(tokens(asking))
    inside = [any(t in asked for t in c.surface) for c in concepts]
    asked_phrases = {ph for c, a in zip(concepts, inside, strict=True) if a for ph in c.phrases}
    for k, c in enumerate(concepts):
        if not inside[k] and not (c.phrases & asked_phrases):
            out[k] = W_STORY
    return out if any(inside) else np.ones(len(concepts))


# a when question asking the date, the day or the time itself ("which day is it", "the exact date", "what time")
_ASKS_DATE = re.compile(r"\b(?:dates?|days?|exact(?:ly)?|what time)\b", re.I)


def slot_if_asked(first: str, question: str) -> bool:
    """A question asking a date, a day or a time ("which day is the appointment") is answered by a slot booked
    (`books_slot`), not by an interval ("within 4 weeks, letter to follow"); another when question by either."""
    return not _ASKS_DATE.search(question) or bool(BOOKED_SLOT.search(fold(first)))
