"""The course's length or the date asked about not in the note: no sentence naming the asked thing (or the one
after it) gives a course's length or a date (`time_unsaid`), or none gives a span in months or years when that is
asked (`years_unsaid`). `asked_fact.any_unsaid` gathers these rules with the others.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.asked_thing import DATE_TIME, TEST_SHARE, asked_rows, with_next
from archehr.answerability.counts import COUNT, SPACING_UNIT
from archehr.answerability.counts import COURSE_UNIT as _U
from archehr.answerability.counts import NUMBER as _N
from archehr.answerability.dates import DAY_MONTH, DEID_DATE, HOUR_MINUTE, ISO_DATE, MONTHS, ORDINAL, TOMORROW, WEEKDAY
from archehr.answerability.doses import DOSE
from archehr.answerability.holds import LENGTH_COMPOUND, SPACING, SPACING_LEAD
from archehr.answerability.spaces import fold

# a course's length: "for 6 weeks", "x5d", "14-day course", "3 more doses", "until review", "lifelong"
COURSE = re.compile(
    rf"\b(?:for|over|x|total of|another|next)\s*(?:a |an |the |at least |up to |about |around )?(?:first |next )?{_N}"
    rf"(?:\s*(?:-|to|–)\s*{_N})?[\s-]*(?:more\s+|further\s+)?{_U}\b|\bx\s*\d+\s*{_U}?\b|"
    rf"\b{_N}[\s-]*(?:more\s+|further\s+)?{_U}\s+(?:course|total|more|left|of|in total)\b|"
    rf"\b\d+[\s-](?:day|week|month)\b|{LENGTH_COMPOUND}|"
    # a span told as a thing's length or a hyphened compound of hours ("the programme's length is 8 weeks", "it
    # runs for 6 weeks", "72-hour heart monitor", "24-hour urine collection"; not "the 24-hour advice line")
    rf"\b(?:length|lasts?|runs?)\s+(?:is\s+|of\s+|for\s+)?(?:about |around |up to |approximately )?{_N}\s*{_U}\b|"
    r"\b\d+-(?:hour|hr)\s+(?:[\w-]+\s+)?(?:monitor\w*|recording|tape|holter|ecg|ekg|bp|blood pressure|urine|"
    r"collection|study|test|fast\w*)\b|"
    # a hold's length told by when to restart ("restart 5 days after the last Paxlovid dose")
    rf"\b(?:restart|resume|start again|go back on)\w*\b[^.;]{{0,30}}?\b{_N}[\s-]*{_U}\s+(?:after|post)\b|"
    rf"\b{_N}\s*(?:-|to|–)\s*{_N}\s*{_U}\b|"
    # one unit with no number ("wear the shield for the first week", "for a fortnight"), and a bottle's use-by span
    # once opened ("discard 28 days after opening"), which is how long it may be used
    r"\bfor (?:a|one|the first|the next|a further|another) (?:day|night|week|fortnight|month|year)\b|"
    rf"\b{_N}[\s-]*{_U}\s+(?:after|of|from)\s+(?:first\s+)?opening\b|"
    # a longest course or a bound ("max 2 weeks at a time", "no more than 5 days")
    rf"\b(?:up to|at least|a minimum of|(?:a |the )?max(?:imum)?(?: of)?|a total of|no more than|not more than|"
    rf"no longer than|not longer than)\s+{_N}\s*{_U}\b|"
    # "last" as a verb ("it lasts 6 weeks"), not "the last dose" nor "his last infusion" (the latter below)
    r"\blast(?:s|ing|ed)\b|\b(?:will|should|to|may|can|would) last\b|"
    r"\b\d+\s*d\b|\buntil\b|\btill\b|\bthrough\b|\bthru\b|\bindefinite(?:ly)?\b|\blife-?long\b|\bfor life\b|"
    r"\bpermanent(?:ly)?\b|\blong[- ]term\b|\bongoing\b|\bfor now\b|\bstop date\b|\bend date\b|\blast dose\b|"
    r"\bthen stop\b|\btaper\w*\b|\bwean\w*\b|\breassess\w*\b|\bduration\b|\bcomplet\w*|"
    r"\bmaintenance\b|\bcontinu\w+ (?:at least|for|until|long)\b|\bas long as\b|\bwhile (?:on|taking|in)\b", re.I)
# a date, a weekday, a clock time or an interval: "in 2 weeks", "D10-14", "on 12/08", "Monday", "at 2:30 PM",
# "after 6 weeks", "POD 3", "tomorrow"
WHEN = re.compile(
    rf"\b{COUNT}[\s-]*{_U}\b|\bx\s*\d+\s*{_U}?\b|"
    rf"{DEID_DATE}|\b{ISO_DATE}\b|\b{DAY_MONTH}\b|\b\d{{1,2}}/\d{{4}}\b|\b{HOUR_MINUTE}\b|"
    rf"\b{WEEKDAY}\b|\b(?:{TOMORROW}|today|tonight)\b|\bnext\s+(?:week|month|year)\b|"
    rf"\b(?:pod|hd|dol|day|d)\s*#?\d+\b|\b\d{{1,2}}{ORDINAL}\s+(?:{MONTHS})\b|\b(?:{MONTHS})\s+\d{{1,4}}\b|"
    r"\bweek\s*\d+\b|\b(?:annual(?:ly)?|yearly|weekly|monthly|daily)\b|"
    # a condition is a when answer too: "may return to work after the third infusion", "once fever-free",
    # "until cleared in clinic", "at your post-op visit" (not "once a week", a frequency)
    r"\b(?:after|until|till|before|when|as soon as)\b|\bonce\b(?!\s+(?:a|an|per|every|daily|weekly))|"
    # ... or with the visit's own word between ("at the urology visit", "at his next fracture clinic")
    r"\bat (?:your|the|his|her|their) (?:next |first |post-?op |follow-?up |review )?(?:[a-z]+ )?"
    r"(?:visit|appointment|review|clinic)\b",
    re.I)
# a how-long question about an outcome or a wait ("how long until she feels normal", "how long will the pain
# last", "how long does it take to work"): told by the time an outcome takes, which this module does not read
# how long a medicine takes to work, said beside its course ("it may take up to 8 weeks to work fully"): no course
_TAKES = re.compile(rf"\btakes?\s+(?:up to |about |around |at least )?{COUNT}\s*{_U}"
                    r"(?:\s+(?:to|before)\s+\w+(?:\s+\w+)?)?", re.I)
# a dose's spacing, no course: "take it at least 2 hours apart from your calcium", "30 minutes before food"
_SPACING = re.compile(SPACING, re.I)
# a span asked in days or longer, and a span of minutes or hours (which does not answer one)
_DAYS_Q = re.compile(r"\bhow many (?:more )?(?:days|nights|weeks|months|years)\b", re.I)
# (not 24 hours or more: "for the first 48 hours" is a span of days)
_SHORT = re.compile(rf"\b(?:for |every |over )?(?:{SPACING_LEAD})?(?!(?:2[4-9]|[3-9]\d|\d{{3,}})\s*(?:hours?|hrs?)\b)"
                    rf"{COUNT}\s*(?:{SPACING_UNIT})\b(?:\s+at a time)?", re.I)
# a when question about an event to come; a sentence telling what was done, and one telling what is to come
_COMING_Q = re.compile(r"\bwhen (?:does|do|will|is|are)\b|\bnext\b|\bdue\b", re.I)
_DONE = re.compile(r"\b(?:given|was|were|had|received|last|stopped|born|showed|been)\b", re.I)
_COMING = re.compile(r"\b(?:will|next|due|repeat\w*|recheck\w*|follow[- ]?up|again|then|planned|schedul\w+|book\w*|"
                     r"in \d+|future|until|after|once|should|to be|need\w*|must|please|continue)\b", re.I)
_OUTCOME_Q = re.compile(r"\b(?:until|till|til|before|wait|last|lasts|settle|go away|wear off|heal|take to|takes to|"
                        r"kick in|start working|to work)\b", re.I)
# a how-long question asking a wait after, or a gap between, doses or steps: a spacing answers it
_WAIT_Q = re.compile(r"\bhow (?:long|many (?:hours|minutes))\b[^.?!]{0,40}?\b(?:after|between|apart|gap)\b", re.I)
# a medicine asked about in a general word ("the antibiotic", "the steroid pills"): the note may name it only by its
# drug name, which the lexicon does not always tie to the class, so any medicine line with a dose may tell its course
_MEDICINE_Q = re.compile(r"\b(?:antibiotics?|steroids?|pills?|tablets?|capsules?|medicines?|medications?|meds|drops|"
                         r"creams?|ointments?|inhalers?|injections?|shots?|patch(?:es)?|liquid|syrup)\b", re.I)
# a quantity dispensed that `COURSE` would read as a length ("x 20 tablets", "14 x 2 mg", "#20 x 1", "x 0 refills"):
# a count of tablets tells how many, not for how long
DISPENSED = re.compile(r"\bx\s*\d+\s*(?:tablets?|tabs?|capsules?|caps?|pills?|sachets?|patch(?:es)?|refills?)\b|"
                       r"\b\d+\s*x\s*\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g|ml)\b|#\s*\d+\s*x\s*\d+\b", re.I)


# the sentence asking how long ("How long do I keep taking it? till the stitches come out?": the second sentence is the
# patient's guess at the end of the course, not an outcome asked)
_HOW_LONG = re.compile(r"\bhow (?:long|many|much longer|soon)\b", re.I)
_SENTENCE = re.compile(r"[^?!.]+[?!.]*")


def how_long_asked(question: str) -> str:
    """The sentences of the question asking how long ("how long", "how many", "how soon"); the whole question when
    none does."""
    asked = [s for s in _SENTENCE.findall(question) if _HOW_LONG.search(s)]
    return " ".join(asked) if asked else question


def time_unsaid(kind: str, question: str, plain: Sequence[str], paragraphs: Sequence[str], named: np.ndarray,
                medicine: np.ndarray | None = None, drugs: np.ndarray | None = None) -> bool:
    """A how_long or when question whose sentences naming the asked thing, or the one after each, give no course's
    length or date (`asked_fact.fact_unsaid`; `plain`: the note's sentences, spaces made single)."""
    if kind == "how_long" and _OUTCOME_Q.search(how_long_asked(question)):
        return False
    if kind == "how_long":
        near = _course_rows(question, plain, paragraphs, named, medicine, drugs)
        plain = [DISPENSED.sub(" ", t) for t in plain]
    else:
        # a date is often told in other words than the question's: any sentence naming any of its concepts, or the
        # one after it, may give it
        near = with_next(named.any(axis=0), paragraphs)
    pattern = COURSE if kind == "how_long" else WHEN
    # a dose's spacing answers when to take it, not for how long
    # (unless the question asks a wait itself: "how long after the feed must he sit up": "for 1 hour after it")
    spacing = _SPACING if kind == "how_long" and not _WAIT_Q.search(question) else re.compile(r"(?!)")
    if kind == "how_long" and _DAYS_Q.search(question):
        # a span in days or longer asked ("how many days do we keep icing it"): a session's minutes or hours
        # ("ice for 20 minutes at a time", "every 1.5 to 3 hours") do not answer it
        spacing = re.compile(f"{_SPACING.pattern}|{_SHORT.pattern}", re.I)
    if kind == "when":
        near &= np.array([not told_as_done(question, t) for t in plain], dtype=bool)
    return not any(pattern.search(spacing.sub(" ", _TAKES.sub(" ", plain[i]))) for i in np.flatnonzero(near))


def told_as_done(question: str, text: str) -> bool:
    """An event to come asked ("when does he get the second shot") and a sentence telling only what was done
    ("Hepatitis B vaccine given 05/03", "last infusion 28/07"): it gives no date for it."""
    return bool(_COMING_Q.search(question)) and bool(_DONE.search(text)) and not _COMING.search(text)


def _course_rows(question: str, plain: Sequence[str], paragraphs: Sequence[str], named: np.ndarray,
                 medicine: np.ndarray | None, drugs: np.ndarray | None) -> np.ndarray:
    """The sentences that may tell the asked course's length. A medicine the note names (`medicine`: the sentences
    naming it or its class, "stop the statin for two weeks"): those sentences, and the one after each unless it names
    another drug (`drugs`: the sentences naming a drug by name; "Oxycodone 5 mg tablets, #20." then "Cefalexin 500 mg
    for 7 days." is another drug's course). Else a duration is often told in other words than the question's ("the
    antibiotic pills": "cefdinir ... for 7 more days"): any sentence naming any of its concepts (any medicine line
    with a dose, for a medicine asked in a general word), or the one after it."""
    if medicine is not None and medicine.any():
        others = (drugs if drugs is not None else np.zeros(len(plain), dtype=bool)) & ~medicine
        return medicine | (with_next(medicine, paragraphs) & ~others)
    near = named.any(axis=0)
    if _MEDICINE_Q.search(question):
        near = near | np.array([bool(DOSE.search(t)) for t in plain], dtype=bool)
    return with_next(near, paragraphs)


# a duration asked in years or months ("how many years will he need it", "is it for life")
_LONG_Q = re.compile(r"\bhow many (?:more )?(?:years|months)\b|\bforever\b|\bfor life\b|"
                     r"\blife-?long\b|\brest of (?:his|her|my|their) life\b", re.I)
# ... or asked in a family's plain words as forever-or-a-while ("is it for always or just a few months", "4ever",
# "long term", "for all the life"): any course's length answers it ("for 8 weeks, then GP to review": a while)
# a span of days or longer in figures or in words ("for 8 weeks", "for a further month")
_SPAN = re.compile(rf"\b{_N}[\s-]*(?:more\s+|further\s+)?(?:days?|weeks?|wks?|months?|years?)\b|"
                   r"\bfor (?:a|one|the first|the next|a further|another) (?:week|fortnight|month|year)\b", re.I)
_WHILE_Q = re.compile(r"\bfor (?:always|good|ever)\b|\b4 ?ever\b|\blong[- ]term\b|\bpermanent(?:ly)?\b|"
                      r"\b(?:all|whole|rest of) (?:the|my|his|her|their|your) li(?:fe|ves)\b", re.I)
_LONG = re.compile(r"\b(?:years?|yrs?|months?|mos?)\b|\blong[- ]term\b|\blife-?long\b|\bfor life\b|\bindefinite\w*\b|"
                   r"\bpermanent\w*\b|\bforever\b|\bongoing\b|\bchronic\b|\buntil\b|\bas long as\b|\bage\s+\d+|"
                   r"\bstop (?:it|them|the)\b|\bbreak\b|\bholiday\b|\btrial off\b", re.I)


def years_unsaid(kind: str, question: str, texts: Sequence[str], paragraphs: Sequence[str],
                 named: np.ndarray, first: int | None = None) -> bool:
    """A how-long question asking in years or months ("how many years will my grandson need to be on adhd medicine")
    whose sentences about the asked thing (and the one after each) give no span of that scale (months, years, long
    term, until, for life, a break from it), nor does the answer's first line (`first`, its index) in a course's
    length (`COURSE`): the asked thing is often named there in other words than the question's ("this TB medicine":
    "Rifinah ... for a further four months"), while its most specific concept may be a name the writer signs with."""
    if kind not in ("how_long", "med_change") or named.ndim != 2 or not named.any():
        return False
    if _LONG_Q.search(question):
        def spans(t: str) -> bool:
            return bool(_LONG.search(t))
    elif kind == "how_long" and _WHILE_Q.search(question):
        def spans(t: str) -> bool:
            return bool(_LONG.search(t) or _SPAN.search(t))
    else:
        return False
    rows = with_next(asked_rows(named, TEST_SHARE), paragraphs)
    plain = [fold(t) for t in texts]
    # (a first line naming none of the question's concepts may be another medicine's course)
    if first is not None and 0 <= first < min(len(plain), named.shape[1]) and named[:, first].any():
        own = DATE_TIME.sub(" ", plain[first])
        if COURSE.search(own) and spans(own):
            return False
    return not any(spans(DATE_TIME.sub(" ", plain[i])) for i in np.flatnonzero(rows))

