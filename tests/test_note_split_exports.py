"""Export shapes of medication lists, appointment lists and report fields: an order set in a column before its drug,
an order named with its colon, a medicine with its instruction lines set in under it, an appointment whose date is
not yet set, and a plan written as one more field of a report. Every expected split is written out by hand."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_entries import medicine_head
from archehr.data.note_sentence_edits import should_join


def test_an_order_in_a_column_of_its_own_is_one_entry_with_its_drug():
    # (a drug named in capitals before a colon reads like a field's label: the order's column makes it none)
    note = ("MEDICATION CHANGES\n"
            "START     Naproxen 250 mg tablets: twice a day with food for 5 days.\n"
            "STOP      Aspirin 75 mg: stop until the wound has healed; restart after 2 weeks.\n"
            "CONTINUE  Lisinopril 10 mg once daily.\n")
    assert texts(note) == ["MEDICATION CHANGES",
                           "START Naproxen 250 mg tablets: twice a day with food for 5 days.",
                           "STOP Aspirin 75 mg: stop until the wound has healed; restart after 2 weeks.",
                           "CONTINUE Lisinopril 10 mg once daily."]


def test_orders_named_with_their_colon_write_no_letter_of_labelled_paragraphs():
    # three lines of 21, 18 and 21 words (a dash counted) after a label, 20 on average, together, would read as a
    # letter's labelled paragraphs; an order's colon is no paragraph's label, so each line stays one entry
    note = ("MEDICATION CHANGES\n"
            "STOP: Iron tablets 200 mg daily - you can stop these now; your blood count is back in the normal range "
            "again.\n"
            "START: Omeprazole 20 mg capsules - take one every morning before breakfast for the next eight weeks at "
            "least.\n"
            "CONTINUE: Amlodipine 5 mg once a day - no change to the dose, keep taking it every morning as you do "
            "now.\n")
    assert texts(note) == [
        "MEDICATION CHANGES",
        "STOP: Iron tablets 200 mg daily - you can stop these now; your blood count is back in the normal range again.",
        "START: Omeprazole 20 mg capsules - take one every morning before breakfast for the next eight weeks at least.",
        "CONTINUE: Amlodipine 5 mg once a day - no change to the dose, keep taking it every morning as you do now."]


def test_a_medicine_with_its_instruction_set_in_under_it_is_one_unit_with_its_first_sentence():
    note = ("Your medicines\n"
            "Cefuroxime 250 mg tablets\n"
            "    Take 1 tablet twice a day for 5 days. Finish the course.\n"
            "Salbutamol inhaler\n"
            "    2 puffs when needed. Rinse your mouth after.\n")
    # (a further sentence of the instruction is a unit of its own, as a list item's second sentence is)
    assert texts(note) == ["Your medicines",
                           "Cefuroxime 250 mg tablets Take 1 tablet twice a day for 5 days.", "Finish the course.",
                           "Salbutamol inhaler 2 puffs when needed.", "Rinse your mouth after."]
    # (each line set in under the medicine is its own, a full stop at a line's end too)
    assert texts("START ramipril 2.5 mg capsules\n  Take 1 capsule at night.\n  Check your kidney blood test in "
                 "2 weeks.\n") == ["START ramipril 2.5 mg capsules Take 1 capsule at night.",
                                   "Check your kidney blood test in 2 weeks."]


def test_one_medicine_over_its_instruction_set_in_is_an_entry_alone():
    note = ("START taking:\nVitamin B12 1 mg tablets\n    Give 1 tablet by mouth once a day.\n"
            "CONTINUE:\nNo other medicines.\n")
    assert texts(note) == ["START taking:", "Vitamin B12 1 mg tablets Give 1 tablet by mouth once a day.",
                           "CONTINUE:", "No other medicines."]


def test_a_list_item_or_a_timed_entry_keeps_the_sentences_under_it_apart():
    note = ("Your medicines\n- Prednisolone 20 mg once daily\n    5-day course. No need to taper.\n"
            "- Doxycycline 100 mg once daily\n    Last dose on Friday. Take with water.\n")
    assert texts(note) == ["Your medicines", "- Prednisolone 20 mg once daily 5-day course.", "No need to taper.",
                           "- Doxycycline 100 mg once daily Last dose on Friday.", "Take with water."]
    note = "Phone log\n09:10  Called mother. Advised fluids and rest\n       for two days. Will ring back.\n" \
           "09:40  Mother rang back. Settled.\n"
    assert texts(note) == ["Phone log", "09:10 Called mother.", "Advised fluids and rest for two days.",
                           "Will ring back.", "09:40 Mother rang back.", "Settled."]


def test_a_medicines_head_names_a_strength_or_a_form_and_ends_no_sentence():
    assert medicine_head("Ofloxacin 0.3% eye drops")
    assert medicine_head("    cephalexin 500 mg capsule")
    assert medicine_head("STOP ibuprofen (Advil, Motrin)")  # an order naming its drug
    assert not medicine_head("STOP")  # an order alone
    assert not medicine_head("- Prednisolone 20 mg")  # a list item
    assert not medicine_head("09:10 Paracetamol 1 g given")  # a timed entry
    assert not medicine_head("Dose: 5 mg")  # a field
    assert not medicine_head("Paracetamol 1 g given.")  # a sentence
    assert not medicine_head("Diagnoses")  # a heading


def test_an_appointment_whose_date_is_not_yet_set_is_a_block_like_a_dated_one():
    note = ("Upcoming appointments\nMonday 03/02/2026\n    9:00 AM\n    Dressing clinic\n\n"
            "Date to be arranged (in about 6 weeks)\n    Hearing test\n    Audiology, Block C\n")
    assert texts(note) == ["Upcoming appointments", "Monday 03/02/2026 9:00 AM Dressing clinic",
                           "Date to be arranged (in about 6 weeks) Hearing test Audiology, Block C"]
    # (with no lines set in under it, the line is a sentence)
    assert texts("Next steps\nDate to be confirmed by letter.\nBring your glasses.\n") == [
        "Next steps", "Date to be confirmed by letter.", "Bring your glasses."]


def test_a_plan_under_a_field_holding_its_value_is_one_more_field():
    note = ("Procedure: Angiogram through the right wrist.\nComplications: None.\n"
            "Plan: Medical therapy for the narrowed vessel; review in clinic in 6 weeks.\n")
    assert texts(note) == ["Procedure: Angiogram through the right wrist.", "Complications: None.",
                           "Plan: Medical therapy for the narrowed vessel; review in clinic in 6 weeks."]
    # (under a field of narrative, the plan heads its prose as a section does)
    note = note.replace("Complications: None.", "Medication: I have started aspirin 75 mg daily.")
    assert texts(note) == ["Procedure: Angiogram through the right wrist.",
                           "Medication: I have started aspirin 75 mg daily.", "Plan:",
                           "Medical therapy for the narrowed vessel; review in clinic in 6 weeks."]


def test_a_cut_after_a_stamp_alone_or_before_a_number_after_no_sentence_end_is_undone():
    # (a parser may cut an entry's stamp off its first sentence, or a drug's name off its dose; the rules never do)
    assert should_join("04/06/2026 09:18", "Medications reviewed with the patient.", "text")
    assert should_join("10:36", "If he misses a dose, call the service.", "text")
    assert should_join("STOP: Theophylline (Uniphyllin)", "200 mg twice daily - no benefit.", "text")
    assert not should_join("Seen on 04/06/2026 09:18.", "Medications reviewed.", "text")  # a sentence ended
    assert not should_join("He took 2 tablets.", "3 hours later he felt better.", "text")  # a sentence ended
    assert not should_join("Na 129", "140 after fluids", "lab")  # a lab line's own cuts stand


def test_an_initial_after_by_before_a_surname_ends_no_sentence():
    assert should_join("Notes written by K.", "Adebayo unless signed otherwise.", "text")
    assert should_join("Wound reviewed with T.", "Lindqvist today.", "text")
    # (a letter after no such word ends its sentence: "... hepatitis B." + "Next review ...")
    assert not should_join("Immune to hepatitis B.", "Next review in a year.", "text")
    assert not should_join("Covered by plan B.", "Call the clinic.", "text")
