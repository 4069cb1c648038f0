"""A medicine's list row cited with the prose line telling its change (`archehr.answerability.same_medicine`).

Each note line here is written for these tests (fictional).
"""

from __future__ import annotations

from conftest import Line

from archehr.answerability.same_medicine import list_rows

NOTE = [
    Line("Her metformin was lowered to 500 mg twice a day because her kidney function has dropped."),  # 0
    Line("She was also started on gliclazide 40 mg each morning."),  # 1
    Line("Medicines on discharge:"),  # 2
    Line("1. Metformin 500 mg by mouth twice daily"),  # 3
    Line("2. Gliclazide 40 mg by mouth each morning (NEW)"),  # 4
    Line("3. Atorvastatin 20 mg at night"),  # 5
]


def test_the_row_of_the_medicine_asked_about_comes_with_its_prose_line() -> None:
    # the question names metformin, the first line tells its change, the row gives the same dose
    assert list_rows([0], NOTE, "did they lower my metformin", "med_change") == [3]


def test_a_question_naming_no_medicine_brings_the_rows_of_the_line_s_one_medicine() -> None:
    assert list_rows([0], NOTE, "what did they change in my tablets", "med_change") == [3]
    two = [Line("Metformin was lowered to 500 mg and gliclazide 40 mg added."), *NOTE[2:]]
    assert list_rows([0], two, "what did they change in my tablets", "med_change") == []  # two medicines: none


def test_a_medicine_the_question_names_that_the_line_does_not_brings_no_row() -> None:
    assert list_rows([0], NOTE, "did they change my atorvastatin", "med_change") == []


def test_a_why_question_brings_none_nor_a_medicine_the_line_does_not_name() -> None:
    assert list_rows([0], NOTE, "why did they lower my metformin", "why") == []
    assert list_rows([1], NOTE, "was the atorvastatin changed", "med_change") == []  # the line does not name it


def test_a_row_marked_new_comes_without_a_shared_dose() -> None:
    note = [Line("We have started gliclazide for your sugars."), *NOTE[2:]]
    assert list_rows([0], note, "what is the gliclazide for, is it new", "med_change") == [3]


def test_a_how_long_row_must_give_a_length() -> None:
    note = [Line("Take amoxicillin 500 mg three times a day for 5 more days."),
            Line("1. Amoxicillin 500 mg three times daily for 5 days, then stop"),
            Line("2. Amoxicillin 500 mg as needed")]
    assert list_rows([0], note, "how long do I take the amoxicillin", "how_long") == [1]


def test_a_line_of_history_is_no_row() -> None:
    note = [Line("Aspirin 75 mg held for 3 days, then restart."), Line("Takes aspirin 75 mg daily for years."),
            Line("STOP: Aspirin 75 mg")]
    assert list_rows([0], note, "should he stop the aspirin", "med_change") == [2]


def test_a_how_long_row_telling_only_when_to_take_it_is_no_length() -> None:
    note = [Line("Colchicine 500 micrograms twice daily for 2 weeks, then stop."),
            Line("START colchicine 500 micrograms, take 30 minutes before breakfast")]
    assert list_rows([0], note, "how long is the colchicine for", "how_long") == []
