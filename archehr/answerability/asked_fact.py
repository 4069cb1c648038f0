"""The note names what is asked about but not the asked fact: a test with no result, a medicine with no duration, an
event with no date.

A question naming a test ("what did the MRI of my brain show"), a medicine ("how long will I stay on the
mirabegron") or an event ("when does the physio start") often meets a note that names the same thing and says
no more of it than that it was ordered, planned, started or referred for ("Outpatient MRI brain ... ordered",
"START mirabegron 50 mg once daily", "Referred to ... physiotherapy"). Those sentences share the question's
words, so the answer looks confident; the fact asked is not there. `fact_unsaid` reads the sentences naming
the asked thing (the question's most specific concept the note names: the one the fewest sentences name) and
tells whether any of them gives the asked fact:

- test_result: a result (`test_words.RESULT` or `RESULT_GIVEN`: a value with its unit, flag or range, a finding,
  normal or abnormal words, not inside a condition: "until we tell you it is clear") in a sentence that does not say
  the test was not done; when the question quotes the value itself ("his CRP was 46, is that bad"), what is asked
  is its verdict (`test_words.VERDICT`);
- how_long: a course's length (`COURSE`: "for 6 weeks", "x 5 days", "until review", "long-term"; not a dose's
  spacing, "2 hours apart", nor a quantity dispensed, "#20", "x 20 tablets", "14 x 2 mg") in such a sentence or the one
  after it; of a medicine the note names, in the sentences naming it, or the one after each when that one names no
  other medicine ("Oxycodone 5 mg, #20" then "Cefalexin 500 mg for 7 days": no course of the oxycodone);
- when: a date, a weekday, a clock time or an interval (`WHEN`) in such a sentence or the one after it.

`archehr answer` flags an answer for review when none does (`archehr.ask`); `any_unsaid` gathers this module's rules
and those of `asked_detail` (a day, a dose or a pending result asked).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from archehr.answerability.test_words import (
    NOT_DONE,
    PENDING,
    PLANNED,
    REQUESTED,
    RESULT,
    RESULT_GIVEN,
    TEST_NAMED,
    VERDICT,
)

if TYPE_CHECKING:
    from archehr.glossary import Glossary

_N = r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|several|a few|a couple of)"
_U = r"(?:days?|d|weeks?|wks?|wk|months?|mos?|years?|yrs?|hours?|hrs?|minutes?|mins?|doses?|cycles?|sessions?)"
# a course's length: "for 6 weeks", "x5d", "14-day course", "3 more doses", "until review", "lifelong"
COURSE = re.compile(
    rf"\b(?:for|over|x|total of|another|next)\s*(?:a |an |the |at least |up to |about |around )?(?:first |next )?{_N}"
    rf"(?:\s*(?:-|to|–)\s*{_N})?[\s-]*(?:more\s+|further\s+)?{_U}\b|\bx\s*\d+\s*{_U}?\b|"
    rf"\b{_N}[\s-]*(?:more\s+|further\s+)?{_U}\s+(?:course|total|more|left|of|in total)\b|"
    r"\b\d+[\s-](?:day|week|month)\b|"
    # a hold's length told by when to restart ("restart 5 days after the last Paxlovid dose")
    rf"\b(?:restart|resume|start again|go back on)\w*\b[^.;]{{0,30}}?\b{_N}[\s-]*{_U}\s+(?:after|post)\b|"
    rf"\b{_N}\s*(?:-|to|–)\s*{_N}\s*{_U}\b|\b(?:up to|at least|a minimum of|a maximum of|a total of)\s+{_N}\s*{_U}\b|"
    # "last" as a verb ("it lasts 6 weeks"), not "the last dose" nor "his last infusion" (the latter below)
    r"\blast(?:s|ing|ed)\b|\b(?:will|should|to|may|can|would) last\b|"
    r"\b\d+\s*d\b|\buntil\b|\btill\b|\bthrough\b|\bthru\b|\bindefinite(?:ly)?\b|\blife-?long\b|\bfor life\b|"
    r"\bpermanent(?:ly)?\b|\blong[- ]term\b|\bongoing\b|\bfor now\b|\bstop date\b|\bend date\b|\blast dose\b|"
    r"\bthen stop\b|\btaper\w*\b|\bwean\w*\b|\breassess\w*\b|\bduration\b|\bcomplet\w*|"
    r"\bmaintenance\b|\bcontinu\w+ (?:at least|for|until|long)\b|\bas long as\b|\bwhile (?:on|taking|in)\b", re.I)
_MONTHS = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|" \
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
# a date, a weekday, a clock time or an interval: "in 2 weeks", "D10-14", "on 12/08", "Monday", "at 2:30 PM",
# "after 6 weeks", "POD 3", "tomorrow"
WHEN = re.compile(
    rf"\b{_N}(?:\s*(?:-|to|–)\s*{_N})?[\s-]*{_U}\b|\bx\s*\d+\s*{_U}?\b|"
    rf"\[\*\*\d{{4}}-|\b\d{{4}}-\d{{1,2}}-\d{{1,2}}\b|\b\d{{1,2}}/\d{{1,2}}\b|\b\d{{1,2}}/\d{{4}}\b|\b\d{{1,2}}:\d{{2}}\b|"
    rf"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:tomorrow|today|tonight)\b|\bnext\s+(?:week|month|year)\b|"
    rf"\b(?:pod|hd|dol|day|d)\s*#?\d+\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\b|\b(?:{_MONTHS})\s+\d{{1,4}}\b|"
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
_TAKES = re.compile(rf"\btakes?\s+(?:up to |about |around |at least )?{_N}(?:\s*(?:-|to|–)\s*{_N})?\s*{_U}"
                    r"(?:\s+(?:to|before)\s+\w+(?:\s+\w+)?)?", re.I)
# a dose's spacing, no course: "take it at least 2 hours apart from your calcium", "30 minutes before food"
_SPACING = re.compile(rf"\b(?:at least |about |around |up to )?{_N}(?:\s*(?:-|to|–)\s*{_N})?\s*"
                      r"(?:hours?|hrs?|minutes?|mins?)\s+(?:apart|before|after|later|earlier|from)\b", re.I)
# a span asked in days or longer, and a span of minutes or hours (which does not answer one)
_DAYS_Q = re.compile(r"\bhow many (?:more )?(?:days|weeks|months|years)\b", re.I)
_SHORT = re.compile(rf"\b(?:for |every |over )?(?:at least |about |around |up to )?{_N}(?:\s*(?:-|to|–)\s*{_N})?\s*"
                    r"(?:hours?|hrs?|minutes?|mins?)\b(?:\s+at a time)?", re.I)
# a when question about an event to come; a sentence telling what was done, and one telling what is to come
_COMING_Q = re.compile(r"\bwhen (?:does|do|will|is|are)\b|\bnext\b|\bdue\b", re.I)
_DONE = re.compile(r"\b(?:given|was|were|had|received|last|stopped|born|showed|been)\b", re.I)
_COMING = re.compile(r"\b(?:will|next|due|repeat\w*|recheck\w*|follow[- ]?up|again|then|planned|schedul\w+|book\w*|"
                     r"in \d+|future|until|after|once|should|to be|need\w*|must|please|continue)\b", re.I)
_OUTCOME_Q = re.compile(r"\b(?:until|till|til|before|wait|last|lasts|settle|go away|wear off|heal|take to|takes to|"
                        r"kick in|start working|to work)\b", re.I)
# a medicine asked about in a general word ("the antibiotic", "the steroid pills"): the note may name it only by its
# drug name, which the lexicon does not always tie to the class, so any medicine line with a dose may tell its course
_MEDICINE_Q = re.compile(r"\b(?:antibiotics?|steroids?|pills?|tablets?|capsules?|medicines?|medications?|meds|drops|"
                         r"creams?|ointments?|inhalers?|injections?|shots?|patch(?:es)?|liquid|syrup)\b", re.I)
# a quantity dispensed that `COURSE` would read as a length ("x 20 tablets", "14 x 2 mg", "#20 x 1", "x 0 refills"):
# a count of tablets tells how many, not for how long
DISPENSED = re.compile(r"\bx\s*\d+\s*(?:tablets?|tabs?|capsules?|caps?|pills?|sachets?|patch(?:es)?|refills?)\b|"
                       r"\b\d+\s*x\s*\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g|ml)\b|#\s*\d+\s*x\s*\d+\b", re.I)
TEST_SHARE = 0.75  # a sentence naming this share of the best one's topic names the asked test too
_DOSE = re.compile(r"\d\s*(?:mg|mcg|micrograms?|g|ml|units?|puffs?|drops?|tablets?|capsules?)\b", re.I)
_ASKING_VERBS = ("find", "found", "show", "shows", "say", "said", "wrong", "fail", "failed", "pass", "passed",
                 "better", "worse", "mean", "anything")
# a sentence about a test: the test named by a test word, or asked for, planned or awaited
_ABOUT_TEST = (TEST_NAMED, REQUESTED, PLANNED, PENDING,
               re.compile(r"\b(?:check(?:ed)?|ordered|arranged|booked)\b", re.I))
# a result in plain words, or an analyte's value in a list ("Blood results acceptable: sodium 133, potassium 3.6")
_RESULT_PLAIN = re.compile(r"\b(?:acceptable|fine|ok|okay|good(?: enough)?|clear|as expected|no concerns?|"
                           r"nothing (?:abnormal|worrying)|(?:mildly |moderately |severely )?(?:reduced|preserved)|"
                           # a germ's sensitivities ("E. coli, pan-S except ampicillin")
                           r"pan-?s|sensitive to|resistant to|susceptible)\b|"
                           # a labelled value below zero ("Lumbar spine T-score: -2.9")
                           r":\s*-\d|"
                           # a side's value after its label ("Ankle-brachial index (ABI), right: 0.68")
                           r"\b(?:right|left|bilateral)\s*:\s*\d|"
                           # a finding ruled out after a result's label: "Bedside kidney ultrasound: no blockage"
                           r"^[^:]{2,60}:[^.;]*\bno\s+[a-z]{3,}|\bno\s+[a-z]{4,}\s+or\s+[a-z]{4,}|"
                           r"\b[a-z]{3,}\s+[<>]?\d+(?:\.\d+)?\s*(?:,|;|$)", re.I)
_NAMED_DIGIT = re.compile(r"\b[A-Za-z]+\d+[A-Za-z]*\b")
# a date or a clock time, read out before looking for a result (a date "12/08/2026" is no value "12/08")
_DATE = re.compile(r"\b\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{1,2}:\d{2}\b|\b\d{1,2}/\d{1,2}\b")
# a value quoted, not a digit inside a test's name ("HbA1c", "B12")
_VALUE = re.compile(r"(?<![\w.:/])\d+(?:\.\d+)?(?![\w:/]|\.\d)")
# a verdict in a condition is no result: "use contraception until we have told you your sample is clear", "we will
# call you if it comes back positive"
_IF_VERDICT = re.compile(r"\b(?:until|unless|if|once|when)\b(?:\s+[\w']+){0,8}?\s+"
                         r"(?:is|are|comes? back|turns?|shows?)\s+"
                         r"(?:clear|negative|positive|normal|abnormal|high|low|raised)\b", re.I)


def concept_rows(question: str, texts: Sequence[str], lexicon: Glossary) -> np.ndarray:
    """Which sentences name each of the question's concepts (`kinds.asked_concepts`; one row a concept, one column
    a sentence): in its words, the lexicon's, or a longer word it begins ("physio" in "physiotherapist"). A
    generic test word ("the blood test") or a verb asking for a result ("find", "show") beside other concepts
    says where or how the result was asked, not what: left out."""
    from archehr.answerability.kinds import sentence_words
    from archehr.relevance.text import tokens

    concepts = kept_concepts(question, lexicon)
    words = [sentence_words(t, lexicon) for t in texts]
    raw = [tokens(t) for t in texts]
    # a test asked by its abbreviation ("MRI") is not named by another one the lexicon expands to the same class
    # ("CT" -> "imaging", "mri"): a CT's result is not the MRI's
    abbrs = {tuple(tokens(e.term)) for e in lexicon.matches(question) if e.kind == "abbr"}
    out = np.zeros((len(concepts), len(texts)), dtype=bool)
    for k, c in enumerate(concepts):
        own = c.surface in abbrs
        for i, w in enumerate(words):
            named = c.covered_by(set(raw[i]) | _own_expansions(texts[i], c.surface, lexicon) if own else w)
            out[k, i] = named or (len(c.surface) == 1 and len(c.surface[0]) >= 5
                                  and any(t.startswith(c.surface[0]) for t in raw[i]))
    return out


def kept_concepts(question: str, lexicon: Glossary) -> list:
    """The question's concepts `concept_rows` reads, in its row order (`kinds.asked_concepts` less a generic test word
    or a verb asking for a result when others remain)."""
    from archehr.answerability.holds import GENERIC_TESTS
    from archehr.answerability.kinds import asked_concepts
    from archehr.relevance.text import tokens

    concepts = asked_concepts(question, lexicon)
    aside = {tuple(tokens(w)) for w in GENERIC_TESTS + _ASKING_VERBS}
    kept = [c for c in concepts if c.surface not in aside]
    return kept if kept else concepts


def _own_expansions(text: str, surface: tuple[str, ...], lexicon: Glossary) -> set[str]:
    """The words of the sentence's abbreviations that are the asked one (`surface`), expanded."""
    from archehr.relevance.text import tokens

    return {x for e in lexicon.matches(text) if e.kind == "abbr" and tuple(tokens(e.term)) == surface
            for x in tokens(" ".join(e.expansions))}


