"""A results table's flagged row cited with the cited line commenting on it (`archehr.answerability.row_comment`).

Each note line here is written for these tests (fictional).
"""

from __future__ import annotations

import pytest
from conftest import Line

from archehr.answerability.row_comment import comments_on, flagged_row, is_comment, rows_commented


@pytest.mark.parametrize(("row", "read"), [
    ("Platelets     | 41    | x10^9/L    | 150-400   | L", ("platelets", "41", "x10^9/L")),
    ("Gentamicin (level)  | 3.4 | H | mg/L | <1", ("gentamicin", "3.4", "mg/L")),
    ("Ciprofloxacin   | R", ("ciprofloxacin", "", "")),
    ("Potassium    6.1    mmol/L    3.5-5.3    H", ("potassium", "6.1", "mmol/L")),
])
def test_a_flagged_row_gives_its_name_value_and_unit(row: str, read: tuple[str, str, str]) -> None:
    assert flagged_row(row) == read


@pytest.mark.parametrize("row", [
    "Sodium     | 139   | mmol/L  | 133-146 |",  # in range: no flag
    "TEST | RESULT | UNITS | RANGE | FLAG",  # the header
    "Platelets were low at 41, so the injections are held.",  # prose
])
def test_what_is_no_flagged_row(row: str) -> None:
    assert flagged_row(row) is None


def test_a_comment_names_the_row_by_its_name_or_its_value_and_unit() -> None:
    platelets = ("platelets", "41", "x10^9/L")
    assert comments_on("Platelets are low, so the enoxaparin injections are held for now.", platelets)
    assert comments_on("Her K 6.1 mmol/L is too high to restart the spironolactone.", ("potassium", "6.1", "mmol/L"))
    # the value without its unit, or another value with it, names nothing
    assert not comments_on("Seen 6.1 weeks after the operation, well.", ("potassium", "6.1", "mmol/L"))
    assert not comments_on("Her K 16.1 mmol/L was a haemolysed sample.", ("potassium", "6.1", "mmol/L"))


def test_a_comment_is_a_line_of_prose() -> None:
    assert is_comment("Platelets are low, so the enoxaparin injections are held for now.")
    assert not is_comment("Platelets | 41 | x10^9/L | 150-400 | L")
    assert not is_comment("FINAL (urine) / INTERIM (blood culture)")
    assert not is_comment("Platelets low.")  # too short to be a comment


NOTE = [Line("TEST          | RESULT | UNITS    | RANGE   | FLAG"),
        Line("Platelets     | 41     | x10^9/L  | 150-400 | L"),
        Line("Sodium        | 139    | mmol/L   | 133-146 |"),
        Line("Potassium     | 6.1    | mmol/L   | 3.5-5.3 | H"),
        Line("Platelets are low, so the enoxaparin injections are held for now."),
        Line("Sodium and potassium will be repeated on Monday with the next bloods."),
        Line("Please ring the ward if there is any bleeding.")]


def test_the_first_line_s_comment_brings_the_flagged_rows_it_names() -> None:
    assert rows_commented([4], NOTE, "test_result") == [1]
    # sodium is in range (no flag): only the potassium row comes with the repeat line
    assert rows_commented([5, 4], NOTE, "test_result") == [3]
    assert rows_commented([4, 1], NOTE, "test_result") == []  # the row cited already
    assert rows_commented([6], NOTE, "test_result") == []  # a comment naming no row
    assert rows_commented([1, 4], NOTE, "test_result") == []  # the comment is not the first line


def test_rows_come_only_for_a_result_question() -> None:
    for kind in ("why", "when", "med_change"):
        assert rows_commented([4], NOTE, kind) == []


def test_a_line_naming_more_rows_than_most_brings_none() -> None:
    panel = [Line(f"{name}  | {v} | mmol/L | 1-2 | H") for name, v in
             (("Urea", "9"), ("Calcium", "3"), ("Phosphate", "4"), ("Magnesium", "5"))]
    line = Line("Urea, calcium, phosphate and magnesium are all raised, so the fluids continue.")
    assert rows_commented([4], [*panel, line], "test_result") == []
    assert rows_commented([3], [*panel[:3], line], "test_result") == [0, 1, 2]
