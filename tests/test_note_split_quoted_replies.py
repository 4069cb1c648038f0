"""An e-mail's quoted reply under the line that says who wrote it: the quoted lines open anew. Every expected split
is written out by hand, on invented lines."""

from __future__ import annotations

from split_texts import texts


def test_a_quoted_reply_opens_anew_under_its_attribution_line():
    note = ("Thanks, I will bring it.\n"
            "\n"
            "On Tue, 4 Mar 2025 at 09:12, Asthma Clinic <asthma.clinic@example.org> wrote:\n"
            "> Please bring your inhaler and spacer to the appointment.\n"
            "> Thanks\n")
    assert texts(note) == ["Thanks, I will bring it.",
                           "On Tue, 4 Mar 2025 at 09:12, Asthma Clinic <asthma.clinic@example.org> wrote:",
                           "> Please bring your inhaler and spacer to the appointment.", "> Thanks"]


def test_a_greater_than_sign_before_a_number_is_no_quote_mark():
    # (a measure's sign at a line's start carries the sentence on as before)
    note = ("Scan today: the cyst in the left kidney is simple, with a wall that is smooth and measuring\n"
            "> 5 cm across, so a repeat scan in 12 months is advised.\n")
    assert texts(note) == ["Scan today: the cyst in the left kidney is simple, with a wall that is smooth and "
                           "measuring > 5 cm across, so a repeat scan in 12 months is advised."]
