"""Layout rules of the raw-note splitter, each on invented lines: indentation, columns, wrap width, timed
entries, SOAP letters, result strips. No line here comes from a writer's note."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_blocks import appointment_blocks
from archehr.data.note_layout import field_cells, line_cells
from archehr.data.note_wrap import wrap_width


def cells(line: str, found: list[tuple[int, int]]) -> list[str]:
    return [line[a:b].strip() for a, b in found]


# --- the wrap width is read from the note's own lines ---------------------------------------------------

def test_the_wrap_width_is_the_longest_line_a_sentence_runs_on_from():
    # lines 1 and 3 run on (a lower-case start below them); the 70-character line alone is unwrapped
    note = ("a" * 38 + " tail\n" + "and more words here.\n" + "b" * 40 + " end\n" + "then it goes on.\n"
            + "x" * 70 + "\n")
    assert wrap_width(note) == 44
    # without two lines that show it, the longest line of prose
    assert wrap_width("Short line.\n" + "y" * 60 + "\n") == 60


def test_a_line_longer_than_the_wrap_width_was_not_wrapped():
    body = "\n".join(["Rest the leg and keep it raised on two pillows while you are sitting",
                      "down during the day, and walk a little every hour or two when awake",
                      "and able."])
    wide = "Clinic visit with the foot doctor on Monday morning at the Elm Street office  "
    note = body + "\n" + wide.strip() + "\nPodiatry clinic, Elm Street, first floor\n"
    assert texts(note)[-2:] == [wide.strip(), "Podiatry clinic, Elm Street, first floor"]


# --- columns of a line standing alone --------------------------------------------------------------------

def test_a_first_column_in_sentence_case_makes_the_line_one_row():
    line = "metoprolol 25 mg tablet    Take 1 tablet by mouth twice daily."
    assert line_cells(line) == []
    # a title and a clinic, in capitals, stay two
    line = "SLEEP STUDY REPORT      Birchfield Sleep Lab"
    assert cells(line, line_cells(line)) == ["SLEEP STUDY REPORT", "Birchfield Sleep Lab"]
    # measurements several on one line are one unit (the writers' convention), lower case inside them or not
    assert line_cells("Temp 37.9 C   Pulse 96   Weight 61 kg (clothed)") == []


def test_a_bare_label_over_boxes_keeps_each_box():
    line = "Fall risk:   [X] High   [ ] Low"
    assert cells(line, line_cells(line)) == ["Fall risk:", "[X] High", "[ ] Low"]


def test_items_pushed_apart_by_wide_gaps_stand_apart_unless_a_value_follows():
    line = "10:02" + " " * 30 + "LTE 80%"
    assert cells(line, line_cells(line)) == ["10:02", "LTE 80%"]
    assert line_cells("Ferritin" + " " * 12 + "7 ng/mL") == []


def test_a_strip_of_results_gives_one_unit_a_result():
    line = "Na   131 L    K   5.2 H    Cl   99"
    assert cells(line, line_cells(line)) == ["Na   131 L", "K   5.2 H", "Cl   99"]


def test_a_column_opening_with_a_lower_case_word_carries_on_the_one_before():
    assert line_cells("R. Amundsen, NP    signed 03/04/2036 08:10") == []
    # a page mark is no carrying on; a lab name such as eGFR is no lower-case word
    line = "H. Quist, Dietitian            page 2/2"
    assert cells(line, line_cells(line)) == ["H. Quist, Dietitian", "page 2/2"]


# --- fields ------------------------------------------------------------------------------------------------

def test_a_time_alone_before_one_field_of_prose_stays_with_its_entry():
    assert field_cells("14:05  Chest x-ray: no new opacity, lines in place.") == []
    line = "03/02/2036 07:44   FROM: WARD 7   TO: 555-0100"
    assert cells(line, field_cells(line)) == ["03/02/2036 07:44", "FROM: WARD 7", "TO: 555-0100"]


def test_two_measurements_two_spaces_apart_in_a_line_of_fields_are_two():
    line = "Dose plan: weekly     BSA: 2.01 m2     Height 171 cm  Weight 88 kg"
    assert cells(line, field_cells(line)) == ["Dose plan: weekly", "BSA: 2.01 m2", "Height 171 cm", "Weight 88 kg"]


def test_two_spaces_before_a_number_part_a_lines_items():
    assert texts("Pt: Rowan Vale  61M  MRN 440912\n") == ["Pt: Rowan Vale", "61M", "MRN 440912"]


# --- indentation -----------------------------------------------------------------------------------------

def test_lines_set_in_under_an_entry_are_its_instruction_when_they_wrap_into_each_other():
    note = ("Your medicines:\n"
            "  naproxen 250 mg tablet\n"
            "      Take 1 tablet twice a day with food for 7 days, then stop and\n"
            "      use paracetamol instead.\n"
            "  paracetamol 500 mg tablet\n"
            "      Take 2 tablets up to 4 times a day\n")
    assert texts(note) == ["Your medicines:",
                           "naproxen 250 mg tablet Take 1 tablet twice a day with food for 7 days, then stop and "
                           "use paracetamol instead.",
                           "paracetamol 500 mg tablet Take 2 tablets up to 4 times a day"]


def test_entries_with_lines_under_them_keep_those_lines_a_heading_alone_does_not():
    note = ("Cefalexin 250 mg/5 mL\n   25 mg/kg/day = 300 mg a day\n   Give 3 mL four times a day.\n"
            "Paracetamol 120 mg/5 mL\n   15 mg/kg = 180 mg\n   Give 7.5 mL if needed.\n")
    assert texts(note) == ["Cefalexin 250 mg/5 mL 25 mg/kg/day = 300 mg a day Give 3 mL four times a day.",
                           "Paracetamol 120 mg/5 mL 15 mg/kg = 180 mg Give 7.5 mL if needed."]
    assert texts("Problems\n   Asthma\n   Eczema\n") == ["Problems", "Asthma", "Eczema"]


def test_a_row_on_its_own_carries_on_into_lines_set_in_under_it():
    note = ("  Budesonide inhaler 200 mcg   (NEW - preventer)\n"
            "      1 puff twice a day. Rinse your mouth after.\n")
    assert texts(note) == ["Budesonide inhaler 200 mcg (NEW - preventer) 1 puff twice a day.",
                           "Rinse your mouth after."]


def test_a_date_and_time_in_columns_head_an_appointment_block_with_the_lines_under_it():
    lines = ["Appointments", "Fri Mar 6, 2036    11:00 AM", "Dr. Ola Brenner", "Eye Clinic, Level 2",
             "Mon Mar 9, 2036    2:30 PM", "Blood test", "Ground floor lab"]
    leads = [0, 0, 4, 4, 0, 4, 4]
    assert appointment_blocks(lines, leads) == {1: 3, 4: 6}


# --- numbers, dates and initials that end no unit -----------------------------------------------------

def test_a_number_out_of_its_lists_order_carries_on_a_sentence_left_open():
    note = ("The drain was removed on post-operative day\n4. She walked the ward the same afternoon and\n"
            "went home the next day.\n")
    assert texts(note) == ["The drain was removed on post-operative day 4.",
                           "She walked the ward the same afternoon and went home the next day."]
    # a list's next number is an item
    assert texts("1. Rest\n2. Fluids\n") == ["1. Rest", "2. Fluids"]


def test_a_date_that_ends_a_sentence_carries_on_the_line_left_open():
    note = "Warfarin restarts at 3 mg a day from\n03/14/2036. Check the INR in 5 days.\n"
    assert texts(note) == ["Warfarin restarts at 3 mg a day from 03/14/2036.", "Check the INR in 5 days."]
    # a dated entry starts anew
    assert texts("INR log\n03/14/2036 INR 2.4, no change.\n") == ["INR log", "03/14/2036 INR 2.4, no change."]


def test_abbreviations_and_initials_that_end_no_sentence():
    assert texts("MT. PLEASANT COMMUNITY HOSPITAL\n") == ["MT. PLEASANT COMMUNITY HOSPITAL"]
    # (a letter's "Re:" line gives each header field, "No." ending none of them)
    assert texts("Re: Ms Ada Wren, Ward No. B41207\n") == ["Re: Ms Ada Wren,", "Ward No. B41207"]
    assert texts("Seen on Ward No. 7 today.\n") == ["Seen on Ward No. 7 today."]
    assert texts("Given 40 mg. POD2 she was up.\n") == ["Given 40 mg.", "POD2 she was up."]
    assert texts("Checked.\n  -- K. Adeyemi, RN\n") == ["Checked.", "-- K. Adeyemi, RN"]


def test_a_title_line_in_capitals_gives_each_two_space_apart_item():
    assert texts("ADDENDUM NOTE  Cardiology  04/02/2036  P. Ruiz, MD\n") == [
        "ADDENDUM NOTE", "Cardiology", "04/02/2036", "P. Ruiz, MD"]


# --- SOAP section letters ----------------------------------------------------------------------------------

def test_soap_letters_over_blocks_head_every_section_of_the_note():
    note = ("S: 8 yo with cough for 5 days, worse at night, no\nfever.\n\n"
            "O: T 37.1   HR 96   SpO2 98%\n   Chest clear.\n\nA: Viral cough.\n")
    assert texts(note) == ["S:", "8 yo with cough for 5 days, worse at night, no fever.", "O:", "T 37.1 HR 96 SpO2 98%",
                           "Chest clear.", "A:", "Viral cough."]
    # a note whose letters never head a block keeps them as the line's label
    assert texts("S: Feels well.\n\nA: Stable.\n") == ["S: Feels well.", "A: Stable."]


def test_in_a_narrow_wrapped_note_only_a_lone_word_that_would_not_fit_carries_a_line_on():
    # two lines show a 24-column wrap ("... for" + "2 days", "... and" + "rest"); "Name: Rosalind" + one word
    # would overflow it, so that word carries the field on; a short line of several words stays a line
    note = ("Name: Rosalind\nQUARTERMAINE-OBI\nClinic: Eye Unit\nKeep the patch on for\n2 days and then wash\n"
            "gently, and\nrest.\nDROPS\nDay clinic Room 4\n")
    assert texts(note) == ["Name: Rosalind QUARTERMAINE-OBI", "Clinic: Eye Unit",
                           "Keep the patch on for 2 days and then wash gently, and rest.", "DROPS",
                           "Day clinic Room 4"]


def test_a_note_whose_lines_run_past_its_narrow_lower_case_starts_is_not_hard_wrapped():
    note = ("START these medicines\nnaproxen 250 mg tablet\nTake 1 tablet twice a day with food for five days.\n"
            "STOP these medicines\nibuprofen 200 mg tablet\nDo not take it while you are on the naproxen tablets.\n"
            "Call the clinic if the pain is no better after a full week of the new tablets.\n")
    assert texts(note) == ["START these medicines", "naproxen 250 mg tablet",
                           "Take 1 tablet twice a day with food for five days.", "STOP these medicines",
                           "ibuprofen 200 mg tablet", "Do not take it while you are on the naproxen tablets.",
                           "Call the clinic if the pain is no better after a full week of the new tablets."]


def test_medicines_set_in_under_a_heading_over_their_instructions_are_an_entry_each():
    note = ("START taking these medications\n  ibuprofen 600 mg tablet\n"
            "  Take 1 tablet every 6 hours. Take with food.\n"
            "  docusate sodium 100 mg capsule\n  Take 1 capsule twice a day.\n"
            "STOP taking these medications\n  acetaminophen-codeine 300-30 mg tablet\n"
            "  You no longer need this medicine.\n")
    # (the medicine's name stays with its instruction's first sentence; a further sentence is a unit of its own)
    assert texts(note) == ["START taking these medications",
                           "ibuprofen 600 mg tablet Take 1 tablet every 6 hours.", "Take with food.",
                           "docusate sodium 100 mg capsule Take 1 capsule twice a day.",
                           "STOP taking these medications",
                           "acetaminophen-codeine 300-30 mg tablet You no longer need this medicine."]
    # (one such pair alone in its paragraph is two lines of an export, each a unit)
    one = "START taking these medications\n  ibuprofen 600 mg tablet\n  Take 1 tablet every 6 hours.\n"
    assert texts(one)[1:] == ["ibuprofen 600 mg tablet", "Take 1 tablet every 6 hours."]


def test_labels_over_aligned_checkboxes_are_no_table():
    note = "Mood:      [x] Low   [ ] Anxious\nSleep:     [ ] Poor   [x] Fair\n"
    assert texts(note) == ["Mood:", "[x] Low", "[ ] Anxious", "Sleep:", "[ ] Poor", "[x] Fair"]


def test_a_bare_label_before_two_space_apart_items_is_an_item_of_its_own():
    assert texts("OBS:  T 36.8  P 88  RR 18\n") == ["OBS:", "T 36.8", "P 88", "RR 18"]


# --- section labels before prose, data columns after a field, strips of readings --------------------------

def test_a_named_section_label_before_prose_is_a_unit_of_its_own():
    note = ("Clinic Summary\nHPI: 61 yo woman with two weeks of cough and fever. Seen by PCP.\n"
            "Instructions: Keep taking the inhaler twice a day. Call if worse.\n")
    assert texts(note) == ["Clinic Summary", "HPI:", "61 yo woman with two weeks of cough and fever.",
                           "Seen by PCP.", "Instructions:", "Keep taking the inhaler twice a day.", "Call if worse."]


def test_an_emergency_notes_narrative_labels_before_prose_are_units_of_their_own():
    note = ("ED Note\nImaging: CT of the abdomen shows a small stone in the left ureter.\n"
            "ED course: Given fluids and pain medicine with good relief.\n"
            "Imaging: none\n")
    assert texts(note) == ["ED Note", "Imaging:", "CT of the abdomen shows a small stone in the left ureter.",
                           "ED course:", "Given fluids and pain medicine with good relief.", "Imaging: none"]


def test_a_problem_heading_before_prose_is_a_unit_of_its_own_and_its_prose_wraps_on():
    note = ("Course by problem:\n# Gout flare: Treated with colchicine and the knee settled\n"
            "within two days.\n# Anemia: Stable.\n")
    assert texts(note) == ["Course by problem:", "# Gout flare:",
                           "Treated with colchicine and the knee settled within two days.", "# Anemia: Stable."]


def test_a_field_with_a_short_or_data_value_keeps_its_label():
    note = "Summary\nPt: Walter Brisk\nActivity: as tolerated.\nPlan: RN visit 02/03/2031.\nBP: 120/80\n"
    assert texts(note) == ["Summary", "Pt: Walter Brisk", "Activity: as tolerated.", "Plan: RN visit 02/03/2031.",
                           "BP: 120/80"]


def test_a_label_of_no_known_section_before_prose_stays_one_field():
    # "Wound:" names no narrative section: the field holds its first sentence
    note = "Nursing\nWound: Dressing changed today and the edges look clean. Next change Friday.\n"
    assert texts(note) == ["Nursing", "Wound: Dressing changed today and the edges look clean.",
                           "Next change Friday."]


def test_a_one_line_paragraph_keeps_its_section_label_as_a_release_excerpt_does():
    note = "HPI: 61 yo woman with two weeks of cough and fever.\n\nPlan: follow up.\n"
    assert texts(note)[0] == "HPI: 61 yo woman with two weeks of cough and fever."


def test_short_data_columns_after_a_field_are_fields_of_their_own():
    line = "Pt: Walter Brisk   47M   Adm 03/02/2031   D/C 03/05/2031"
    assert cells(line, field_cells(line)) == ["Pt: Walter Brisk", "47M", "Adm 03/02/2031", "D/C 03/05/2031"]
    # a phrase is no data column
    assert field_cells("Surgeon: Dr. Ostby   Questions? Call 555-0100") == []
    # a sign-off's date and time in a column of their own are a field of their own; a date's time is part of it
    line = "Signed: R. Ostby, MD   03/05/2031 14:02"
    assert cells(line, field_cells(line)) == ["Signed: R. Ostby, MD", "03/05/2031 14:02"]
    assert field_cells("Collected: 03/05/2031   14:02") == []


def test_a_strip_of_readings_in_columns_is_one_unit():
    # measurements several on one line are one unit, as the writers of gold splits are asked to keep them
    assert line_cells("Na 131   K 5.2   bili 0.9   plt 140") == []
    assert line_cells("T 100.2 F   HR 88   SpO2 97% RA") == []
    # dates are no measurements: header fields without colons stay apart
    line = "Admit 03/02/2031   D/C 03/05/2031"
    assert cells(line, line_cells(line)) == ["Admit 03/02/2031", "D/C 03/05/2031"]
    # two columns are a name and its value, not a strip
    assert line_cells("Creatinine   1.9") == []


def test_a_label_one_space_before_its_readings_holds_them_all():
    note = "Exam\nVitals: T 36.9  HR 71  BP 118/76  SpO2 98% RA\nVITALS:  T 36.9  HR 71\n"
    assert texts(note) == ["Exam", "Vitals: T 36.9 HR 71 BP 118/76 SpO2 98% RA", "VITALS:", "T 36.9", "HR 71"]


def test_a_heading_over_entries_set_in_deeper_is_a_unit_alone():
    note = ("STOP taking these medications\n    naproxen 250 mg tablet\n        Reason: raises bleeding risk.\n"
            "CONTINUE taking these medications\n    metformin 500 mg tablet\n        Take 1 tablet twice a day.\n")
    assert texts(note) == ["STOP taking these medications", "naproxen 250 mg tablet Reason: raises bleeding risk.",
                           "CONTINUE taking these medications", "metformin 500 mg tablet Take 1 tablet twice a day."]


def test_a_result_line_under_a_result_line_is_a_line_of_its_own():
    note = "RESULTS\nSodium 128 on admission, 131 on day two, 135 at discharge\nLactate 3.1 mmol/L (admission)\n"
    assert texts(note) == ["RESULTS", "Sodium 128 on admission, 131 on day two, 135 at discharge",
                           "Lactate 3.1 mmol/L (admission)"]


def test_a_note_deidentified_as_the_releases_are_keeps_its_section_labels():
    note = "Summary\nHPI: Mr. ___ is a 61 yo man with two weeks of cough.\nSeen by Dr. ___ today.\n"
    assert texts(note)[1] == "HPI: Mr. ___ is a 61 yo man with two weeks of cough."


def test_a_problem_heading_before_a_lower_case_start_stays_one_item():
    note = "A/P:\n# Gout on colchicine: continue the colchicine for two more weeks.\n# Anemia: stable.\n"
    assert texts(note)[1] == "# Gout on colchicine: continue the colchicine for two more weeks."
