"""Export shapes of pasted notes (`archehr/data/note_layout.py` and the rules in `note_split` that use it):
lines of fields, table rows, lone laid-out lines, checkboxes, timestamps, one-line appointments, PDF page
lines, upper-case text, initials. Every line here is invented for these tests."""

from __future__ import annotations

import pytest
from split_texts import texts

from archehr.data import note_layout, note_page
from archehr.data.note_split import spacy_available, split_note


def kinds(note: str) -> list[str]:
    return [s.kind for s in split_note(note, "rules").sentences]


# --- lines of fields ---------------------------------------------------------------------------------

@pytest.mark.parametrize("line, fields", [
    ("Name: Ann Okoro   DOB: 02/03/1950   MRN: 88123", ["Name: Ann Okoro", "DOB: 02/03/1950", "MRN: 88123"]),
    ("Name: Ann Okoro\tDOB: 02/03/1950", ["Name: Ann Okoro", "DOB: 02/03/1950"]),
    ("Arrival: 06:48  Departure: 13:05", ["Arrival: 06:48", "Departure: 13:05"]),
    # one space is enough before an identity label
    ("Patient: Ann Okoro DOB: 02/03/1950 MRN: 88123", ["Patient: Ann Okoro", "DOB: 02/03/1950", "MRN: 88123"]),
    # and, in an upper-case line, before an upper-case label after a number
    ("ADMITTED: 03/01/2030 DISCHARGED: 03/04/2030", ["ADMITTED: 03/01/2030", "DISCHARGED: 03/04/2030"]),
    ("PATIENT: ANN OKORO      ACCT#: 5512", ["PATIENT: ANN OKORO", "ACCT#: 5512"]),
    ("BP: 128/76   SpO2: 97%", ["BP: 128/76", "SpO2: 97%"]),
    # in a line of fields every column is one, a time too
    ("FAX    To: Dr. Lee    Pages: 2    03/30/2030 16:42", ["FAX", "To: Dr. Lee", "Pages: 2", "03/30/2030 16:42"]),
    ("GERIATRICS CLINIC       Date of visit: 11/18/2030", ["GERIATRICS CLINIC", "Date of visit: 11/18/2030"]),
])
def test_a_line_of_fields_gives_one_sentence_a_field(line, fields):
    assert texts(line) == fields


@pytest.mark.parametrize("line", [
    "Discharge Date: ___ Service: MEDICINE",  # how the releases join a header: mixed-case labels need a gap
    "Brief Hospital Course: # DKA: anion gap closed on day 2",
    "Results: ALT-29 TTE: normal",  # an upper-case label is cut only in an upper-case line
    "Plan: start metformin.  Recheck: in 3 months",  # two spaces after a full stop are prose spacing
])
def test_labels_inside_prose_are_not_fields(line):
    assert note_layout.field_cells(line) == []


# --- tables ------------------------------------------------------------------------------------------

TAB_TABLE = "Test\tResult\tFlag\tReference\nCreatinine\t1.9\tH\t0.6-1.2 mg/dL\nPotassium\t5.4\tH\t3.5-5.0 mmol/L\n"
SPACE_TABLE = ("Date          INR      Comment\n10/03/30      2.9      in range\n"
               "10/17/30      3.1      in range. Same dose.\n")
LEADERS = "Your results\n  Hemoglobin A1c ........ 9.2 %     HIGH\n  LDL cholesterol ....... 151 mg/dL\n"


def test_each_table_row_is_one_sentence_header_row_included():
    assert texts(TAB_TABLE) == ["Test Result Flag Reference", "Creatinine 1.9 H 0.6-1.2 mg/dL",
                                "Potassium 5.4 H 3.5-5.0 mmol/L"]
    assert set(kinds(TAB_TABLE)) == {"row"}
    # nothing inside a row ends a sentence
    assert texts(SPACE_TABLE)[-1] == "10/17/30 3.1 in range. Same dose."


def test_a_dot_leader_row_is_one_sentence():
    assert texts(LEADERS) == ["Your results", "Hemoglobin A1c ........ 9.2 % HIGH", "LDL cholesterol ....... 151 mg/dL"]


def test_a_pipe_table_drops_its_rule_line():
    note = "| Test | Result |\n|------|--------|\n| WBC | 6.1 |\n"
    assert texts(note) == ["| Test | Result |", "| WBC | 6.1 |"]


