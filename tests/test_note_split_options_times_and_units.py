"""Shapes of exported notes the written split conventions settle: a form's checkbox options at a line's end, a time
inside a wrapped sentence, a log entry's writer with a grade, a medicine's dose spelt out and a lab's name in lower
case as a field. Every expected split is written out by hand, on invented lines."""

from __future__ import annotations

from split_texts import texts


def test_a_forms_last_option_no_leaves_no_phrase_open():
    note = ("PRE-OPERATIVE CHECKLIST\n"
            "Smoker: [ ] Yes  [x] No\n"
            "Consent signed: [x] Yes [ ] No\n"
            "Fasting from midnight confirmed by the ward nurse.\n"
            "Blood group sample sent to the lab.\n")
    assert texts(note) == ["PRE-OPERATIVE CHECKLIST", "Smoker: [ ] Yes [x] No", "Consent signed: [x] Yes [ ] No",
                           "Fasting from midnight confirmed by the ward nurse.", "Blood group sample sent to the lab."]


def test_ballot_boxes_options_too():
    note = "Consent signed: \u2611 Yes \u2610 No\nFasting from midnight confirmed by the ward nurse.\n"
    assert texts(note) == ["Consent signed: \u2611 Yes \u2610 No", "Fasting from midnight confirmed by the ward nurse."]


def test_a_boxed_item_left_open_on_a_joining_word_still_runs_on():
    note = "[x] Follow-up booked with\nDr Lee at the surgery next week.\n[ ] Leaflet given\n"
    assert texts(note) == ["[x] Follow-up booked with Dr Lee at the surgery next week.", "[ ] Leaflet given"]


def test_a_time_before_and_carries_the_sentence_on():
    note = ("14/05/2025 08:40 J. Ames RN (phone) Daughter reports her father is more confused and has a\n"
            "temperature of 38.2 this morning. Advised to see the GP; urine sample collected at the home visit\n"
            "10:15 and taken to the surgery by the daughter.\n"
            "\n"
            "14/05/2025 12:05 Dr P. Kerr GP Reviewed at home. Started nitrofurantoin 100 mg twice daily.\n")
    assert texts(note) == [
        "14/05/2025 08:40 J. Ames RN (phone) Daughter reports her father is more confused and has a temperature of "
        "38.2 this morning.",
        "Advised to see the GP; urine sample collected at the home visit 10:15 and taken to the surgery by the "
        "daughter.",
        "14/05/2025 12:05 Dr P. Kerr GP Reviewed at home.", "Started nitrofurantoin 100 mg twice daily."]


def test_a_timed_entry_under_a_line_left_open_still_starts_anew():
    note = ("14/05/2025 08:40 J. Ames RN (phone) Daughter reports her father is more confused and has a\n"
            "temperature of 38.2 this morning. Advised to take him to the GP for a review of his urine\n"
            "15:10 Dr P. Kerr GP phoned back, antibiotics started.\n")
    assert texts(note)[1:] == ["Advised to take him to the GP for a review of his urine",
                               "15:10 Dr P. Kerr GP phoned back, antibiotics started."]


def test_a_log_writers_initial_and_grade_before_the_entry_end_no_sentence():
    note = ("Log\n"
            "14/05/2025 12:05 Dr P. Kerr GP Reviewed at home.\n"
            "14/05/2025 16:30 J. Ames RN Phoned back, he is settled.\n")
    assert texts(note) == ["Log", "14/05/2025 12:05 Dr P. Kerr GP Reviewed at home.",
                           "14/05/2025 16:30 J. Ames RN Phoned back, he is settled."]


def test_a_dose_spelt_out_in_micrograms_is_a_medicine_line_of_its_own():
    # the note is wrapped at 79 columns, so "Tamsulosin" would not have fitted on the line above: a list, not a wrap
    note = ("Eating and drinking normally. Passing urine with some frequency since the stent\n"
            "went in, and mild urgency and light blood staining that is expected to settle.\n"
            "\n"
            "MEDICATIONS ON DISCHARGE:\n"
            "Paracetamol 1 g up to four times a day as required for pain\n"
            "Codeine phosphate 30 mg up to four times a day as required - 5 days' supply\n"
            "Tamsulosin 400 micrograms once daily at night - NEW, while the stent is in, to ease its discomfort\n"
            "Amlodipine 5 mg once daily - CONTINUE, no change\n"
            "Naproxen (anti-inflammatory) - DO NOT TAKE until your kidney blood test\n"
            "has been repeated and is back to normal\n")
    assert texts(note)[2:] == [
        "MEDICATIONS ON DISCHARGE:", "Paracetamol 1 g up to four times a day as required for pain",
        "Codeine phosphate 30 mg up to four times a day as required - 5 days' supply",
        "Tamsulosin 400 micrograms once daily at night - NEW, while the stent is in, to ease its discomfort",
        "Amlodipine 5 mg once daily - CONTINUE, no change",
        "Naproxen (anti-inflammatory) - DO NOT TAKE until your kidney blood test has been repeated and is back to "
        "normal"]


def test_a_labs_name_in_lower_case_is_a_field_of_its_line():
    note = "Allergies: Penicillin - rash\neGFR: 58 mL/min/1.73m2    Weight: 68 kg\nSources checked: patient\n"
    assert texts(note) == ["Allergies: Penicillin - rash", "eGFR: 58 mL/min/1.73m2", "Weight: 68 kg",
                           "Sources checked: patient"]


