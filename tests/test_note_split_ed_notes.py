"""The split convention on invented emergency-department notes and clinic letters in UK and US shorthand: a line
of observations set apart by wide gaps, "HPC:" and "O/E:" sections, a numbered item holding two sentences, a
bracket closed on the next line, fields alone in a letter's paragraph. Each expected split is written out by hand."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_layout import is_readings_line
from archehr.data.note_wrap import continues

# --- a label one space before readings holds them all, however wide the gaps ----------------------------------

def test_observations_two_spaces_apart_after_their_label_are_one_unit():
    note = "Obs: T 38.1  HR 104  BP 118/64  RR 20  SpO2 95% RA  GCS 14 (E4 V4 M6)  CBG 7.2\n"
    assert texts(note) == ["Obs: T 38.1 HR 104 BP 118/64 RR 20 SpO2 95% RA GCS 14 (E4 V4 M6) CBG 7.2"]


def test_vitals_three_spaces_apart_after_their_label_are_one_unit():
    note = "Vitals: BP 132/78   HR 84 irregular   Wt 176 lb   SpO2 97%\n"
    assert texts(note) == ["Vitals: BP 132/78 HR 84 irregular Wt 176 lb SpO2 97%"]


def test_a_bare_label_set_apart_from_its_readings_leaves_a_unit_each():
    assert not is_readings_line("Vitals:   BP 136/84    Pulse 78")
    assert texts("Vitals:   BP 136/84    Pulse 78    Weight 231 lb\n") == ["Vitals:", "BP 136/84", "Pulse 78",
                                                                           "Weight 231 lb"]


def test_a_label_before_one_reading_or_before_words_is_no_line_of_readings():
    assert not is_readings_line("Obs: T 38.1")
    assert not is_readings_line("Plan: rest  Follow up with Dr. Lee in 2 weeks")
    assert is_readings_line("Obs: T 38.1  HR 104")


# --- UK shorthand sections -----------------------------------------------------------------------------------

def test_history_of_presenting_complaint_heads_its_prose_and_so_does_the_complaint():
    # (the writers' brief sets a section label before prose apart: the presenting complaint is the history's first
    # section, as the writers of that wording cut it, not a field)
    note = ("PC: Confusion and poor intake for 2 days.\n"
            "HPC: Background of dementia; walks with a stick. No new medicines.\n")
    assert texts(note) == ["PC:", "Confusion and poor intake for 2 days.", "HPC:",
                           "Background of dementia; walks with a stick.", "No new medicines."]


def test_findings_in_two_sentences_under_observations_head_the_examination():
    note = "Obs: T 38.1  HR 104  BP 118/64\nO/E: Drowsy but rousable. Dry mucous membranes.\n"
    assert texts(note) == ["Obs: T 38.1 HR 104 BP 118/64", "O/E:", "Drowsy but rousable.", "Dry mucous membranes."]


def test_findings_in_one_sentence_under_vitals_stay_that_records_next_field():
    note = "Vitals: BP 108/66, HR 64, Wt 84.6 kg\nExam: JVP 8 cm, no crackles, trace ankle edema.\n"
    assert texts(note) == ["Vitals: BP 108/66, HR 64, Wt 84.6 kg", "Exam: JVP 8 cm, no crackles, trace ankle edema."]


# --- a numbered item whose sentence ends in a number ---------------------------------------------------------

def test_a_number_ending_a_sentence_is_no_list_marker_when_the_next_line_is_that_item():
    note = ("Plan\n1. Continue chemotherapy for 4 cycles.\n"
            "2. Stop bleomycin from cycle 3. Repeat lung tests are not needed.\n3. PET-CT in 6 weeks.\n")
    assert texts(note) == ["Plan", "1. Continue chemotherapy for 4 cycles.", "2. Stop bleomycin from cycle 3.",
                           "Repeat lung tests are not needed.", "3. PET-CT in 6 weeks."]


def test_an_inline_list_still_starts_its_next_item_at_the_next_number():
    assert texts("1. Apixaban 5 mg PO BID 2. Atorvastatin 40 mg daily\n") == ["1. Apixaban 5 mg PO BID",
                                                                            "2. Atorvastatin 40 mg daily"]


# --- a bracket left open at a line's end ----------------------------------------------------------------------

def test_a_bracket_left_open_carries_into_the_dated_line_that_closes_it():
    prev = "She was started on cefalexin 125 mg three times a day for a total of 7 days (last dose"
    assert continues(prev, "26 February 2025). The urine culture has since grown E. coli.", 100)
    # (closed on its own line, the bracket leaves the dated line its own)
    assert not continues("She was started on cefalexin (7 days)", "26 February 2025: culture sent.", 100)


# --- a letter's fields alone in their paragraphs -------------------------------------------------------------

# (a letter's heading over two lines: a note whose every paragraph is one line is written as a release's excerpt)
LETTER = ("Westfield Urgent Treatment Centre\nDischarge Summary to GP\n\n"
          "Presenting complaint: Painful rash on the left forehead for two days. She had tingling and burning on "
          "the scalp for three days before it appeared.\n\n"
          "Examination: Clusters of blisters on a red base over the left forehead and the upper eyelid. Eye white "
          "and not red. Visual acuity normal in both eyes.\n\n"
          "Diagnosis: Shingles of the left forehead.\n\n"
          "Findings: Moderate swelling of the left eyelid with no discharge. Pupils equal and reactive to light "
          "today.\n\n"
          "Follow-up: GP review in 1 week. Eye clinic the same day if the eye turns red.\n")


def test_a_letters_fields_alone_in_their_paragraphs_keep_their_first_sentence():
    assert texts(LETTER) == [
        "Westfield Urgent Treatment Centre", "Discharge Summary to GP",
        "Presenting complaint:", "Painful rash on the left forehead for two days.",
        "She had tingling and burning on the scalp for three days before it appeared.",
        "Examination:", "Clusters of blisters on a red base over the left forehead and the upper eyelid.",
        "Eye white and not red.", "Visual acuity normal in both eyes.",
        "Diagnosis: Shingles of the left forehead.",
        # (labelled lines each set apart by blank lines write no letter: a label no section has keeps its sentence)
        "Findings: Moderate swelling of the left eyelid with no discharge.",
        "Pupils equal and reactive to light today.",
        "Follow-up: GP review in 1 week.", "Eye clinic the same day if the eye turns red."]
