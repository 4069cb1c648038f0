"""A results table's row answering first cited with the prose naming its test (`archehr.answerability.row_prose`).

Each note line here is written for these tests (fictional).
"""

from __future__ import annotations

from conftest import Line

from archehr.answerability.row_prose import names_test, prose_on_row, row_test

NOTE = [
    Line("Ferritin        | 9     | L | ug/L  | 30-400"),  # 0
    Line("Haemoglobin     | 121   |   | g/L   | 115-165"),  # 1
    Line("Your ferritin is low, which means your iron stores are empty."),  # 2
    Line("Please repeat the ferritin in 3 months."),  # 3
    Line("Your haemoglobin is normal."),  # 4
]


def test_a_row_gives_its_test() -> None:
    assert row_test(NOTE[0].text) == "ferritin"
    assert row_test("TEST | RESULT | UNITS") is None  # no value: the header
    assert row_test(NOTE[2].text) is None  # prose


def test_a_prose_line_names_the_test_and_tells_nothing_to_do() -> None:
    assert names_test(NOTE[2].text, "ferritin")
    assert not names_test(NOTE[3].text, "ferritin")  # what to do next
    assert not names_test("Lab comment: ferritin not performed on this sample.", "ferritin")


def test_the_prose_on_the_first_row_comes_with_it_for_a_result_question() -> None:
    assert prose_on_row([0], NOTE, "test_result") == [2]
    assert prose_on_row([1], NOTE, "test_result") == [4]
    assert prose_on_row([0], NOTE, "why") == []
    assert prose_on_row([2], NOTE, "test_result") == []  # the first is prose: row_comment's way round


def test_a_test_named_all_through_the_note_brings_none() -> None:
    note = [*NOTE, Line("Low ferritin is common after heavy periods."), Line("Ferritin falls before haemoglobin does.")]
    assert prose_on_row([0], note, "test_result") == []