def asked_rows(named: np.ndarray, share: float = 1.0) -> np.ndarray:
    """The sentences naming the asked thing: those naming the most of the question's concepts (rows of `named`, one
    column a sentence; at least `share` of the best sentence's score), each concept weighed by how rare it is in
    the note (as `kinds.answer_types` weighs its topic). Empty when the note names none."""
    if named.ndim != 2 or not named.size:
        return np.zeros(named.shape[-1] if named.ndim else 0, dtype=bool)
    n = named.shape[1]
    df = named.sum(axis=1)
    weight = np.array([0.0 if d == 0 else 0.3 + 0.7 * math.log((n + 1) / d) / math.log(n + 1) for d in df])
    score = weight @ named
    if score.max() <= 0:
        return np.zeros(n, dtype=bool)
    return score >= share * score.max() - 1e-9


def _with_next(rows: np.ndarray, paragraphs: Sequence[str]) -> np.ndarray:
    """The rows and each one's next sentence in the same paragraph ("2. Continue for at least 6 months")."""
    out = rows.copy()
    for i in np.flatnonzero(rows):
        if i + 1 < len(rows) and paragraphs[i + 1] == paragraphs[i]:
            out[i + 1] = True
    return out


def _quoted_value(question: str, texts: Sequence[str], rows: np.ndarray) -> bool:
    """The question quotes a value ("his CRP was 46") that a sentence naming the asked thing gives too."""
    values = set(_VALUE.findall(question))
    return bool(values) and any(values & set(_VALUE.findall(texts[i])) for i in np.flatnonzero(rows))


