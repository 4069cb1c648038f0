"""How long a medicine goes on, asked of a note that gives only how many tablets were dispensed ("#20", "x 14
tablets", "supply of 14") or another drug's course on the next line: the course's length is not given
(`asked_fact.fact_unsaid` through `any_unsaid`). The notes are invented for these tests."""

from __future__ import annotations

import pytest

from archehr.answerability.asked_time import DISPENSED
from archehr.answerability.review import unsaid_in_note
from archehr.data.note_split import split_note


def _unsaid(question: str, *lines: str) -> bool:
    return unsaid_in_note("how_long", question, split_note("Medications:\n" + "\n".join(lines) + "\n", "rules"))


@pytest.mark.parametrize(("lines", "unsaid"), [
    # a count of tablets tells how many, not for how long
    (("Oxycodone 5 mg tablets, 1 every 6 hours as needed, #20.",), True),
    (("Oxycodone 5 mg, 1 every 6 hours as needed, x 20 tablets.",), True),
    (("Oxycodone 5 mg every 6 hours as needed. Dispense 20 x 5 mg tablets, no refills.",), True),
    # the next line speaks of another drug: its course is not the oxycodone's
    (("Oxycodone 5 mg every 6 hours as needed, supply of 14.", "Cefalexin 500 mg four times daily for 7 days."),
     True),
    # a course given, with or without the count
    (("Oxycodone 5 mg every 6 hours as needed for up to 5 days, #20.",), False),
    (("Oxycodone 5 mg every 6 hours as needed, 14 day supply.",), False),
    # the next line going on without naming a drug is still the oxycodone's
    (("Oxycodone 5 mg every 6 hours as needed, #20.", "Take for 3 days only."), False),
])
def test_a_tablet_count_is_no_course_length(lines: tuple[str, ...], unsaid: bool) -> None:
    assert _unsaid("how long do I keep taking the oxycodone", *lines) is unsaid


def test_a_brand_asked_of_the_generics_count_is_no_course_length() -> None:
    assert _unsaid("how long do I take the Subutex for", "Buprenorphine 8 mg daily, #14.")
    assert not _unsaid("how long do I take the Subutex for", "Buprenorphine 8 mg daily for 14 days.")


def test_the_medicines_class_word_may_give_its_course() -> None:
    lines = ("Atorvastatin 20 mg at night.", "Ramipril 5 mg daily.", "If your muscles ache, stop the statin for two "
             "weeks and call us.")
    assert not _unsaid("if my legs ache on the atorvastatin how long do i stop it", *lines)


def test_a_hold_told_by_when_to_restart_has_its_length() -> None:
    q = "how long do I stop the simvastatin for"
    assert not _unsaid(q, "Hold simvastatin; restart 5 days after the last clarithromycin dose.")
    assert _unsaid(q, "Hold simvastatin.", "Blood pressure check 4 weeks after starting ramipril.")


def test_dispensed_reads_out_counts_only() -> None:
    assert DISPENSED.sub("", "x 20 tablets").strip() == ""
    assert DISPENSED.sub("", "Dispense 14 x 2 mg").strip() == "Dispense"
    assert DISPENSED.sub("", "x 5 days") == "x 5 days"  # a course in days stays