@pytest.mark.parametrize("line, cells", [
    # a line standing alone whose columns each read as a unit: title and clinic
    ("RADIOLOGY REPORT          Northmoor Imaging", ["RADIOLOGY REPORT", "Northmoor Imaging"]),
    ("Surgeon: Dr. Ruiz          Questions? Call 555-0193", ["Surgeon: Dr. Ruiz", "Questions? Call 555-0193"]),
    # a label over values
    ("Vitals:   BP 136/84    Pulse 78    BMI 34.1", ["Vitals:", "BP 136/84", "Pulse 78", "BMI 34.1"]),
    # a column that is a value, a flag, a time or a date makes the line one row
    ("Creatinine      1.9      H", ["Creatinine 1.9 H"]),
    ("Wed 4/27   8:00 AM   Lab draw, Fairhaven Clinic", ["Wed 4/27 8:00 AM Lab draw, Fairhaven Clinic"]),
    # (a sign-off's date and time in a column of their own are a field of their own)
    ("Signed: I. Marchetti, MD   06/14/2030 15:22", ["Signed: I. Marchetti, MD", "06/14/2030 15:22"]),
    # a value aligned after its label, and an order, stay whole
    ("Started:   metformin 500 mg twice a day", ["Started: metformin 500 mg twice a day"]),
    ("STOP      aspirin 81 mg", ["STOP aspirin 81 mg"]),
])
def test_a_laid_out_line_on_its_own(line, cells):
    assert texts(line) == cells


def test_the_same_line_in_a_table_is_a_row():
    # (rows of one table share where a column starts)
    note = "RADIOLOGY REPORT    Northmoor Imaging\nCT CHEST            Low dose\n"
    assert texts(note) == ["RADIOLOGY REPORT Northmoor Imaging", "CT CHEST Low dose"]


def test_a_stack_of_unaligned_laid_out_lines_is_no_table():
    note = ("Lakemoor Clinic | Suite 200 | Tel 555-0101\nMy Visit Summary                   Printed 03/02/2031\n"
            "Patient: Ann Okoro      MRN 55-01      DOB 1950-02-03\n")
    assert texts(note) == ["Lakemoor Clinic | Suite 200 | Tel 555-0101", "My Visit Summary", "Printed 03/02/2031",
                           "Patient: Ann Okoro", "MRN 55-01", "DOB 1950-02-03"]
    assert not note_layout.same_table("A   B", "C        D")
    assert note_layout.same_table("Test     Result", "WBC      6.1")
    assert note_layout.same_table("Test\tResult", "White cells\t6.1")


# --- list items, checkboxes, orders --------------------------------------------------------------------

def test_checkbox_and_bracket_markers_start_list_items():
    note = ("To do\n\u2610 Walk 3 times a day.\n[ ] Call the clinic if the cut drains.\n[x] Flu shot given.\n"
            "(1) Weigh yourself daily.\n\u2013 Keep the dressing dry,\n  then shower.\n")
    assert texts(note) == ["To do", "\u2610 Walk 3 times a day.", "[ ] Call the clinic if the cut drains.",
                           "[x] Flu shot given.", "(1) Weigh yourself daily.",
                           "\u2013 Keep the dressing dry, then shower."]
    assert kinds(note)[1:] == ["list"] * 5


def test_order_lines_stand_alone_after_wrapped_text():
    # the first line is the note's longest: a full line, whose next word would not have fit on it
    note = ("We talked about the plan for your breathing and the new inhaler at the clinic today\n"
            "FINISH prednisone 40 mg on 09/08\nRESTART lisinopril 10 mg daily\n")
    assert texts(note)[1:] == ["FINISH prednisone 40 mg on 09/08", "RESTART lisinopril 10 mg daily"]


# --- timestamps, appointments, page lines ----------------------------------------------------------------

def test_a_timestamp_starts_a_new_sentence_even_below_a_full_line():
    note = ("13:58 Triage: left flank pain since this morning, vomited twice, pain 9 of 10\n"
            "14:32 IV placed and ketorolac given\n0815 Seen by urology\n")
    assert texts(note) == ["13:58 Triage: left flank pain since this morning, vomited twice, pain 9 of 10",
                           "14:32 IV placed and ketorolac given", "0815 Seen by urology"]


def test_one_line_appointments_under_a_heading():
    note = "Follow-up\nMon 12/14 9:30 AM Dr. Lee, Cardiology\nTue 12/15 8:00 AM Lab draw, 1st floor\n"
    assert texts(note) == ["Follow-up", "Mon 12/14 9:30 AM Dr. Lee, Cardiology",
                           "Tue 12/15 8:00 AM Lab draw, 1st floor"]


def test_an_appointment_block_with_an_address_and_no_next_label():
    note = ("Eye exam\nThu, Dec 8, 2033\n1:00 PM\nDr. Lorenzo Abiodun, Ophthalmology\n"
            "Riverbend Eye Center, 44 Mill St.\nFollow-up\nWed, Feb 8, 2034\n3:30 PM\n")
    assert texts(note) == [
        "Eye exam Thu, Dec 8, 2033 1:00 PM Dr. Lorenzo Abiodun, Ophthalmology Riverbend Eye Center, 44 Mill St.",
        "Follow-up Wed, Feb 8, 2034 3:30 PM"]


