"""A when answer's firm date in the forms letters write it: a month's name ("on March 3, 2026", "Tuesday 3 March
2026") and a clock time ("at 2:40 p.m.") are dates given (`review.WHEN_GIVEN`, `kinds._WHEN_STRONG`); a first line
booking a slot (a date or a weekday with its clock time: `when_answers.books_slot`) gives the date a when question
about what comes asks, even naming little of the question's words (`review.fact_given`, `review.fact_missing`); a
title's full stop ends no clause (`asked_link.clauses`). All lines invented."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from archehr.answerability.asked_link import clauses
from archehr.answerability.kinds import answer_types
from archehr.answerability.review import (
    FIRST_FACT_MIN,
    HOLDS_MIN,
    WHEN_GIVEN,
    fact_given,
    fact_missing,
    first_gives_fact,
)
from archehr.answerability.when_answers import BOOKED_SLOT, books_slot
from archehr.data.note_split import note_case, split_note


def _types(best_firm: float = 0.0) -> SimpleNamespace:
    return SimpleNamespace(kind="when", best_typed=0.3, best_firm=best_firm, missing_drugs=0, missing_activities=0)


def test_month_name_dates_and_clock_times_are_dates_given() -> None:
    for line in ("Your skin graft is booked on March 3, 2026.", "Dressing clinic Tuesday 3 March 2026.",
                 "Come to the ward for 7:30 a.m.", "Bring him in at 11am."):
        assert WHEN_GIVEN.search(line), line
        assert first_gives_fact("when", (line, FIRST_FACT_MIN))
    # a month's name alone, or a dose's count, is no date
    for line in ("The rash began in spring.", "Take 2 tablets at night.", "Ferritin 12.30 today"):
        assert not WHEN_GIVEN.search(line), line


def test_a_booked_slot_in_the_forms_letters_write_it() -> None:
    assert BOOKED_SLOT.search("I have booked the graft with me on March 3, 2026 at 9:40 a.m.")
    assert BOOKED_SLOT.search("Review with Dr. Amari Thursday 5 March 2026 at 2:15 PM")
    # opening hours are no slot: neither the first hour nor the last one's minutes
    assert not BOOKED_SLOT.search("Questions? Call the desk (Mon-Fri, 8:30 am to 4:30 pm).")
    assert not BOOKED_SLOT.search("The line is open Monday to Friday, 9am to 5pm.")


def test_books_slot_answers_what_comes_not_what_was() -> None:
    line = "Wound review on 2026-03-02 at 10:40 with the nurse."
    assert books_slot(line, "when is his next wound check?")
    assert not books_slot(line, "when was the wound checked?")
    assert not books_slot("Wound review in 2 weeks.", "when is his next wound check?")


def test_a_slot_gives_the_date_at_a_small_topic_share() -> None:
    question = "When is mums next rendez-vous with Dr Amari?"
    slot = ("Follow-up with Dr. Amari in 4 weeks, on 2026-03-02 at 10:40.", FIRST_FACT_MIN + 0.05)
    assert slot[1] < HOLDS_MIN  # the patient's words are not the note's
    assert fact_given(_types(), slot, question)
    # an interval alone still needs the topic named
    assert not fact_given(_types(), ("Follow-up with Dr. Amari in 4 weeks.", FIRST_FACT_MIN + 0.05), question)
    # and a slot naming next to nothing of the topic is no answer
    assert not fact_given(_types(), (slot[0], FIRST_FACT_MIN - 0.05), question)


def test_a_slot_first_clears_the_no_firm_date_rule() -> None:
    question = "when is her next sleep clinic appointment"
    slot = ("Phone review with the sleep nurse Thursday 5 March 2026 at 10:00 AM", 0.15)
    assert not fact_missing(_types(best_firm=0.15), slot, question)
    # without its slot the rule still flags: no sentence about the topic gives a firm date
    assert fact_missing(_types(best_firm=0.15), ("Phone review with the sleep nurse to be arranged", 0.15), question)


def test_a_titles_full_stop_ends_no_clause() -> None:
    parts = clauses("Next clinic visit: 2026-03-02 at 10:40 with Dr. Amari (after the bloods). Bring your list.")
    assert parts[0].endswith("with Dr. Amari (after the bloods)")
    assert len(parts) == 2


def test_a_month_name_date_is_a_firm_when_answer() -> None:
    note = ("Discharge summary.\n\nYour graft is booked on March 3, 2026 at 9:40 a.m. in the day unit.\n\n"
            "Keep the dressing dry.\n")
    case = note_case(split_note(note), "when is my graft booked?")[0]
    types = answer_types(case)
    i = int(np.argmax(types.topic))
    assert types.holds[i] and types.firm is not None and types.firm[i]
