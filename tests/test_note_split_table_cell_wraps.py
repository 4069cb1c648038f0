"""A table laid out in columns whose last cell wraps onto lines of its own: the rows under the wrapped cell are the
table's rows still, one unit each. Every expected split is written out by hand, on invented lines."""

from __future__ import annotations

from split_texts import texts


def test_a_row_under_a_cell_wrapped_over_several_lines_is_one_unit():
    note = ("Drug                         Before admission        On discharge            Comment\n"
            "Ramipril 5 mg OD             Yes                     Held                    AKI - GP to restart\n"
            "                                                                             when creatinine back\n"
            "                                                                             to baseline\n"
            "Bisoprolol 2.5 mg OD         Yes                     Yes                     No change\n")
    assert texts(note) == [
        "Drug Before admission On discharge Comment",
        "Ramipril 5 mg OD Yes Held AKI - GP to restart when creatinine back to baseline",
        "Bisoprolol 2.5 mg OD Yes Yes No change"]


def test_a_rows_last_cell_wrapped_under_its_column_stays_with_its_row():
    note = ("Test            Result     Range        Comment\n"
            "Sodium          131        133-146      Low - recheck\n"
            "                                        in 1 week\n"
            "Potassium       4.1        3.5-5.3      Normal\n")
    assert texts(note) == ["Test Result Range Comment", "Sodium 131 133-146 Low - recheck in 1 week",
                           "Potassium 4.1 3.5-5.3 Normal"]
    # (over two lines under the column too)
    note = ("Test            Result     Range        Comment\n"
            "Ferritin        9          15-200       Low - start iron\n"
            "                                        tablets and repeat\n"
            "                                        in 3 months\n"
            "Folate          7.2        3.0-20.0     Normal\n")
    assert texts(note) == ["Test Result Range Comment",
                           "Ferritin 9 15-200 Low - start iron tablets and repeat in 3 months",
                           "Folate 7.2 3.0-20.0 Normal"]
