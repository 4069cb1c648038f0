"""A labelled note set in under a medicine order ("Reason: ...", "Note: ...") is a unit of its own: an order row's
line need not end in a full stop for the note under it to start anew."""

from __future__ import annotations

from split_texts import texts as _units

from archehr.data.note_entries import is_order_note


def test_reason_lines_under_order_rows_are_units_of_their_own() -> None:
    note = ("MEDICINES RECONCILIATION\n\n"
            "START     Ramipril 2.5 mg once daily\n"
            "          Reason: blood pressure 162/94 on three visits.\n"
            "STOP      Naproxen 500 mg twice daily\n"
            "          Reason: stomach pain and raised creatinine.\n"
            "HOLD      Bisoprolol 5 mg once daily\n"
            "          Note: restart when the pulse is above 60.\n"
            "CONTINUE  Sertraline 100 mg once daily\n")
    assert _units(note) == [
        "MEDICINES RECONCILIATION",
        "START Ramipril 2.5 mg once daily",
        "Reason: blood pressure 162/94 on three visits.",
        "STOP Naproxen 500 mg twice daily",
        "Reason: stomach pain and raised creatinine.",
        "HOLD Bisoprolol 5 mg once daily",
        "Note: restart when the pulse is above 60.",
        "CONTINUE Sertraline 100 mg once daily",
    ]


def test_a_wrapped_order_still_runs_on_and_its_comment_stands_apart() -> None:
    note = ("START     Apixaban 5 mg twice daily, with or without\n"
            "          food, for at least 3 months\n"
            "STOP      Aspirin 75 mg once daily\n"
            "          Comment: no longer needed with apixaban.\n")
    assert _units(note) == [
        "START Apixaban 5 mg twice daily, with or without food, for at least 3 months",
        "STOP Aspirin 75 mg once daily",
        "Comment: no longer needed with apixaban.",
    ]


def test_an_order_with_its_colon_and_an_indication_set_in_under_it() -> None:
    note = ("Plan\n"
            "STOP: Amitriptyline 10 mg at night\n"
            "    Indication: none found; it adds to falls risk.\n")
    assert _units(note)[-2:] == ["STOP: Amitriptyline 10 mg at night", "Indication: none found; it adds to falls risk."]


def test_a_medicine_of_a_portal_list_keeps_its_reason() -> None:
    # (gold splits of portal lists keep "naproxen 250 mg tablet" + "Reason: ..." one unit: only orders part them)
    note = ("STOP taking these medications\n"
            "    naproxen 250 mg tablet\n"
            "        Reason: raises bleeding risk with apixaban.\n")
    assert _units(note)[-1] == "naproxen 250 mg tablet Reason: raises bleeding risk with apixaban."


def test_is_order_note() -> None:
    assert is_order_note("          Reason: low sodium.")
    assert is_order_note("Note: take it after dialysis.")
    assert not is_order_note("Take 1 tablet by mouth daily.")
    assert not is_order_note("Reason:")
    assert not is_order_note("Reasonable: yes")
