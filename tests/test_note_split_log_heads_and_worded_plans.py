"""Shapes of contact logs, PDF copies, prescriptions and portal summaries: a log entry's heading that names the
contact's kind after a dash or its writer by an initial or a title, a plan numbered in words inside wrapped prose, a
prescription's form abbreviated before the drug, a portal's name | DOB | MRN line padded with spaces, a medicine's line
that ends on its other name in brackets, an appointment's place set in before its date. Every line here is invented
for these tests."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_field_wraps import FIELD_START as WRAPS_FIELD_START
from archehr.data.note_layout import FIELD_START
from archehr.data.note_stamps import is_entry_stamp_line


def test_a_log_heading_with_the_contacts_kind_before_a_dash_stays_with_its_first_sentence():
    note = ("03/02/2025 21:10 Telephone - R. Penrose (Duty Nurse)\nCaller worried about the new tablets. "
            "Advised to keep taking them.\n\n"
            "04/02/2025 09:30 Home visit - R. Penrose / Dr T. Okoye (GP)\nSeen in the kitchen. Mood brighter.\n")
    assert texts(note) == [
        "03/02/2025 21:10 Telephone - R. Penrose (Duty Nurse) Caller worried about the new tablets.",
        "Advised to keep taking them.",
        "04/02/2025 09:30 Home visit - R. Penrose / Dr T. Okoye (GP) Seen in the kitchen.", "Mood brighter."]


def test_a_log_heading_naming_its_writer_by_an_initial_or_a_title_stays_with_its_first_sentence():
    note = ("11/03/2025 08:40  Ward physio K. Brennan MCSP\nWalked to the door with a frame. Stairs tomorrow.\n\n"
            "12/03/2025 16:05  Telephone - relative called, taken by J. Ames RN\nSon asked about visiting times.\n")
    assert texts(note) == [
        "11/03/2025 08:40 Ward physio K. Brennan MCSP Walked to the door with a frame.", "Stairs tomorrow.",
        "12/03/2025 16:05 Telephone - relative called, taken by J. Ames RN Son asked about visiting times."]


def test_a_log_heading_takes_its_first_line_when_that_is_a_result():
    note = "14/03/2025 11:20  Results - Dr P. Wells\nFBC: Hb 121, WCC 6.2, platelets 240.\nNo action needed.\n"
    assert texts(note) == ["14/03/2025 11:20 Results - Dr P. Wells FBC: Hb 121, WCC 6.2, platelets 240.",
                           "No action needed."]


def test_a_dated_line_of_prose_or_a_sentence_is_no_log_heading():
    assert not is_entry_stamp_line("04/02/2025 10:12 Day 2 call. Patient at home, sore but walking")
    assert not is_entry_stamp_line("04/02/2025 10:12 Telephone - advised rest.")
    assert not is_entry_stamp_line("04/02/2025 10:12 Advised to come in today for a urine test")
    assert is_entry_stamp_line("04/02/2025 10:12  Call from daughter - Sr M. Tully (practice nurse)")


def test_a_log_lines_stamp_and_writer_in_columns_before_a_field_of_prose_are_its_head():
    note = "02/05/2025 07:50  T. Moss  Obs: BP 131/72, pulse 80, settled overnight. Breakfast eaten.\n"
    assert texts(note) == ["02/05/2025 07:50 T. Moss Obs: BP 131/72, pulse 80, settled overnight.",
                           "Breakfast eaten."]


def test_a_date_with_its_months_name_between_hyphens_opens_a_log_entry():
    note = "09-Apr-2025 14:10  Dr Hale rang with results: sodium 131 (low), potassium normal.\n"
    assert texts(note) == ["09-Apr-2025 14:10 Dr Hale rang with results: sodium 131 (low), potassium normal."]


def test_a_plan_numbered_in_words_inside_wrapped_prose_gives_one_unit_an_item():
    note = ("Weight stable and no new side effects reported at this visit, she says.\n"
            "Plan: one. Keep the patch at 25 micrograms every 72 hours. two. Next review\n"
            "Thursday 12/06/2025 at 14:00, Larch Ward clinic room. three. Stop the spare\n"
            "tablets at home. four. Dietitian letter sent. five. She asked about going to\n"
            "Malta in late June: fine to travel with a letter.\n")
    assert texts(note)[1:] == ["Plan:", "one. Keep the patch at 25 micrograms every 72 hours.",
                               "two. Next review Thursday 12/06/2025 at 14:00, Larch Ward clinic room.",
                               "three. Stop the spare tablets at home.",
                               "four. Dietitian letter sent.",
                               "five. She asked about going to Malta in late June: fine to travel with a letter."]


def test_a_field_whose_value_is_one_in_words_opens_no_list():
    assert texts("Children: one. Works as a baker.\n") == ["Children: one.", "Works as a baker."]


def test_a_number_in_words_after_an_item_in_digits_is_no_next_item():
    assert texts("1. Take two. Then rest.\n") == ["1. Take two.", "Then rest."]


def test_a_prescriptions_form_abbreviation_ends_no_sentence():
    note = ("1. Tab. Ferrolex 100 mg once daily after lunch.\n2. Cap. Vitacal 0.5 mcg twice daily.\n"
            "Inj. Heparox 40 mg daily.\n")
    assert texts(note) == ["1. Tab. Ferrolex 100 mg once daily after lunch.", "2. Cap. Vitacal 0.5 mcg twice daily.",
                           "Inj. Heparox 40 mg daily."]


def test_a_name_dob_mrn_line_with_padded_pipes_is_one_field_each():
    note = "Portal summary\nJoanna MERRIWETHER   |   DOB 02/09/1991   |   MRN 77120453\n"
    assert texts(note) == ["Portal summary", "Joanna MERRIWETHER", "DOB 02/09/1991", "MRN 77120453"]


def test_a_medicines_line_ending_on_its_other_name_in_brackets_heads_its_instruction():
    note = ("START taking:\n  Zentiva 20 mg capsules (examplamine)\n"
            "  Take one capsule each morning. Swallow it whole.\n"
            "CONTINUE taking:\n  Sleepwell 2 mg modified-release tablets\n  Take one tablet at bedtime.\n")
    assert texts(note) == ["START taking:", "Zentiva 20 mg capsules (examplamine) Take one capsule each morning.",
                           "Swallow it whole.", "CONTINUE taking:",
                           "Sleepwell 2 mg modified-release tablets Take one tablet at bedtime."]


def test_an_appointments_place_set_in_before_its_date_is_one_block():
    note = ("Your next appointment\nHearing test\n  Audiology Clinic, Marsh Lane Hospital\n"
            "  Wednesday 14/05/2025 at 11:15\n")
    assert texts(note) == ["Your next appointment",
                           "Hearing test Audiology Clinic, Marsh Lane Hospital Wednesday 14/05/2025 at 11:15"]


def test_a_heading_over_an_appointments_name_set_in_is_no_appointment():
    note = "Coming up\n  Dressing check\n  Friday 16/05/2025  9:00 AM\n  Practice nurse room 2\n"
    assert texts(note)[0] == "Coming up"


def test_the_field_wraps_field_start_is_the_layouts():
    assert WRAPS_FIELD_START is FIELD_START
