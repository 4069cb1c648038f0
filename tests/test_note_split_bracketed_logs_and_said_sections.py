"""Shapes of the writers DH-DK's notes, on invented lines: a log's entry stamped in brackets with its writer's
initial, surname and role, a stamp with the writer's full name and a role in brackets, a dictation's section said
in lower case before its first sentence, and a portal's header of a name and identifiers set apart by pipes."""

from __future__ import annotations

from split_texts import texts


def test_bracketed_stamp_with_initial_and_role_stays_with_its_first_sentence() -> None:
    note = ("NURSE TELEPHONE RECORD\n\n"
            "[02/05/2024 10:15] J. Park CNS\n"
            "Rang about the new tablets. She feels sick after each dose.\n\n"
            "[09/05/2024 15:40] J. Park CNS\n"
            "Follow-up call. Sickness settled.\n")
    got = texts(note)
    assert "[02/05/2024 10:15] J. Park CNS Rang about the new tablets." in got
    assert "She feels sick after each dose." in got
    assert "[09/05/2024 15:40] J. Park CNS Follow-up call." in got


def test_stamp_with_full_name_and_role_in_brackets_stays_with_its_first_sentence() -> None:
    note = ("HELPLINE LOG\n\n"
            "11/03/2024 08:50  Ceri Morgan (MS CNS)\n"
            "Incoming call from patient. Reports a new numb patch on the left hand.\n")
    got = texts(note)
    assert "11/03/2024 08:50 Ceri Morgan (MS CNS) Incoming call from patient." in got
    assert "Reports a new numb patch on the left hand." in got


def test_said_section_name_is_cut_from_its_first_sentence() -> None:
    note = ("rehab clinic\npatient mr tom hale   dob 01/02/1960\n\n"
            "history mr hale comes with his wife. he says his legs feel heavier by the evening.\n\n"
            "examination power reduced in both legs at the hips. reflexes brisk.\n")
    got = texts(note)
    assert "history" in got and "mr hale comes with his wife." in got
    assert "examination" in got and "power reduced in both legs at the hips." in got


def test_said_section_name_before_a_verb_or_of_is_a_sentence() -> None:
    note = ("clinic\npatient ms ann roe   dob 01/02/1970\n\n"
            "history of asthma since childhood, well controlled on an inhaler.\n\n"
            "examination today showed a clear chest and no wheeze.\n")
    got = texts(note)
    assert "history of asthma since childhood, well controlled on an inhaler." in got
    assert "examination today showed a clear chest and no wheeze." in got


def test_portal_name_and_identifiers_under_a_pipe_title_are_units_each() -> None:
    note = ("CityCare Patient Portal | Visit Summary\n"
            "DOE, Mary-Ann | DOB 03/04/1970 | MRN XYZ-12345\n"
            "Visit: 05/06/2025 - Clinic review\n")
    got = texts(note)
    assert "CityCare Patient Portal | Visit Summary" in got
    assert {"DOE, Mary-Ann", "DOB 03/04/1970", "MRN XYZ-12345"} <= set(got)


def test_sign_off_under_an_appointment_block_is_no_line_of_it() -> None:
    note = ("Care plan: Flush weekly.\n"
            "Next appointment:\n"
            "Blue Unit Room 2\n"
            "14/03/2026, 10:00\n"
            "Flush and dressing\n"
            "Completed by: P. Ray, Staff Nurse          07/03/2026 15:20\n")
    got = texts(note)
    assert "Blue Unit Room 2 14/03/2026, 10:00 Flush and dressing" in got
    assert not any("Completed by" in u and "Flush and dressing" in u for u in got)


def test_place_and_date_line_keeps_what_for_set_in_under_it() -> None:
    note = ("Your next appointments\n"
            "Infusion Unit, 3 March 2026, 09:15\n"
            "  Iron infusion\n"
            "Clinic with Dr. Lowe: to be arranged\n")
    got = texts(note)
    assert "Infusion Unit, 3 March 2026, 09:15 Iron infusion" in got
    assert "Clinic with Dr. Lowe: to be arranged" in got


def test_phone_extension_abbreviation_ends_no_sentence() -> None:
    got = texts("Reconciled by: A. Lee, Pharmacist\nPharmacy contact: ext. 2210 (weekdays 09:00-17:00)\n")
    assert "Pharmacy contact: ext. 2210 (weekdays 09:00-17:00)" in got


def test_value_ending_a_wrapped_sentence_carries_it_on() -> None:
    note = ("FINDINGS\n"
            "Left ventricle: Normal size. Good function overall. Ejection fraction (biplane)\n"
            "58%. Previous study 01/02/2024: ejection fraction 55%.\n"
            "Right ventricle: Normal size and function.\n")
    got = texts(note)
    assert "Ejection fraction (biplane) 58%." in got
    assert "Previous study 01/02/2024: ejection fraction 55%." in got


def test_page_header_printed_again_with_the_page_mark_is_one_unit_on_each_page() -> None:
    header = "Patient: ROE, Tom     Unit No: AB-77120"
    note = ("Northfield Hospital          Biopsy Report\n"
            f"{header}     DOB: 05/06/1950\n"
            "DETAILS\n"
            "Sample taken from the left hip under local anaesthetic.\n"
            "Printed 01/02/2026 - Page 1 of 2\n"
            "Northfield Hospital          Biopsy Report\n"
            f"{header}     Page 2 of 2\n"
            "RESULTS\n"
            "No abnormal cells were seen.\n")
    got = texts(note)
    assert "Patient: ROE, Tom Unit No: AB-77120 DOB: 05/06/1950" in got
    assert "Patient: ROE, Tom Unit No: AB-77120 Page 2 of 2" in got