def fact_unsaid(kind: str, question: str, texts: Sequence[str], paragraphs: Sequence[str],
                named: np.ndarray, medicine: np.ndarray | None = None, drugs: np.ndarray | None = None) -> bool:
    """True when the note names the asked thing (`asked_rows`) but no sentence naming it gives the fact a
    test_result, how_long or when question asks for (the module's docstring); False for other kinds and when the
    note names none of the question's concepts (the decline rules cover that). `medicine`: the sentences naming a
    medicine the question asks about (`asked_detail.medicine_rows`); `drugs`: the sentences naming any medicine."""
    rows = asked_rows(named, TEST_SHARE)
    if kind not in ("test_result", "how_long", "when") or not rows.any():
        return False
    plain = [" ".join(t.split()) for t in texts]
    # a test's name holding a digit ("Vitamin B12 (sent)", "HbA1c requested") is no value: read out too
    undated = [_IF_VERDICT.sub(" ", _DATE.sub(" ", _NAMED_DIGIT.sub(" ", t))) for t in plain]
    if kind == "test_result":
        if not any(p.search(plain[i]) for i in np.flatnonzero(rows) for p in _ABOUT_TEST):
            return False  # the sentences naming it name no test: not a test asked about
        if _quoted_value(question, plain, rows):
            return not any(VERDICT.search(re.sub(r"\d\s*\*", "", plain[i])) for i in np.flatnonzero(rows))
        # a finding asked about ("is something torn") may be told beside the test's name, not with it ("Complex tear
        # of the ... meniscus"): the sentences naming a concept the test's sentences do not name are read too
        other = named[~named[:, rows].any(axis=1)].any(axis=0)
        return not any(any(p.search(undated[i]) for p in (RESULT, RESULT_GIVEN, _RESULT_PLAIN))
                       and not NOT_DONE.search(plain[i])
                       for i in np.flatnonzero(rows | other))
    if kind == "how_long" and _OUTCOME_Q.search(question):
        return False
    if kind == "how_long":
        near = _course_rows(question, plain, paragraphs, named, medicine, drugs)
        plain = [DISPENSED.sub(" ", t) for t in plain]
    else:
        # a date is often told in other words than the question's: any sentence naming any of its concepts, or the
        # one after it, may give it
        near = _with_next(named.any(axis=0), paragraphs)
    pattern = COURSE if kind == "how_long" else WHEN
    # a dose's spacing answers when to take it, not for how long
    spacing = _SPACING if kind == "how_long" else re.compile(r"(?!)")
    if kind == "how_long" and _DAYS_Q.search(question):
        # a span in days or longer asked ("how many days do we keep icing it"): a session's minutes or hours
        # ("ice for 20 minutes at a time", "every 1.5 to 3 hours") do not answer it
        spacing = re.compile(f"{_SPACING.pattern}|{_SHORT.pattern}", re.I)
    if kind == "when" and _COMING_Q.search(question):
        # an event to come asked ("when does he get the second shot"): a sentence telling only what was done
        # ("Hepatitis B vaccine given 05/03", "last infusion 28/07") gives no date for it
        near &= np.array([not (_DONE.search(t) and not _COMING.search(t)) for t in plain], dtype=bool)
    return not any(pattern.search(spacing.sub(" ", _TAKES.sub(" ", plain[i]))) for i in np.flatnonzero(near))


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
        return medicine | (_with_next(medicine, paragraphs) & ~others)
    near = named.any(axis=0)
    if _MEDICINE_Q.search(question):
        near = near | np.array([bool(_DOSE.search(t)) for t in plain], dtype=bool)
    return _with_next(near, paragraphs)