def test_appointment_blocks_headed_by_their_date_keep_their_place_line_before_the_next_date():
    note = ("Your next appointments\n"
            "Tue 18 Mar 2025    10:40 AM\n"
            "Diabetes Nurse Clinic - Nurse R. Patel\n"
            "Ground floor, Outpatients B\n"
            "Wed 2 Apr 2025     2:15 PM\n"
            "Eye screening (retinal photographs)\n"
            "Mobile unit, car park C\n")
    assert texts(note) == ["Your next appointments",
                           "Tue 18 Mar 2025 10:40 AM Diabetes Nurse Clinic - Nurse R. Patel Ground floor, "
                           "Outpatients B",
                           "Wed 2 Apr 2025 2:15 PM Eye screening (retinal photographs) Mobile unit, car park C"]


def test_appointment_blocks_labelled_above_their_date_keep_their_label():
    note = ("UPCOMING APPOINTMENTS\n\n"
            "Chest X-ray\n"
            "Monday 24 March 2025 at 09:30\n"
            "Radiology Department, Level 1\n\n"
            "Respiratory Clinic with Dr P. Quinn\n"
            "Thursday 3 April 2025 at 14:00\n"
            "Outpatients B, Room 12\n")
    assert texts(note) == ["UPCOMING APPOINTMENTS",
                           "Chest X-ray Monday 24 March 2025 at 09:30 Radiology Department, Level 1",
                           "Respiratory Clinic with Dr P. Quinn Thursday 3 April 2025 at 14:00 Outpatients B, Room 12"]


def test_a_pipe_tables_row_wrapped_onto_a_line_with_its_first_cell_empty_is_one_row():
    note = ("| Test        | Result | Flag | Comment                         |\n"
            "|-------------|--------|------|---------------------------------|\n"
            "| Sodium      | 131    | L    | Mildly low; repeat with the     |\n"
            "|             |        |      | next bloods                     |\n"
            "| Potassium   | 4.1    |      | Normal                          |\n")
    assert texts(note) == ["| Test | Result | Flag | Comment |",
                           "| Sodium | 131 | L | Mildly low; repeat with the | | | | | next bloods |",
                           "| Potassium | 4.1 | | Normal |"]


def test_a_pipe_rows_cells_wrapped_in_lower_case_over_two_lines_stay_with_it():
    note = ("| Medicine     | Dose        | Why                              |\n"
            "| Apixaban     | 5 mg twice  | To prevent clots after the       |\n"
            "|              | daily       | operation, for 6 weeks           |\n"
            "|              |             | in total                         |\n"
            "| Paracetamol  | 1 g         | Pain                             |\n")
    assert texts(note)[1:] == [
        "| Apixaban | 5 mg twice | To prevent clots after the | | | daily | operation, for 6 weeks | | | | in total |",
        "| Paracetamol | 1 g | Pain |"]


def test_a_grouped_tables_row_with_its_group_cell_empty_is_a_row_of_its_own():
    note = ("| Group | Test      | Result |\n"
            "|-------|-----------|--------|\n"
            "| Renal | Sodium    | 139    |\n"
            "|       | Potassium | 4.1    |\n"
            "| Liver | ALT       | 22     |\n")
    assert texts(note) == ["| Group | Test | Result |", "| Renal | Sodium | 139 |", "| | Potassium | 4.1 |",
                           "| Liver | ALT | 22 |"]


def test_a_log_stamp_with_pipes_before_the_writers_initial_stays_with_the_entrys_first_sentence():
    note = ("04/06/2025 10:20 | K. Marsh, CNS | call from patient\n"
            "She reports two days of loose stools since the new tablets started last week\n"
            "and no blood. Advised fluids and to ring back if worse.\n")
    assert texts(note) == ["04/06/2025 10:20 | K. Marsh, CNS | call from patient She reports two days of loose stools "
                           "since the new tablets started last week and no blood.",
                           "Advised fluids and to ring back if worse."]


def test_queries_after_a_full_stop_are_one_unit_of_their_own():
    note = ("Clinical details: Rash after a takeaway meal. ?peanut ?sesame\n"
            "Impression: Urticaria. ?food allergy ?viral\n")
    assert texts(note) == ["Clinical details: Rash after a takeaway meal.", "?peanut ?sesame", "Impression: Urticaria.",
                           "?food allergy ?viral"]


def test_a_questions_options_in_boxes_stay_with_it():
    note = "Interpreter needed? \u2610 Yes \u2612 No\nMobility: independent [x]  walking aid [ ]  hoist [ ]\n"
    assert texts(note) == ["Interpreter needed? \u2610 Yes \u2612 No",
                           "Mobility: independent [x] walking aid [ ] hoist [ ]"]


def test_a_column_tables_comment_wrapped_under_its_column_stays_with_its_row():
    note = ("Test                 Result    Ref range     Comment\n"
            "Vitamin B12          145 L     180-900       Low. Start injections as\n"
            "                                             per the plan below.\n"
            "Folate               6.2       >3.0          Normal\n")
    assert texts(note) == ["Test Result Ref range Comment",
                           "Vitamin B12 145 L 180-900 Low. Start injections as per the plan below.",
                           "Folate 6.2 >3.0 Normal"]


def test_a_bullets_wrapped_lines_stay_with_it_and_a_second_sentence_set_in_under_it_is_its_own():
    note = ("Instructions for you:\n"
            "  - Please stop taking ibuprofen while your kidney function recovers, and use\n"
            "    Paracetamol 1 g up to four times a day instead for any pain you have.\n"
            "  - Keep drinking about 2 litres of fluid every day.\n"
            "    Avoid alcohol for the next week.\n")
    assert texts(note) == ["Instructions for you:",
                           "- Please stop taking ibuprofen while your kidney function recovers, and use Paracetamol "
                           "1 g up to four times a day instead for any pain you have.",
                           "- Keep drinking about 2 litres of fluid every day.", "Avoid alcohol for the next week."]
