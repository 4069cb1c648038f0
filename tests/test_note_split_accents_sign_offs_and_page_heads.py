"""Shapes of bilingual and accented exports, letters' sign-offs and PDF page heads: a log heading whose writer's
surname is accented, a page mark written in two languages, fields parted by a single-spaced middle dot, an
addressee's name over a house number, a dictation's "dictated / transcribed" dates, an appointment still to be
booked under its name, a title line naming a department before a dash, an "on behalf of" line under a role, a
page's title line in columns over the line that marks the page, and a complete order over a general sentence.
Every line here is invented for these tests."""

from __future__ import annotations

from split_texts import texts


def test_a_log_heading_with_an_accented_surname_stays_with_its_first_sentence():
    note = ("2025-03-04 09:15  É. Ménard, RN (teaching visit)\nDressing changed without trouble. Skin intact.\n"
            "----------------------------------------\n"
            "2025-03-06 16:40  Telephone, son calling — J. Côté, RN\nSon asks about bathing. Advised a sponge bath.\n")
    assert texts(note) == [
        "2025-03-04 09:15 É. Ménard, RN (teaching visit) Dressing changed without trouble.", "Skin intact.",
        "2025-03-06 16:40 Telephone, son calling — J. Côté, RN Son asks about bathing.", "Advised a sponge bath."]


def test_a_bilingual_page_mark_makes_a_running_header_and_footer_one_unit():
    note = ("Clinique Lavande - Laboratoire                Page 1 de/of 2\nREPORT OF BIOPSY\n\n"
            "The sample shows benign skin.\n\n"
            "CONFIDENTIEL / Confidential           Imprimé/Printed 2025-02-03 10:00\n"
            "Clinique Lavande - Laboratoire                Page 2 de/of 2\n\nNo further action.\n\n"
            "CONFIDENTIEL / Confidential           Imprimé/Printed 2025-02-03 10:00\n")
    got = texts(note)
    assert "Clinique Lavande - Laboratoire Page 1 de/of 2" in got
    assert "Clinique Lavande - Laboratoire Page 2 de/of 2" in got
    assert got.count("CONFIDENTIEL / Confidential Imprimé/Printed 2025-02-03 10:00") == 2


def test_fields_parted_by_a_single_spaced_middle_dot_are_a_unit_each():
    note = "CLINIQUE DES PINS\n12, rue Haute\nTél. : 514-555-0100 · Téléc. : 514-555-0101\n"
    assert texts(note)[-2:] == ["Tél. : 514-555-0100", "Téléc. : 514-555-0101"]
    # (the parts of one item joined by dots, no label after them, stay one)
    assert texts("Video visit · Neurology · Mon 3 Feb\n") == ["Video visit · Neurology · Mon 3 Feb"]


def test_an_addressee_named_with_a_title_over_a_house_number_is_two_units():
    note = ("Clinic of the Hills\n4 Long Road\n\nMarch 3, 2025\n\nMme Odile Vachon-Roy\n17, rue des Saules\n"
            "Laval (Québec)  H7A 1B2\n\nDear Mme Vachon-Roy,\n")
    got = texts(note)
    assert "Mme Odile Vachon-Roy" in got and "17, rue des Saules" in got


def test_a_dictations_dictated_and_transcribed_dates_under_its_signer_are_a_unit_each():
    note = "plan discussed, he agreed.\n\ndr ann roe\ndict 2025-01-08 / tr 2025-01-09\n"
    assert texts(note)[-2:] == ["dict 2025-01-08", "tr 2025-01-09"]
    assert texts("Dose 5 / 10 mg\n") == ["Dose 5 / 10 mg"]


def test_an_appointment_still_to_be_booked_stays_with_its_name():
    note = ("Upcoming appointments\n    Dressing check — Nurse visit\n    Friday, May 9, 2025 at 9:00 AM\n\n"
            "    Review with Dr. Paquin\n    To be booked in about 6 weeks — we will phone you\n\nTest results\n")
    got = texts(note)
    assert "Review with Dr. Paquin To be booked in about 6 weeks — we will phone you" in got


