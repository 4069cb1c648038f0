"""The written split convention on invented notes of the shapes people paste: SOAP notes, SBAR handovers,
"Impression:" / "Management plan:" letters, ALL-CAPS section headers, `|` title lines and tables, header fields
after commas, wrapped result lines. Each expected split is written out by hand."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_sections import section_label
from archehr.data.note_sentence_edits import appointment_cuts

# --- a section label before prose on its line is a unit of its own ---------------------------------------------

def test_a_gp_notes_shorthand_labels_head_their_sentences():
    note = ("Hx: 4/7 dry cough, no fever. Non-smoker.\nO/E: T 37.2, HR 80, SpO2 98% RA.\nChest clear.\n"
            "Imp: Viral URTI.\nPlan: fluids and rest\n")
    assert texts(note) == ["Hx:", "4/7 dry cough, no fever.", "Non-smoker.", "O/E:", "T 37.2, HR 80, SpO2 98% RA.",
                           "Chest clear.", "Imp:", "Viral URTI.", "Plan: fluids and rest"]


def test_an_examinations_findings_head_under_its_label_in_lower_case_too():
    note = "Seen by video today.\nVideo exam: alert, speech fluent, no drift.\nExam: Alert, no distress.\n"
    assert texts(note) == ["Seen by video today.", "Video exam:", "alert, speech fluent, no drift.", "Exam:",
                           "Alert, no distress."]


def test_a_label_alone_in_its_paragraph_heads_its_prose_in_a_pasted_note():
    # (a paragraph of one line is a release excerpt's way only when every paragraph is one line)
    note = "Reason: cough for a week, worse at\nnight.\n\nHistory: Dry cough for a week, worse at night.\n"
    assert texts(note) == ["Reason: cough for a week, worse at night.", "History:",
                           "Dry cough for a week, worse at night."]
    excerpt = "Reason: cough for a week.\n\nHistory: Dry cough for a week, worse at night.\n"
    assert texts(excerpt)[1] == "History: Dry cough for a week, worse at night."


def test_an_assessment_alone_in_its_paragraph_stating_a_diagnosis_is_a_field():
    note = "Exam: Left calf swollen.\n\nAssessment: Right ureteral stone, 4 mm, uncomplicated.\n\nPlan:\n1. Rest.\n"
    assert texts(note) == ["Exam:", "Left calf swollen.", "Assessment: Right ureteral stone, 4 mm, uncomplicated.",
                           "Plan:", "1. Rest."]
    seen = "Seen today.\nFeels well.\n\n"  # (a paragraph of two lines: the note is no release excerpt)
    # (with a second sentence too: the field, then the sentence)
    assert texts(seen + "Impression: Viral bronchitis, improving. Chest clear.\n")[2:] == [
        "Impression: Viral bronchitis, improving.", "Chest clear."]
    # over more lines of prose it heads a section; a narrative clause or a long first sentence is prose too
    assert texts(seen + "Assessment: HFrEF, improving.\nK rose after spironolactone was started.\n")[2:4] == [
        "Assessment:", "HFrEF, improving."]
    assert texts(seen + "Assessment: Reuben was seen with his grandmother today.\n")[2] == "Assessment:"
    long = ("Assessment: Confirmed low testosterone with low-normal LH, likely secondary hypogonadism related to "
            "obesity and poor sleep. Prolactin normal.\n")
    assert texts(seen + long)[2] == "Assessment:"
    # an assessment over more diagnoses, one a line, is a list of them; over a sentence of prose it heads a section
    assert texts(seen + "Assessment: Acute urticaria, likely from amoxicillin.\nAcute sinusitis, improving.\n")[2:] == [
        "Assessment: Acute urticaria, likely from amoxicillin.", "Acute sinusitis, improving."]
    assert texts(seen + "Assessment: Bipolar I, depressed.\nLithium toxicity, resolved. Low acute risk.\n")[2] == \
        "Assessment:"
    # (a GP's shorthand heads its sentence however short: "Imp: Viral URTI.")
    assert texts(seen + "Imp: Hypertension, not at target.\n")[2] == "Imp:"


def test_a_topic_label_heads_a_narrative_clause_but_a_field_of_advice_keeps_its_sentence():
    note = "Feeds: She is bottle feeding every 3 hours.\nSwallow: He failed the first screen.\n"
    assert texts(note) == ["Feeds:", "She is bottle feeding every 3 hours.", "Swallow:", "He failed the first screen."]
    assert section_label("Driving: No driving for 6 weeks. You may be a passenger.") is None
    assert section_label("Work: You can go back after 2 weeks.") is None
    # (a list after a comma is no subject: "Screening colonoscopy, age 59, mother had ...")
    assert section_label("Indication: Screening colonoscopy, age 59, mother had colon cancer.") is None
    # (a field's name never heads a section, whatever its value says)
    assert section_label("Diagnosis: Pneumonia, which was treated with antibiotics.") is None


def test_a_topic_alone_in_its_paragraph_heads_sentences_in_lower_case_that_open_with_a_clause():
    seen = "Seen today.\nFeels well.\n\n"
    note = seen + "Driving: because of the severe hypo, he must not drive. Check glucose before driving.\n"
    assert texts(note)[2:] == ["Driving:", "because of the severe hypo, he must not drive.",
                               "Check glucose before driving."]
    # a phrase is a field's value, and so is one sentence alone
    assert texts(seen + "Work note: light duty for 2 weeks. Note sent to his portal.\n")[2] == \
        "Work note: light duty for 2 weeks."
    assert texts(seen + "Rehab: the team will phone you within 2 weeks.\n")[2] == \
        "Rehab: the team will phone you within 2 weeks."
    # (in a paragraph of more lines the label keeps its sentence, as a field of advice does)
    assert texts(seen + "Driving: he must not drive. Check glucose first.\nDiet: as usual.\n")[2] == \
        "Driving: he must not drive."


def test_the_findings_under_a_field_of_vital_signs_are_a_field_too():
    note = "Seen today.\n\nVitals: BP 108/66, HR 64, SpO2 97% RA\nExam: JVP 8 cm, trace ankle edema.\n"
    assert texts(note)[1:] == ["Vitals: BP 108/66, HR 64, SpO2 97% RA", "Exam: JVP 8 cm, trace ankle edema."]
    # (under prose the examination is a section)
    assert texts("Seen today.\nNo fever.\nExam: JVP 8 cm, trace ankle edema.\n")[2] == "Exam:"


def test_a_remarks_marker_heads_no_section():
    note = "Seen today.\nFeels well.\n\nNote: Apixaban was withheld for 48 hours around the procedure.\n"
    assert texts(note)[2] == "Note: Apixaban was withheld for 48 hours around the procedure."

def test_an_sbar_handovers_sections_head_their_prose():
    note = ("Situation: 80 yo man with new fast AF overnight.\nBackground: Known CKD 3, on bisoprolol 2.5 mg.\n"
            "Assessment: Fast AF, likely from a chest infection.\nRecommendation: Please review at 08:00.\n")
    assert texts(note) == ["Situation:", "80 yo man with new fast AF overnight.", "Background:",
                           "Known CKD 3, on bisoprolol 2.5 mg.", "Assessment:",
                           "Fast AF, likely from a chest infection.", "Recommendation:", "Please review at 08:00."]
    # outside a handover, a recommendation of one noun phrase is a field
    report = "Findings: Severe aortic stenosis.\nRecommendation: Referral to the valve team.\n"
    assert texts(report)[-1] == "Recommendation: Referral to the valve team."


def test_an_upper_case_section_header_heads_its_prose_beside_a_short_field():
    note = ("CHIEF COMPLAINT: Chest pain.\nHISTORY OF PRESENT ILLNESS: Mr. Lowe is a 64-year-old man who presented "
            "with chest pain.\nCONDITION AT DISCHARGE: Stable.\n")
    assert texts(note) == ["CHIEF COMPLAINT: Chest pain.", "HISTORY OF PRESENT ILLNESS:",
                           "Mr. Lowe is a 64-year-old man who presented with chest pain.",
                           "CONDITION AT DISCHARGE: Stable."]


# --- header fields, title lines, readings -----------------------------------------------------------------------

def test_header_fields_after_commas_are_a_unit_each_on_a_letters_re_line_too():
    assert texts("Patient: Ann Lee, DOB 03/04/1950, NHS no. 943 118 2056\nSeen today.\n") == [
        "Patient: Ann Lee,", "DOB 03/04/1950,", "NHS no. 943 118 2056", "Seen today."]
    assert texts("Re: Mr Sam Ode, DOB 11/12/1962, Transplant No: KT-22\nDear Dr Lee,\n") == [
        "Re: Mr Sam Ode,", "DOB 11/12/1962,", "Transplant No: KT-22", "Dear Dr Lee,"]
    assert texts("Dear Dr Lee,\n\nRe: Mrs Ada Pole, DOB 01/02/1960, Hosp No. QX-77120\n\nI saw her today.\n") == [
        "Dear Dr Lee,", "Re: Mrs Ada Pole,", "DOB 01/02/1960,", "Hosp No. QX-77120", "I saw her today."]
    # (the patient's address after the birth date is one field, its town with it)
    assert texts("Re: Mr Otto Vane, DOB 03/09/1948, 4 Larch Close, Eastmere\n\nThank you for seeing him.\n") == [
        "Re: Mr Otto Vane,", "DOB 03/09/1948,", "4 Larch Close, Eastmere", "Thank you for seeing him."]
    # (a comma in prose after a section's label cuts nothing: "# Pneumonia, RLL: ...")
    assert texts("Course: # Pneumonia, RLL: treated with antibiotics.\nHome today.\n")[-1] == "Home today."


def test_readings_two_spaces_apart_with_no_label_are_one_line_of_results():
    assert texts("O:\nTmax 37.9  HR 92  BP 118/64  SpO2 95% 4L NC\nGCS 15.\n")[1:] == [
        "Tmax 37.9 HR 92 BP 118/64 SpO2 95% 4L NC", "GCS 15."]


# --- wrapped lines that read as results -------------------------------------------------------------------------

def test_a_wrapped_sentence_carries_on_into_a_line_that_reads_as_results():
    note = ("Seen in clinic today with her daughter. His LDL cholesterol was\n3.9 mmol/L and his HbA1c was 5.6%.\n"
            "Call the helpline if he gets a fever, a cough or any other sign of infection\n"
            "on 01632 960 412 or 01632 960 413.\n")
    assert texts(note) == ["Seen in clinic today with her daughter.", "His LDL cholesterol was 3.9 mmol/L and his "
                           "HbA1c was 5.6%.", "Call the helpline if he gets a fever, a cough or any other sign of "
                           "infection on 01632 960 412 or 01632 960 413."]


def test_a_lab_line_carries_on_into_the_value_of_the_test_named_at_its_end():
    note = "Bloods 09/10: sodium 139 (133-146), potassium 4.6 (3.5-5.3), creatinine\n88 (59-104), eGFR >90.\nImp:\n"
    assert texts(note)[0] == ("Bloods 09/10: sodium 139 (133-146), potassium 4.6 (3.5-5.3), creatinine 88 (59-104), "
                              "eGFR >90.")


# --- appointments after one another in a field ------------------------------------------------------------------

def test_appointments_after_one_another_in_a_field_are_a_unit_each():
    assert texts("Plan as above.\nNext appointment: nurse review in 6 weeks; clinic in 4 months.\n")[1:] == [
        "Next appointment: nurse review in 6 weeks;", "clinic in 4 months."]
    # a part that says no time is no appointment
    line = "Follow-up: Physiotherapy referral sent; the team will call within 2 weeks."
    assert appointment_cuts(0, len(line), line) == [(0, len(line))]


def test_a_label_one_space_before_its_checkboxes_is_a_field_and_its_value_one_unit():
    note = ("Review\nMedication review: [x] Done   [ ] Not done\n"
            "Dressing: [ ] Dry   [x] Oozing   [ ] Infected   - swab sent\n"
            "Home oxygen: \u2610 Yes  \u2611 No\n")
    assert texts(note)[1:] == ["Medication review: [x] Done [ ] Not done",
                               "Dressing: [ ] Dry [x] Oozing [ ] Infected - swab sent",
                               "Home oxygen: \u2610 Yes \u2611 No"]


def test_a_label_set_in_a_column_over_its_checkboxes_is_a_unit_and_each_box_one():
    assert texts("Review\nDiet:      [x] Soft   [ ] Normal   [ ] Nil by mouth\n")[1:] == [
        "Diet:", "[x] Soft", "[ ] Normal", "[ ] Nil by mouth"]


def test_two_box_fields_set_apart_on_one_line_are_a_unit_each():
    assert texts("Review\nSmoker: [ ] Yes  [x] No          Drinks alcohol: [x] Yes  [ ] No\n")[1:] == [
        "Smoker: [ ] Yes [x] No", "Drinks alcohol: [x] Yes [ ] No"]


def test_a_hospital_number_after_a_comma_is_a_field_in_any_case():
    assert texts("Patient: Colin Bright, DOB 17/07/1971, Hospital No. W4419920\n") == [
        "Patient: Colin Bright,", "DOB 17/07/1971,", "Hospital No. W4419920"]


def test_a_lone_word_that_ends_a_sentence_under_a_long_open_line_ends_that_sentence():
    note = "Extubated this morning to 4L NC, tolerating well. Pt c/o sore throat, otherwise denies\nCP/SOB.\nPlan\n"
    assert texts(note) == ["Extubated this morning to 4L NC, tolerating well.",
                           "Pt c/o sore throat, otherwise denies CP/SOB.", "Plan"]
    # (under a short line, or one closed by a capitalised word, the word is a line of its own)
    assert texts("Seen today with her son\nStable.\n") == ["Seen today with her son", "Stable."]


# --- a message thread: each entry's bracketed stamp stays with its first sentence -----------------------------

def test_a_thread_messages_stamp_line_joins_the_first_sentence_of_its_message():
    note = ("Northgate Surgery | Patient Portal\n\n[Patient message - 02/03/2026 08:15]\n"
            "My ankle is still swollen. Should I rest it?\n\n"
            "[Nurse reply - 02/03/2026 10:40, K. Obi, Practice Nurse]\nYes, rest it for two days.\n")
    assert texts(note) == ["Northgate Surgery | Patient Portal",
                           "[Patient message - 02/03/2026 08:15] My ankle is still swollen.", "Should I rest it?",
                           "[Nurse reply - 02/03/2026 10:40, K. Obi, Practice Nurse] Yes, rest it for two days."]


def test_a_dated_entry_wrapped_over_short_lines_is_prose_not_an_appointment_block():
    # (each line is short and none ends in a full stop, as an appointment block's lines are; the sentence ended
    # inside the first line says it is wrapped prose)
    note = ("04/02/2025 10:12 Day 1 call. Patient at home, sore in the right\n"
            "groin, no bleeding. No palpitations. May shower\n"
            "from today but no baths for 5 days\n")
    assert texts(note) == ["04/02/2025 10:12 Day 1 call.", "Patient at home, sore in the right groin, no bleeding.",
                           "No palpitations.", "May shower from today but no baths for 5 days"]
    # (an address's abbreviation ends no sentence: the block stays one unit)
    block = "Follow-up visit\nThursday, May 6, 2032 at 3:30 PM\nDr. Agnes Hall, 12 Mill St. Suite 4\n"
    assert texts(block) == ["Follow-up visit Thursday, May 6, 2032 at 3:30 PM Dr. Agnes Hall, 12 Mill St. Suite 4"]


def test_soap_letters_on_their_lines_with_one_alone_over_its_plan_are_units_of_their_own():
    note = "S: Feels well. Sleeping badly.\n\nO: BP 124/78.\n\nA: Good recovery.\n\nP:\n1. HbA1c in October.\n"
    assert texts(note) == ["S:", "Feels well.", "Sleeping badly.", "O:", "BP 124/78.", "A:", "Good recovery.", "P:",
                           "1. HbA1c in October."]
    # (two letters with their prose and none alone: the letters stay the lines' labels, as the releases keep them)
    assert texts("S: Feels well.\n\nA: Good recovery.\n") == ["S: Feels well.", "A: Good recovery."]


def test_a_title_case_heading_over_a_list_in_lower_case_is_a_unit_of_its_own():
    note = ("Your Medication List\nlevothyroxine 88 mcg tablet\n    Take 1 tablet every morning.\n"
            "ferrous sulfate 325 mg tablet\n    Take 1 tablet at lunch.\n")
    assert texts(note) == ["Your Medication List", "levothyroxine 88 mcg tablet Take 1 tablet every morning.",
                           "ferrous sulfate 325 mg tablet Take 1 tablet at lunch."]
    # (a wrapped sentence whose line happens to hold capitalised words runs on)
    assert texts("Seen today by Dr Ann Lee\nat the clinic.\n") == ["Seen today by Dr Ann Lee at the clinic."]


def test_a_bracketed_line_without_a_date_or_time_is_no_stamp():
    assert texts("[Attachment removed]\nThe photo shows a red rash.\n") == ["[Attachment removed]",
                                                                           "The photo shows a red rash."]


def test_a_patients_message_in_lower_case_splits_where_a_word_opens_a_new_sentence():
    note = "[Patient message - 02/03/2026 08:15]\nits still sore. do i need to come in?? thanks. my mum says hi\n"
    assert texts(note) == ["[Patient message - 02/03/2026 08:15] its still sore.", "do i need to come in??",
                           "thanks.", "my mum says hi"]
    # (an abbreviation of two letters before a lower-case word ends no sentence)
    given = "Given paracetamol 1 g po. she settled overnight."
    assert texts(given + "\n") == [given]


def test_identity_fields_one_space_apart_on_a_header_line_are_a_unit_each():
    note = "Patient: Ms Ann Example DOB: 01/02/1990 Hospital No: ZZ1234567\nGestation: 30+1 weeks EDD: 02/03/2026\n"
    assert texts(note) == ["Patient: Ms Ann Example", "DOB: 01/02/1990", "Hospital No: ZZ1234567",
                           "Gestation: 30+1 weeks", "EDD: 02/03/2026"]


def test_a_reports_examination_named_as_a_study_is_a_field_and_its_value():
    note = ("RADIOLOGY REPORT\nExamination: CT Abdomen (portal venous phase)\n"
            "Exam: Tender right iliac fossa with guarding. No rebound.\n")
    assert texts(note) == ["RADIOLOGY REPORT", "Examination: CT Abdomen (portal venous phase)", "Exam:",
                           "Tender right iliac fossa with guarding.", "No rebound."]
