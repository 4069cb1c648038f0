"""A letter written as labelled paragraphs ("Background: ... . ... .", "Plan: ... .") against a note whose labels hold
values ("Wound: 18 clips. Clips out on day 10."): in the first each label is a section heading, a unit of its own;
in the second a label keeps its value as a field. Every expected split is written out by hand."""

from __future__ import annotations

from archehr.data.note_sections import paragraph_label, writes_labelled_paragraphs
from archehr.data.note_split import split_note


def texts(note: str) -> list[str]:
    return [" ".join(s.text.split()) for s in split_note(note, "rules").sentences]


# Background 18 words, Findings 16, Medication 19, Plan 9: 62 / 4 = 15.5 words a label, no label alone on a line
BODY = ("Background: Type 2 diabetes for ten years. He was started on metformin in 2016 and has had no admissions.\n"
        "Findings: Weight 92 kg. His blood pressure was 134/80 and his feet were healthy on examination today.\n"
        "Medication: I have increased his metformin to 1 g twice a day. He should take it with his evening meal.\n"
        "Plan: Repeat HbA1c in 3 months at his GP surgery.\n")


def test_a_letter_of_labelled_paragraphs_cuts_each_label_off_its_prose():
    note = "Patient: Mr Tom Reed   DOB: 01/02/1970\nDear Dr Shaw,\n" + BODY + "Yours sincerely,\nDr Ann Cole\n"
    assert texts(note) == [
        "Patient: Mr Tom Reed", "DOB: 01/02/1970", "Dear Dr Shaw,",
        "Background:", "Type 2 diabetes for ten years.",
        "He was started on metformin in 2016 and has had no admissions.",
        "Findings:", "Weight 92 kg.", "His blood pressure was 134/80 and his feet were healthy on examination today.",
        "Medication:", "I have increased his metformin to 1 g twice a day.", "He should take it with his evening meal.",
        "Plan:", "Repeat HbA1c in 3 months at his GP surgery.",
        "Yours sincerely,", "Dr Ann Cole"]


def test_the_same_lines_under_a_heading_of_their_own_keep_their_labels_as_fields():
    # a note that sets a heading alone on its line writes its sections so: a label on a line of text is a field
    # (a known section's name before prose, "Plan:", still heads it, as in any note)
    assert texts("Clinic summary:\n" + BODY) == [
        "Clinic summary:",
        "Background: Type 2 diabetes for ten years.", "He was started on metformin in 2016 and has had no admissions.",
        "Findings: Weight 92 kg.", "His blood pressure was 134/80 and his feet were healthy on examination today.",
        "Medication: I have increased his metformin to 1 g twice a day.", "He should take it with his evening meal.",
        "Plan:", "Repeat HbA1c in 3 months at his GP surgery."]


def test_labels_holding_short_values_stay_fields_though_no_heading_stands_alone():
    # 5, 4 and 3 words a label: values, as a report writes them, not paragraphs
    note = ("Left ventricle: Normal size. Mildly reduced function.\nRight ventricle: Normal size and function.\n"
            "Aortic valve: Trileaflet. No stenosis.\n")
    assert texts(note) == ["Left ventricle: Normal size.", "Mildly reduced function.",
                           "Right ventricle: Normal size and function.", "Aortic valve: Trileaflet.", "No stenosis."]


def test_the_style_needs_three_labelled_paragraphs_of_fifteen_words_on_average():
    fifteen = "One two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen."
    fourteen = "One two three four five six seven eight nine ten eleven twelve thirteen fourteen."
    assert writes_labelled_paragraphs([f"Mood: {fifteen}", f"Sleep: {fifteen}", f"Diet: {fifteen}"])
    assert not writes_labelled_paragraphs([f"Mood: {fourteen}", f"Sleep: {fourteen}", f"Diet: {fourteen}"])
    # (15 + 15 + 14 = 44 < 45)
    assert not writes_labelled_paragraphs([f"Mood: {fifteen}", f"Sleep: {fifteen}", f"Diet: {fourteen}"])
    assert not writes_labelled_paragraphs([f"Mood: {fifteen}", f"Sleep: {fifteen}"])
    assert not writes_labelled_paragraphs(["Review:", f"Mood: {fifteen}", f"Sleep: {fifteen}", f"Diet: {fifteen}"])


def test_a_paragraph_label_opens_sentences_and_names_no_person_or_date():
    assert paragraph_label("Anti-D: Given today at 10:00.") == len("Anti-D:")
    assert paragraph_label("Post-op course: Uncomplicated recovery, home day 2.") == len("Post-op course:")
    assert paragraph_label("X-ray: No fracture seen.") == len("X-ray:")
    assert paragraph_label("Patient: Ms Ann Lee, aged 34.") is None  # who
    assert paragraph_label("Date of clinic: 14 March 2026, a Saturday.") is None  # when
    assert paragraph_label("Consultant: Mr Owen Lachlan") is None  # no sentence
    assert paragraph_label("Ward: Robin Ward   Bed: 4.") is None  # a row of fields
    assert paragraph_label("S: Feels better today.") is None  # a SOAP letter has its own rule
    assert paragraph_label("Weight: 3.2 kg.") is None  # under three words
    # a label that opens the sentence itself carries on into it
    assert paragraph_label("Seek urgent help if: the wound leaks or you have a fever.") is None


def test_a_label_that_opens_its_sentence_stays_with_it_in_a_letter():
    note = BODY + "Call us if: the wound becomes red or hot, or you develop a fever over 38 degrees.\n"
    assert texts(note)[-1] == "Call us if: the wound becomes red or hot, or you develop a fever over 38 degrees."
