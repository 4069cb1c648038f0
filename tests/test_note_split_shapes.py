"""Export shapes none of the development writers used: UK letters, pharmacy labels, lettered and roman lists,
signatures. Every line here is invented for these tests."""

from __future__ import annotations

import pytest
from split_texts import texts

from archehr.data.note_sentence_edits import should_join as _should_join
from archehr.data.note_split import split_note


def test_an_undotted_title_before_an_initial_ends_no_sentence():
    assert texts("Yours sincerely,\nDr A. Mensah\nConsultant Physician\n") == [
        "Yours sincerely,", "Dr A. Mensah", "Consultant Physician"]
    assert texts("Seen by Mr B. Oyelaran today. He agreed.") == ["Seen by Mr B. Oyelaran today.", "He agreed."]
    # (a word that merely starts like a title is none, nor a unit after a slash: these end sentences)
    assert texts("It was seen on MRI. A drain was placed.") == ["It was seen on MRI.", "A drain was placed."]
    assert texts("Bicarbonate 9 mmol/L. A drip was started.") == ["Bicarbonate 9 mmol/L.", "A drip was started."]


def test_a_greeting_or_closing_line_is_no_sentence_left_open():
    assert texts("Dear Dr Okafor,\nThank you for seeing Mrs Lane.\nKind regards,\nDr R. Tan\n") == [
        "Dear Dr Okafor,", "Thank you for seeing Mrs Lane.", "Kind regards,", "Dr R. Tan"]
    # a short line ending in a comma over a lower-case word still wraps
    assert texts("Take it daily,\nwith food.\n") == ["Take it daily, with food."]


def test_an_initial_before_a_name_without_lower_case_words_ends_no_sentence():
    assert texts("Signed electronically R. Osei RN 02-Mar-2031 09:40\n") == [
        "Signed electronically R. Osei RN 02-Mar-2031 09:40"]
    assert texts("Reviewed with K. Tan, MD.\n") == ["Reviewed with K. Tan, MD."]
    # a sentence after the letter still starts anew
    assert texts("He is immune to hepatitis B. Next visit in May.") == ["He is immune to hepatitis B.",
                                                                        "Next visit in May."]


def test_a_short_lower_case_label_starts_a_line_of_its_own():
    assert texts("Consultant Physician\ncc: Patient\n") == ["Consultant Physician", "cc: Patient"]


@pytest.mark.parametrize("items", [
    ["a. Rest the ankle", "b. Ice twice a day"],
    ["A. Heart failure", "B. Diabetes"],
    ["i. Weigh daily", "ii. Call if your weight is up 2 kg", "iii. Keep to 1.5 L of fluid"],
    ["(iv) Low salt diet", "(v) Walk daily"],
])
def test_lettered_and_roman_items_each_start_a_sentence(items):
    assert texts("2) Heart failure plan\n" + "\n".join(items) + "\n") == ["2) Heart failure plan", *items]


def test_a_title_line_set_apart_by_pipes_is_one_unit_its_header_fields_one_each_a_pipe_table_its_rows():
    assert texts("Harbor Lab Services | 12 Quay Rd, Eastham | Pg 1 of 1\n") == [
        "Harbor Lab Services | 12 Quay Rd, Eastham | Pg 1 of 1"]
    assert texts("Riverside Surgery | Consultation | Dr A. Okonkwo\n") == [
        "Riverside Surgery | Consultation | Dr A. Okonkwo"]
    # header fields, named with or without a colon
    assert texts("Name: Ann Lee | DOB: 03/04/1950 | MRN: 5521\n") == ["Name: Ann Lee", "DOB: 03/04/1950", "MRN: 5521"]
    assert texts("Okoro, Ann | DOB 1950-02-03 | MRN 55-01\n") == ["Okoro, Ann", "DOB 1950-02-03", "MRN 55-01"]
    # measurements set apart by pipes are one each, as one a line; a label before them stays with the first
    assert texts("BP 148/80 | HR 76 | SpO2 97%\n") == ["BP 148/80", "HR 76", "SpO2 97%"]
    assert texts("Weight 31.2 kg (40th centile) | Height 141 cm | Pulse 88\n") == [
        "Weight 31.2 kg (40th centile)", "Height 141 cm", "Pulse 88"]
    assert texts("Vitals today: BP 136/84 | Pulse 92 | Temp 100.2 F\n") == [
        "Vitals today: BP 136/84", "Pulse 92", "Temp 100.2 F"]
    assert texts("Test | Result | Flag\nWBC | 6.1 | normal\n") == ["Test | Result | Flag", "WBC | 6.1 | normal"]


