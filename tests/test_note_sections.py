"""Section labels, heading lines, title bars and result lines of pasted discharge paperwork (note_sections,
note_layout): each case is written out by hand, with the units a reader would cut."""

from __future__ import annotations

from archehr.data.note_entries import entry_heads
from archehr.data.note_layout import line_cells
from archehr.data.note_pipes import pipe_cells
from archehr.data.note_sections import is_heading_line, paragraph_labels, section_label
from archehr.data.note_split import split_note


def texts(note: str) -> list[str]:
    return [s.text for s in split_note(note, "rules").sentences]


def cells(line: str, spans: list[tuple[int, int]]) -> list[str]:
    return [line[a:b].strip() for a, b in spans]


# --- a named section label among fields of advice ------------------------------------------------------------

def test_a_section_name_among_fields_of_advice_is_one_of_the_fields():
    note = ("Aftercare\n"
            "Diet: Return to normal diet. Avoid fatty meals for a week.\n"
            "Activity: You can do light activities straight away. Avoid lifting for 2 weeks.\n"
            "Driving: When you can do an emergency stop.\n")
    assert texts(note) == ["Aftercare", "Diet: Return to normal diet.", "Avoid fatty meals for a week.",
                           "Activity: You can do light activities straight away.", "Avoid lifting for 2 weeks.",
                           "Driving: When you can do an emergency stop."]


def test_a_section_name_before_prose_among_other_lines_is_still_a_label():
    note = ("STOP simvastatin 20 mg\n"
            "Activity: No lifting more than 5 lbs with the right arm for 5 days. No driving for 1 week.\n"
            "Cardiac rehab referral placed.\n")
    assert texts(note) == ["STOP simvastatin 20 mg", "Activity:",
                           "No lifting more than 5 lbs with the right arm for 5 days.", "No driving for 1 week.",
                           "Cardiac rehab referral placed."]


def test_paragraph_labels_reads_the_neighbours():
    lone = ["Activity: Walk daily and add a few minutes each day.", "Call if worse."]
    assert paragraph_labels(lone) == [len("Activity:"), None]
    among = [lone[0], "Driving: No driving for 6 weeks."]
    assert paragraph_labels(among) == [None, None]
    # a data field beside it is no field of advice; a problem heading is never a field
    assert paragraph_labels([lone[0], "BP: 120/80"]) == [len("Activity:"), None]
    problem = ["# Gout flare: Treated with colchicine and the knee settled.", "Diet: Avoid beer."]
    assert paragraph_labels(problem) == [len("# Gout flare:"), None]
    assert section_label("Driving: No driving for six weeks after surgery.") is None


# --- a heading line under a line that happens to be full ------------------------------------------------------

_FULL = "Secondary Diagnoses: Type 2 respiratory failure (resolved); current smoker, 40 pack-years"


def test_a_heading_line_under_a_full_line_is_a_unit_of_its_own():
    for heading in ("HOSPITAL COURSE", "Hospital Course", "Advice"):
        note = f"Principal Diagnosis: COPD flare\n{_FULL}\n{heading}\nShe was treated with steroids. She improved.\n"
        assert texts(note) == ["Principal Diagnosis: COPD flare", _FULL, heading, "She was treated with steroids.",
                               "She improved."]


def test_is_heading_line_needs_a_closed_line_above_and_a_fresh_line_below():
    assert is_heading_line(_FULL, "HOSPITAL COURSE", "She was admitted.")
    assert is_heading_line(_FULL, "Advice", "- Drink plenty of fluid.")
    # a phrase left open above, a lower-case line below, a number or a full stop in it: a wrapped sentence
    assert not is_heading_line("She was reviewed by the", "Cardiology Team", "She was admitted.")
    assert not is_heading_line(_FULL, "Hospital Course", "continued on the ward.")
    assert not is_heading_line(_FULL, "Ward 9", "She was admitted.")
    assert not is_heading_line(_FULL, "Seen today.", "She was admitted.")
    # in text written in capitals, a line of capitals shows nothing
    assert not is_heading_line("RETURN IF YOU HAVE CHEST PAIN AND SHORTNESS OF", "BREATH", "CALL 911.")