# ---- the asked fact told only as yet to come, or at another time ---------------------------------------------------
# a date or a booked event asked ("what date is her cycle 5 chemo", "when is my mri", "when do I start the Taxotere"),
# not a condition ("when can he drive": answered by "once he can do an emergency stop")
_DATE_Q = re.compile(r"\b(?:date|day|appointment|appt|booked|scheduled|operation|surgery|scan|mri|ct|x-?ray|"
                     r"follow[- ]?up|review|visit|check[- ]?up|clinic|cycle|session|infusion|start|begin|"
                     # a clinician to be seen: "whens the dietician seeing me", "when do I see Mr Raman"
                     r"see|seeing|seen)\b", re.I)
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
    r"\b(?:date|appointment|appt|letter|details)s? (?:will|should) (?:be )?(?:follow|come|arrive|sent|posted)\b|"
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
# a firm date of an event: a calendar date, a weekday, a clock time, "tomorrow", a counted interval ("in 2 weeks")
_FIRM = re.compile(
    rf"\b\d{{4}}-\d{{1,2}}-\d{{1,2}}\b|\b\d{{1,2}}/\d{{1,2}}\b|\b\d{{1,2}}:\d{{2}}\b|"
    rf"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\btomorrow\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\b|"
    rf"\b(?:{_MONTHS})\s+\d{{1,2}}\b|"
    r"\b(?:in|within|after)\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
    r"(?:\s*(?:-|to|–)\s*\d+)?\s*(?:working\s+)?(?:hours?|hrs?|days?|weeks?|wks?|months?)\b"
    # (an interval set by another event is no date of it: "INR to be checked within 72 hours before the extraction")
    r"(?!\s+(?:before|prior to|of)\b)", re.I)
