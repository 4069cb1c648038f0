"""The split convention on invented notes in export shapes: a letter's "Re:" line of comma-parted fields, a PDF
footer printed on each page with its page's number, an addendum dated without brackets, a callout and a patient's
background heading sentences, a lower-case label that only carries a wrapped sentence on, a report's findings told at
length beside a field, a sentence set in a column after a form's value, a numbered item wrapped before a name, header
fields and signers apart by pipes, titles in Southern European languages, a signature's mark and its date in columns.
Each expected split is written out by hand."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_column_sentences import sentence_after_value

# --- a letter's "Re:" line: one unit per field, each keeping its comma --------------------------------------------

def test_re_line_fields_named_in_lower_case_or_cut_short_are_a_unit_each():
    note = "Dear Dr Lee,\n\nRe: Mrs Ana Reis, DOB 01/02/1975, hospital no. 5512\n\nI saw Mrs Reis today.\n"
    assert texts(note) == ["Dear Dr Lee,", "Re: Mrs Ana Reis,", "DOB 01/02/1975,", "hospital no. 5512",
                           "I saw Mrs Reis today."]
    assert texts("Re: Mr Tomas Berg, DOB 04/05/1960, Hosp. No. 998\n")[1:] == ["DOB 04/05/1960,", "Hosp. No. 998"]


def test_an_nhs_number_written_without_its_no_is_a_field_of_the_re_line():
    assert texts("Re: Mr Tomas Berg, DOB 04/05/1960, NHS 123 456 7890\n") == [
        "Re: Mr Tomas Berg,", "DOB 04/05/1960,", "NHS 123 456 7890"]


# --- a PDF footer printed on each page with that page's number: one unit per line ----------------------------------

def test_a_footer_numbering_its_page_in_its_last_column_is_one_unit_on_each_page():
    note = ("Clinic Letter                                Page 1 of 2\n"
            "The scan was normal.\n"
            "Printed 02/03/2025 10:00     CONFIDENTIAL - patient copy     Page 1\n"
            "Clinic Letter                                Page 2 of 2\n"
            "No follow-up is needed.\n"
            "Printed 02/03/2025 10:00     CONFIDENTIAL - patient copy     Page 2\n")
    units = texts(note)
    assert "Printed 02/03/2025 10:00 CONFIDENTIAL - patient copy Page 1" in units
    assert "Printed 02/03/2025 10:00 CONFIDENTIAL - patient copy Page 2" in units
    assert "Page 1" not in units


# --- an addendum dated without brackets heads its sentences --------------------------------------------------------

def test_an_addendum_dated_without_brackets_is_a_label_of_its_own():
    note = "Reported by: Dr A. Lee\nAddendum 14/03/2025: Reviewed with the surgeons. Plan unchanged.\n"
    assert texts(note) == ["Reported by: Dr A. Lee", "Addendum 14/03/2025:", "Reviewed with the surgeons.",
                           "Plan unchanged."]


# --- a callout's sentences wrapped over the lines under it ---------------------------------------------------------

def test_a_hyphenated_callout_heads_its_sentences_wrapped_over_two_lines():
    note = ("3. Review in clinic in six weeks with the biopsy results and a repeat blood count.\n"
            "Post-operative advice: Keep the dressing dry and in place for five days after\n"
            "the operation. Take paracetamol for pain.\n")
    assert texts(note)[1:] == ["Post-operative advice:", "Keep the dressing dry and in place for five days after "
                               "the operation.", "Take paracetamol for pain."]


def test_advice_after_an_event_names_a_callout_too_and_lower_case_advice_stays_a_field():
    note = ("Advice after sedation: Do not drive or drink alcohol for the next twenty-four\n"
            "hours. Someone should stay with you tonight.\n")
    assert texts(note)[:2] == ["Advice after sedation:", "Do not drive or drink alcohol for the next twenty-four "
                               "hours."]
    note = "Post-operative advice: may sting for a day or two; drink plenty of water over the next\ntwo days.\n"
    assert texts(note) == ["Post-operative advice: may sting for a day or two; drink plenty of water over the next "
                           "two days."]


# --- a patient's background before sentences heads them; before a phrase it is a field -----------------------------

def test_a_background_of_sentences_is_a_section_and_of_one_phrase_a_field():
    note = ("Reason for review: two falls at home.\n"
            "Background: Type 2 diabetes since 2015. Lives alone. Walks with a frame.\n")
    assert texts(note)[1:] == ["Background:", "Type 2 diabetes since 2015.", "Lives alone.", "Walks with a frame."]
    note = "Reason for review: two falls at home.\nBackground: Asthma, eczema, hay fever\n"
    assert texts(note)[1:] == ["Background: Asthma, eczema, hay fever"]


# --- a label in lower case under a line left open carries that sentence on ----------------------------------------

def test_a_lower_case_label_that_carries_a_wrapped_sentence_on_is_no_label():
    note = ("09:20 A. Kent RN (home visit)\n"
            "Seen at home today with her daughter present. Dose discussed with Dr Lee\n"
            "by phone: furosemide increased to 80 mg every morning from tomorrow.\n")
    assert texts(note)[-1] == ("Dose discussed with Dr Lee by phone: furosemide increased to 80 mg every morning "
                               "from tomorrow.")


# --- a report's findings told at length beside a field holding its value -------------------------------------------

def test_findings_told_in_sentences_of_narrative_head_them_beside_a_technique_field():
    note = ("Technique: axial and coronal images; no contrast.\n"
            "Findings: There is a small simple cyst in the left kidney. The liver\n"
            "is normal in size. No free fluid.\n")
    assert texts(note) == ["Technique: axial and coronal images; no contrast.", "Findings:",
                           "There is a small simple cyst in the left kidney.", "The liver is normal in size.",
                           "No free fluid."]


def test_findings_of_one_sentence_beside_the_field_stay_a_field():
    note = "Technique: axial and coronal images; no contrast.\nFindings: There is a small simple cyst.\n"
    assert texts(note) == ["Technique: axial and coronal images; no contrast.",
                           "Findings: There is a small simple cyst."]


# --- a sentence set in a column after a form's value ---------------------------------------------------------------

def test_a_sentence_in_a_column_after_a_forms_value_is_a_unit_of_its_own():
    note = "Swimming: [x] Allowed   Check that the dressing is waterproof before each swim.\n"
    assert texts(note) == ["Swimming: [x] Allowed", "Check that the dressing is waterproof before each swim."]


def test_fields_and_options_in_columns_give_no_sentence_cut():
    assert sentence_after_value("Ward: 7   Bed: 4") == []
    assert sentence_after_value("Exams: [x] Extra time   [x] Snacks allowed on the desk.") == []
    assert sentence_after_value("Plan: rest.   Review in two weeks at the clinic.") == []
    line = "Trips: [x] Allowed   Take the pump kit on every trip."
    assert sentence_after_value(line) == [(len("Trips: [x] Allowed"), len("Trips: [x] Allowed   "))]


# --- a numbered item wrapped before a name that opens its next line ------------------------------------------------

def test_a_numbered_item_left_open_near_the_wrap_width_carries_on_into_a_name():
    note = ("1. Keep taking insulin when you are unwell, even if you are not eating at all.\n"
            "2. Paracetamol is fine for a temperature or pain, and it does not change the\n"
            "FreeStyle readings at usual doses. Avoid sugary cough syrups.\n"
            "3. Check ketones every two hours while your glucose is above 14 mmol/L.\n")
    assert texts(note) == ["1. Keep taking insulin when you are unwell, even if you are not eating at all.",
                           "2. Paracetamol is fine for a temperature or pain, and it does not change the FreeStyle "
                           "readings at usual doses.", "Avoid sugary cough syrups.",
                           "3. Check ketones every two hours while your glucose is above 14 mmol/L."]


# --- fields and signers apart by pipes -----------------------------------------------------------------------------

def test_a_worded_field_and_the_print_time_apart_by_a_pipe_are_two_fields():
    assert texts("Report status: FINAL (culture pending) | Printed 03/04/2025 09:10\n") == [
        "Report status: FINAL (culture pending)", "Printed 03/04/2025 09:10"]


def test_two_signers_apart_by_a_pipe_are_a_unit_each():
    assert texts("Dr. A. Lee, Cardiologist | Mr B. Ray, Cardiac Surgeon\n") == ["Dr. A. Lee, Cardiologist",
                                                                                 "Mr B. Ray, Cardiac Surgeon"]


# --- titles in Southern European languages end no sentence ---------------------------------------------------------

def test_portuguese_and_spanish_titles_and_a_file_numbers_name_end_no_sentence():
    assert texts("Pharmacist: Dra. Ana Reis\n") == ["Pharmacist: Dra. Ana Reis"]
    assert texts("Assessed by: Enf. Rita Gomes / Dr. Luis Prado\n") == ["Assessed by: Enf. Rita Gomes / Dr. Luis Prado"]
    assert texts("Proc. No.: 12345\n") == ["Proc. No.: 12345"]


def test_a_log_entry_written_by_a_titled_nurse_joins_its_first_sentence():
    note = ("04/02/2025 09:12 - Enf. Rita Gomes\nPt called: wound oozing since last night. Advised to attend.\n")
    assert texts(note) == ["04/02/2025 09:12 - Enf. Rita Gomes Pt called: wound oozing since last night.",
                           "Advised to attend."]


# --- a signature's mark and its date set apart in columns ----------------------------------------------------------

def test_a_signature_marked_as_electronic_and_its_date_column_are_two_units():
    assert texts("Dr. A. Lee (electronically signed)          03/04/2025 10:12\n") == [
        "Dr. A. Lee (electronically signed)", "03/04/2025 10:12"]


def test_a_signature_on_file_between_the_signer_and_the_date_is_a_unit_of_its_own():
    assert texts("Pharmacist: B. Ray    Signature on file    03/04/2025 10:12\n") == [
        "Pharmacist: B. Ray", "Signature on file", "03/04/2025 10:12"]
