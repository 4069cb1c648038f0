"""Shapes of exported notes the written split conventions settle: a log entry's heading with its writer's title and
grade, initials after a title typed in lower case, labels in capitals or in lower case before a clause, a signer's
date set far right, a sign-off's parts parted by pipes, a dictated patient line of ids, a letterhead's department,
an AVS's appointment and order headings, a phone number at a field's end and a footer's page mark. Every expected
split is written out by hand, on invented lines."""

from __future__ import annotations

from split_texts import texts

# --- log entries --------------------------------------------------------------------------------------------------

def test_a_log_heading_with_a_titled_writer_and_a_role_of_three_words_stays_with_its_first_sentence():
    note = ("WOUND CLINIC - PHONE RECORD\n\n"
            "04/05/2025 10:20  Sr. K. Molefe, Tissue Viability Nurse\n"
            "Call from the patient's son about a wet dressing.\n"
            "Advised to keep it dry until the nurse visits.\n")
    assert texts(note) == ["WOUND CLINIC - PHONE RECORD",
                           "04/05/2025 10:20 Sr. K. Molefe, Tissue Viability Nurse Call from the patient's son about "
                           "a wet dressing.",
                           "Advised to keep it dry until the nurse visits."]


def test_a_log_heading_takes_its_first_line_even_when_that_line_is_a_heading():
    note = ("WARD LOG\n\n"
            "05/05/2025 16:10  Sr. K. Molefe\n"
            "Bloods reviewed:\n"
            "Hb 121 g/L\n"
            "CRP 8 mg/L\n")
    assert texts(note) == ["WARD LOG", "05/05/2025 16:10 Sr. K. Molefe Bloods reviewed:", "Hb 121 g/L", "CRP 8 mg/L"]


def test_a_timed_entry_with_a_writers_initial_and_role_before_a_dash_keeps_the_name_whole():
    note = ("RECOVERY NOTES\n"
            "09:15 B. Okafor RN - Back from theatre, awake and settled.\n"
            "09:45 B. Okafor RN - Drinking water, no nausea.\n")
    assert texts(note) == ["RECOVERY NOTES", "09:15 B. Okafor RN - Back from theatre, awake and settled.",
                           "09:45 B. Okafor RN - Drinking water, no nausea."]


_WRAPPED_ENTRY = ("12/06/2025 08:05  Dr Tomas Lindqvist-Berg (Anaesthetics ST4)\n"
                  "Reviewed patient with wife. Operation put off today because his blood sugar is\n"
                  "still above the level agreed for a planned anaesthetic this morning. Bloods 02/06/2025\n"
                  "reviewed: Hb 140 g/L, sodium 139, potassium 4.2 - all within range. Advised to\n"
                  "see his GP this week.\n\n"
                  "14/06/2025 11:30  RN Ada Fenwick (telephone)\n"
                  "Call from patient's wife, Mrs Ruth Lindsay, who works as a pharmacy technician at\n"
                  "the hospital. Sugars since 12/06: 9.1, 8.4, 8.8. Clinic letter sent.\n")


def test_a_wrapped_log_entry_keeps_its_heading_its_first_sentence_and_a_lower_case_word_under_a_full_line():
    assert texts("THEATRE ADMISSIONS RECORD\n\n" + _WRAPPED_ENTRY) == [
        "THEATRE ADMISSIONS RECORD",
        "12/06/2025 08:05 Dr Tomas Lindqvist-Berg (Anaesthetics ST4) Reviewed patient with wife.",
        "Operation put off today because his blood sugar is still above the level agreed for a planned anaesthetic "
        "this morning.",
        "Bloods 02/06/2025 reviewed: Hb 140 g/L, sodium 139, potassium 4.2 - all within range.",
        "Advised to see his GP this week.",
        "14/06/2025 11:30 RN Ada Fenwick (telephone) Call from patient's wife, Mrs Ruth Lindsay, who works as a "
        "pharmacy technician at the hospital.",
        "Sugars since 12/06: 9.1, 8.4, 8.8.",
        "Clinic letter sent."]


def test_a_wrapped_entry_cut_at_a_full_stop_before_an_abbreviation_in_capitals():
    note = ("ED NURSING\n\n"
            "03/03/2025 14:10  J. Wong, RN\n"
            "Ondansetron 4 mg IV, paracetamol 1 g IV and dexamethasone 8 mg IV were all\n"
            "given. NS 500 mL bolus started.\n")
    assert texts(note) == ["ED NURSING",
                           "03/03/2025 14:10 J. Wong, RN Ondansetron 4 mg IV, paracetamol 1 g IV and dexamethasone "
                           "8 mg IV were all given.",
                           "NS 500 mL bolus started."]


# --- initials, titles and ids ----------------------------------------------------------------------------------

def test_a_lower_case_dictations_titled_initial_ends_no_sentence():
    note = ("day unit note, ward 3.\n"
            "date 02 may 2025. operator dr k. mensah. assisted by sister b. ngata.\n\n"
            "dictated by dr k. mensah, surgical registrar.\n"
            "cc dr l. omar, hill street surgery.\n")
    assert texts(note) == ["day unit note, ward 3.", "date 02 may 2025.", "operator dr k. mensah.",
                           "assisted by sister b. ngata.", "dictated by dr k. mensah, surgical registrar.",
                           "cc dr l. omar, hill street surgery."]