def test_an_empty_field_before_a_gap_is_a_field_of_its_own():
    assert texts("   PRIORITY:                     STATUS: FINAL\n") == ["PRIORITY:", "STATUS: FINAL"]


def test_an_upper_case_date_is_a_date():
    # a column that is a date makes a lone laid-out line one row, in capitals too
    line = "FOLLOW UP: WOUND CLINIC RM 4   JUN 02, 2031@10:15"
    assert texts(line) == [" ".join(line.split())]
    assert texts("Plan reviewed.\nMON 06/02 9:30 AM Lab draw\n") == ["Plan reviewed.", "MON 06/02 9:30 AM Lab draw"]


def test_an_initial_after_a_dash_ends_no_sentence():
    assert texts("CC: PCP - R. OSEI, MD\n") == ["CC: PCP - R. OSEI, MD"]


def test_a_header_over_a_single_appointment_block_joins_it():
    # (a label that only says an appointment follows, over the block's lines set in under it, is a unit of its own)
    note = "Your next visit:\n  Monday, June 5, 2031 at 9:00 AM\n  Dr. Ines Falk, Cardiology\n  Building C, Room 12\n"
    assert texts(note) == [
        "Your next visit:", "Monday, June 5, 2031 at 9:00 AM Dr. Ines Falk, Cardiology Building C, Room 12"]
    # (a label naming the clinic is the block's own)
    note = "Foot clinic:\n  Monday, June 5, 2031 at 9:00 AM\n  Dr. Ines Falk, Podiatry\n  Building C, Room 12\n"
    assert texts(note) == ["Foot clinic: Monday, June 5, 2031 at 9:00 AM Dr. Ines Falk, Podiatry Building C, Room 12"]
    # (a time line under the date is the same block)
    assert texts("Wound check:\nFri 9 Jun 2031\n11:20 AM\nRoom 2, Nurse Ola\n") == [
        "Wound check: Fri 9 Jun 2031 11:20 AM Room 2, Nurse Ola"]
    many = ("Follow-up:\nMonday, June 5, 2031\n9:00 AM\nDr. Ines Falk\nTuesday, June 6, 2031\n8:00 AM\n"
            "Lab draw\n")
    assert texts(many)[0] == "Follow-up:"


def test_a_lettered_line_that_is_an_initial_is_still_cut_into_its_columns():
    assert texts("Thanks.\nG. Laidlaw, Physiotherapist            page 1/1\n") == [
        "Thanks.", "G. Laidlaw, Physiotherapist", "page 1/1"]


def test_a_field_of_a_line_of_fields_is_cut_only_at_a_full_stop():
    # (spaCy, given one field, may cut it anywhere: "Seen on: 02" / "Feb 2032"; the cut is undone)
    assert _should_join("Seen on: 02", "Feb 2032", "field")
    assert not _should_join("Seen on: 02 Feb 2032.", "Wound healed.", "field")
    assert not _should_join("Wound clean", "Sutures out", "text")


@pytest.mark.parametrize("line, cells", [
    ("North Ward  /  Team: Red  /  Seen at home", ["North Ward", "Team: Red", "Seen at home"]),
    ("Phone visit with R. Bose, NP  \u00b7  Tue, May 2, 2031  \u00b7  9:10 AM", [
        "Phone visit with R. Bose, NP", "Tue, May 2, 2031", "9:10 AM"]),
    ("BP 132/80 . HR 71 . SpO2 97%", ["BP 132/80", "HR 71", "SpO2 97%"]),
    # with single spaces a middle dot joins the parts of one item; a column gap outranks pipes
    ("Video visit \u00b7 Cardiology \u00b7 Fri, Jun 9, 2031 \u00b7 2:00 PM", [
        "Video visit \u00b7 Cardiology \u00b7 Fri, Jun 9, 2031 \u00b7 2:00 PM"]),
    ("Results for: Ann Okoro     Print | Share", ["Results for: Ann Okoro", "Print | Share"]),
])
def test_fields_set_apart_by_separators(line, cells):
    assert texts(line + "\n") == cells


