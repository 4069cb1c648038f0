"""Export patterns of pasted notes: dictation typed up in lower case, a header's fields set apart by pipes above a
results table, and more. Every line is invented; every expected split is written out by hand."""

from __future__ import annotations

from archehr.data.note_split import split_note


def texts(note: str) -> list[str]:
    return [" ".join(s.text.split()) for s in split_note(note, "rules").sentences]


def test_dictation_in_lower_case_opens_its_sentences_in_lower_case():
    note = ("Findings (dictated):\n"
            "knee washed out with saline, meniscus trimmed. cartilage looked healthy. blood loss 10 ml. "
            "wound closed with 3-0 nylon, approx. two sutures per port.\n")
    assert texts(note) == ["Findings (dictated):",
                           "knee washed out with saline, meniscus trimmed.",
                           "cartilage looked healthy.",
                           "blood loss 10 ml.",
                           "wound closed with 3-0 nylon, approx. two sutures per port."]


def test_a_capitalised_dictation_run_on_in_lower_case_is_cut_too():
    # (no sentence of the unit opens with a capital after its first: the writer opens them in lower case)
    note = "Knee washed out with saline. cartilage looked healthy. blood loss 10 ml.\n"
    assert texts(note) == ["Knee washed out with saline.", "cartilage looked healthy.", "blood loss 10 ml."]


def test_prose_that_opens_its_sentences_with_capitals_keeps_an_abbreviation_before_lower_case():
    note = "Take amoxicillin 500 mg t.i.d. with food. Finish the course. Call if the rash spreads.\n"
    assert texts(note) == ["Take amoxicillin 500 mg t.i.d. with food.", "Finish the course.",
                           "Call if the rash spreads."]


def test_a_header_of_pipe_fields_over_a_pipe_table_is_fields_not_rows():
    note = ("Patient: Ann Lee | DOB: 01/02/1970\n"
            "Ordered by: Dr Tom Reed | Reason: fatigue\n"
            "Collected: 03/04/2025 09:10 | Reported: 05/04/2025\n"
            "\n"
            "Test | Result | Units | Range\n"
            "Ferritin | 9 | ug/L | 15 - 150\n"
            "Sodium | 139 | mmol/L | 135 - 145\n")
    assert texts(note) == ["Patient: Ann Lee", "DOB: 01/02/1970", "Ordered by: Dr Tom Reed", "Reason: fatigue",
                           "Collected: 03/04/2025 09:10", "Reported: 05/04/2025",
                           "Test | Result | Units | Range", "Ferritin | 9 | ug/L | 15 - 150",
                           "Sodium | 139 | mmol/L | 135 - 145"]
