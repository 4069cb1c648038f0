"""Export patterns of pasted notes: dictation typed up in lower case, a header's fields set apart by pipes above a
results table, and more. Every line is invented; every expected split is written out by hand."""

from __future__ import annotations

from split_texts import texts


def test_dictation_in_lower_case_opens_its_sentences_in_lower_case():
    note = ("Findings (dictated):\n"
            "knee washed out with saline, meniscus trimmed. cartilage looked healthy. blood loss 10 ml. "
            "wound closed with 3-0 nylon, approx. two sutures per port.\n")
    assert texts(note) == ["Findings (dictated):",
                           "knee washed out with saline, meniscus trimmed.",
                           "cartilage looked healthy.",
                           "blood loss 10 ml.",
                           "wound closed with 3-0 nylon, approx. two sutures per port."]


def test_a_capitalised_dictation_run_on_in_lower_case_is_cut_too():
    # (no sentence of the unit opens with a capital after its first: the writer opens them in lower case)
    note = "Knee washed out with saline. cartilage looked healthy. blood loss 10 ml.\n"
    assert texts(note) == ["Knee washed out with saline.", "cartilage looked healthy.", "blood loss 10 ml."]


def test_a_dictation_that_opens_more_sentences_in_lower_case_than_with_capitals_is_cut_at_each():
    note = "Port sites infiltrated. gallbladder retrieved in a bag. Dr Lee assisted. liver looked normal.\n"
    assert texts(note) == ["Port sites infiltrated.", "gallbladder retrieved in a bag.", "Dr Lee assisted.",
                           "liver looked normal."]
    # (one lower-case start among sentences opened with capitals is no such writing: it stays as it is)
    note = "Pain settled. tolerated diet. Walked the ward. Seen by physio. Home today.\n"
    assert texts(note) == ["Pain settled. tolerated diet.", "Walked the ward.", "Seen by physio.", "Home today."]


def test_prose_that_opens_its_sentences_with_capitals_keeps_an_abbreviation_before_lower_case():
    note = "Take amoxicillin 500 mg t.i.d. with food. Finish the course. Call if the rash spreads.\n"
    assert texts(note) == ["Take amoxicillin 500 mg t.i.d. with food.", "Finish the course.",
                           "Call if the rash spreads."]


def test_a_header_of_pipe_fields_over_a_pipe_table_is_fields_not_rows():
    note = ("Patient: Ann Lee | DOB: 01/02/1970\n"
            "Ordered by: Dr Tom Reed | Reason: fatigue\n"
            "Collected: 03/04/2025 09:10 | Reported: 05/04/2025\n"
            "\n"
            "Test | Result | Units | Range\n"
            "Ferritin | 9 | ug/L | 15 - 150\n"
            "Sodium | 139 | mmol/L | 135 - 145\n")
    assert texts(note) == ["Patient: Ann Lee", "DOB: 01/02/1970", "Ordered by: Dr Tom Reed", "Reason: fatigue",
                           "Collected: 03/04/2025 09:10", "Reported: 05/04/2025",
                           "Test | Result | Units | Range", "Ferritin | 9 | ug/L | 15 - 150",
                           "Sodium | 139 | mmol/L | 135 - 145"]


def test_two_signers_apart_by_a_slash_keep_their_initials():
    note = "12:40 Discharged home with daughter.\nP. Quill, Ward Sister / M. Orbach RN\n"
    assert texts(note) == ["12:40 Discharged home with daughter.", "P. Quill, Ward Sister / M. Orbach RN"]


def test_an_age_abbreviation_before_the_sex_ends_no_field():
    note = "Pt: DOYLE, Hal   64 y.o. M   MRN: 12-345-678\n"
    assert texts(note) == ["Pt: DOYLE, Hal", "64 y.o. M", "MRN: 12-345-678"]


def test_a_document_title_in_capitals_under_a_long_line_of_capitals_is_a_line_of_its_own():
    note = ("NORTH RIDGE GENERAL HOSPITAL - DEPARTMENT OF ORTHOPAEDIC SURGERY\n"
            "OPERATION NOTE\n"
            "\n"
            "Patient: Ann Lee\n")
    assert texts(note) == ["NORTH RIDGE GENERAL HOSPITAL - DEPARTMENT OF ORTHOPAEDIC SURGERY", "OPERATION NOTE",
                           "Patient: Ann Lee"]


def test_a_pen_injector_with_its_instruction_set_in_under_it_is_one_entry():
    note = ("START taking:\n"
            "etanercept 50 mg/mL pen injector\n"
            "    Inject 50 mg under the skin once a week, starting Monday. Keep the pens in the fridge.\n")
    assert texts(note) == ["START taking:",
                           "etanercept 50 mg/mL pen injector Inject 50 mg under the skin once a week, starting "
                           "Monday.", "Keep the pens in the fridge."]


