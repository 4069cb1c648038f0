"""Two signatures set side by side at a note's end, blanks to sign on, and a later page's running header: each
signer's name, role and date is a unit of its own, as under one signature; a table of clinicians, one a row, stays
rows; a later page's header line is one unit whatever it holds. Every expected split is written out by hand, on
invented lines."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_page import is_rule_line
from archehr.data.note_signatures import side_by_side_signatures


def test_two_signers_names_and_their_signed_dates_side_by_side_are_a_unit_each():
    note = ("The patient was counselled and agrees with the plan.\n\n"
            "Dr Amina Rahman, Consultant Physician      Sister Joan Pike, Ward Manager\n"
            "Signed 04/03/2025 10:15                    Signed 04/03/2025 10:40\n")
    assert texts(note) == ["The patient was counselled and agrees with the plan.",
                           "Dr Amina Rahman, Consultant Physician", "Sister Joan Pike, Ward Manager",
                           "Signed 04/03/2025 10:15", "Signed 04/03/2025 10:40"]


def test_names_over_roles_under_blanks_to_sign_on():
    note = ("Plan agreed with the family.\n\n"
            "______________________          ______________________\n"
            "Dr Amina Rahman                  Sister Joan Pike\n"
            "Consultant Physician             Ward Manager\n")
    assert texts(note) == ["Plan agreed with the family.", "Dr Amina Rahman", "Sister Joan Pike",
                           "Consultant Physician", "Ward Manager"]


def test_blanks_to_sign_on_side_by_side_are_a_rule_line():
    assert is_rule_line("______________________          ______________________")
    assert not is_rule_line("___")  # (a de-identified name's placeholder is text)


def test_a_table_of_clinicians_one_a_row_is_no_signature_block():
    lines = ["Clinician            Specialty", "Dr A. Lee            Cardiology", "Dr B. Shah           Neurology"]
    assert side_by_side_signatures(lines) == set()
    assert side_by_side_signatures(["Dr A. Lee      Dr B. Shah", "Cardiology     Neurology"]) == {0, 1}


def test_a_later_pages_header_with_the_patients_fields_and_the_documents_title_is_one_unit():
    note = ("Westmere General Hospital                                Page 1 of 2\n"
            "Ward 6 - Discharge Letter\n"
            "Patient: Rowan HALE       MRN: 4471209\n"
            "Diagnosis: Community-acquired pneumonia of the right lower lobe, treated\n"
            "with oral amoxicillin for five days.\n"
            "Westmere General Hospital                                Page 2 of 2\n"
            "Patient: Rowan HALE   MRN: 4471209   Discharge Letter\n"
            "Follow-up: chest X-ray in 6 weeks.\n")
    assert texts(note) == ["Westmere General Hospital Page 1 of 2", "Ward 6 - Discharge Letter", "Patient: Rowan HALE",
                           "MRN: 4471209",
                           "Diagnosis: Community-acquired pneumonia of the right lower lobe, treated with oral "
                           "amoxicillin for five days.",
                           "Westmere General Hospital Page 2 of 2", "Patient: Rowan HALE MRN: 4471209 Discharge Letter",
                           "Follow-up: chest X-ray in 6 weeks."]


def test_a_page_mark_between_double_dashes_stands_alone():
    note = ("Her bloods in March were normal.\n"
            "Printed on 12/03/2025 at 14:22 by J SMITH\n"
            "-- 1 of 2 --\n"
            "Ashby Vale NHS Foundation Trust\n"
            "We will increase the dose to 20 mg weekly from next Monday.\n")
    assert texts(note) == ["Her bloods in March were normal.", "Printed on 12/03/2025 at 14:22 by J SMITH",
                           "-- 1 of 2 --", "Ashby Vale NHS Foundation Trust",
                           "We will increase the dose to 20 mg weekly from next Monday."]


def test_a_footer_naming_what_was_printed_beside_its_confidential_mark_is_one_unit():
    note = ("Impression: Gallstone, no cholecystitis.\n"
            "Report printed 03/02/2025 09:01                  CONFIDENTIAL\n")
    assert texts(note) == ["Impression: Gallstone, no cholecystitis.", "Report printed 03/02/2025 09:01 CONFIDENTIAL"]


def test_a_sign_off_and_the_reports_end_mark_apart_by_a_pipe_are_two_units():
    note = ("Comment: ferritin lower than before.\n\n"
            "Report authorised by: K. Marsh, Biomedical Scientist | END OF REPORT\n")
    assert texts(note) == ["Comment: ferritin lower than before.",
                           "Report authorised by: K. Marsh, Biomedical Scientist", "END OF REPORT"]


def test_a_title_bar_naming_its_report_stays_one_unit():
    note = "HAEMATOLOGY REPORT | Cedar Hill Laboratory | Page 1 of 1\nHb 131 g/L\n"
    assert texts(note)[0] == "HAEMATOLOGY REPORT | Cedar Hill Laboratory | Page 1 of 1"