# a record's own date field ("Date of review: 09/10/2024", "Clinic date: 07/03/2025"): the visit written up, past
_DATE_FIELD = re.compile(r"^\W*[A-Za-z ]{0,30}\bdate\b[A-Za-z ]{0,20}:", re.I)
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


def _topic_scores(named: np.ndarray) -> np.ndarray:
    """Each sentence's share of the question's concepts, each weighed by its rarity in the note (`asked_rows`)."""
    n = named.shape[1]
    df = named.sum(axis=1)
    weight = np.array([0.0 if d == 0 else 0.3 + 0.7 * math.log((n + 1) / d) / math.log(n + 1) for d in df])
    return weight @ named


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
    score = _topic_scores(named)
    if score.max() <= 0:
        return False
    plain = [" ".join(t.split()) for t in texts]
    asked = _numbers(question)
    for i, t in enumerate(plain):
        theirs = _numbers(t)
        if any(w in theirs and not (theirs[w] & ns) for w, ns in asked.items()):
            score[i] = 0.0
    vague = bool(_DATE_WORD.search(question))
    unset = 0.0
    for i, t in enumerate(plain):
        if UNSET.search(t) or (vague and _VAGUE.search(t)):
            before = score[i - 1] if i and paragraphs[i - 1] == paragraphs[i] else 0.0
            unset = max(unset, score[i], before)
    firm = max((score[i] for i, t in enumerate(plain) if _FIRM.search(unstamped(t)) and not _DATE_FIELD.search(t)),
               default=0.0)
    return bool(unset >= UNSET_SHARE * score.max() - 1e-9 and unset > firm + 1e-9)