def test_a_date_that_carries_on_a_wrapped_sentence_opens_no_appointment():
    note = "Your heart ultrasound (echocardiogram) on\n10/14 showed normal pumping function.\n"
    assert texts(note) == ["Your heart ultrasound (echocardiogram) on 10/14 showed normal pumping function."]


@pytest.mark.parametrize("line", ["Page 2 of 3", "page 2", "2 of 3", "- 2 -", "(continued)"])
def test_page_lines_stand_alone(line):
    note = f"Take aspirin daily.\n{line}\nWalk every day.\n"
    assert texts(note) == ["Take aspirin daily.", line, "Walk every day."]
    assert kinds(note)[1] == "page"


@pytest.mark.parametrize("line", [
    "Lakeview Clinic - Sleep Service          Page 1 of 2",
    # (a title in capitals too, and a title with the clinic: the page's header is one line, one unit)
    "SLEEP STUDY REPORT          Page 1 of 2",
    "RADIOLOGY REPORT          Northmoor Imaging          Page 1 of 2",
    "Printed 02/03/2031 10:15 by JDOE      Lab system v2      Page 2 of 2",
    "Ann Okoro   MRN: 88123   Clinic Letter (continued)",
    "OKORO, ANN      MRN: 88123      (continued)",
])
def test_a_running_header_with_its_page_mark_last_is_one_unit(line):
    note = f"Take aspirin daily.\n{line}\nWalk every day.\n"
    assert texts(note) == ["Take aspirin daily.", " ".join(line.split()), "Walk every day."]
    assert kinds(note)[1] == "page"


@pytest.mark.parametrize("line, cells", [
    # a title beside a one-page copy's mark stays a unit of its own
    ("Lakeview Clinic - Sleep Service          Page 1 of 1", ["Lakeview Clinic - Sleep Service", "Page 1 of 1"]),
    ("SLEEP STUDY REPORT          Page 1 of 1", ["SLEEP STUDY REPORT", "Page 1 of 1"]),
])
def test_a_title_beside_a_page_mark_stays_apart(line, cells):
    assert not note_page.is_page_furniture(line)
    assert texts(f"{line}\nPatient: Ann Okoro\n") == [*cells, "Patient: Ann Okoro"]


@pytest.mark.parametrize("rule", ["-----", "=====", "* * * *", "______", "+----+----+"])
def test_rule_lines_are_no_sentence(rule):
    assert texts(f"VISIT SUMMARY\n{rule}\nPatient: Ann Okoro\n") == ["VISIT SUMMARY", "Patient: Ann Okoro"]


# --- wrapping ---------------------------------------------------------------------------------------------

# a note wrapped at 90 columns, so that the shorter lines below are left open, not full
_WRAPPED = ("The patient was reviewed in the clinic this morning with his wife and their daughter and\n"
            "was well.\n")


@pytest.mark.parametrize("tail, sentences", [
    # a year under a line left open on a word carries its sentence on
    ("Reason: A short episode of chest tightness that began in March\n2029. Ex-smoker since the spring.\n",
     ["Reason: A short episode of chest tightness that began in March 2029.", "Ex-smoker since the spring."]),
    ("Weekly review by the team since the admission. Cannabis use, stopped\n2027.\n",
     ["Weekly review by the team since the admission.", "Cannabis use, stopped 2027."]),
    # and so does a ratio before lower-case words ("20/40 right eye")
    ("The clinic measured his vision after the drops and found acuity\n20/40 right eye, 20/25 left.\n",
     ["The clinic measured his vision after the drops and found acuity 20/40 right eye, 20/25 left."]),
])
def test_a_year_or_ratio_carries_on_a_line_left_open(tail, sentences):
    assert texts(_WRAPPED + tail)[1:] == sentences


def test_a_year_after_a_closed_sentence_starts_anew():
    assert texts(_WRAPPED + "Seen by the clinic team today.\n2029 plan: review in the spring.\n")[1:] == [
        "Seen by the clinic team today.", "2029 plan: review in the spring."]


def test_a_wrapped_upper_case_sentence_stays_one():
    note = ("HOSPITAL COURSE:\nPT IS AN 85 Y/O M ADMITTED WITH 2 WEEKS OF LEG SWELLING AND SHORTNESS OF BREATH\n"
            "WHEN LYING FLAT. ECHO SHOWED EF 30%.\nDISCHARGE INSTRUCTIONS AND SUMMARY\n")
    assert texts(note) == ["HOSPITAL COURSE:",
                           "PT IS AN 85 Y/O M ADMITTED WITH 2 WEEKS OF LEG SWELLING AND SHORTNESS OF BREATH WHEN "
                           "LYING FLAT.", "ECHO SHOWED EF 30%.", "DISCHARGE INSTRUCTIONS AND SUMMARY"]


