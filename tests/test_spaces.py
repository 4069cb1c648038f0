"""`answerability.spaces.fold`: one space for each run of white space, none at the ends."""

from archehr.answerability.spaces import fold


def test_line_breaks_and_padding_become_one_space():
    assert fold("booked on April 8, 2024 at\n9:15 a.m.") == "booked on April 8, 2024 at 9:15 a.m."
    assert fold("  Urine culture \t  Pending\r\n") == "Urine culture Pending"


def test_empty_and_blank_text_fold_to_nothing():
    assert fold("") == ""
    assert fold(" \n\t ") == ""
