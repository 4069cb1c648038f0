"""The result asked about not in the note: the sentences naming the test give no result (`result_unsaid`), give it
only at an earlier time than asked (`result_earlier`), or name the asked thing only as a risk (`named_as_risk_only`).
`asked_fact.any_unsaid` gathers these rules with the others.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from archehr.answerability.asked_thing import DATE_TIME, TEST_SHARE, asked_rows, concept_rows
from archehr.answerability.doses import DOSE
from archehr.answerability.spaces import fold
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
# a value quoted, not a digit inside a test's name ("HbA1c", "B12")
_VALUE = re.compile(r"(?<![\w.:/])\d+(?:\.\d+)?(?![\w:/]|\.\d)")
# a verdict in a condition is no result: "use contraception until we have told you your sample is clear", "we will
# call you if it comes back positive"
_IF_VERDICT = re.compile(r"\b(?:until|unless|if|once|when)\b(?:\s+[\w']+){0,8}?\s+"
                         r"(?:is|are|comes? back|turns?|shows?)\s+"
                         r"(?:clear|negative|positive|normal|abnormal|high|low|raised)\b", re.I)


def _quoted_value(question: str, texts: Sequence[str], rows: np.ndarray) -> bool:
    """The question quotes a value ("his CRP was 46") that a sentence naming the asked thing gives too."""
    values = set(_VALUE.findall(question))
    return bool(values) and any(values & set(_VALUE.findall(texts[i])) for i in np.flatnonzero(rows))


def result_unsaid(question: str, plain: Sequence[str], named: np.ndarray, rows: np.ndarray) -> bool:
    """A test_result question whose sentences naming the asked test (`rows`; `plain`: the note's sentences, spaces
    made single) give no result (`asked_fact.fact_unsaid`); False when those sentences name no test."""
    # a test's name holding a digit ("Vitamin B12 (sent)", "HbA1c requested") is no value: read out too
    undated = [_IF_VERDICT.sub(" ", DATE_TIME.sub(" ", _NAMED_DIGIT.sub(" ", t))) for t in plain]
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
# (a value told beside an earlier one is the later one: "98 g/L (pre-op 126 g/L)", "10.1, down from 10.8 before
# surgery", "post-op Hb 101")
_LATER = re.compile(r"\b(?:down|up|fallen|dropped|risen|rose) from\b|\(\s*pre-?op|\bpost-?op\w*|"
                    r"\b(?:on|at|by|before) discharge\b|\btoday\b|\bnow\b|\brepeat\w*\b|\brecheck\w*\b|\blatest\b|"
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
    plain = [DATE_TIME.sub(" ", fold(t)) for t in texts]
    # a medicine's line ("Rigevidon 1 tablet daily") tells no result, whatever its numbers
    said = [i for i in np.flatnonzero(rows) if any(p.search(plain[i]) for p in (RESULT, RESULT_GIVEN))
            and not DOSE.search(plain[i])]
    if not said or any(_LATER.search(plain[i]) for i in said):
        return False
    return gone or all(bool(_EARLIER.search(plain[i])) for i in said)



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
    stripped = concept_rows(question, [RISK.sub(" ", t) for t in texts], lexicon, texts)
    return stripped.shape == named.shape and not stripped[rarest].any()
