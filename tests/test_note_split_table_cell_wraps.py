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