def test_an_impression_under_a_wrapped_field_is_one_more_field():
    note = ("Procedure: Gastroscopy.\n"
            "Biopsies: Two taken from the antrum. Results are usually back in 2\n"
            "to 3 weeks.\n"
            "Impression: Mild gastritis in the antrum, no ulcer seen today.\n")
    assert texts(note) == ["Procedure: Gastroscopy.", "Biopsies: Two taken from the antrum.",
                           "Results are usually back in 2 to 3 weeks.",
                           "Impression: Mild gastritis in the antrum, no ulcer seen today."]


def test_an_appointment_named_over_lines_set_in_under_it_is_one_unit_with_its_fields_and_sentences():
    note = ("Upcoming appointments\n"
            "Diabetes clinic - video appointment\n"
            "   Tuesday 4 March 2025, 10:15 AM\n"
            "   With: Dr Ann Lee, Diabetologist\n"
            "   We will send the link by text.\n"
            "\n"
            "Foot check at your surgery\n"
            "   Week of 10 March 2025\n"
            "   Please book with the practice nurse.\n")
    assert texts(note) == ["Upcoming appointments",
                           "Diabetes clinic - video appointment Tuesday 4 March 2025, 10:15 AM With: Dr Ann Lee, "
                           "Diabetologist We will send the link by text.",
                           "Foot check at your surgery Week of 10 March 2025 Please book with the practice nurse."]


def test_a_stack_of_appointment_lines_set_in_under_a_heading_is_one_unit():
    note = ("Follow-up\n"
            "    Sleep clinic review\n"
            "    Dr. Omar Haddad, Hillside Sleep Centre\n"
            "    Wed Jun 4, 2025 at 2:00 PM\n"
            "    22 Harbor Rd, Floor 3\n"
            "\n"
            "    Hearing test\n"
            "    The audiology office will call you to schedule\n")
    assert texts(note) == ["Follow-up",
                           "Sleep clinic review Dr. Omar Haddad, Hillside Sleep Centre Wed Jun 4, 2025 at 2:00 PM "
                           "22 Harbor Rd, Floor 3",
                           "Hearing test The audiology office will call you to schedule"]
    # (a signature's name set in over its date, with no heading over appointments and no time of day, is no
    # appointment; nor is a stack that says neither when nor that it will be booked)
    assert texts("Signed\n    Dr Ann Lee\n    Consultant\n    03/04/2025\n")[:2] == ["Signed", "Dr Ann Lee"]
    assert texts("Diagnoses\n    Asthma\n    Hay fever\n") == ["Diagnoses", "Asthma", "Hay fever"]


def test_an_order_in_its_column_is_cut_at_its_sentences():
    note = ("MEDICATION CHANGES\n"
            "START    Cefalexin 500 mg four times daily - cellulitis; 7 days. Take with water.\n"
            "STOP     Naproxen 250 mg twice daily - kidney function.\n")
    assert texts(note) == ["MEDICATION CHANGES", "START Cefalexin 500 mg four times daily - cellulitis; 7 days.",
                           "Take with water.", "STOP Naproxen 250 mg twice daily - kidney function."]


def test_a_field_value_wrapped_inside_a_title_at_a_paragraphs_end_joins_its_field():
    note = ("Clinic date: 02/03/2025        Surgeon: Ms Ada Quint, Consultant Orthopaedic\n"
            "Surgeon\n"
            "\n"
            "Thank you for seeing him.\n")
    assert texts(note) == ["Clinic date: 02/03/2025", "Surgeon: Ms Ada Quint, Consultant Orthopaedic Surgeon",
                           "Thank you for seeing him."]
    # (under a field whose value ends in no capitalised word, a short line is a line of its own)
    assert texts("Clinic date: 02/03/2025        Ward: 7B\nSummary\n") == ["Clinic date: 02/03/2025", "Ward: 7B",
                                                                          "Summary"]


def test_a_pdf_header_wrapped_inside_its_fields_gives_each_field_whole():
    note = ("CLINIC REPORT\n"
            "Patient: Anna Mae\n"
            "PIKE   DOB: 01/02/1970   MRN: X1234\n"
            "Referred by: Dr T. Ode   Reason for referral: dizziness\n"
            "and falls at home\n"
            "cc: Dr T. Ode\n")
    assert texts(note) == ["CLINIC REPORT", "Patient: Anna Mae PIKE", "DOB: 01/02/1970", "MRN: X1234",
                           "Referred by: Dr T. Ode", "Reason for referral: dizziness and falls at home",
                           "cc: Dr T. Ode"]
