"""An advice label before its sentences ("Advice given:"), a letterhead's pipe line of contact details, a later page's
header line that carries the patient on, a clinician's role before an initial, a dictated label said with a comma
before its list's first number, a lower-case label before results, and a course's name in capitals before short
sentences. Every line here is invented for these tests; each checks `split_note`'s rules and its offsets."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_page import running_lines
from archehr.data.note_pipes import pipe_cells
from archehr.data.note_sections import section_label


def test_an_advice_label_heads_its_sentences():
    # (a note of more lines than one a paragraph: a release's excerpt, one line each, keeps its fields whole)
    note = ("MINOR INJURIES UNIT\nPatient: Ada Lee   DOB: 02/03/1990\n\n"
            "DIAGNOSIS: Sprained left ankle.\n\n"
            "ADVICE GIVEN: Keep the boot on when walking. Raise the foot when sitting. Avoid running for 4 weeks.\n")
    assert texts(note)[-5:] == ["DIAGNOSIS: Sprained left ankle.", "ADVICE GIVEN:", "Keep the boot on when walking.",
                                "Raise the foot when sitting.", "Avoid running for 4 weeks."]
    assert section_label("Safety advice: Do not bathe alone. Shower instead.") is not None


def test_an_advice_label_in_a_soap_note_heads_its_sentences_too():
    note = ("S: Knee sore after the fall.\n\nO: Mild swelling, full range.\n\nA: Knee sprain.\n\nP:\n"
            "1. Ice packs 3 times a day.\n2. Review in 2 weeks.\n\n"
            "Advice given: No football until review. Use the crutches on stairs.\n")
    got = texts(note)
    assert "Advice given:" in got and "No football until review." in got


def test_a_data_dumps_advice_key_keeps_its_value():
    assert section_label("advice: Drink more water. Finish the tablets.") is None
    note = "problem: sore throat\nadvice: Drink more water. Finish the tablets.\n"
    assert "advice: Drink more water." in texts(note)


def test_a_pipe_line_of_contact_details_is_a_unit_each():
    line = "Tel: 01632 960 555 | renal.unit@example-trust.example"
    assert len(pipe_cells(line)) == 2
    note = "     WESTFIELD RENAL UNIT\n     " + line + "\n\nDear Dr Amadi,\n"
    got = texts(note)
    assert "Tel: 01632 960 555" in got and "renal.unit@example-trust.example" in got
    # (beside the clinic's name the line is its title: one unit)
    assert pipe_cells("Westfield Renal Unit | 01632 960 555") == []


def test_a_later_pages_header_that_carries_the_patient_on_is_one_unit():
    note = ("NORTHFIELD IMAGING                                        Page 1 of 2\n"
            "Patient Name: OKORO, Ada Ngozi      Patient ID: NI-5521\n"
            "Findings: The liver is normal in size.\n"
            "NORTHFIELD IMAGING                                        Page 2 of 2\n"
            "OKORO, Ada Ngozi   NI-5521   Scan Date: 02/03/2025\n"
            "Kidneys: normal.\n")
    assert "OKORO, Ada Ngozi   NI-5521   Scan Date: 02/03/2025" in running_lines(note)
    assert "OKORO, Ada Ngozi NI-5521 Scan Date: 02/03/2025" in texts(note)


def test_a_later_page_that_repeats_page_ones_row_of_fields_is_cut_as_it_was():
    note = ("Eastgate Laboratory Services                          Page 1 of 2\n"
            "OKORO, ADA    MRN: 5521-07    DOB: 04/05/1980\n"
            "Sodium 139 mmol/L\n"
            "Eastgate Laboratory Services                          Page 2 of 2\n"
            "OKORO, ADA    MRN: 5521-07\n"
            "Potassium 4.1 mmol/L\n")
    assert "OKORO, ADA    MRN: 5521-07" not in running_lines(note)


def test_a_clinicians_role_before_an_initial_ends_no_sentence():
    note = "Reduce the feed to one bottle a day. Physiotherapist T. Marsh informed and will review him.\n"
    assert texts(note) == ["Reduce the feed to one bottle a day.",
                           "Physiotherapist T. Marsh informed and will review him."]


def test_a_dictated_label_said_with_a_comma_is_cut_from_its_first_item():
    note = ("she is well today.\n\n"
            "plan, one. iron tablets twice daily for three months. two. repeat bloods in six weeks.\n")
    assert texts(note)[1:] == ["plan,", "one. iron tablets twice daily for three months.",
                               "two. repeat bloods in six weeks."]


def test_a_lower_case_label_before_results_stays_a_field():
    note = ("renal clinic - dictated 02/03/2025\npatient: ada lee   dob: 02/03/1990\n\nshe looks well.\n\n"
            "bloods today: hb 9.1, wcc 6.2, crp sent and not back yet. urine dipstick clear.\n")
    assert "bloods today: hb 9.1, wcc 6.2, crp sent and not back yet." in texts(note)


def test_a_course_named_in_capitals_heads_short_sentences():
    assert section_label("HOSPITAL COURSE: Uneventful stay. Walked on day 1 and went home on day 2.") is not None
    # (an activity's values are no course: they stay with their label)
    assert section_label("ACTIVITY: As tolerated. No lifting.") is None
    # (a course's verdict under a name in sentence case is a field still)
    assert section_label("Hospital course: Uneventful. Home on day 2.") is None
