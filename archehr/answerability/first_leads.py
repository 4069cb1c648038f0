"""A how-long or when answer led by the note's sentence about the asked thing, giving the asked length or date.

A patient's long message ("Dear Nurse, I write about my husband ... for how many days he is meant to keep taking
them, as he is inclined to stop things ...") names many words no note sentence names, so even the sentence that
answers it outright ("... nitrofurantoin 50 mg four times a day for 7 days") names a small share of the question's
topic: under the share at which the review rules read the asked fact as given (`review.HOLDS_MIN`,
`review.FIRST_FACT_MIN`). What tells that the first line is about the asked thing is then not how much of the
question it names but that no sentence of the note names more of it. `leads_with_fact` reads that: the first line
names the most of the topic of any sentence and gives the asked fact in its own form (a course's length to a how-long
question, a date, a clock time or an interval to come to a when question); a how-long first line naming a drug must
name the one asked about (by its name, a brand, a misspelling the note resolves, or its class), since another
drug's course ("amoxicillin for 5 days" to a question about the mucus capsules) is no answer. A when question asking
a visit in words no sentence names ("when's my phone appt with dr ..." to "I will review him by telephone on 12/11 at
10:30") is led by a visit line with its date or interval (`visit_dated`) when no sentence names any of its topic. A
question asking when something is allowed ("when can she swim after the repair") is led by an interval or a clock
time, not by a bare date, which most often dates the event it counts from.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from archehr.answerability.asked_time import told_as_done
from archehr.answerability.counts import COUNT_ASCII, GIVEN_UNIT
from archehr.answerability.dates import TIME_OF_DAY
from archehr.answerability.spaces import fold

EDGE = 1e-9  # (a share read as a float sum)
FACT_KINDS = ("how_long", "when")
# a length, not a time to come: "he should not fly for 2 weeks after the operation" dates nothing for "which date"
_FOR_LENGTH = re.compile(rf"\bfor\s+(?:about\s+|at least\s+|up to\s+)?{COUNT_ASCII}\s*{GIVEN_UNIT}\b"
                         r"(?:\s+(?:after|from|post)\b)?", re.I)

# a when question asking when something is allowed ("when can he go back to work", "when may I drive"): answered by
# an interval or a clock time ("after one week", "at 5 pm"), while a bare date in the line most often dates the
# event the question counts from
_PERMISSION_Q = re.compile(r"\bwhen\b[^.?!]{0,40}?\b(?:can|could|may|allowed)\b", re.I)
_INTERVAL = re.compile(rf"\b(?:in|within|after|by)\s+(?:about\s+|approximately\s+)?{COUNT_ASCII}\s*{GIVEN_UNIT}\b|"
                       rf"\b{COUNT_ASCII}\s*{GIVEN_UNIT}\s+(?:after|from|post)\b", re.I)


def leads_with_fact(kind: str, best: tuple[str, float] | None, topic: np.ndarray, question: str | None,
                    given: Callable[[str], bool] | None) -> bool:
    """The first cited line (`best`: its text and topic share) names some of the question's topic and no less of it
    than any sentence of the note (`topic`, each sentence's share), and gives the asked fact of a how-long or when
    question (`given`: the kind's pattern, read on the line with a length's "for N weeks" left out for a when
    question); a how-long line naming a drug names the one asked (`same_medicine`)."""
    if kind not in FACT_KINDS or best is None or given is None or question is None or not topic.size:
        return False
    text, share = best
    plain = fold(text)
    if share < float(topic.max()) - EDGE or (share <= EDGE and not (kind == "when" and visit_dated(question, plain))):
        return False
    if kind == "when":
        if told_as_done(question, plain):  # a date of what was done, to a question about what comes
            return False
        plain = _FOR_LENGTH.sub(" ", plain)
        if _PERMISSION_Q.search(question) and not (_INTERVAL.search(plain) or re.search(TIME_OF_DAY, plain)):
            return False  # "when can we ... after the operation": a bare date is the operation's, not when allowed
    if "__" in plain or not given(plain):  # (a de-identification blank: the date is not given)
        return False
    return kind != "how_long" or same_medicine(question, plain)


def same_medicine(question: str, line: str) -> bool:
    """The line names no drug, or one the question asks about: by its name or a brand of it, a misspelling the line
    resolves ("amoxicilin"), or its class in the question's words ("the antibiotic", "the steroid tablets")."""
    from archehr.answerability.asked_thing import misspelt_drugs
    from archehr.glossary import load_lexicon
    from archehr.glossary.drugs import drugs_in

    drugs = set(drugs_in(line))
    if not drugs or drugs & set(drugs_in(question)):
        return True
    lexicon = load_lexicon()
    classes = set(lexicon.classes_in(" ".join([line, *drugs])))
    if any(e.kind == "class" and e.term in classes for e in lexicon.matches(question)):
        return True
    return bool(misspelt_drugs(question, lexicon, [line]))


def visit_dated(question: str, line: str) -> bool:
    """A when question asking a visit to come (an appointment, a review, a doctor: `when_answers.asks_visit`, not
    `asks_past`) and a line telling a visit with its date, clock time or interval ("Return to clinic in 3 months",
    "Your appointment with me is on Tuesday at 1:40 PM"), not a test booked to a question asking a clinician."""
    from archehr.answerability import when_answers as wa

    if not wa.asks_visit(question) or wa.asks_past(question) or not wa.VISIT_SAID.search(line):
        return False
    if wa.asks_clinician(question) and wa.books_a_test(line):
        return False
    return bool(wa.DATED.search(line) or wa.BOOKED_SLOT.search(line))
