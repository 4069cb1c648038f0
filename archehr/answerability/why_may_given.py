"""Further forms of a cause (why) and of advice (may-I) in an answer's first line, for `review.fact_given`.

A first line giving the asked cause or the asked advice is not flagged for review only because the model's
confidence is middling. `why_causes.cause_given` and `may_answers.activity_answered` read the common forms; these
read forms they miss, each seen in several writers' notes:

- a step told done "for" a finding ("Ramipril was started for protein in the urine"), read as an outright cause
  when the line names a tenth of the topic (a drug's name standing for the patient's "blood pressure pill");
- a finding and then, after "so" or "therefore", the step it led to ("Hb is below target, so the volume was
  increased"): the cause comes first, with no cause word after the step;
- advice on a medicine or an activity the question names, in a form without "may" or "can": "not suitable",
  "not required", a ticked instruction ("[x] Eat a light breakfast"), "go back to the last dose", or a
  prohibition of a drug class the asked medicine belongs to ("Avoid NSAIDs" to "can she take Brufen").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from archehr.answerability.spaces import fold

if TYPE_CHECKING:
    from archehr.glossary import Glossary

# a step told done for a finding, not for a length of time ("was started for 2 weeks", "for a further month")
_DONE_FOR = re.compile(
    r"\b(?:was|were|has been|have been|is being|had been)\s+(?:[\w-]+\s+)?(?:started|prescribed|given|added|"
    r"increased|reduced|changed|switched|stopped|recommended|offered)\s+(?:[^.;]{0,30}?\s)?for\s+"
    r"(?!\d|(?:(?:a|an|one|two|three|several|another|the\s+next|the\s+rest\s+of|a\s+total\s+of|up\s+to)\s+)?"
    r"(?:[\w-]+\s+)?(?:days?|weeks?|months?|years?|hours?|nights?|time|course|while|period|life|now|today|"
    r"tonight)\b)[a-z]", re.I)
# a finding, then "so" or "therefore" and the step it led to, within the same sentence
_SO_STEP = re.compile(
    r"[,;]\s*(?:so|therefore|hence)\s+(?:[\w/().-]+\s+){0,6}?(?:was|were|is|has been|have been|will be|are)?\s*"
    r"(?:added|started|stopped|held|withheld|paused|increased|reduced|decreased|lowered|halved|doubled|changed|"
    r"switched|adjusted|omitted|given|repeated|prescribed|booked|arranged)\b", re.I)
# advice without "may" or "can": unsuitable or unneeded, an instruction ticked ("[x] Eat a light breakfast", not
# "[x] Son trained to give injection": a ticked fact advises nothing), going back to a dose
ADVICE = re.compile(
    r"\bnot\s+(?:suitable|recommended|advised|required|needed|necessary|safe)\b|\bunsuitable\b|"
    r"^\W{0,3}\[[xX✓✔]\]\s*(?:eat|drink|take|keep|continue|carry\s+on|bring|wear|use|rest|stay|have)\b|"
    r"\bgo\s+back\s+to\b", re.I | re.M)
# the line reports the question put or defers the answer ("asked whether she can fly; told to discuss with doctor
# at next visit"): its "can fly" answers nothing
_ASKED_OR_DEFERRED = re.compile(
    r"\b(?:asked|asks|asking|enquired|queried|wondered|wants to know)\s+(?:\w+\s+){0,3}?(?:whether|if|about)\b|"
    r"\bto (?:be )?discuss(?:ed)?\b|\bwill (?:be )?discuss|\bto be decided\b|\bto (?:ask|check with)\b", re.I)


def cause_more(text: str, topic: float) -> bool:
    """A why answer's first line (`text`, naming `topic` of the question's topic) says a cause in a form
    `why_causes.cause_given` misses: a step done for a finding (`_DONE_FOR`, from a tenth of the topic) or a
    finding and then the step it led to (`_SO_STEP`, from `HOLDS_MIN` of the topic)."""
    from archehr.answerability.review import FIRST_FACT_MIN, HOLDS_MIN

    plain = fold(text)
    return (topic >= FIRST_FACT_MIN and bool(_DONE_FOR.search(plain))) or \
        (topic >= HOLDS_MIN and bool(_SO_STEP.search(plain)))


def advice_given(question: str | None, first: str | None, topic: float, lexicon: Glossary | None = None) -> bool:
    """A may-I answer's first line (`first`, naming `topic` of the question's topic, at least a tenth) names a
    medicine or an activity the lexicon knows in the question (by its words or its class: "NSAIDs" for "Brufen")
    and allows or forbids something (`may_answers.PERMISSION`) or advises in another form (`ADVICE`), but does not
    allow or forbid another thing taken in than the asked one (`may_answers.other_activity`), nor only report the
    question put or put the answer off (`_ASKED_OR_DEFERRED`). `lexicon`: the
    shipped one when None."""
    from archehr.answerability.may_answers import PERMISSION, other_activity
    from archehr.answerability.review import FIRST_FACT_MIN
    from archehr.glossary import load_lexicon

    lexicon = lexicon or load_lexicon()
    if question is None or first is None or topic < FIRST_FACT_MIN:
        return False
    plain = fold(first)
    if not (PERMISSION.search(plain) or ADVICE.search(first)) or _ASKED_OR_DEFERRED.search(plain) \
            or other_activity(question, first, lexicon):
        return False
    return known_named(question, first, lexicon)


def known_named(question: str, first: str, lexicon: Glossary) -> bool:
    """The line names a concept of the question that the lexicon knows (a medicine, an activity, a condition), by
    its own words or an expansion of its entry."""
    from archehr.answerability.kinds import asked_concepts, sentence_words
    from archehr.relevance.text import tokens

    matched = lexicon.matches(question)
    known = {tuple(tokens(t)) for e in matched for t in (e.term, *e.expansions)}
    words = sentence_words(first, lexicon)
    return any(c.covered_by(words) and (c.surface in known or len(c.phrases) > 1)
               for c in asked_concepts(question, lexicon))
