"""Shapes of exported notes the written split conventions settle: a dictation's SOAP letters typed in lower case, a
pipe line whose every cell is a labelled field, a label over results in words parted by pipes, a log heading's
initial before a surname and a grade, a titled signer with a grade and a specialty over the date, a portal's caption
over its appointment, a numbered item under a heading in capitals, an order row's columns wrapped onto the line
under it, a callout's label before sentences, centred letterhead lines and a PDF's field wrapped before the next
field's column. Every expected split is written out by hand, on invented lines."""

from __future__ import annotations

from split_texts import texts

# --- dictation ------------------------------------------------------------------------------------------------------

def test_lower_case_soap_letters_of_a_dictation_are_cut_from_their_prose():
    note = ("knee clinic note, dictated by dr jo kent\n\n"
            "s: she returns 4 weeks after a fall onto the left knee. pain is better.\n\n"
            "o: knee swelling gone, full range of movement.\n\n"
            "a: settling knee sprain.\n\n"
            "p: one. stop the brace now. two. physiotherapy for 6 weeks.\n")
    assert texts(note) == ["knee clinic note, dictated by dr jo kent", "s:",
                           "she returns 4 weeks after a fall onto the left knee.", "pain is better.", "o:",
                           "knee swelling gone, full range of movement.", "a:", "settling knee sprain.", "p:",
                           "one. stop the brace now.", "two. physiotherapy for 6 weeks."]


def test_a_single_lower_case_letter_and_colon_is_no_soap_section():
    note = "notes from the call.\n\na: she asked about the dose.\n"
    assert texts(note) == ["notes from the call.", "a: she asked about the dose."]


# --- pipes ----------------------------------------------------------------------------------------------------------

def test_a_pipe_line_whose_every_cell_is_a_labelled_field_gives_a_unit_each():
    note = "Target INR: 2.0-3.0\nHeight: 171 cm | eGFR: 58 mL/min\nStarted on ward: 03/02/2025 (from ED) | Day: 4\n"
    assert texts(note) == ["Target INR: 2.0-3.0", "Height: 171 cm", "eGFR: 58 mL/min",
                           "Started on ward: 03/02/2025 (from ED)", "Day: 4"]


def test_a_label_over_results_in_words_parted_by_pipes_is_a_unit_and_each_result_another():
    note = ("Pre-treatment bloods (taken 04/03/2025): Hepatitis B core antibody negative | HIV test negative | "
            "Full blood count normal\nPlan reviewed.\n")
    assert texts(note) == ["Pre-treatment bloods (taken 04/03/2025):", "Hepatitis B core antibody negative",
                           "HIV test negative", "Full blood count normal", "Plan reviewed."]


def test_readings_under_a_label_are_a_unit_each_and_a_patients_ids_stay_as_they_were():
    assert texts("Your vitals today: BP 128/80 | Pulse 70 | Temp 98.1 F\n") == [
        "Your vitals today: BP 128/80", "Pulse 70", "Temp 98.1 F"]
    assert texts("Pt: Ana Ruiz | DOB 03/04/1970 | MRN 55-120\n") == ["Pt: Ana Ruiz", "DOB 03/04/1970", "MRN 55-120"]


# --- logs and signatures --------------------------------------------------------------------------------------------

def test_a_log_headings_initial_before_a_surname_and_a_grade_ends_no_sentence():
    note = ("COMMUNITY NURSING RECORD\n\n"
            "02/05/2025 09:30  K. Ambrose RGN\n"
            "Dressing changed. Wound smaller.\n")
    assert texts(note) == ["COMMUNITY NURSING RECORD", "02/05/2025 09:30 K. Ambrose RGN Dressing changed.",
                           "Wound smaller."]


def test_a_titled_signer_with_a_grade_and_specialty_over_a_date_and_time_is_two_units():
    note = "Ring the ward if you are worried.\n\nDr Ada Mortimer, ST3 Respiratory\n04/06/2025 17:10\n"
    assert texts(note) == ["Ring the ward if you are worried.", "Dr Ada Mortimer, ST3 Respiratory",
                           "04/06/2025 17:10"]


# --- portals and PDFs -----------------------------------------------------------------------------------------------