# a result asked at a later time than the note reports: "when they let him home", "before she left", "now", "latest"
_LATER_Q = re.compile(r"\b(?:now|anymore|any more|latest|most recent|last (?:one|reading|check|test)|"
                      r"(?:let|sent|go|went|came|got|allowed|discharged)\s+(?:\w+\s+)?home|discharg\w*|"
                      r"(?:when|before) (?:he|she|i|they|we) (?:left|went)|back (?:up|down|to normal)|"
                      r"(?:after|since) (?:the|his|her|my|your|their) (?:operation|op|surgery|procedure))\b", re.I)
# ... or whether a finding is gone ("is the clot gone now", "is it still there"): told only by a later word on it
_GONE_Q = re.compile(r"\b(?:gone(?! up| down)|still there|cleared|go(?:ne)? away|dissolved|disappeared)\b", re.I)
_EARLIER = re.compile(r"\b(?:on|at) (?:arrival|admission|presentation|diagnosis)\b|\binitial(?:ly)?\b|"
                      r"\bwhen (?:he|she|they|you) (?:arrived|came in|presented)\b|\bat first\b|"
                      # the emergency department's or triage's value, before the operation: an arrival value
                      r"\bin (?:the )?(?:ED|A&E|ER|emergency department)\b|\bat triage\b|"
                      r"\b(?:before|prior to) (?:the |his |her |my |your )?(?:operation|op|surgery|procedure)\b|"
                      r"\bpre-?op(?:erative(?:ly)?)?\b", re.I)
