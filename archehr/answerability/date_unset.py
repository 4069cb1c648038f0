"""A date asked about that the note says is yet to be set ("will be confirmed at the next visit", "to be booked"):
`date_unset`. `asked_fact.any_unsaid` gathers this rule with the others.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.asked_thing import concept_weights, topic_scores
from archehr.answerability.dates import DAY_MONTH, HOUR_MINUTE, ISO_DATE, MONTHS, ORDINAL, TOMORROW, WEEKDAY
from archehr.answerability.spaces import fold

# a date or a booked event asked ("what date is her cycle 5 chemo", "when is my mri", "when do I start the Taxotere"),
# not a condition ("when can he drive": answered by "once he can do an emergency stop")
_DATE_Q = re.compile(r"\b(?:date|day|appointment|appt|booked|scheduled|operation|surgery|scan|mri|ct|x-?ray|"
                     r"follow[- ]?up|review|visit|check[- ]?up|clinic|cycle|session|infusion|start|begin|"
                     # a clinician to be seen: "whens the dietician seeing me", "when do I see Mr Raman"
                     r"see|seeing|seen|"
                     # a booked event by what is done at it: "his 3 month tube check", "the 3rd hep b one, when is
                     # that due", "when does physio start", "when do they take the plate out"
                     r"check|test|jab|vaccine|vaccination|dose|injection|shot|physio\w*|therapy|remov\w*|due|next)\b",
                     re.I)
_CONDITION_Q = re.compile(r"\bwhen (?:can|could|may|might|should|must|would)\b|\bhow (?:soon|long)\b|"
                          r"\bwhen will (?:i|we|you) (?:hear|know|get)\b", re.I)
# the event's date yet to be set: "will be confirmed at the next visit", "the hospital will write to you with the
# appointment", "our team will phone him with a date", "to be booked", "will be planned once ... complete"
UNSET = re.compile(
    r"\b(?:will|would|shall) be (?:confirmed|arranged|decided|planned|discussed|agreed|scheduled|booked|organi[sz]ed|"
    r"fixed|set|finali[sz]ed|determined|sent|posted|made)\b|"
    r"\b(?:to be|yet to be|not yet|still to be) (?:confirmed|arranged|decided|booked|scheduled|set|fixed|agreed|"
    r"determined|planned)\b|\b(?:tbc|tba)\b|"
    r"\b(?:will|we'll|they'll|should|to) (?:write|phone|call|contact|text|send|post|ring|let)\b[^.;]{0,40}"
    r"\b(?:date|appointment|appt|time|letter|details)\b|"
    r"\b(?:date|appointment|appt|letter|details)s? (?:(?:will|should) (?:be )?|(?:is |are )?to be )"
    r"(?:follow|come|arrive|sent|posted|mailed|e-?mailed)\b|"
    r"\bwill be in touch\b|"
    # "date not yet known", "no date yet", "will call you to set up a time", "awaiting an appointment"
    r"\b(?:date|time|appointment|appt)s? (?:is |are )?(?:not (?:yet |currently )?|yet to be |still to be )"
    r"(?:known|available|confirmed|set|fixed|given)\b|\bno (?:date|appointment|appt) (?:yet|as yet|given)\b|"
    r"\bto set up (?:a |an |the )?(?:time|date|appointment|appt|visit)\b|"
    r"\bawait\w* (?:a |an |the )?(?:date|appointment|appt)\b", re.I)
# an interval too vague to put on a calendar ("in a few weeks"), when a date is asked
_VAGUE = re.compile(r"\b(?:in|within|after) (?:a few|a couple of|several|some|the coming|the next few) "
                    r"(?:days|weeks|months)\b", re.I)
UNSET_SHARE = 0.5  # the sentence saying the date is yet to be set names at least this share of the best one's topic
_DATE_WORD = re.compile(r"\b(?:date|day|calendar)\b", re.I)
# a firm date of an event: a calendar date, a weekday, a clock time, "tomorrow" (`_DAY`), or a counted interval ("in 2
# weeks")
_DAY = (rf"\b{ISO_DATE}\b|\b{DAY_MONTH}\b|\b{HOUR_MINUTE}\b|"
        rf"\b{WEEKDAY}\b|\b{TOMORROW}\b|\b\d{{1,2}}{ORDINAL}\s+(?:{MONTHS})\b|"
        rf"\b(?:{MONTHS})\s+\d{{1,2}}\b")
FIRM = re.compile(
    rf"{_DAY}|"
    r"\b(?:in|within|after)\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
    r"(?:\s*(?:-|to|–)\s*\d+)?\s*(?:working\s+)?(?:hours?|hrs?|days?|weeks?|wks?|months?)\b"
    # (an interval set by another event is no date of it: "INR to be checked within 72 hours before the extraction")
    r"(?!\s+(?:before|prior to|of)\b)", re.I)
# a day or a time asked ("what day and time is her appointment", "the exact date"): an interval ("in 2 weeks") does not
# give it, so only a calendar date, a weekday, a clock time or "tomorrow" counts
_DAY_Q = re.compile(r"\b(?:what|which|exact) (?:day|date|time|hour)\b|\bday and time\b", re.I)
DAY_FIRM = re.compile(_DAY, re.I)
# a record's own date field ("Date of review: 09/10/2024", "Clinic date: 07/03/2025"): the visit written up, past
DATE_FIELD = re.compile(r"^\W*[A-Za-z ]{0,30}\bdate\b[A-Za-z ]{0,20}:", re.I)
# a numbered event ("cycle 5"): a sentence about another of the same ("cycle 4 given 10/24/2024") is not about it
_NUMBERED = re.compile(r"\b(cycle|dose|round|session|stage|phase|week|infusion|course|visit)\s*#?\s*(\d+)\b", re.I)



def unstamped(text: str) -> str:
    """The line without the stamp a log's entry opens with ("23/05/2025 10:14  Tooth extraction being planned ..."):
    the entry's own time is no date of what it plans."""
    from archehr.answerability.med_decisions import stamp

    head = stamp(text)
    return text[len(head):] if head and text.startswith(head) else text


