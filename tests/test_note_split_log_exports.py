"""Export shapes of ED discharges, telephone logs and portal summaries: a log entry's stamp line over its text,
fields parted by semicolons, a portal section's caption, an order word that says why, a test named in mixed case,
an appointment stack's closing sentence. Every line here is invented for these tests."""

from __future__ import annotations

from split_texts import texts


def test_a_log_entrys_date_time_and_writer_line_stays_with_its_first_sentence():
    note = ("14/02/2026 10:15 - Sr Ann Lee, CNS\nDaughter rang about the rash. Advised cream twice daily.\n\n"
            "15/02/2026 09:00 - Sr Ann Lee, CNS\nRash settling.\n")
    assert texts(note) == ["14/02/2026 10:15 - Sr Ann Lee, CNS Daughter rang about the rash.",
                           "Advised cream twice daily.", "15/02/2026 09:00 - Sr Ann Lee, CNS Rash settling."]


def test_a_date_and_time_line_that_ends_a_sentence_is_no_stamp_line():
    note = "Seen in clinic.\n14/02/2026 10:15 - review done.\nBloods taken.\n"
    assert "Bloods taken." in texts(note)


def test_fields_parted_by_semicolons_are_one_unit_each_keeping_their_semicolon():
    note = ("Name: Ann Lee; DOB: 01/02/1990; Unit No: 4471\n"
            "Seen by: Pharm. Tom Reyes (pharmacist); Checked by: Dr B. Ko\n")
    assert texts(note) == ["Name: Ann Lee;", "DOB: 01/02/1990;", "Unit No: 4471",
                           "Seen by: Pharm. Tom Reyes (pharmacist);", "Checked by: Dr B. Ko"]


def test_a_semicolon_inside_a_fields_value_cuts_nothing():
    note = "Plan: rest and fluids; review: in 2 days if worse\n"
    assert texts(note) == ["Plan: rest and fluids; review: in 2 days if worse"]


def test_an_initial_after_a_semicolon_ends_no_sentence():
    assert texts("Entries by: A. Lee RN; B. Cole RN\n") == ["Entries by: A. Lee RN; B. Cole RN"]


def test_a_paragraphs_sentence_case_caption_is_its_own_unit():
    note = ("What happened today\n8 stitches were put in your hand.\n\n"
            "Your medicine list\n  amoxicillin 500 mg capsule\n      Take 1 capsule 3 times a day.\n")
    assert texts(note) == ["What happened today", "8 stitches were put in your hand.", "Your medicine list",
                           "amoxicillin 500 mg capsule Take 1 capsule 3 times a day."]


def test_a_caption_like_line_that_a_sentence_carries_on_is_no_caption():
    assert texts("The wound was closed\nwith 4 stitches.\n") == ["The wound was closed with 4 stitches."]
    assert texts("Come back to clinic in\n6 weeks.\n") == ["Come back to clinic in 6 weeks."]


def test_an_order_word_saying_why_starts_no_new_order():
    note = "- Bendroflumethiazide 2.5 mg (water tablet) STOPPED because sodium is low.\n"
    assert texts(note) == ["- Bendroflumethiazide 2.5 mg (water tablet) STOPPED because sodium is low."]
    # an order word before a medicine in lower case still starts one
    assert texts("1. Ramipril 5 mg daily STOP aspirin\n") == ["1. Ramipril 5 mg daily", "STOP aspirin"]


def test_a_sentence_may_open_with_a_test_named_in_mixed_case():
    note = "Labs: Hb 121, plt 240, urine clear of protein. eGFR and hsCRP sent, results to follow.\n"
    assert texts(note) == ["Labs: Hb 121, plt 240, urine clear of protein.", "eGFR and hsCRP sent, results to follow."]


def test_an_appointment_stack_keeps_its_closing_sentence():
    note = ("Upcoming appointments\n  Wound check - Nurse visit\n  Monday, March 2, 2026 at 9:30 AM\n"
            "  Hillside Clinic, Room 2\n  Please bring your dressing pack.\n\nCall us if the wound bleeds.\n")
    assert texts(note) == ["Upcoming appointments", "Wound check - Nurse visit Monday, March 2, 2026 at 9:30 AM "
                           "Hillside Clinic, Room 2 Please bring your dressing pack.", "Call us if the wound bleeds."]


def test_a_dictated_headers_lower_case_fields_are_one_unit_each():
    note = ("CARDIOLOGY CLINIC - DICTATED NOTE\npatient ann lee-moss  dob 01/02/1960  ref CX-118\n"
            "date of visit 3 may 2025  dr jo kent consultant cardiologist\n\nseen today with palpitations.\n")
    assert texts(note)[:6] == ["CARDIOLOGY CLINIC - DICTATED NOTE", "patient ann lee-moss", "dob 01/02/1960",
                               "ref CX-118", "date of visit 3 may 2025", "dr jo kent consultant cardiologist"]


def test_a_dictated_headers_fields_with_colons_or_after_a_title_are_one_unit_each():
    note = ("patient: ann lee-moss    dob: 01/02/1960    nhs no: 123 456 7890\n"
            "dictated by: dr jo kent, consultant    date seen: 03/05/2025\n\nseen today with palpitations.\n")
    assert texts(note)[:5] == ["patient: ann lee-moss", "dob: 01/02/1960", "nhs no: 123 456 7890",
                               "dictated by: dr jo kent, consultant", "date seen: 03/05/2025"]
    note = ("cardiology clinic dictation   pt: ann lee-moss   dob 01/02/1960   dictated by dr jo kent   transcribed "
            "04/05/2025\n\nseen today with palpitations.\n")
    assert texts(note)[:5] == ["cardiology clinic dictation", "pt: ann lee-moss", "dob 01/02/1960",
                               "dictated by dr jo kent", "transcribed 04/05/2025"]


def test_a_lower_case_title_before_one_field_is_no_dictated_header():
    # (a title is set apart only before two fields or more)
    assert texts("SUMMARY\nseen in the clinic today   dob 01/02/1960\n")[1:] != ["seen in the clinic today",
                                                                              "dob 01/02/1960"]


def test_lower_case_prose_two_spaces_apart_is_no_dictated_header():
    # (a column that ends a sentence is prose, not a field)
    assert "dob checked and correct" not in texts("SUMMARY\npatient was seen today.  dob checked and correct\n")


def test_a_dotted_date_and_time_alone_is_a_stamp_that_stays_with_its_entry():
    from archehr.data.note_sentence_edits import should_join
    from archehr.data.note_stamps import is_stamp_only

    assert is_stamp_only("18.11.2025 08:05")
    # (a parser may cut after the stamp: the edit joins it back)
    assert should_join("18.11.2025 08:05", "Pt asked about her inhaler.", "text")
    assert not is_stamp_only("18.11.2025 08:05 done.")