def test_a_bracketed_sentence_on_its_own_line_starts_anew():
    note = "CONTINUE amlodipine 5 mg daily\n(Ankle swelling can happen; tell us if it does.)\n"
    assert texts(note) == ["CONTINUE amlodipine 5 mg daily", "(Ankle swelling can happen; tell us if it does.)"]
    # a bracket in lower case still carries the line on
    assert texts("Knee bend\n(flexion) is 95 degrees.\n") == ["Knee bend (flexion) is 95 degrees."]


def test_a_count_after_an_abbreviation_carries_the_sentence_on():
    note = "The swelling on his left ankle has gone down since Monday, by approx.\n2 cm around the joint line today.\n"
    assert texts(note) == [" ".join(note.split())]


def test_a_short_heading_ending_in_a_small_word_is_no_open_sentence():
    note = ("What we talked about\nYou told us the new tablets upset your stomach, so we agreed to change them.\n"
            "Questions to ask about\n")
    assert texts(note) == ["What we talked about",
                           "You told us the new tablets upset your stomach, so we agreed to change them.",
                           "Questions to ask about"]


@pytest.mark.parametrize("rule", ["\u2501" * 12, "\u2500" * 20, "\u2550 \u2550 \u2550 \u2550"])
def test_box_drawing_rules_are_no_sentence(rule):
    assert texts(f"DAY 1\n{rule}\nRest.\n") == ["DAY 1", "Rest."]


@pytest.mark.parametrize("line", ["\u25c0  1 / 2  \u25b6", "< 2 of 3 >", "\u2039 Page 1 of 4 \u203a"])
def test_page_navigation_arrows_are_a_page_line(line):
    assert texts(f"Call us.\n{line}\n") == ["Call us.", " ".join(line.split())]


def test_a_line_opening_with_an_em_dash_carries_the_sentence_on():
    assert texts("2. No driving for 48 hrs\n\u2014 the sedation lingers.\n") == [
        "2. No driving for 48 hrs \u2014 the sedation lingers."]


def test_a_unit_letter_before_upper_case_text_still_ends_a_sentence():
    assert texts("NET NEGATIVE 2.4 L. CXR CLEARER.") == ["NET NEGATIVE 2.4 L.", "CXR CLEARER."]


def test_a_result_stacked_on_short_lines_is_one_sentence():
    note = ("Sodium\n131 mmol/L   Low\nNormal range: 135 - 145 mmol/L\nPrevious: 134 (Mar 3, 2031)\n\n"
            "Glucose\n5.2 mmol/L\n\nWillow Street Surgery\n22 Willow Street, Easton\nTel: 555-0130   Fax: 555-0131\n")
    assert texts(note) == ["Sodium 131 mmol/L Low Normal range: 135 - 145 mmol/L Previous: 134 (Mar 3, 2031)",
                           "Glucose 5.2 mmol/L", "Willow Street Surgery", "22 Willow Street, Easton",
                           "Tel: 555-0130", "Fax: 555-0131"]


def test_two_spaces_before_a_capital_twice_in_a_line_set_items_apart():
    assert texts("Dictated 03/04/2031  Typed 05/04/2031 (ab)  Not checked by author\n") == [
        "Dictated 03/04/2031", "Typed 05/04/2031 (ab)", "Not checked by author"]
    # a date or time item makes the line one entry (a one-line appointment); once is no layout
    assert texts("Eye clinic  Mon 3/10/2031 9:00 AM  Room 4, Dr Shah\n") == [
        "Eye clinic Mon 3/10/2031 9:00 AM Room 4, Dr Shah"]
    assert texts("Nurse visit booked:  Thu 04/09/2031  PM round  Sister A. Moyo\n") == [
        "Nurse visit booked: Thu 04/09/2031 PM round Sister A. Moyo"]
    assert texts("Seen with her daughter  Mrs Ola Ade today\n") == ["Seen with her daughter Mrs Ola Ade today"]


@pytest.mark.parametrize("line", ["My Chart > Test Results > Lipid Panel",
                                  "Portal \u25b8 Messages \u25b8 Visit Summary"])
def test_a_breadcrumb_trail_is_one_sentence(line):
    assert texts(f"{line}\nLipid Panel\n") == [line, "Lipid Panel"]
    assert [s.kind for s in split_note(f"{line}\n", "rules").sentences] == ["row"]


