"""A portal summary's captions set out to the left over lists set in under them: each caption is a unit of its own,
as a paragraph's first line is, wherever it stands in the paragraph. Every expected split is written out by hand, on
invented lines."""

from __future__ import annotations

from split_texts import texts


def test_a_caption_between_two_lists_set_in_is_a_unit_of_its_own():
    note = ("Diagnoses this visit\n"
            "  Acute bronchitis\n"
            "  Tobacco use\n"
            "Orders placed this visit\n"
            "  Chest X-ray\n")
    assert texts(note) == ["Diagnoses this visit", "Acute bronchitis", "Tobacco use", "Orders placed this visit",
                           "Chest X-ray"]


def test_a_caption_under_a_title_in_capitals_or_a_row_of_fields_is_a_unit_of_its_own():
    note = ("VISIT SUMMARY\n"
            "Diagnoses this visit\n"
            "  Sprained left ankle\n"
            "Medication changes\n"
            "  START ibuprofen 400 mg tablet - take 1 tablet 3 times a day with food\n")
    assert texts(note) == ["VISIT SUMMARY", "Diagnoses this visit", "Sprained left ankle", "Medication changes",
                           "START ibuprofen 400 mg tablet - take 1 tablet 3 times a day with food"]
    note = ("Visit date: March 3, 2025     Provider: Sam Ortiz, NP\n"
            "Diagnoses this visit\n"
            "  Sprained left ankle\n")
    assert texts(note) == ["Visit date: March 3, 2025", "Provider: Sam Ortiz, NP", "Diagnoses this visit",
                           "Sprained left ankle"]


def test_a_medicines_name_over_its_instruction_set_in_stays_one_entry():
    # (the instruction under the name is a sentence: the name heads its entry, no caption of a list)
    note = ("Your medicines\n"
            "Vitamin D3 1000 units\n"
            "    Take 1 tablet by mouth daily with lunch.\n"
            "Iron and folic acid\n"
            "    Take 1 tablet by mouth every morning.\n")
    assert texts(note) == ["Your medicines", "Vitamin D3 1000 units Take 1 tablet by mouth daily with lunch.",
                           "Iron and folic acid Take 1 tablet by mouth every morning."]
