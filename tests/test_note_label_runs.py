"""Section labels read over the lines a label's text runs on to (note_label_runs): a section label before prose
is a unit of its own, a field keeps its value. Each note is written by hand, with the units a reader would cut
under the writers' brief."""

from __future__ import annotations

from conftest import Line
from split_texts import texts

from archehr.answerability.roles import sentence_roles
from archehr.data.note_label_runs import WHO_WHERE, more_sections
from archehr.data.note_sections import paragraph_labels

# --- a label in capitals before sentences ---------------------------------------------------------------------


def test_a_capital_label_of_two_words_before_two_sentences_is_a_unit_of_its_own():
    note = ("SKIN CARE: Three small cuts were closed with glue. You may shower tomorrow.\n"
            "FINAL DIAGNOSIS: Community-acquired pneumonia, right lower lobe.\n")
    assert texts(note) == ["SKIN CARE:", "Three small cuts were closed with glue.", "You may shower tomorrow.",
                           "FINAL DIAGNOSIS: Community-acquired pneumonia, right lower lobe."]


def test_a_capital_labels_sentences_wrapped_over_lines_are_read_whole():
    lines = ["HOME SUPPORT: Carers twice a day from Monday to help with", "washing. Meals on wheels arranged."]
    assert more_sections(lines, [None, None]) == [13, None]


def test_a_capital_label_over_data_or_one_sentence_keeps_its_value():
    # (observations are data, not words of prose; one sentence is a field's value)
    lines = ["OBSERVATIONS ON ARRIVAL: HR 110, BP 96/60, T 38.4 C. Sats 94% in air.",
             "DISCHARGE PLAN: Home today with oral antibiotics for 5 days."]
    assert more_sections(lines, [None, None]) == [None, None]


# --- the presenting complaint ---------------------------------------------------------------------------------

def test_the_presenting_complaint_before_a_sentence_is_a_section_label():
    note = ("Presenting complaint: Four days of fever and a sore throat.\n"
            "Examination: Enlarged tonsils with white patches.\n")
    assert texts(note)[:2] == ["Presenting complaint:", "Four days of fever and a sore throat."]
    assert paragraph_labels(["PC: Fall at home on the stairs."]) == [3]
    # (a word or two is no sentence)
    assert paragraph_labels(["PC: Fall."]) == [None]


# --- a run of labelled blocks of prose ------------------------------------------------------------------------

REPORT = ("Indication: Iron deficiency anaemia with a normal colonoscopy\n"
          "last year. Two stool tests positive for blood.\n"
          "Sedation: Fentanyl 25 micrograms and midazolam 2 mg IV. Throat\n"
          "spray given.\n"
          "Findings: Small hiatus hernia. Two gastric polyps in the body,\n"
          "removed with a snare.\n"
          "Operator: Dr. L. Mwangi, Consultant Gastroenterologist\n")


def test_a_procedure_reports_run_of_labelled_prose_sets_each_label_apart():
    assert texts(REPORT) == ["Indication:", "Iron deficiency anaemia with a normal colonoscopy last year.",
                             "Two stool tests positive for blood.",
                             "Sedation:", "Fentanyl 25 micrograms and midazolam 2 mg IV.", "Throat spray given.",
                             "Findings:", "Small hiatus hernia.",
                             "Two gastric polyps in the body, removed with a snare.",
                             # (who did it is a field, whatever runs around it)
                             "Operator: Dr. L. Mwangi, Consultant Gastroenterologist"]