def test_a_hospital_number_with_a_hyphen_after_its_abbreviation_stays_with_it():
    note = "Dear Dr Mensah\n\nPatient: Ann Ruiz, Hosp No. AB-0044321\n\nI saw her today.\n"
    assert texts(note) == ["Dear Dr Mensah", "Patient: Ann Ruiz,", "Hosp No. AB-0044321", "I saw her today."]


def test_a_dictated_patient_line_of_ids_after_commas_gives_a_field_each():
    note = ("clinic letter, eye unit.\n"
            "patient mr tom hale, hospital number xy 123 4567, date of birth 04 june 1950.\n"
            "seen today after his cataract operation. the eye is quiet.\n")
    assert texts(note)[:4] == ["clinic letter, eye unit.", "patient mr tom hale,", "hospital number xy 123 4567,",
                               "date of birth 04 june 1950."]


def test_a_lower_case_header_in_columns_with_an_initial_or_a_title_is_a_field_each():
    note = ("ent clinic dictation\n"
            "patient: ruiz, ana m.   dob: 04/04/1980   mrn: 5551234\n"
            "dictated by: dr. li wen, consultant surgeon   date: 03/03/2025\n\n"
            "she came with her sister. the ear is dry today.\n")
    assert texts(note)[:6] == ["ent clinic dictation", "patient: ruiz, ana m.", "dob: 04/04/1980", "mrn: 5551234",
                               "dictated by: dr. li wen, consultant surgeon", "date: 03/03/2025"]


# --- labels before clauses ---------------------------------------------------------------------------------------

def test_a_paragraph_opened_by_a_label_in_capitals_before_a_clause_heads_it():
    note = ("DISCHARGE SUMMARY\n\n"
            "DIAGNOSIS: Community-acquired pneumonia.\n\n"
            "TREATMENT ON THE WARD: She was given amoxicillin by mouth from the first day. Her fever settled.\n\n"
            "INVESTIGATIONS:\n"
            "CRP 88 mg/L\n\n"
            "WORK: She can go back to her office job after one week at home.\n"
            "WHEN TO COME BACK: Come back at once if your breathing gets worse or you cough up blood.\n")
    assert texts(note) == ["DISCHARGE SUMMARY", "DIAGNOSIS: Community-acquired pneumonia.",
                           "TREATMENT ON THE WARD:", "She was given amoxicillin by mouth from the first day.",
                           "Her fever settled.", "INVESTIGATIONS:", "CRP 88 mg/L",
                           "WORK:", "She can go back to her office job after one week at home.",
                           "WHEN TO COME BACK:",
                           "Come back at once if your breathing gets worse or you cough up blood."]


def test_a_run_of_a_leaflets_fields_keeps_each_capital_label_with_its_sentence():
    note = ("DRUG: AMOXICILLIN 500 MG CAPSULE\n"
            "DIRECTIONS: TAKE 1 CAPSULE THREE TIMES A DAY.\n"
            "HOW TO TAKE: Take it with a full glass of water. Finish the whole course.\n"
            "MISSED DOSE: Take it as soon as you remember on the same day.\n")
    assert texts(note) == ["DRUG: AMOXICILLIN 500 MG CAPSULE", "DIRECTIONS: TAKE 1 CAPSULE THREE TIMES A DAY.",
                           "HOW TO TAKE: Take it with a full glass of water.", "Finish the whole course.",
                           "MISSED DOSE: Take it as soon as you remember on the same day."]


def test_lower_case_labels_before_long_prose_or_over_a_sections_lines_head_their_text():
    note = ("gp visit note (dictated)\n\n"
            "assessment: sprained left wrist, mild.\n"
            "safety advice: come back if the fingers go numb or cold, or if the pain is no better with the splint "
            "after five days.\n\n"
            "objective: temp 36.9, pulse 80.\n"
            "swelling over the back of the left wrist. no bony tenderness.\n")
    assert texts(note) == ["gp visit note (dictated)", "assessment: sprained left wrist, mild.", "safety advice:",
                           "come back if the fingers go numb or cold, or if the pain is no better with the splint "
                           "after five days.",
                           "objective:", "temp 36.9, pulse 80.", "swelling over the back of the left wrist.",
                           "no bony tenderness."]


# --- sign-offs, headers and footers ----------------------------------------------------------------------------

