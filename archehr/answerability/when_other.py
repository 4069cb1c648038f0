"""A when question's first answer line that dates another event than the one asked, for the review flag.

"when do I see the surgeon again" answered by the surgeon's signature and its time ("P. Ramanathan, Plastic
Surgery, 09/07/2024 15:40"), "when is my appointment with Mr Reyes" by a visit with Dr Okafor, "when will he get his
appointment with the kidney specialist" by "Repeat U&E in 4 weeks", "when are they taking his appendix out" by the
date of the surgical consultation: the line names the topic and holds a date, so the answer looks confident, but the
date is of the note's own writing, another clinician's visit, a test or a talk about the operation, not of the
asked event. `dates_other_event` tells such a line (`archehr.answerability.review` flags the answer):

- a signature: a short line ending with a date and its clock time, nothing said to come;
- another person: the question asks a person by title ("Mr Reyes") and the line names another by title, not them;
- a test for a visit: the question asks to see a clinician and the line books a test with no clinician on it
  (`when_answers.books_a_test`);
- a consultation for a procedure: the question asks a removal or an operation, no visit, and the line dates a
  consultation, an assessment or a discussion;
- a visit only if things go wrong: every date or interval of the line sits in a condition of symptoms not
  settling ("F/u with GP if not better in 3-5 days or if fever returns": `conditional_only`), so no visit is set;
- a call to come that sets the date: the question asks an appointment or a date and the line says someone will call
  to schedule it, with no date before that ("The clinic will call you to schedule, usually within 2 weeks":
  `call_to_schedule`): the interval is the call's, the visit has none yet;
- another step of a series: the question asks one by its place ("the 3rd hep B jab", "dose 2") and the line places
  only others ("first dose given today; second dose due in 1 month": `other_step`).

A line dating something already done ("Stent placed on 03/05") was tried as well and left out: over the 45 earliest
writers' when questions it flagged 6 answerable answers (4 of them with the right first line) for 1 unanswerable.
"""

from __future__ import annotations

import re

from archehr.answerability.asked_service import NOT_NAMES, PERSON_STRICT
from archehr.answerability.cues import asks_booked_event
from archehr.answerability.dates import CLOCK, DATE
from archehr.answerability.spaces import fold
from archehr.answerability.when_answers import asks_clinician, asks_past, asks_visit, books_a_test
from archehr.answerability.when_first import AHEAD_WORDS

SIGNATURE_WORDS = 12  # a signature line holds at most so many words
# a short line ending with a date and its clock time: "R. Castellanos, Consultant Hand Surgeon 06/05/2025 14:52"
_SIGNATURE = re.compile(rf"^.{{0,80}}?\b{DATE},?\s+(?:at\s+)?{CLOCK}\W*$", re.I)
# said to come, so no signature: a plan, a booking, a visit (`when_first.AHEAD_WORDS`: "will", "booked", "review",
# "clinic", "please attend") or a check ("Wound check 12/03/2026 10:00"); not `when_first`'s "to stay" and
# "rearranged", which read a log entry's plan
_AHEAD = re.compile(rf"\b(?:{AHEAD_WORDS}|check)\b", re.I)
# a person by title ("Mr Reyes", "Dr. Okafor") is read by `asked_service.PERSON_STRICT` (not the titles patients
# write as words: "miss class", "the doctor about"); the words after a title that name no one:
_NOT_NAMES = NOT_NAMES | frozenset("about who that this there today tomorrow with from back said says told".split())
_CONSULT = re.compile(r"\b(?:consult|consultation|assessment|to assess|to discuss|discussion|evaluation|opinion)\b",
                      re.I)
# a removal or an operation asked: "when are they taking my gallbladder out", "when do they remove the plate"
_PROCEDURE_ASKED = re.compile(r"\b(?:tak(?:e|ing) \w+(?: \w+)? out|taken out|remov\w*|operation|op|surgery)\b", re.I)


