"""Header fields one space apart after a name, a credential or a multi-word label, and an order named with its colon
over its instruction line at the same depth. Every expected split is written out by hand."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_entries import order_over_instruction


def test_a_name_before_the_birth_date_on_a_header_line_is_a_field_of_its_own():
    assert texts("Maria Delgado-Ruiz DOB: 04/11/1992 MRN: PH-3309812\n") == [
        "Maria Delgado-Ruiz", "DOB: 04/11/1992", "MRN: PH-3309812"]
    assert texts("Mr Tom Reed MRN: 5512\n") == ["Mr Tom Reed", "MRN: 5512"]


def test_a_label_in_title_case_after_a_number_and_a_label_after_a_credential_start_fields():
    assert texts("Patient: Jasmine Lee MRN: 80-441-2297 Date of Birth: 07/21/1998\n") == [
        "Patient: Jasmine Lee", "MRN: 80-441-2297", "Date of Birth: 07/21/1998"]
    assert texts("Attending: Marcus Feld, MD Department: Labor and Delivery\n") == [
        "Attending: Marcus Feld, MD", "Department: Labor and Delivery"]
    assert texts("Attending: Marcus Feld, MD\n") == ["Attending: Marcus Feld, MD"]


def test_a_stays_dates_after_a_ward_name_are_fields():
    assert texts("Ward: Robin Ward Admitted: 08/11/2026 Discharged: 10/11/2026\n") == [
        "Ward: Robin Ward", "Admitted: 08/11/2026", "Discharged: 10/11/2026"]


def test_an_order_named_with_its_colon_takes_its_instruction_line():
    note = "Your medications\nCONTINUE: aspirin 81 mg\nTake 1 tablet by mouth at bedtime.\nSTOP: caffeine citrate\n" \
           "Stopped on 06/05/2026.\n"
    assert texts(note) == ["Your medications", "CONTINUE: aspirin 81 mg Take 1 tablet by mouth at bedtime.",
                           "STOP: caffeine citrate Stopped on 06/05/2026."]
    # (a further sentence of the instruction is a unit of its own, as under an entry set in)
    assert texts("NEW: insulin 8 units\nInject at bedtime. We will adjust the dose weekly.\n") == [
        "NEW: insulin 8 units Inject at bedtime.", "We will adjust the dose weekly."]


def test_an_order_without_its_colon_or_before_no_instruction_stands_alone():
    assert not order_over_instruction("CONTINUE: salbutamol inhaler", "LABS")  # a heading
    assert not order_over_instruction("STOP: caffeine citrate", "START: iron 1 mL daily.")  # another order
    assert not order_over_instruction("START apixaban 5 mg twice a day", "Take it with food.")  # an order in full
    assert not order_over_instruction("CONTINUE: aspirin 81 mg daily.", "Take it at bedtime.")  # ends a sentence
    assert not order_over_instruction("CONTINUE: aspirin 81 mg", "Bleeding: call us.")  # a field
    assert texts("START apixaban 5 mg twice a day\nTake it with food.\n") == [
        "START apixaban 5 mg twice a day", "Take it with food."]


def test_two_header_lines_in_aligned_columns_are_fields_not_a_table_but_a_repeated_page_head_is_one_unit():
    head = ("Northbay Hospital          Renal Unit\n"
            "Patient: LEE, Ann   MRN 5501   DOB 03/04/1990\n"
            "Baby: LEE, Baby Girl   MRN 5502   DOB 28/07/2025\n"
            "The baby was well at birth.\n")
    assert texts(head)[2:] == ["Patient: LEE, Ann", "MRN 5501", "DOB 03/04/1990", "Baby: LEE, Baby Girl", "MRN 5502",
                               "DOB 28/07/2025", "The baby was well at birth."]
    # (printed again on page 2, the patient's line is the pages' running head: one unit, whatever it holds)
    note = (head + "Page 1 of 2\nNorthbay Hospital          Renal Unit\n"
            "Patient: LEE, Ann   MRN 5501   DOB 03/04/1990\nShe went home on day two.\nPage 2 of 2\n")
    assert texts(note)[-3:] == ["Patient: LEE, Ann MRN 5501 DOB 03/04/1990", "She went home on day two.", "Page 2 of 2"]