# --- title bars and result lines ------------------------------------------------------------------------------

def test_a_title_bar_naming_the_document_is_one_unit():
    for line in ("DISCHARGE SUMMARY | General Medicine | Ward 7B", "MICU PROGRESS NOTE | Hosp Day 6 | Bed 14",
                 "Clinic Messages | Thyroid ultrasound results?"):
        assert pipe_cells(line) == []
        assert texts(f"{line}\nName: Ann Lee\n") == [line, "Name: Ann Lee"]


def test_a_pipe_line_holding_no_field_is_one_unit_and_one_holding_fields_keeps_its_cells():
    for line in ("Harwick Laboratory Services | 200 Orchard Row, Millbrook | 555-0177",
                 "Discharge Summary | Ward 9 | Bed 4 | Dr. Lee | Page", "Print | Download | Share"):
        assert pipe_cells(line) == []
    line = "Ann Lee | DOB: 03/04/1950 | Ward 9"
    assert cells(line, pipe_cells(line)) == ["Ann Lee", "DOB: 03/04/1950", "Ward 9"]


def test_results_set_apart_on_one_line_are_a_unit_each():
    line = "24/11 morning: adjusted calcium 2.01 mmol/L (low)   PTH 1.1 pmol/L (low)"
    assert cells(line, line_cells(line)) == ["24/11 morning: adjusted calcium 2.01 mmol/L (low)",
                                             "PTH 1.1 pmol/L (low)"]
    # a medication and its instruction, a result and its flag: one row
    assert line_cells("lisinopril 10 mg tablet    Take 1 tablet daily.") == []
    assert line_cells("Creatinine 1.9 mg/dL   H") == []


# --- section labels before a title, and the narrative sections' names -----------------------------------------

def test_a_title_after_a_section_label_ends_no_first_sentence():
    line = "Hospital course: Mrs. Vasquez presented with weakness and slurred speech."
    assert section_label(line) == len("Hospital course:")
    note = f"Discharge\n{line} She improved.\n"
    assert texts(note) == ["Discharge", "Hospital course:", "Mrs. Vasquez presented with weakness and slurred speech.",
                           "She improved."]


def test_history_impression_and_a_p_head_prose():
    for name in ("History", "Interval hx", "Impression", "A/P"):
        assert section_label(f"{name}: Man of 61 with septic shock from a kidney infection.") == len(name) + 1
    # data after them is a field's value
    assert section_label("History: HTN, DM2, CKD 3") is None


# --- an order with its instruction set in under it ----------------------------------------------------------

def test_an_order_with_one_instruction_set_in_under_it_is_one_entry():
    note = ("CONTINUE sevelamer 800 mg with meals\nSTART midodrine 5 mg before each dialysis session\n"
            "    Take 30 min before dialysis only.\n")
    assert texts(note) == ["CONTINUE sevelamer 800 mg with meals",
                           "START midodrine 5 mg before each dialysis session\n    Take 30 min before dialysis only."]


def test_an_order_over_items_without_a_full_stop_is_no_entry():
    raw = ["STOP taking these medicines", "    aspirin 81 mg", "    ibuprofen 200 mg"]
    assert entry_heads(raw) == set()
    assert entry_heads(["STOP these:", "    Take nothing else."]) == set()
    assert entry_heads(["START midodrine 5 mg", "    Take it before dialysis."]) == {0}


def test_a_pipe_line_of_a_worded_field_and_a_labelled_value_gives_one_unit_a_field():
    line = "Indication: Heart valve | Target INR: 3.0 (range 2.5-3.5)"
    assert [line[a:b].strip() for a, b in pipe_cells(line)] == ["Indication: Heart valve",
                                                                 "Target INR: 3.0 (range 2.5-3.5)"]
    # (readings each named with its colon are a field each too, as the writers of gold splits cut them)
    assert pipe_cells("Weight: 71 kg | BMI: 24.1") == [(0, 13), (16, 25)]