def _numbers(text: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for word, n in _NUMBERED.findall(text):
        out.setdefault(word.lower(), set()).add(n)
    return out

def date_unset(kind: str, question: str, texts: Sequence[str], paragraphs: Sequence[str],
               named: np.ndarray) -> bool:
    """A date or booked event asked (a when question naming a date, an appointment, a scan, a start ...) whose
    sentences in the note say it is yet to be set ("will be confirmed at the next visit", "the hospital will write
    to you with the appointment", "to be booked"; "in a few weeks" when a date is asked): the sentence saying so
    (or the one before it, naming the event) names the asked thing more than any sentence giving a firm date does
    (a calendar date, a weekday, a time, "in 2 weeks"; not the record's own date field, not another numbered
    event: "cycle 4" for "cycle 5")."""
    if kind != "when" or named.ndim != 2 or not named.size or not _DATE_Q.search(question) \
            or _CONDITION_Q.search(question):
        return False
    score = topic_scores(named)
    if score.max() <= 0:
        return False
    plain = [fold(t) for t in texts]
    asked = _numbers(question)
    for i, t in enumerate(plain):
        theirs = _numbers(t)
        if any(w in theirs and not (theirs[w] & ns) for w, ns in asked.items()):
            score[i] = 0.0
    vague = bool(_DATE_WORD.search(question))
    firm_re = DAY_FIRM if _DAY_Q.search(question) else FIRM
    unset = 0.0
    for i, t in enumerate(plain):
        if UNSET.search(t) or (vague and _VAGUE.search(t)):
            before = score[i - 1] if i and paragraphs[i - 1] == paragraphs[i] else 0.0
            unset = max(unset, score[i], before)
    if unset < UNSET_SHARE * score.max() - 1e-9:
        return False
    dated = [i for i, t in enumerate(plain) if firm_re.search(unstamped(t)) and not DATE_FIELD.search(t)]
    if unset > max((score[i] for i in dated), default=0.0) + 1e-9:
        return True
    # the firm date may be another event's, in another clause ("Return to liver clinic in 3 months, or sooner once
    # the MRCP result is back" dates the clinic, not the MRCP): only a clause naming the asked thing dates it (read
    # only when the sentences' firm dates would otherwise win: it reads the clauses' concepts)
    weights = concept_weights(named)
    firm = max((score[i] for i in dated if _dated_clause(question, plain[i], weights, score[i], firm_re, texts)),
               default=0.0)
    return bool(unset > firm + 1e-9)


def _dated_clause(question: str, text: str, weights: np.ndarray, whole: float,
                  firm_re: re.Pattern[str] = FIRM, note: Sequence[str] | None = None) -> bool:
    """A clause of the sentence (`asked_link.clauses`) naming at least `LINK_SHARE` of what the sentence names of the
    asked thing (`whole`, its topic score; `weights`: the concepts' weights in the note) gives a firm date not said to
    be yet to be set (`firm_re`: `DAY_FIRM` when a day or a time is asked; `note`: the note's sentences, which the
    question's concepts are read against, `asked_thing.kept_concepts`)."""
    from archehr.answerability.asked_link import LINK_SHARE, clauses
    from archehr.answerability.asked_thing import concept_rows
    from archehr.glossary import load_lexicon

    parts = clauses(text)
    if len(parts) < 2:
        return True
    named = concept_rows(question, parts, load_lexicon(), note)
    if named.shape[0] != len(weights):
        return True
    return any(firm_re.search(unstamped(c)) and not UNSET.search(c) and s >= LINK_SHARE * whole - 1e-9
               for c, s in zip(parts, weights @ named, strict=True))
