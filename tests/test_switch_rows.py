"""Both sides of a medicine switch cited together (`archehr.answerability.switch_rows`); texts written for the test."""

from __future__ import annotations

from conftest import Line

from archehr.answerability.switch_rows import switch_partners


def _lines(*texts: str) -> list[Line]:
    return [Line(t) for t in texts]


TABLE = _lines("MEDICINES ON LEAVING",
               "STOP      Atenolol 50 mg once daily      Replaced by a calcium channel blocker",
               "START     Nifedipine MR 30 mg once daily      Slow-release; swallow whole",
               "CONTINUE  Simvastatin 40 mg at night")


def test_stop_row_replaced_brings_start_row_next_to_it() -> None:
    assert switch_partners([1], TABLE, "is the atenolol stopped and what does he take now?") == [2]


def test_start_row_replacing_brings_stop_row() -> None:
    rows = _lines("STOP      Gliclazide 80 mg twice daily",
                  "START     Sitagliptin 50 mg once daily   Replaces gliclazide")
    assert switch_partners([1], rows, "why new sitagliptin tablet?") == [0]


def test_prose_switch_names_the_new_row() -> None:
    notes = _lines("Her reflux settled on lansoprazole, which was switched to omeprazole 20 mg on day 3.",
                   "Nothing else changed.", "ON LEAVING:", "Omeprazole 20 mg capsule, ONE each morning (new)",
                   "Paracetamol 1 g four times a day when needed")
    assert switch_partners([0], notes, "was the lansoprazole changed?", "other") == [3]


def test_switch_in_a_part_the_question_does_not_name_brings_nothing() -> None:
    notes = _lines("STOPPED: Warfarin (changed to apixaban); ferrous sulfate (course finished).",
                   "Apixaban 5 mg tablet, twice daily (new)")
    assert switch_partners([0], notes, "does she still take the ferrous sulfate?") == []
    assert switch_partners([0], notes, "what happened to her warfarin?") == [1]


def test_why_question_and_chosen_partner_bring_nothing() -> None:
    assert switch_partners([1], TABLE, "why was atenolol stopped?", "why") == []
    assert switch_partners([1, 2], TABLE, "is the atenolol stopped?") == []
