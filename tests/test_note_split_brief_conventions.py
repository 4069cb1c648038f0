"""The writer brief's conventions on lines older rules read otherwise: a dictated plan numbered in words, a dictated
header's fields in lower case one a line, a sign-off's name and its date in two columns, a letterhead's lines set right
or centred, a label that only says an appointment follows, a comment's label that says whose in brackets, a medicine
named alone over its instruction set in under it, a wrapped sentence carried on by a date, a value, a month or a quoted
name. Every expected split is written out by hand, on invented lines."""

from __future__ import annotations

import pytest
from split_texts import texts

from archehr.data.note_spacy import spacy_available


def test_a_dictated_plan_numbered_in_words_gives_one_unit_an_item():
    note = ("plan\n"
            "one. start ramipril 2.5 mg at night and check the kidney bloods in two weeks.\n"
            "two. carry on with the amlodipine.\n"
            "three. review in clinic in three months.\n")
    assert texts(note) == ["plan", "one. start ramipril 2.5 mg at night and check the kidney bloods in two weeks.",
                           "two. carry on with the amlodipine.", "three. review in clinic in three months."]
    # (an item of two sentences gives two units; capitals too)
    assert texts("Plan\nOne. Start ramipril. Check bloods in two weeks.\nTwo. Review in clinic.\n") == [
        "Plan", "One. Start ramipril.", "Check bloods in two weeks.", "Two. Review in clinic."]


def test_a_dictated_headers_lower_case_fields_one_a_line_are_one_unit_each():
    note = ("clinic date: 02/05/2025\n"
            "seen by: dr jo kent consultant with sam lowe physiotherapist\n"
            "\n"
            "this is a 60 year old man with a stiff shoulder for four months and he has been\n"
            "doing his exercises every day.\n")
    assert texts(note) == ["clinic date: 02/05/2025", "seen by: dr jo kent consultant with sam lowe physiotherapist",
                           "this is a 60 year old man with a stiff shoulder for four months and he has been doing "
                           "his exercises every day."]


@pytest.mark.parametrize("line, cells", [
    ("Signed: K. Moyo    11/02/2025 09:10", ["Signed: K. Moyo", "11/02/2025 09:10"]),
    ("Reconciled by: Dr P. Lund    03/06/2025", ["Reconciled by: Dr P. Lund", "03/06/2025"]),
    # (two spaces set the date apart too)
    ("Electronically signed: Ann Lee, MD  04/02/2031 07:15",
     ["Electronically signed: Ann Lee, MD", "04/02/2031 07:15"]),
    # (a date's time set apart is part of its value, and a date inside a sentence is no column)
    ("Collected: 03/05/2031    14:02", ["Collected: 03/05/2031 14:02"]),
    ("Next visit: Tuesday    12/03/2031 10:30", ["Next visit: Tuesday 12/03/2031 10:30"]),
])
def test_a_sign_offs_name_and_its_date_in_a_column_of_their_own_are_two_units(line, cells):
    assert texts(f"Plan discussed with the patient.\n{line}\n") == ["Plan discussed with the patient.", *cells]


def test_a_letterheads_lines_set_right_or_centred_are_one_unit_each():
    right = ("                                     Department of Dermatology\n"
             "                  Elmfield General Hospital, Mill Lane, EF2 8QT\n"
             "                                              Tel: 01632 960555\n")
    assert texts(right) == ["Department of Dermatology", "Elmfield General Hospital, Mill Lane, EF2 8QT",
                            "Tel: 01632 960555"]
    centred = ("                  Department of Dermatology\n"
               "         Elmfield General Hospital, Mill Lane, EF2 8QT\n")
    assert texts(centred) == ["Department of Dermatology", "Elmfield General Hospital, Mill Lane, EF2 8QT"]
    # (a hanging indent under a medicine is no letterhead, however its ends line up)
    entry = ("START taking:\n"
             "    Cetirizine 10 mg tablets\n"
             "        1 tablet once a day for 2 weeks.\n"
             "    Emollient cream\n"
             "        Apply twice a day.\n")
    assert texts(entry)[1] == "Cetirizine 10 mg tablets 1 tablet once a day for 2 weeks."


def test_a_medicine_named_alone_over_its_instruction_set_in_is_one_unit_with_its_first_sentence():
    note = ("CHANGE how you take these medications:\n"
            "    Salbutamol 100 micrograms inhaler - blue reliever\n"
            "        Day 1: 6 puffs every 4 hours. Day 2: 4 puffs every 4 hours.\n")
    assert texts(note) == ["CHANGE how you take these medications:",
                           "Salbutamol 100 micrograms inhaler - blue reliever Day 1: 6 puffs every 4 hours.",
                           "Day 2: 4 puffs every 4 hours."]