def test_a_portal_caption_saying_your_next_appointment_heads_the_block_under_it():
    note = "Your next appointment\nFriday 05/09/2025 at 9:20 AM\nAnn Lee, NP\nHillcrest Clinic, Suite 4\n"
    assert texts(note) == ["Your next appointment",
                           "Friday 05/09/2025 at 9:20 AM Ann Lee, NP Hillcrest Clinic, Suite 4"]
    # (a label naming the visit stays with its block)
    assert texts("Follow-up visit\nFriday 05/09/2025 at 9:20 AM\nAnn Lee, NP\n") == [
        "Follow-up visit Friday 05/09/2025 at 9:20 AM Ann Lee, NP"]


def test_a_numbered_item_under_a_heading_in_capitals_is_an_item_not_a_wrapped_number():
    note = "DIET\n4. Eat soft food for 3 days after the\nprocedure.\n5. Drink plenty of water.\n"
    assert texts(note) == ["DIET", "4. Eat soft food for 3 days after the procedure.", "5. Drink plenty of water."]


def test_an_order_rows_columns_wrapped_onto_the_line_under_it_carry_the_row_on():
    note = ("ACTION     MEDICINE / DIRECTIONS                    COMMENT\n"
            "START      cefalexin 500 mg PO four times a day     7 days, to 12/05/2025;\n"
            "           with or without food                     swab grew staph\n"
            "STOP       naproxen 250 mg PO twice daily            stomach upset\n"
            "HOLD       metformin 1 g twice daily                 hold until eating\n"
            "                                                     normally\n")
    assert texts(note) == ["ACTION MEDICINE / DIRECTIONS COMMENT",
                           "START cefalexin 500 mg PO four times a day 7 days, to 12/05/2025; with or without food "
                           "swab grew staph",
                           "STOP naproxen 250 mg PO twice daily stomach upset",
                           "HOLD metformin 1 g twice daily hold until eating normally"]


def test_a_callouts_label_before_two_sentences_heads_them():
    note = ("Your medicines\nCONTINUE  Apixaban 5 mg twice daily.\n\n"
            "Please note: Keep taking the apixaban. Missing doses raises the risk of a stroke.\n")
    assert texts(note)[-3:] == ["Please note:", "Keep taking the apixaban.",
                                "Missing doses raises the risk of a stroke."]
    # (a remark of one sentence stays with its label)
    assert texts("Important: Bring your inhalers to the clinic.\n") == ["Important: Bring your inhalers to the clinic."]


def test_centred_letterhead_lines_set_in_alike_are_a_unit_each():
    note = ("                 Northfield Community Hospitals Trust\n"
            "               Diabetes Foot Protection (DFP) Service\n"
            "               Podiatry Unit, Block C, Mill Road, Northfield NF2 8QT\n"
            "\nDear Dr Lee\n")
    assert texts(note) == ["Northfield Community Hospitals Trust", "Diabetes Foot Protection (DFP) Service",
                           "Podiatry Unit, Block C, Mill Road, Northfield NF2 8QT", "Dear Dr Lee"]


def test_a_pdfs_field_wrapped_before_the_next_fields_column_joins_its_field():
    note = ("Name: Ola Berg    DOB: 02/02/1950    NHS No: 123 456 7890\n"
            "Catheter type: Foley, 14 Ch silicone, long\n"
            "term    Inserted: 02/03/2025 by district nurse\n"
            "Balloon: 10 ml    Bag: leg bag, changed weekly\n")
    assert texts(note) == ["Name: Ola Berg", "DOB: 02/02/1950", "NHS No: 123 456 7890",
                           "Catheter type: Foley, 14 Ch silicone, long term", "Inserted: 02/03/2025 by district nurse",
                           "Balloon: 10 ml", "Bag: leg bag, changed weekly"]


def test_an_order_row_ruled_with_pipes_is_one_unit_however_many_sentences_its_comment_holds():
    # (a table row is one unit; an order set in its column with spaces alone may still hold sentences)
    note = ("ACTION   | MEDICINE               | COMMENT\n"
            "---------+------------------------+--------------------------\n"
            "STOP     | Aspirin 75 mg OD       | Bruising. Not needed now.\n"
            "START    | Ibuprofen 400 mg TDS   | With food. Stop if wheezy.\n")
    assert texts(note) == ["ACTION | MEDICINE | COMMENT", "STOP | Aspirin 75 mg OD | Bruising. Not needed now.",
                           "START | Ibuprofen 400 mg TDS | With food. Stop if wheezy."]
    assert texts("Changes\nSTART     Cefalexin 500 mg four times a day. Take it with water.\n")[1:] == [
        "START Cefalexin 500 mg four times a day.", "Take it with water."]
