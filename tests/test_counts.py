"""The shared count, range and unit fragments (`archehr.answerability.counts`), on invented phrases."""

import re

import pytest

from archehr.answerability.counts import COUNT, COUNT_ASCII, COURSE_UNIT, GIVEN_UNIT, RANGE, UNIT


def whole(fragment: str, text: str) -> bool:
    return re.fullmatch(fragment, text, re.I) is not None


@pytest.mark.parametrize("text", ["3", "2.5", "two", "a couple of", "2-4", "5 to 7", "3–5", "two to three"])
def test_count_reads_a_count_or_a_range(text: str) -> None:
    assert whole(COUNT, text)


def test_ascii_forms_leave_out_the_en_dash() -> None:
    assert whole(COUNT_ASCII, "2-4") and whole(COUNT_ASCII, "5 to 7")
    assert not whole(COUNT_ASCII, "3–5")
    assert whole(RANGE, "3–5") and not whole(RANGE, "3")


def test_units_differ_on_purpose() -> None:
    assert whole(UNIT, "h") and not whole(COURSE_UNIT, "h")
    assert whole(COURSE_UNIT, "cycles") and not whole(UNIT, "cycles")
    assert not whole(GIVEN_UNIT, "d") and not whole(GIVEN_UNIT, "doses") and whole(GIVEN_UNIT, "wk")
    assert re.search(rf"\b{COUNT}\s*{UNIT}\b", "for 5-7 days then stop", re.I).group(0) == "5-7 days"
