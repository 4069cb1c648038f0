"""A detail asked that the note's sentences about the asked thing leave out: a calendar date or weekday, a dose, a
result still to come.

A question may ask for a finer fact than its kind: "what date is my next renal clinic" wants a day on the calendar,
not "in 4 months"; "what dose of allopurinol will he start on" wants milligrams, not "we will not start allopurinol
today"; "what was my B12" asked beside a medicine wants the value, not "Vitamin B12 | PENDING". The note names the
asked thing, so the answer looks confident; the detail is not there. Each rule reads the sentences naming the asked
thing (`asked_thing.asked_rows`, or those naming the asked medicine) and tells whether any gives the detail:

- `date_undated`: a calendar date or weekday asked ("what date", "which day of the week", "the date on the
  calendar") and no sentence about the asked thing, or the one after it, gives a date, weekday, clock time or a
  numbered day (the record's own date field aside: the visit written up, not the one asked);
- `time_unsaid`: a time of day asked ("what time is ...") and neither the answer's first line nor a sentence about
  the asked thing, or the one after it, gives a clock time or a part of the day (a date alone does not tell the
  hour; `review.unsaid_in_note` reads it, with the first line);
- `dose_unsaid`: a dose asked ("what dose", "how many mg") and no sentence naming the asked medicine gives an amount
  with its unit (nor the one after it when that one names no other medicine);
- `result_pending`: a result asked ("what was my B12", "is it positive") in a question read as another kind, whose
  sentences naming most of it say the result is awaited (`test_words.PENDING`) and give none.

`archehr answer` flags an answer for review when one fires (`asked_fact.any_unsaid`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from archehr.answerability.asked_thing import asked_rows, kept_concepts, misspelt_drugs, with_next
from archehr.answerability.date_unset import DATE_FIELD, unstamped
from archehr.answerability.dates import (
    AM_PM,
    DAY_MONTH,
    HOUR_MINUTE,
    ISO_DATE,
    MONTHS,
    ORDINAL,
    TIME_OF_DAY,
    TOMORROW,
    WEEKDAY,
    WEEKDAY_SHORT,
)
from archehr.answerability.doses import STRENGTH
from archehr.answerability.spaces import fold
from archehr.answerability.test_words import PENDING, PRELIMINARY, RESULT, RESULT_GIVEN

if TYPE_CHECKING:
    from archehr.glossary import Glossary

# a day asked for, not a span: "what date is", "which day of the week should", "put the date on the calendar"
# ("she forgets which day." is no ask: the day word ends its clause)
DATE_ASKED = re.compile(r"\b(?:what|which) (?:date|day)\b(?:\s+of\s+the\s+week)?(?!\s*[.,;!])|\bthe (?:exact )?date\b|"
                        r"\bwhen exactly\b|\bexact (?:date|day)\b|\bcalendar\b", re.I)
# a day on the calendar: a date, a weekday, a clock time, "tomorrow", "day 5", "the same day" (not "in 4 months");
# its clock time is narrower than `dates.CLOCK`: "9.15" only with its "am" or "pm" ("2.50" alone is a number)
CALENDAR = re.compile(
    rf"\b{ISO_DATE}\b|\b{DAY_MONTH}\b|\b{HOUR_MINUTE}\b|\b\d{{1,2}}\.\d{{2}}\s*{AM_PM}\b|"
    rf"\b\d{{1,2}}\s*{AM_PM}\b|\b{WEEKDAY}s?\b|\b{WEEKDAY_SHORT}\b|"
    rf"\b(?:{TOMORROW}|tonight)\b|\b\d{{1,2}}{ORDINAL}\s+(?:of\s+)?(?:{MONTHS})\b|\b(?:{MONTHS})\s+\d{{1,2}}\b|"
    r"\[\*\*|\bday\s*\d+\b|\bsame day\b", re.I)
# a time of day asked, not a date: "what time is my appointment", "what time the midwife coming", "at what time"
TIME_ASKED = re.compile(r"\b(?:what|which|wat|wot) (?:time|hour)\b(?!\s+(?:frame|scale|period|of (?:year|month)))|"
                        r"\bwhat o'?clock\b", re.I)
# a time of day given: a clock time ("09:15", "3pm", "8.30 am"), or a part of the day ("in the morning", "midday")
CLOCK_GIVEN = re.compile(rf"{TIME_OF_DAY}|\b(?:morning|afternoon|evening|noon|midday|midnight|lunchtime|"
                         r"teatime|bedtime)\b", re.I)
DOSE_ASKED = re.compile(r"\bwhat (?:dose|dosage|strength)\b|\bhow (?:many|much) (?:mg|milligrams?|mcg|micrograms?)\b|"
                        r"\bwhich dose\b|\bhow strong\b", re.I)
# a result asked in words a result question uses, whatever kind the question reads as ("what was my B12? I've been
# on metformin": a medicine question by its words)
RESULT_ASKED = re.compile(r"\bwhat (?:was|were|is|are) (?:my|his|her|their|the|mum'?s|dad'?s)\b[^?]{0,40}"
                          r"\b(?:level|result|reading|number|count|b12|potassium|sodium)\b|"
                          r"\b(?:come back|came back|positive|negative|results?)\b|"
                          r"\bdid (?:the|my|his|her) [^?]{0,30}\bshow\b", re.I)
_REACTIVE = re.compile(r"\b(?:non-?reactive|reactive|detected)\b", re.I)


def date_undated(kind: str, question: str, texts: Sequence[str], paragraphs: Sequence[str],
                 named: np.ndarray) -> bool:
    """A day asked (`DATE_ASKED`) and no sentence naming at least half the asked thing (`asked_rows`), nor the one
    after it, gives a day (`CALENDAR`) other than the record's own date field."""
    if not DATE_ASKED.search(question) or named.ndim != 2 or not named.any():
        return False
    near = with_next(asked_rows(named, 0.5), paragraphs)
    return not any(CALENDAR.search(texts[i]) and not DATE_FIELD.search(texts[i]) for i in np.flatnonzero(near))


