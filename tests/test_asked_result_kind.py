"""A result question opened by another kind's cue: a test that comes back, a sample taken off a limb."""

from __future__ import annotations

import pytest

from archehr.answerability.asked_for import ask_kind
from archehr.answerability.asked_result_kind import result_asked


@pytest.mark.parametrize("question", [
    "did the blood test they took for the rash come back",
    "what did her liver function come back as",
    "has my thyroid test come back yet",
    "is the culture back yet",
    "are his bloods back",
    "did the swab they took off my elbow show anything",
])
def test_a_test_coming_back_or_a_sample_taken_off_asks_a_result(question: str) -> None:
    assert ask_kind(question) == "test_result"


@pytest.mark.parametrize("question, kind", [
    ("when should he come back in", "may_i"),  # a return to hospital
    ("do I have to come back in to get the stitches out", "may_i"),
    ("did they take him off the warfarin", "med_change"),
    ("is it ok to keep taking my hayfever tablets", "med_change"),
])
def test_a_return_or_a_medicine_stopped_keeps_its_kind(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


def test_only_a_may_i_other_or_medicine_reading_is_turned() -> None:
    assert result_asked("did the scan come back", "may_i")
    assert not result_asked("did the scan come back", "why")
    # a medication change naming a medicine is one, whatever result cue follows
    assert not result_asked("did they take him off the aspirin, was the scan clear", "med_change")