def dates_other_event(question: str, first: str) -> bool:
    """The first line (`first`) dates another event than the when question asks (the module's docstring); False for
    a question asking when something was done."""
    if asks_past(question):
        return False
    plain = fold(first)
    return (signature(plain) or other_person(question, plain) or (asks_clinician(question) and books_a_test(plain))
            or (bool(_PROCEDURE_ASKED.search(question)) and not asks_visit(question)
                and bool(_CONSULT.search(plain))) or conditional_only(plain)
            or (asks_booked_event(question) and call_to_schedule(plain)) or other_step(question, plain))


def signature(text: str) -> bool:
    """A short line ending with a date and its clock time, nothing said to come: the writer signing the note."""
    return len(text.split()) <= SIGNATURE_WORDS and bool(_SIGNATURE.match(text)) and not _AHEAD.search(text)


def other_person(question: str, text: str) -> bool:
    """The question asks a person by title and the line names only others by title."""
    asked = {m.group(1).lower() for m in PERSON_STRICT.finditer(question)} - _NOT_NAMES
    said = {m.group(1).lower() for m in PERSON_STRICT.finditer(text)}
    return bool(asked and said) and not any(a in text.lower() for a in asked)


# a condition of symptoms not settling, to the end of its clause: "if not better in 48 hours", "if no improvement
# within a week", "if it gets worse", "if symptoms persist beyond 5 days", "if any concerns"; not a politeness ("if
# you could arrange a repeat in 7 days"), nor someone not coming back ("if he does not return within 1 hour")
_UNLESS_SETTLED = re.compile(r"\b(?:if|unless)\s+(?:[\w'-]+\s+){0,3}?(?:(?:not|no)\s+(?:\w+\s+)?(?:better|improv\w*|"
                             r"settl\w*|resolv\w*|clear\w*|heal\w*)|worse\w*|worsen\w*|persist\w*|recur\w*|"
                             r"concerns?|concerned|problems?)\b[^.;]*", re.I)


def conditional_only(text: str) -> bool:
    """The line gives a date or an interval (`review.WHEN_GIVEN`), and none once its conditions of symptoms not
    settling are read out (`_UNLESS_SETTLED`): a visit or a check only if things go wrong, none set."""
    from archehr.answerability.review import WHEN_GIVEN

    plain = fold(text)
    return bool(WHEN_GIVEN.search(plain)) and not WHEN_GIVEN.search(_UNLESS_SETTLED.sub(" ", plain))


# someone to call, ring or write to set a date: "the office will call you to schedule", "we will phone to arrange"
_CALL_TO_SET = re.compile(r"\b(?:will|to|should|shall)\s+(?:\w+\s+){0,2}?(?:call|contact|phone|ring|text|email|write "
                          r"to)\b[^.;]{0,30}?\bto\s+(?:\w+\s+)?(?:schedul|arrang|book|set up|organi[sz])\w*", re.I)


def call_to_schedule(text: str) -> bool:
    """The line says someone will call to set the date (`_CALL_TO_SET`) and gives no date or interval before it (one
    after it is the call's: "usually within 2-3 weeks")."""
    from archehr.answerability.review import WHEN_GIVEN

    plain = fold(text)
    m = _CALL_TO_SET.search(plain)
    return m is not None and not WHEN_GIVEN.search(plain[:m.start()])


# a step's place in a series: "second", "3rd", "dose 2", "injection #3" (not a floor, a line of treatment, a degree)
_PLACES = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5,
           "5th": 5}
_PLACE = re.compile(r"\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th)\b(?!\s+(?:floor|line|degree|trimester|"
                    r"party|time|thing))|\b(?:dose|injection|jab|shot|infusion|session|cycle|vaccine)\s*(?:#|no\.?\s*)?"
                    r"([1-5])\b", re.I)


def _places(text: str) -> set[int]:
    """The places in a series the text names (`_PLACE`)."""
    return {_PLACES[m.group(1).lower()] if m.group(1) else int(m.group(2)) for m in _PLACE.finditer(text)}


def other_step(question: str, text: str) -> bool:
    """The question asks a step of a series by its place and the line names places, none of them the asked one."""
    asked = _places(fold(question))
    said = _places(text)
    return bool(asked and said) and not asked & said