def test_a_stack_of_an_appointment_whose_letter_will_follow_is_one_unit():
    note = ("Your upcoming appointments\n"
            "\n"
            "    Dermatology Clinic\n"
            "    Elmfield General Hospital, Outpatients C\n"
            "    Appointment letter to follow\n")
    assert texts(note) == ["Your upcoming appointments",
                           "Dermatology Clinic Elmfield General Hospital, Outpatients C Appointment letter to follow"]


def test_a_comments_label_that_says_whose_heads_the_prose_after_it():
    note = ("Comment (Clinical Chemistry): Ferritin is low, in keeping with iron deficiency. Suggest oral iron.\n"
            "ADDENDUM (Dr R. Hale, 12/03/2025): Reviewed with the patient by phone and iron\n"
            "started.\n")
    assert texts(note) == ["Comment (Clinical Chemistry):", "Ferritin is low, in keeping with iron deficiency.",
                           "Suggest oral iron.",
                           "ADDENDUM (Dr R. Hale, 12/03/2025):",
                           "Reviewed with the patient by phone and iron started."]
    # (a test named with its date in brackets heads its result, one unit)
    assert texts("US abdomen (02/03/2025): Normal liver and spleen.\n") == [
        "US abdomen (02/03/2025): Normal liver and spleen."]


def test_a_status_field_keeps_its_value():
    assert texts("BIOPSY, LEFT CHEEK (04/02/2025)\nStatus: AWAITED - sample received in histology 05/02/2025.\n") == [
        "BIOPSY, LEFT CHEEK (04/02/2025)", "Status: AWAITED - sample received in histology 05/02/2025."]


@pytest.mark.parametrize("note, expected", [
    # (a date going on after a comma in lower case)
    ("The scan was discussed at the skin cancer MDT\n14/03/2025, and no further surgery is needed at present.\n",
     ["The scan was discussed at the skin cancer MDT 14/03/2025, and no further surgery is needed at present."]),
    # (a value alone that ends a line of results)
    ("Spirometry: FEV1 2.10 L (80% predicted), FVC 3.05 L (95% predicted), FEV1/FVC\n0.69.\n",
     ["Spirometry: FEV1 2.10 L (80% predicted), FVC 3.05 L (95% predicted), FEV1/FVC 0.69."]),
    # (a month and its year after a word left open)
    ("Diagnosis: Melanoma of the left calf, Breslow 0.6 mm, first noticed and excised\nMarch 2024.\n",
     ["Diagnosis: Melanoma of the left calf, Breslow 0.6 mm, first noticed and excised March 2024."]),
    # (a size at the end of a sentence begun inside the line above)
    ("Haemostasis was good. No drain was needed. The wound was closed with 3/0\n"
     "Prolene and a dressing applied over the top of it.\nEstimated blood loss: minimal.\n",
     ["Haemostasis was good.", "No drain was needed.",
      "The wound was closed with 3/0 Prolene and a dressing applied over the top of it.",
      "Estimated blood loss: minimal."]),
    # (a quoted name under a line left open on a word)
    ("She would like more support and has been referred to the nurse-led\n"
     "\"Living Well\" group; the dates will be posted to her.\n",
     ["She would like more support and has been referred to the nurse-led \"Living Well\" group; the dates will be "
      "posted to her."]),
])
def test_a_wrapped_sentence_carried_on_by_a_date_a_value_a_month_a_size_or_a_quoted_name(note, expected):
    # (after a paragraph wrapped wide, so that none of these lines is full: only its shape carries it on)
    wide = ("We talked through all of the results of the tests that were done last month at the hospital and\n"
            "she was glad to hear them.\n\n")
    assert texts(wide + note) == ["We talked through all of the results of the tests that were done last month at "
                                  "the hospital and she was glad to hear them.", *expected]


@pytest.mark.skipif(not spacy_available(), reason="spaCy's small English model is not installed")
def test_a_medicines_instruction_is_cut_at_its_full_stops_only_with_spacy_too():
    note = ("START taking these medications:\n"
            "    sucralfate 1 gram/10 mL suspension (ULCAREX)\n"
            "        Give 2.5 mL by mouth 4 times a day for 10 days. Shake the bottle well.\n"
            "    omeprazole 10 mg packet for oral suspension (ZOMEPRA)\n"
            "        Mix 1 packet in 5 mL of water and give by mouth once a day before breakfast for 4 weeks.\n")
    assert texts(note, "spacy") == [
        "START taking these medications:",
        "sucralfate 1 gram/10 mL suspension (ULCAREX) Give 2.5 mL by mouth 4 times a day for 10 days.",
        "Shake the bottle well.",
        "omeprazole 10 mg packet for oral suspension (ZOMEPRA) Mix 1 packet in 5 mL of water and give by mouth once a "
        "day before breakfast for 4 weeks."]