def test_a_field_of_who_or_where_keeps_its_value_in_a_run_and_is_no_content_to_the_answer():
    lines = ["History: Pain in the left knee for a month. Worse on stairs.",
             "Examination: Knee swollen with an effusion. Full range of movement.",
             "Plan: Physiotherapy referral made. Review in six weeks.",
             "Consultant: Mr. A. Okafor. Orthopaedic knee surgeon."]
    assert "consultant" in WHO_WHERE
    assert more_sections(lines, [None] * 4) == [8, 12, 5, None]
    # a label no reader knows as who or where is set apart like the others
    assert more_sections([*lines[:3], "Sister: Mrs. A. Okafor. Orthopaedic knee nurse."], [None] * 4) == [8, 12, 5, 7]
    # the answer's roles read the same labels as the note's identity: a title, never an answer
    assert sentence_roles([Line("Ward: Ward 7B, Riverside"), Line("Consultant: Dr. P. Adeyemi"),
                           Line("Sister: Mrs. A. Okafor")]) == ("title", "title", "clinician")


def test_two_labelled_blocks_of_prose_make_no_run():
    lines = ["Indication: Heartburn for a year. No weight loss.", "Sedation: Throat spray only. No IV drugs."]
    assert more_sections(lines, [None, None]) == [None, None]


def test_a_forms_few_prose_fields_among_many_data_fields_keep_their_values():
    note = ("Employee: Joan Arkwright\nRole: Warehouse picker\n"
            "Referral reason: Back pain since a fall at work. Off for 3 weeks.\n"
            "Start of absence: 02/03/2025\nFit note: not fit for work until 30/03/2025\nHours: full time, nights\n"
            "Outcome: Fit for restricted duties\nReview: 4 weeks\nManager informed: Yes\n"
            "Work pattern: Nights for 10 years. Prefers days now.\n"
            "Current treatment: Physiotherapy weekly. Paracetamol when needed.\n")
    units = texts(note)
    assert "Referral reason: Back pain since a fall at work." in units
    assert "Work pattern: Nights for 10 years." in units
    assert "Current treatment: Physiotherapy weekly." in units


def test_fields_of_advice_in_a_run_keep_their_first_sentence():
    note = ("Wound: Keep it dry for 2 days. Then shower as normal.\n"
            "Driving: No driving for 1 week. You may be a passenger.\n"
            "Work: You can go back after 2 weeks. Light duties at first.\n")
    assert texts(note) == ["Wound: Keep it dry for 2 days.", "Then shower as normal.",
                           "Driving: No driving for 1 week.", "You may be a passenger.",
                           "Work: You can go back after 2 weeks.", "Light duties at first."]


def test_labelled_lines_under_a_heading_alone_are_its_fields():
    note = ("FINDINGS:\n"
            "LIVER: Normal size and texture. No focal lesion.\n"
            "KIDNEYS: Both normal in size. No stones or swelling.\n"
            "SPLEEN: Normal size. No lesion seen.\n")
    assert texts(note) == ["FINDINGS:", "LIVER: Normal size and texture.", "No focal lesion.",
                           "KIDNEYS: Both normal in size.", "No stones or swelling.",
                           "SPLEEN: Normal size.", "No lesion seen."]


def test_a_label_written_as_the_heading_is_ends_the_headings_fields():
    # (the heading's fields are in sentence case; a label in capitals, as the heading is, opens the next section)
    lines = ["DIET:", "Week 1: Fluids only. Sip slowly.", "Week 2: Soft food. Small meals.",
             "STOMA CARE: Empty the bag when a third full. Change it every 2 days."]
    assert more_sections(lines, [None] * 4) == [None, None, None, 11]


# --- a comment named by whose it is ---------------------------------------------------------------------------

def test_a_laboratorys_comment_wrapped_over_lines_is_headed_by_its_label():
    note = ("Laboratory comment: Potassium higher than the last sample. Please repeat the test\n"
            "with a fresh sample, as the tube was haemolysed.\n")
    assert texts(note) == ["Laboratory comment:", "Potassium higher than the last sample.",
                           "Please repeat the test with a fresh sample, as the tube was haemolysed."]
    # (on one line it is the report's field, as a comment of its own is)
    assert texts("Lab comment: Potassium higher than the last sample. Please repeat the test.\n")[0] \
        == "Lab comment: Potassium higher than the last sample."