def test_an_initial_after_a_grades_code_and_a_countys_abbreviation_end_no_sentence():
    assert texts("From: FY2 R. Bhatt\nTo: Night SHO\n") == ["From: FY2 R. Bhatt", "To: Night SHO"]
    assert texts("Dr Fergal Hanrahan\nBallinacree Medical Centre\nCo. Westmeath\n") == [
        "Dr Fergal Hanrahan", "Ballinacree Medical Centre", "Co. Westmeath"]


def test_soap_letters_alone_on_their_lines_make_the_note_head_its_subjective_line_too():
    note = ("S: 37 yo F with 5 days of numbness from the waist down. She denies fever.\n\n"
            "O:\nVitals: BP 122/76, HR 78\n\nA:\nAcute MS relapse.\n")
    assert texts(note) == ["S:", "37 yo F with 5 days of numbness from the waist down.", "She denies fever.",
                           "O:", "Vitals: BP 122/76, HR 78", "A:", "Acute MS relapse."]
    # (one letter alone shows no SOAP note: "A:" over an answer)
    assert texts("S: Pt feels better.\n\nA:\nYes.\n")[0] == "S: Pt feels better."


def test_a_test_named_at_a_lines_end_runs_on_into_the_field_below():
    note = ("HPI: 1 day periumbilical pain migrating to RLQ, anorexia, nausea. WBC 14.2. CT\n"
            "A/P: dilated appendix 11 mm, no perforation or abscess.\n")
    assert texts(note)[-1] == "CT A/P: dilated appendix 11 mm, no perforation or abscess."


def test_an_appointments_line_ends_its_unit_before_a_sentence_or_another_clinician():
    # (the lines are as long as the note's wrapped ones: the first would otherwise read as full)
    note = ("Call your doctor if diarrhea returns (3 or more loose stools in 24 hours) after\n"
            "finishing treatment.\n\nFollowup Instructions:\n"
            "Dr. Leopold Haverkamp (PCP), 04/22/2026 at 9:40 AM, Eastbrook Internal Medicine\n"
            "Do not repeat a stool test if you feel well.\n")
    assert texts(note)[-2:] == ["Dr. Leopold Haverkamp (PCP), 04/22/2026 at 9:40 AM, Eastbrook Internal Medicine",
                                "Do not repeat a stool test if you feel well."]
    # the rest of its place carries it on
    place = ("Wound care: keep the dressing dry and change it once a day, or sooner when it gets wet\n"
             "FOLLOW-UP: Post-op visit with Dr. Oduya-Kell on 12/15/2026 at 10:00 AM, Pine Ridge\n"
             "Surgery Clinic, 2nd floor.\n")
    assert texts(place)[-1] == ("FOLLOW-UP: Post-op visit with Dr. Oduya-Kell on 12/15/2026 at 10:00 AM, "
                                "Pine Ridge Surgery Clinic, 2nd floor.")


def test_a_dash_set_apart_by_two_spaces_joins_one_title_line():
    note = "Discharge Medication List\nTallis, Beatrix M  (MRN 55310927)  -  Discharged 02/20/2036 from Norwood\n"
    assert texts(note)[-1] == "Tallis, Beatrix M (MRN 55310927) - Discharged 02/20/2036 from Norwood"
    # (without the dash, items two spaces apart twice are a line's parts: "Pt: Ann Lee  32F  DOB 05/05/2003")
    assert texts("Pt: Ann Lee  32F  DOB 05/05/2003\n") == ["Pt: Ann Lee", "32F", "DOB 05/05/2003"]


def test_in_a_soap_note_a_label_in_a_letters_block_is_that_sections_field():
    note = ("S: Rolled his ankle 3 days ago. Walks with a limp.\n"
            "O: Moderate swelling over the lateral ankle. Squeeze test negative.\n"
            "Imaging: Not indicated per Ottawa ankle rules; no X-ray taken today.\n"
            "A/P: Lateral ankle sprain, grade II. Brace for 4 weeks.\n")
    assert texts(note) == ["S:", "Rolled his ankle 3 days ago.", "Walks with a limp.", "O:",
                           "Moderate swelling over the lateral ankle.", "Squeeze test negative.",
                           "Imaging: Not indicated per Ottawa ankle rules; no X-ray taken today.",
                           "A/P:", "Lateral ankle sprain, grade II.", "Brace for 4 weeks."]