_LATER = re.compile(r"\b(?:on|at|by|before) discharge\b|\btoday\b|\bnow\b|\brepeat\w*\b|\brecheck\w*\b|\blatest\b|"
                    r"\bimprov\w+|\bresolv\w+|\bback (?:up|down|to)\b|\bnormali[sz]\w+|\bsettled\b|\brecovered\b|"
                    r"\bclear(?:ed)?\b|\bno (?:residual|longer|remaining|further)\b|\bresidual\b|\bpersist\w*|"
                    r"\bstill\b|\bremain\w*|\bdissolv\w+|\bgone\b|\bsmaller\b|\bunchanged\b|\bweaned\b|"
                    r"\b(?:fell|rose|came down|went up|down to|up to)\b", re.I)


def result_earlier(kind: str, question: str, texts: Sequence[str], named: np.ndarray) -> bool:
    """A result asked at a later time than the note reports it ("what was his oxygen number when they let him home":
    only "On arrival his oxygen saturations were 91%"), or whether a finding is gone now ("is the clot in my leg gone
    now": only the scan that found it): the sentences naming the asked thing that give a result all tell an earlier
    one (on arrival, at diagnosis) or, for a finding gone, none says what became of it (resolved, still, repeat)."""
    gone = bool(_GONE_Q.search(question))
    # a medicine asked about "now" ("is he supposed to go back on it now") asks what to take, not a result
    later = kind != "med_change" and bool(_LATER_Q.search(question))
    if kind in ("why", "may_i", "how_long", "when") or not (gone or later):
        return False
    rows = asked_rows(named, TEST_SHARE)
    if not rows.any():
        return False
    plain = [_DATE.sub(" ", " ".join(t.split())) for t in texts]
    # a medicine's line ("Rigevidon 1 tablet daily") tells no result, whatever its numbers
    said = [i for i in np.flatnonzero(rows) if any(p.search(plain[i]) for p in (RESULT, RESULT_GIVEN))
            and not _DOSE.search(plain[i])]
    if not said or any(_LATER.search(plain[i]) for i in said):
        return False
    return gone or all(bool(_EARLIER.search(plain[i])) for i in said)


# a duration asked in years or months ("how many years will he need it", "is it for life")
_LONG_Q = re.compile(r"\bhow many (?:more )?(?:years|months)\b|\bforever\b|\bfor life\b|"
                     r"\blife-?long\b|\brest of (?:his|her|my|their) life\b", re.I)
_LONG = re.compile(r"\b(?:years?|yrs?|months?|mos?)\b|\blong[- ]term\b|\blife-?long\b|\bfor life\b|\bindefinite\w*\b|"
                   r"\bpermanent\w*\b|\bforever\b|\bongoing\b|\bchronic\b|\buntil\b|\bas long as\b|\bage\s+\d+|"
                   r"\bstop (?:it|them|the)\b|\bbreak\b|\bholiday\b|\btrial off\b", re.I)


