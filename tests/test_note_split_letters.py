"""A letter written as labelled paragraphs ("Background: ... . ... .", "Plan: ... .") against a note whose labels hold
values ("Wound: 18 clips. Clips out on day 10."): in the first each label is a section heading, a unit of its own;
in the second a label keeps its value as a field. Every expected split is written out by hand."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_sections import paragraph_label, writes_labelled_paragraphs

# Background 22 words, Findings 23, Medication 23, Plan 23: 91 / 4 = 22.75 words a label, no label alone on a line
BODY = ("Background: Type 2 diabetes for ten years. He was started on metformin in 2016 and has had no admissions to "
        "hospital since then.\n"
        "Findings: Weight 92 kg. His blood pressure was 134/80 and his feet were healthy on examination today, with "
        "good pulses in both of them.\n"
        "Medication: I have increased his metformin to 1 g twice a day. He should take it with his evening meal and "
        "with his breakfast.\n"
        "Plan: Repeat HbA1c in 3 months at his GP surgery, and see the practice nurse for a review of his feet in six "
        "months.\n")
BACKGROUND = ["Type 2 diabetes for ten years.",
              "He was started on metformin in 2016 and has had no admissions to hospital since then."]
FINDINGS = ["Weight 92 kg.",
            "His blood pressure was 134/80 and his feet were healthy on examination today, with good pulses in both of "
            "them."]
MEDICATION = ["I have increased his metformin to 1 g twice a day.",
              "He should take it with his evening meal and with his breakfast."]
PLAN = "Repeat HbA1c in 3 months at his GP surgery, and see the practice nurse for a review of his feet in six months."


def test_a_letter_of_labelled_paragraphs_cuts_each_label_off_its_prose():
    note = "Patient: Mr Tom Reed   DOB: 01/02/1970\nDear Dr Shaw,\n" + BODY + "Yours sincerely,\nDr Ann Cole\n"
    assert texts(note) == [
        "Patient: Mr Tom Reed", "DOB: 01/02/1970", "Dear Dr Shaw,",
        "Background:", *BACKGROUND, "Findings:", *FINDINGS, "Medication:", *MEDICATION, "Plan:", PLAN,
        "Yours sincerely,", "Dr Ann Cole"]


def test_the_same_lines_under_a_heading_of_their_own_keep_their_labels_as_fields():
    # a note that sets a heading alone on its line writes its sections so: a label on a line of text is a field
    # (a known section's name before prose, "Plan:", still heads it, as in any note)
    assert texts("Clinic summary:\n" + BODY) == [
        "Clinic summary:", f"Background: {BACKGROUND[0]}", BACKGROUND[1], f"Findings: {FINDINGS[0]}", FINDINGS[1],
        f"Medication: {MEDICATION[0]}", MEDICATION[1], "Plan:", PLAN]


def test_the_same_lines_each_set_apart_by_a_blank_line_keep_their_labels_as_fields():
    # a report's labelled findings, each a paragraph of its own, are fields: a letter writes its body as one block
    # (a heading over two lines first: a note whose every paragraph is one line is written as a release's excerpt)
    # (the patient's background told in sentences is a history's section wherever it stands, as "History:" is)
    assert texts("Diabetes Clinic\nReview Summary\n\n" + BODY.replace("\n", "\n\n")) == [
        "Diabetes Clinic", "Review Summary", "Background:", *BACKGROUND,
        f"Findings: {FINDINGS[0]}", FINDINGS[1], f"Medication: {MEDICATION[0]}", MEDICATION[1], "Plan:", PLAN]


def test_labels_holding_short_values_stay_fields_though_no_heading_stands_alone():
    # 5, 4 and 3 words a label: values, as a report writes them, not paragraphs
    note = ("Left ventricle: Normal size. Mildly reduced function.\nRight ventricle: Normal size and function.\n"
            "Aortic valve: Trileaflet. No stenosis.\n")
    assert texts(note) == ["Left ventricle: Normal size.", "Mildly reduced function.",
                           "Right ventricle: Normal size and function.", "Aortic valve: Trileaflet.", "No stenosis."]


def test_the_style_needs_three_labelled_paragraphs_of_twenty_words_on_average_together():
    twenty = "One two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
             "seventeen eighteen nineteen twenty."
    nineteen = twenty.replace(" nineteen twenty.", " nineteen.")
    assert len(twenty.split()) == 20 and len(nineteen.split()) == 19
    assert writes_labelled_paragraphs([[f"Mood: {twenty}", f"Sleep: {twenty}", f"Diet: {twenty}"]])
    assert not writes_labelled_paragraphs([[f"Mood: {nineteen}", f"Sleep: {nineteen}", f"Diet: {nineteen}"]])
    # (20 + 20 + 19 = 59 < 60)
    assert not writes_labelled_paragraphs([[f"Mood: {twenty}", f"Sleep: {twenty}", f"Diet: {nineteen}"]])
    assert not writes_labelled_paragraphs([[f"Mood: {twenty}", f"Sleep: {twenty}"]])
    assert not writes_labelled_paragraphs([["Review:", f"Mood: {twenty}", f"Sleep: {twenty}", f"Diet: {twenty}"]])
    # each in a paragraph of its own: no two together, under the half of three
    assert not writes_labelled_paragraphs([[f"Mood: {twenty}"], [f"Sleep: {twenty}"], [f"Diet: {twenty}"]])
    # two of three together: one pair, not under the half (2 x 1 >= 3 is false; a pair of four: 2 x 2 >= 4)
    assert not writes_labelled_paragraphs([[f"Mood: {twenty}", f"Sleep: {twenty}"], [f"Diet: {twenty}"]])
    assert writes_labelled_paragraphs([[f"Mood: {twenty}", f"Sleep: {twenty}", f"Work: {twenty}"], [f"Diet: {twenty}"]])


def test_an_order_named_with_its_colon_heads_no_paragraph():
    assert paragraph_label("STOP: Folic acid 400 micrograms daily - you can stop this now.") is None
    assert paragraph_label("CONTINUE: Sertraline 100 mg every morning.") is None


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