def test_a_count_and_a_hanging_indent_carry_a_sentence_on():
    note = ("Please make an appointment with your primary care doctor, Dr. Hollis, within\n3 to 5 days.\n"
            "  Eye exam (retinal screening)\n     Please call 555-0176 to schedule\n")
    assert texts(note) == ["Please make an appointment with your primary care doctor, Dr. Hollis, within 3 to 5 days.",
                           "Eye exam (retinal screening) Please call 555-0176 to schedule"]


@pytest.mark.parametrize("line", ["Attending: Dr. P. Lindgren (Urology)", "Nurse: T. Alvarado, RN",
                                  "PHYSICIAN: DR. AMARA OKONKWO", "Cardiology: Dr. A. J. Whitcombe, Bldg C"])
def test_initials_and_upper_case_titles_end_no_sentence(line):
    assert texts(line) == [line]


def test_a_letter_that_ends_a_sentence_still_ends_it():
    assert texts("He tested positive for hepatitis B. Next visit in May.") == [
        "He tested positive for hepatitis B.", "Next visit in May."]


@pytest.mark.skipif(not spacy_available(), reason="spaCy's en_core_web_sm is not installed")
def test_spacy_does_not_cut_upper_case_text_without_a_full_stop():
    note = "RETURN TO THE ED IF: you are short of breath at rest.\nGO TO THE ER IF YOU VOMIT BLOOD OR FEEL FAINT.\n"
    assert texts(note, "spacy") == ["RETURN TO THE ED IF: you are short of breath at rest.",
                                    "GO TO THE ER IF YOU VOMIT BLOOD OR FEEL FAINT."]


def test_a_lab_line_is_carried_on_only_by_a_line_in_lower_case():
    note = ("0815  BP 98/54 HR 88 SpO2 93% 2L NC. MD notified; 250 mL NS bolus\n      ordered and started.\n"
            "K 3.3 L\neGFR 29 L\n")
    assert texts(note) == ["0815 BP 98/54 HR 88 SpO2 93% 2L NC.", "MD notified; 250 mL NS bolus ordered and started.",
                           "K 3.3 L", "eGFR 29 L"]


def test_a_line_in_lower_case_after_a_full_sentence_starts_anew():
    note = "Your prescriptions were sent to the pharmacy.\n   apixaban 5 mg tablet\nTake 1 tab p.o.\ndaily with food.\n"
    assert texts(note) == ["Your prescriptions were sent to the pharmacy.", "apixaban 5 mg tablet",
                           "Take 1 tab p.o. daily with food."]


def test_wide_spaces_after_a_sentence_or_between_justified_words_are_no_columns():
    assert not note_layout.is_table_row("He is well.   Plan to go home today.")
    assert not note_layout.is_table_row("The   patient   was   seen   in   clinic   and   the   wound")
    assert note_layout.is_table_row("Oxygen\t2 L/min\tat night and when walking\tContinue")
    note = "He is well.   Plan to go home.\nThe   wound   is   healing   well   and\nclean.   Sutures   out   soon.\n"
    assert texts(note) == ["He is well.", "Plan to go home.", "The wound is healing well and clean.",
                           "Sutures out soon."]


def test_lines_at_one_deeper_indent_under_a_heading_are_items():
    note = "  Diagnoses\n     Pneumonia\n     Type 2 diabetes\n"
    assert texts(note) == ["Diagnoses", "Pneumonia", "Type 2 diabetes"]


def test_an_order_word_after_a_line_left_open_carries_the_sentence_on():
    note = "IF THE SWELLING GETS WORSE YOU SHOULD\nSTOP TAKING AMLODIPINE AND CALL US.\nSTOP aspirin\n"
    assert texts(note) == ["IF THE SWELLING GETS WORSE YOU SHOULD STOP TAKING AMLODIPINE AND CALL US.", "STOP aspirin"]


def test_a_bullet_set_apart_before_a_labelled_item_stays_with_it() -> None:
    # (two spaces after the bullet are no column between fields: the item keeps its marker and its label)
    note = ("Plan\n  \u2022  Pulmonary rehab: you have been referred to the 6-week class at the Oak Centre.\n"
            "  \u2022  Walk daily.\n")
    assert texts(note, "rules") == ["Plan", "\u2022 Pulmonary rehab: you have been referred to the 6-week class at the "
                                    "Oak Centre.", "\u2022 Walk daily."]
    # (a line of fields after its bullet is still a line of fields)
    assert texts("-  Name: Ann Lee   DOB: 01/02/1960\n", "rules") == ["- Name: Ann Lee", "DOB: 01/02/1960"]
