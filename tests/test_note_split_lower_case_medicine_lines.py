"""A medicine list written in lower case, one medicine with its instruction a line and no full stop: each line is an
entry of its own, however long. Every expected split is written out by hand, on invented lines."""

from __future__ import annotations

from split_texts import texts


def test_long_lower_case_medicine_lines_are_an_entry_each():
    note = ("Medications:\n"
            "lisinopril 10 mg tablet - take 1 tablet by mouth every day in the morning\n"
            "metformin 500 mg tablet - take 1 tablet twice a day with breakfast and dinner\n"
            "simvastatin 20 mg tablet - take 1 tablet at night\n")
    assert texts(note) == ["Medications:",
                           "lisinopril 10 mg tablet - take 1 tablet by mouth every day in the morning",
                           "metformin 500 mg tablet - take 1 tablet twice a day with breakfast and dinner",
                           "simvastatin 20 mg tablet - take 1 tablet at night"]


def test_prose_wrapped_before_a_medicine_and_its_dose_still_runs_on():
    # (the line above ended a sentence inside it and left the next open: the lines are one paragraph of prose)
    note = ("At clinic today we reviewed his cholesterol and raised simvastatin from 20 mg to 40 mg. He\n"
            "should continue lisinopril 10 mg daily and come back in three months for bloods.\n")
    assert texts(note) == ["At clinic today we reviewed his cholesterol and raised simvastatin from 20 mg to 40 mg.",
                           "He should continue lisinopril 10 mg daily and come back in three months for bloods."]
