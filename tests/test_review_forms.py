"""Forms of patients' questions and of note lines the review rules read: a how-long question's own sentence, a
course's bound or its nights, a span of 24 hours or more, a medicine row's order with no reason, a lay word with one
medicine among other senses, "carry on" with a medicine, a cholesterol tablet, fish oil.

The questions and note lines are written for these tests (fictional).
"""

from __future__ import annotations

import numpy as np
import pytest

from archehr.answerability.asked_for import medicines_asked
from archehr.answerability.asked_thing import concept_rows
from archehr.answerability.asked_time import COURSE, how_long_asked, time_unsaid
from archehr.answerability.why_causes import has_cause
from archehr.glossary import load_lexicon


def _unsaid(question: str, sentences: list[str]) -> bool:
    named = concept_rows(question, sentences, load_lexicon())
    plain = [" ".join(t.split()) for t in sentences]
    return time_unsaid("how_long", question, plain, ["p"] * len(plain), named)


def test_a_guess_after_the_how_long_sentence_is_no_outcome_asked() -> None:
    q = "How long do I keep taking the ketorolac? till the cast comes off?"
    assert how_long_asked(q) == "How long do I keep taking the ketorolac?"
    lines = ["Ketorolac 10 mg every 6 hours as needed for pain.", "Cast clinic in 10 days."]
    assert _unsaid(q, lines)  # no course of the ketorolac: for review
    # asked as an outcome in its own sentence: the rule does not read it
    assert not _unsaid("How long until the cast comes off and the ketorolac is done?", lines)
    assert how_long_asked("is it ok to stop?") == "is it ok to stop?"  # no how-long sentence: the whole question


@pytest.mark.parametrize("line", [
    "Use the elbow strap for max 2 weeks at a time.",
    "Take the naproxen for no more than 5 days.",
    "Wear the night splint for 3 nights, then review.",
])
def test_a_course_bound_or_its_nights_is_a_length(line: str) -> None:
    assert COURSE.search(line)


def test_a_span_of_a_day_or_more_in_hours_answers_how_many_days() -> None:
    q = "how many days do we keep icing the wrist"
    assert not _unsaid(q, ["Ice the wrist 15 minutes every 3 hours for the first 72 hours."])
    assert _unsaid(q, ["Ice the wrist 15 minutes every 3 hours."])  # a session's spacing only
    assert not _unsaid("how many nights does she wear the wrist splint", ["Wrist splint at night for 5 nights."])


def test_an_order_after_a_medicine_rows_dash_is_no_cause() -> None:
    assert not has_cause("HOLD celecoxib 100 mg - do not take until you see your own doctor.")
    assert not has_cause("HOLD celecoxib 100 mg - don't restart before the clinic.")
    assert has_cause("HOLD celecoxib 100 mg - kidney function has dropped.")


def test_a_lay_word_with_one_medicine_among_its_senses_is_no_medicine() -> None:
    lex = load_lexicon()
    assert medicines_asked("is there anything for her sleep", lex) == set()
    assert medicines_asked("is my blood sugar ok now", lex) == set()
    assert ("advil",) in medicines_asked("can I take Advil with it", lex)


def test_carry_on_with_a_medicine_is_no_activity_and_named_kinds_of_pills() -> None:
    lex = load_lexicon()
    kinds = {e.term: e.kind for e in lex.matches("can I carry on with the mesalazine")}
    assert kinds.get("carry on") == "lay" and "carry" not in kinds
    assert {e.kind for e in lex.matches("can he carry the shopping bags")} == {"activity"}
    sentences = ["Continue rosuvastatin 10 mg at night.", "Omega-3 capsules stopped."]
    for q in ("do I still take the cholesterol tablet", "should he keep his fish oil"):
        assert medicines_asked(q, lex)
        assert concept_rows(q, sentences, lex).any(axis=1).any()
    assert np.array_equal(concept_rows("is the cholesterol one still needed", sentences, lex)[0], [True, False])