def test_a_signers_date_in_a_column_of_its_own_is_a_unit_but_a_date_a_space_on_stays():
    far = "A. Okoye, MBBS FRCP Cardiology                 12/04/2025 09:30\n"
    near = "Ben Tal, PA-C   10/29/2026 16:20\n"
    role = "J. Marsh, StR Dermatology   03/11/2025 15:05\n"
    joined = "Ben Tal, PA-C 10/29/2026 16:20\n"
    assert texts("Plan: review in 6 weeks.\n\n" + far) == ["Plan: review in 6 weeks.",
                                                          "A. Okoye, MBBS FRCP Cardiology", "12/04/2025 09:30"]
    assert texts("Plan: review in 6 weeks.\n\n" + near) == ["Plan: review in 6 weeks.", "Ben Tal, PA-C",
                                                           "10/29/2026 16:20"]
    assert texts("Plan: review in 6 weeks.\n\n" + role) == ["Plan: review in 6 weeks.", "J. Marsh, StR Dermatology",
                                                           "03/11/2025 15:05"]
    assert texts("Plan: review in 6 weeks.\n\n" + joined)[-1] == "Ben Tal, PA-C 10/29/2026 16:20"


def test_a_sign_offs_parts_parted_by_pipes_are_a_unit_each():
    note = ("Bring your tablets to the next visit.\n\n"
            "Reconciled by P. Shah (Pharmacist) 02/03/2025 10:15 | Checked by Dr M. Varga\n\n"
            "Reviewed by: Dr. Ines Roth, Anaesthesia | 2025-03-02 11:05\n")
    assert texts(note) == ["Bring your tablets to the next visit.",
                           "Reconciled by P. Shah (Pharmacist) 02/03/2025 10:15", "Checked by Dr M. Varga",
                           "Reviewed by: Dr. Ines Roth, Anaesthesia", "2025-03-02 11:05"]


def test_a_letterhead_in_capitals_ending_on_its_department_is_its_own_line():
    note = ("LAKESIDE GENERAL AND DISTRICT HOSPITAL - RENAL DEPARTMENT\n"
            "DIALYSIS PRESCRIPTION REVIEW AT CLINIC VISIT\n\n"
            "Patient: Ann Ruiz\n\n"
            "She has felt well on dialysis three times a week since the change of her fluid\n"
            "target last month, with no cramps and no low blood pressure on the machine.\n")
    assert texts(note) == ["LAKESIDE GENERAL AND DISTRICT HOSPITAL - RENAL DEPARTMENT",
                           "DIALYSIS PRESCRIPTION REVIEW AT CLINIC VISIT", "Patient: Ann Ruiz",
                           "She has felt well on dialysis three times a week since the change of her fluid target "
                           "last month, with no cramps and no low blood pressure on the machine."]


def test_a_date_and_a_place_in_two_columns_beside_header_fields_are_two_fields_in_either_order():
    note = ("Visit Summary\n"
            "Ann Ruiz    DOB: 4/4/1980\n"
            "03/02/2025    Hilltop Urgent Care - Main Street\n"
            "Provider: Li Wen, NP\n")
    assert texts(note) == ["Visit Summary", "Ann Ruiz", "DOB: 4/4/1980", "03/02/2025",
                           "Hilltop Urgent Care - Main Street", "Provider: Li Wen, NP"]


def test_a_phone_number_ends_its_field_before_a_sentence_with_a_capital():
    note = ("SEE YOUR DOCTOR\n"
            "Family doctor: Dr. Ana Ruiz, Hilltop Family Practice, Ridge Road, (555) 555-0177\n"
            "Call the office to book a visit within 1 week.\n")
    assert texts(note) == ["SEE YOUR DOCTOR",
                           "Family doctor: Dr. Ana Ruiz, Hilltop Family Practice, Ridge Road, (555) 555-0177",
                           "Call the office to book a visit within 1 week."]


def test_a_page_mark_after_a_footers_sentence_on_its_line_stays_with_it():
    note = "Call the clinic with any questions.\n\nThis letter was printed on 03/03/2025 10:10. Page 1 of 1\n"
    assert texts(note) == ["Call the clinic with any questions.",
                           "This letter was printed on 03/03/2025 10:10. Page 1 of 1"]


# --- an AVS's appointments and orders --------------------------------------------------------------------------

def test_an_avs_sentence_over_a_set_in_appointment_and_a_continue_heading_with_a_clause():
    note = ("Coming up\n"
            "You have an appointment coming up:\n"
            "  TUE Mar 4, 2025\n"
            "  10:30 AM     Follow-up Visit with Ana Ruiz, MD\n"
            "               Hilltop Cardiology - Heart Failure Clinic\n"
            "               12 Ridge Road, Suite 4\n\n"
            "CONTINUE these medications which have NOT CHANGED\n"
            "  bisoprolol 5 mg tablet\n"
            "      Take 1 tablet by mouth daily.\n"
            "  ramipril 5 mg capsule\n"
            "      Take 1 capsule by mouth daily.\n")
    assert texts(note) == ["Coming up", "You have an appointment coming up:",
                           "TUE Mar 4, 2025 10:30 AM Follow-up Visit with Ana Ruiz, MD Hilltop Cardiology - Heart "
                           "Failure Clinic 12 Ridge Road, Suite 4",
                           "CONTINUE these medications which have NOT CHANGED",
                           "bisoprolol 5 mg tablet Take 1 tablet by mouth daily.",
                           "ramipril 5 mg capsule Take 1 capsule by mouth daily."]
