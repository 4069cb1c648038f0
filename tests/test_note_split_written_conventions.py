"""The written split conventions on export shapes the rules read otherwise before: a form's blank to fill in is no
de-identified note, and measurements several on one line, set apart in columns, are one unit. Every expected split is
written out by hand, on invented lines."""

from __future__ import annotations

from split_texts import texts


def test_a_forms_blank_to_fill_in_leaves_section_labels_apart_from_their_prose():
    note = ("Subjective: Pt is a 61 y/o teacher 3 weeks after a hip replacement. Walks with a stick.\n"
            "Plan: Physio twice a week for 6 weeks. Review in clinic.\n"
            "\n"
            "Patient signature: ____________   Date: ________\n")
    assert texts(note)[:6] == ["Subjective:", "Pt is a 61 y/o teacher 3 weeks after a hip replacement.",
                               "Walks with a stick.", "Plan:", "Physio twice a week for 6 weeks.", "Review in clinic."]
    # (a de-identified note, "___" as a word, keeps its labels with their prose, as the releases do)
    note = "Subjective: Mr. ___ is a 61 y/o teacher 3 weeks after a hip replacement.\n"
    assert texts(note) == ["Subjective: Mr. ___ is a 61 y/o teacher 3 weeks after a hip replacement."]


def test_measurements_several_on_one_line_in_columns_are_one_unit():
    note = "O:\nT 99.1 F   HR 104   BP 126/80   SpO2 97% RA\nLeft calf swollen and tender.\n"
    assert texts(note) == ["O:", "T 99.1 F HR 104 BP 126/80 SpO2 97% RA", "Left calf swollen and tender."]
    # (one a line, each is a unit)
    assert texts("O:\nT 99.1 F\nHR 104\n") == ["O:", "T 99.1 F", "HR 104"]


def test_a_running_header_in_columns_printed_on_each_page_is_one_unit():
    header = "Hillcrest Rehab Centre                    Hand Therapy Department"
    note = (f"{header}\nPage 1 of 2\nPatient: Ann Lee\n\nSplint worn day and night.\n\n"
            f"{header}\nPage 2 of 2\nReview in 2 weeks.\n")
    one = "Hillcrest Rehab Centre Hand Therapy Department"
    assert texts(note) == [one, "Page 1 of 2", "Patient: Ann Lee", "Splint worn day and night.", one, "Page 2 of 2",
                           "Review in 2 weeks."]
    # (printed once, or in a note with no page marks, its columns stay apart)
    once = f"{header}\nPatient: Ann Lee\n\nSplint worn day and night.\n"
    assert texts(once)[:2] == ["Hillcrest Rehab Centre", "Hand Therapy Department"]


def test_readings_dictated_one_a_line_in_lower_case_under_unwrapped_prose_are_one_unit_each():
    long_line = ("this is a phone review for mrs lee who has been taking her blood pressure at home twice a day for "
                 "the last week with the machine the surgery lent her, and her son read the numbers out to me "
                 "over the phone as follows")
    later = ("her average is above her target of under 135 over 85 at home so the amlodipine will go up to 10 mg "
             "once a day from tomorrow, and she will send a fresh set of home readings in through the app in "
             "two weeks.")
    note = f"{long_line}\nmorning average 150 over 90\nevening average 144 over 86\nlowest 132 over 80\n{later}\n"
    assert texts(note) == [long_line, "morning average 150 over 90", "evening average 144 over 86",
                           "lowest 132 over 80", later]


def test_a_lower_case_closing_over_a_dictated_sign_off_gives_one_unit_a_line():
    note = ("thank you for seeing him. i will review him in six weeks.\n\n"
            "kind regards\ndr anna pike\nconsultant physician\ncc mr tom reed\n")
    assert texts(note)[2:] == ["kind regards", "dr anna pike", "consultant physician", "cc mr tom reed"]
    # (a closing over prose is no sign-off: the lines are a wrapped sentence's)
    note = "many thanks\nfor all the help with his care over the last months\n"
    assert len(texts(note)) == 1


def test_a_weeks_doses_by_day_under_their_label_are_no_appointment():
    note = "Warfarin dosing from 03/02/2025:\nMon 3 mg, Tue 2 mg, Wed 3 mg, Thu 2 mg\nNext INR check in one week.\n"
    assert texts(note) == ["Warfarin dosing from 03/02/2025:", "Mon 3 mg, Tue 2 mg, Wed 3 mg, Thu 2 mg",
                           "Next INR check in one week."]


def test_a_reports_finding_in_a_noun_phrase_under_its_name_is_one_field_unit():
    note = ("CT HEAD 03/03/2025\n"
            "Impression: Small old infarct in the right parietal lobe with no new bleed or mass. No acute change.\n")
    assert texts(note) == ["CT HEAD 03/03/2025",
                           "Impression: Small old infarct in the right parietal lobe with no new bleed or mass.",
                           "No acute change."]
    # (a clause with its verb is the section's prose: its label is a unit of its own)
    note = ("CT HEAD 03/03/2025\n"
            "Impression: The scan shows a small old infarct in the right parietal lobe. No acute change.\n")
    assert texts(note)[1] == "Impression:"


def test_a_named_section_before_a_long_sentence_in_lower_case_is_a_unit_of_its_own():
    note = ("Plan: review in the fracture clinic with a fresh x-ray on 3 May, and the splint comes off\n"
            "at that visit if the bone has healed.\n")
    assert texts(note) == ["Plan:", "review in the fracture clinic with a fresh x-ray on 3 May, and the splint comes "
                                    "off at that visit if the bone has healed."]
    # (a short value in lower case stays with its label: "Plan: continue current dose")
    assert texts("Plan: continue current dose\nReview: 2 weeks\n") == ["Plan: continue current dose", "Review: 2 weeks"]


def test_a_named_line_of_one_phrase_under_a_value_field_is_one_more_field():
    note = "Antibiotic: Teicoplanin 400 mg IV daily\nCourse: 4 weeks; day 1 = 02/05/2025; last dose 29/05/2025\n"
    assert texts(note) == ["Antibiotic: Teicoplanin 400 mg IV daily",
                           "Course: 4 weeks; day 1 = 02/05/2025; last dose 29/05/2025"]
