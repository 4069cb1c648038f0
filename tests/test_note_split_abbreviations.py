"""Abbreviations with a full stop that end no sentence before the number they name: a month's and a weekday's, a
room's and a building's, a reading's and a contact's, and a record's name before its number. Every expected split
is written out by hand, on invented lines."""

from __future__ import annotations

import pytest
from split_texts import texts


@pytest.mark.parametrize("line", [
    "Seen on Jan. 5, 2025 for a wound check.",
    "Next visit Sept. 12 at 10 am.",
    "Appointment: Tues. 14 Oct. 2025, 9:30 a.m., Rm. 4, Bldg. 2, Ste. 210",
    "Vitals: Temp. 38.4 C, Wt. 80 kg, Ht. 1.75 m, Sats. 94% on air.",
    "Ward phone Tel. 01632 960111, Mob. 07700 900123",
    "Our Ref. 2025/118 - please quote it.",
    "SEEN ON FRI. 7 MARCH.",
    "temp. 37.9, wt. 61 kg.",
])
def test_an_abbreviation_before_its_number_keeps_the_sentence_whole(line: str):
    assert texts(line) == [line]


def test_a_record_name_abbreviated_before_its_number_keeps_the_field_whole():
    # (the "Re:" line's fields are a unit each, its name keeping its comma, as the split conventions give them)
    assert texts("Re: Mr A Sample, Hosp. No. 12345") == ["Re: Mr A Sample,", "Hosp. No. 12345"]
    assert texts("Letter filed. Pt. No. K-4471 on the front sheet.") == [
        "Letter filed.", "Pt. No. K-4471 on the front sheet."]


def test_the_same_words_still_end_a_sentence_before_a_capital_or_in_lower_case():
    # (a sentence that ends on a word in lower case is no weekday's: "the sun.", and a clinic's "No." answer)
    assert texts("Wear a hat in the sun. 2 coats of cream are best.") == [
        "Wear a hat in the sun.", "2 coats of cream are best."]
    assert texts("Asked if she smokes at the clinic. No. Never has.") == [
        "Asked if she smokes at the clinic.", "No.", "Never has."]
    assert texts("Review booked for Jan. She will ring if worse.") == [
        "Review booked for Jan.", "She will ring if worse."]


def test_an_example_or_a_restatement_after_its_abbreviation_is_the_same_sentence():
    note = "Take a pain reliever, e.g. Tylenol or Advil. Avoid NSAIDs, i.e. Advil and Aleve, with kidney disease."
    assert texts(note) == ["Take a pain reliever, e.g. Tylenol or Advil.",
                           "Avoid NSAIDs, i.e. Advil and Aleve, with kidney disease."]
    # (wrapped right after the abbreviation too: the line left open carries on into the next)
    note = ("He has tried simple painkillers for the pain in both of his knees with some help, e.g.\n"
            "Panadol Extra twice a day, and he walks his dog every morning for half an hour.\n")
    assert texts(note) == ["He has tried simple painkillers for the pain in both of his knees with some help, e.g. "
                           "Panadol Extra twice a day, and he walks his dog every morning for half an hour."]
    # ("etc." may end a sentence: the next one starts anew)
    assert texts("Bring your inhalers, spacers, etc. The nurse will check them.") == [
        "Bring your inhalers, spacers, etc.", "The nurse will check them."]


def test_an_acronym_spelt_like_a_medicines_form_ends_its_sentence():
    # ("CAP" is community-acquired pneumonia here, not a capsule before the drug's name)
    assert texts("He has CAP. He was given amoxicillin.") == ["He has CAP.", "He was given amoxicillin."]
    assert texts("Dx: CAP. Tx: amoxicillin 500 mg three times a day.") == [
        "Dx: CAP.", "Tx: amoxicillin 500 mg three times a day."]
    # (the form before its drug still opens the entry: in capitals, in title case, after a list's number)
    for line in ["1. TAB. DOLO 650 MG TDS", "2. CAP. Omez 20 mg before breakfast", "Started Tab. Dolo 650 mg."]:
        assert texts(line) == [line]


def test_a_vitamins_abbreviation_stays_with_its_letter():
    assert texts("Results: Vit. D 25 nmol/L, low. Vit. B12 normal.") == [
        "Results: Vit. D 25 nmol/L, low.", "Vit. B12 normal."]
    assert texts("Continue Vit. D. Stop the calcium.") == ["Continue Vit. D.", "Stop the calcium."]


def test_a_dose_times_abbreviation_before_the_medicines_status_in_capitals_ends_no_sentence():
    note = "Medicines\n- Naproxen 250 mg b.d. STOPPED - avoid while on warfarin\n- Omeprazole 20 mg o.d. NEW\n"
    assert texts(note) == ["Medicines", "- Naproxen 250 mg b.d. STOPPED - avoid while on warfarin",
                           "- Omeprazole 20 mg o.d. NEW"]
