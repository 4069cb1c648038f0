"""Export shapes none of the development writers used: UK letters, pharmacy labels, lettered and roman lists,
signatures. Every line here is invented for these tests."""

from __future__ import annotations

import pytest

from archehr.data.note_split import split_note


def texts(note: str) -> list[str]:
    split = split_note(note, "rules")
    for s in split.sentences:
        assert note[s.start:s.end] == s.text
    return [" ".join(s.text.split()) for s in split.sentences]


def test_an_undotted_title_before_an_initial_ends_no_sentence():
    assert texts("Yours sincerely,\nDr A. Mensah\nConsultant Physician\n") == [
        "Yours sincerely,", "Dr A. Mensah", "Consultant Physician"]
    assert texts("Seen by Mr B. Oyelaran today. He agreed.") == ["Seen by Mr B. Oyelaran today.", "He agreed."]


def test_a_greeting_or_closing_line_is_no_sentence_left_open():
    assert texts("Dear Dr Okafor,\nThank you for seeing Mrs Lane.\nKind regards,\nDr R. Tan\n") == [
        "Dear Dr Okafor,", "Thank you for seeing Mrs Lane.", "Kind regards,", "Dr R. Tan"]
    # a short line ending in a comma over a lower-case word still wraps
    assert texts("Take it daily,\nwith food.\n") == ["Take it daily, with food."]


def test_a_short_lower_case_label_starts_a_line_of_its_own():
    assert texts("Consultant Physician\ncc: Patient\n") == ["Consultant Physician", "cc: Patient"]


@pytest.mark.parametrize("items", [
    ["a. Rest the ankle", "b. Ice twice a day"],
    ["A. Heart failure", "B. Diabetes"],
    ["i. Weigh daily", "ii. Call if your weight is up 2 kg", "iii. Keep to 1.5 L of fluid"],
    ["(iv) Low salt diet", "(v) Walk daily"],
])
def test_lettered_and_roman_items_each_start_a_sentence(items):
    assert texts("2) Heart failure plan\n" + "\n".join(items) + "\n") == ["2) Heart failure plan", *items]
