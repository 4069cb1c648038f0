"""A result's report going on in the next line (`archehr.answerability.result_follow`).

Each note line here is written for these tests (fictional).
"""

from __future__ import annotations

import pytest
from conftest import Line

from archehr.answerability.result_follow import goes_on, is_title, report_goes_on


@pytest.mark.parametrize(("first", "line"), [
    ("His ultrasound on 3 May showed a 9 mm stone in the gallbladder.", "This means the pain is from the gallbladder."),
    ("HEART TRACING (12/02/2025 10:05)", "Sinus rhythm, rate 72, normal intervals."),
])
def test_a_line_going_on_from_the_result(first: str, line: str) -> None:
    assert goes_on(first, line)


@pytest.mark.parametrize(("first", "line"), [
    ("CHEST X-RAY (12/02/2025)", "Please repeat the X-ray in 6 weeks."),  # an instruction of its own
    ("Chest X-ray: no collapse or fluid.", "Heart size is normal."),  # a finding after one: not the answer alone
    ("CHEST X-RAY (12/02/2025)", "Started amoxicillin for the cough."),  # something done
    ("Sodium 131 mmol/L (L)", "Potassium 4.2 mmol/L"),  # a value line is no title
    ("CHEST X-RAY (12/02/2025)", "Bloods: CRP 12: Review: GP."),  # a label of its own
])
def test_a_line_not_going_on_from_the_result(first: str, line: str) -> None:
    assert not goes_on(first, line)


def test_a_title_line() -> None:
    assert is_title("CT HEAD WITHOUT CONTRAST")
    assert not is_title("Haemoglobin   | 98 | L | g/L")
    assert not is_title("The scan of your head was normal and showed no bleeding at all.")
    assert not is_title("Bloods fine to proceed (white cells above 2)")  # a finding in lower case, undated


def test_only_for_a_result_question_and_in_the_first_line_s_paragraph() -> None:
    note = [Line("CHEST X-RAY (12/02/2025)"), Line("Heart size is normal."), Line("No rib fracture.", 2)]
    assert report_goes_on([0], note, "test_result") == [1]
    assert report_goes_on([0], note, "why") == []
    assert report_goes_on([1], note, "test_result") == []  # the next line is another paragraph's
    assert report_goes_on([0, 1], note, "test_result") == []  # chosen already