def test_a_title_line_naming_a_department_before_a_dash_is_its_own_unit():
    note = ("HILLCREST GENERAL HOSPITAL NHS FOUNDATION TRUST\nACUTE MEDICAL UNIT - DISCHARGE SHEET\n"
            "Name: Ann Lee      DOB: 01/02/1960\n")
    assert texts(note)[:2] == ["HILLCREST GENERAL HOSPITAL NHS FOUNDATION TRUST",
                               "ACUTE MEDICAL UNIT - DISCHARGE SHEET"]


def test_a_signers_on_behalf_of_line_under_a_role_is_its_own_unit():
    note = ("Yours sincerely,\n\n\nDr Tomas Reyes\nSpecialty Registrar in Cardiology\n"
            "on behalf of Dr H. Mills, Consultant Cardiologist\n\ncc: Dr P. Quinn\n")
    got = texts(note)
    assert "Specialty Registrar in Cardiology" in got and "on behalf of Dr H. Mills, Consultant Cardiologist" in got


def test_a_pages_title_line_in_columns_over_its_page_mark_is_one_unit():
    note = ("Hillcrest Hospitals            Patient Information Leaflet\n"
            "Cardiology Day Unit                                 Page 1 of 2\nName: Ann Lee\n\nRest today.\n\n"
            "                                                    Page 2 of 2\nWalk a little each day.\n")
    got = texts(note)
    assert got[:2] == ["Hillcrest Hospitals Patient Information Leaflet", "Cardiology Day Unit Page 1 of 2"]


def test_a_dosed_order_ends_before_a_general_sentence_at_its_depth():
    note = ("You were seen in the sleep clinic today with your daughter, and we talked about your machine, your mask "
            "and how you have been sleeping since the last visit.\n\n"
            "Changes made today:\nSTOPPED: Melatonin 2 mg at night\n"
            "NEW: Montelukast 10 mg tablet, 1 tablet once daily at night\n"
            "Please keep taking all your other medicines as before.\n")
    assert texts(note)[-2:] == ["NEW: Montelukast 10 mg tablet, 1 tablet once daily at night",
                                "Please keep taking all your other medicines as before."]
    # (an order without its dosing keeps the instruction under it)
    assert texts("CONTINUE: aspirin 81 mg\nTake 1 tablet by mouth at bedtime.\n") == [
        "CONTINUE: aspirin 81 mg Take 1 tablet by mouth at bedtime."]


def test_a_cut_before_a_colon_set_off_its_label_or_after_a_log_heading_is_undone():
    from archehr.data.note_sentence_edits import should_join
    # (a parser may cut "Téléc." from ": 514-555-0101"; no sentence opens with a colon)
    assert should_join("Téléc.", ": 514-555-0101", "text")
    # (nor ends on a log entry's heading: its stamp and writer stay with the entry's first sentence)
    assert should_join("2025-03-04 09:15  É. Ménard, RN (teaching visit)", "Dressing changed.", "text")
    assert not should_join("Dressing changed without trouble.", "Skin intact.", "text")


def test_a_signers_role_and_specialty_after_two_commas_stand_apart_from_the_date_in_its_column():
    note = "Home the same day.\n\nDr Ines Varga, Staff Grade, Plastic Surgery          03/02/2026 09:15\n"
    assert texts(note) == ["Home the same day.", "Dr Ines Varga, Staff Grade, Plastic Surgery", "03/02/2026 09:15"]


def test_an_appointment_whose_date_is_still_to_be_confirmed_stays_with_its_name():
    note = ("Upcoming appointments\n  Wound clinic with Nurse Ellis\n  Monday 12 May 2025 at 11:00\n\n"
            "  Hand therapy review\n  Date to be confirmed - the therapists will write to you\n\nMedicines\n")
    assert texts(note) == ["Upcoming appointments", "Wound clinic with Nurse Ellis Monday 12 May 2025 at 11:00",
                           "Hand therapy review Date to be confirmed - the therapists will write to you", "Medicines"]