def years_unsaid(kind: str, question: str, texts: Sequence[str], paragraphs: Sequence[str],
                 named: np.ndarray) -> bool:
    """A how-long question asking in years or months ("how many years will my grandson need to be on adhd medicine")
    whose sentences about the asked thing (and the one after each) give no span of that scale (months, years, long
    term, until, for life, a break from it)."""
    if kind not in ("how_long", "med_change") or not _LONG_Q.search(question) or named.ndim != 2 \
            or not named.any():
        return False
    rows = _with_next(asked_rows(named, TEST_SHARE), paragraphs)
    plain = [" ".join(t.split()) for t in texts]
    return not any(_LONG.search(_DATE.sub(" ", plain[i])) for i in np.flatnonzero(rows))


# a thing named only as a risk ("long-term use linked to low magnesium", "can cause high potassium"): no result of it
RISK = re.compile(r"\b(?:linked to|associated with|risks? of|can cause|may cause|could cause|causes?|"
                  r"lead(?:s|ing)? to|side effects? (?:include|of|such as)|watch for)\b[^.;|]{0,40}", re.I)


def named_as_risk_only(kind: str, question: str, texts: Sequence[str], named: np.ndarray,
                       lexicon: Glossary) -> bool:
    """A result question ("was my mother's magnesium low when they tested it") whose most specific concept the note
    names only inside a risk ("lansoprazole ... linked to low magnesium"): the test is not reported."""
    if kind != "test_result" or named.ndim != 2 or not named.any():
        return False
    df = named.sum(axis=1)
    rarest = int(np.argmin(np.where(df > 0, df, named.shape[1] + 1)))
    if not any(RISK.search(texts[i]) for i in np.flatnonzero(named[rarest])):
        return False
    stripped = concept_rows(question, [RISK.sub(" ", t) for t in texts], lexicon)
    return stripped.shape == named.shape and not stripped[rarest].any()


def _conditions_out(kind: str, question: str, texts: Sequence[str], lexicon: Glossary) -> list[str]:
    """For a how-long question, the sentences without the conditions naming the asked thing ("no live vaccines
    while on adalimumab" gives no course of adalimumab: `course_link.own_conditions_out`)."""
    from archehr.answerability.course_link import own_conditions_out
    from archehr.answerability.kinds import sentence_words

    if kind != "how_long":
        return list(texts)
    concepts = kept_concepts(question, lexicon)
    return [own_conditions_out(t, lambda text: float(any(c.covered_by(sentence_words(text, lexicon))
                                                          for c in concepts))) for t in texts]


def any_unsaid(kind: str, question: str, texts: Sequence[str], paragraphs: Sequence[str], named: np.ndarray,
               lexicon: Glossary) -> bool:
    """Any rule of this module or of `asked_detail` (a day, a dose or a result asked that is not given) fires."""
    from archehr.answerability.asked_detail import detail_unsaid, medicine_rows
    from archehr.answerability.asked_service import service_undated
    from archehr.glossary.drugs import drugs_in

    medicine = drugs = None
    if kind == "how_long":
        medicine = medicine_rows(question, texts, named, lexicon)
        # ... or by its class: "stop the statin for two weeks" speaks of the atorvastatin asked about
        classes = {c for i in np.flatnonzero(medicine)
                   for c in lexicon.classes_in(" ".join([texts[i], *drugs_in(texts[i])]))}
        medicine = medicine | np.array([any(e.kind == "class" and e.term in classes for e in lexicon.matches(t))
                                        for t in texts], dtype=bool)
        drugs = np.array([bool(drugs_in(t)) for t in texts], dtype=bool)
    return (fact_unsaid(kind, question, _conditions_out(kind, question, texts, lexicon), paragraphs, named, medicine,
                        drugs)
            or date_unset(kind, question, texts, paragraphs, named)
            or result_earlier(kind, question, texts, named)
            or years_unsaid(kind, question, texts, paragraphs, named)
            or named_as_risk_only(kind, question, texts, named, lexicon)
            or detail_unsaid(kind, question, texts, paragraphs, named, lexicon)
            or service_undated(kind, question, texts, kept_concepts(question, lexicon), named))