def time_unsaid(question: str, texts: Sequence[str], paragraphs: Sequence[str], named: np.ndarray,
                first: int | None = None) -> bool:
    """A time of day asked (`TIME_ASKED`: "what time is the INR check on the 17th") and neither the answer's first
    line (`first`, its index) nor a sentence naming at least half the asked thing (`asked_rows`), nor the one after
    it, gives one (`CLOCK_GIVEN`): a date is no time of day."""
    if not TIME_ASKED.search(question) or named.ndim != 2 or not named.any():
        return False
    near = with_next(asked_rows(named, 0.5), paragraphs)
    if first is not None:
        near[first] = True
    # (a log entry's own stamp, "03/09 14:15 RN ...", is when it was written: `date_unset.unstamped`; a date field
    # may give the time asked: "Surgery date: Wednesday 21/05, arrive 07:30")
    return not any(CLOCK_GIVEN.search(unstamped(texts[i])) for i in np.flatnonzero(near))


def medicine_rows(question: str, texts: Sequence[str], named: np.ndarray, lexicon: Glossary) -> np.ndarray:
    """The sentences naming a medicine the question asks about (`kinds.medicines_asked`, or a word the note's drug
    stands for misspelt or shortened: `asked_thing.misspelt_drugs`; rows of `named` are the question's kept concepts
    read against the note, `asked_thing.kept_concepts`)."""
    from archehr.answerability.kinds import medicines_asked

    drugs = medicines_asked(question, lexicon) | misspelt_drugs(question, lexicon, texts)
    concepts = kept_concepts(question, lexicon, texts)
    rows = np.zeros(len(texts), dtype=bool)
    if named.ndim != 2 or named.shape[0] != len(concepts):
        return rows
    for k, c in enumerate(concepts):
        if c.surface in drugs:
            rows |= named[k]
    return rows


def dose_unsaid(question: str, texts: Sequence[str], paragraphs: Sequence[str], named: np.ndarray,
                lexicon: Glossary) -> bool:
    """A dose asked (`DOSE_ASKED`) of a medicine the note names, and neither a sentence naming it nor the next one in
    its paragraph (when that one names no other medicine: "Omit warfarin tonight." then "From Friday take 5 mg")
    gives an amount with its unit."""
    from archehr.answerability.kinds import medicines_asked

    if not DOSE_ASKED.search(question):
        return False
    rows = medicine_rows(question, texts, named, lexicon)
    if not rows.any():
        return False
    near = rows.copy()
    for i in np.flatnonzero(with_next(rows, paragraphs) & ~rows):
        near[i] = not medicines_asked(texts[i], lexicon)
    return not any(STRENGTH.search(texts[i]) for i in np.flatnonzero(near))


def result_pending(kind: str, question: str, texts: Sequence[str], named: np.ndarray) -> bool:
    """A result asked (`RESULT_ASKED`) in a question not read as a result or when question (those have their own
    rules), whose sentences naming most of it say the result is awaited and none of them gives one."""
    if kind in ("test_result", "when") or not RESULT_ASKED.search(question) or named.ndim != 2 or not named.any():
        return False
    idx = np.flatnonzero(asked_rows(named, 1.0))
    # (a result given before its final report, "no growth at 48 hours, final report to follow", is a result given:
    # `test_words.PRELIMINARY`, as `awaited_results.awaited` reads it)
    plain = [fold(t) for t in texts]
    waiting = [i for i in idx if PENDING.search(plain[i]) and not PRELIMINARY.search(plain[i])]
    given = any(p.search(plain[i]) for i in idx if i not in waiting for p in (RESULT, RESULT_GIVEN, _REACTIVE))
    return bool(waiting) and not given


def detail_unsaid(kind: str, question: str, texts: Sequence[str], paragraphs: Sequence[str], named: np.ndarray,
                  lexicon: Glossary) -> bool:
    """Any of the module's rules: a day, a dose or a result asked that the sentences about it leave out."""
    return (date_undated(kind, question, texts, paragraphs, named)
            or dose_unsaid(question, texts, paragraphs, named, lexicon)
            or result_pending(kind, question, texts, named))

