"""Raw notes as people paste them from an EHR or a portal: header fields, list items, appointments, lab
lines and "STOP ..." instructions each become their own sentence, and a hard-wrapped sentence stays one.

Fictional notes written for these tests: every name, date and value is invented."""

from __future__ import annotations

import pytest

from archehr.data.note_split import split_note

# An EHR export: one header field a line, a medication-changes block, lab lines with flags, appointments.
EXPORT = """Service: MEDICINE
Allergies: Penicillins
Attending: Dr. Okafor
Chief Complaint: cough and fever

Brief Hospital Course:
Mrs. Lindqvist is a 68 year old woman admitted with a right lower lobe pneumonia. She was
treated with IV ceftriaxone and azithromycin and improved within 48 hours. She was changed
to amoxicillin-clavulanate on hospital day 3.
Her oxygen was weaned to room air.

Pertinent Labs:
WBC 14.2 H (4.0-11.0)
Creat 1.3 H (0.6-1.1)
K 3.3 L
Procalcitonin 0.9

Medication Changes:
START amoxicillin-clavulanate 875 mg twice daily for 5 more days
STOP lisinopril until your kidney numbers are rechecked
CONTINUE metformin 500 mg twice daily

Discharge Medications:
1. Amoxicillin-clavulanate 875 mg PO BID
2. Metformin 500 mg PO BID
STOP aspirin 81 mg daily

Follow-up Appointments:
Dr. Hanna Berg (primary care) on 12/14 at 9:30 AM
Pulmonology clinic on 1/10 at 2:00 PM
"""

EXPORT_SENTENCES = [
    "Service: MEDICINE", "Allergies: Penicillins", "Attending: Dr. Okafor", "Chief Complaint: cough and fever",
    "Brief Hospital Course:",
    "Mrs. Lindqvist is a 68 year old woman admitted with a right lower lobe pneumonia.",
    "She was\ntreated with IV ceftriaxone and azithromycin and improved within 48 hours.",
    "She was changed\nto amoxicillin-clavulanate on hospital day 3.",
    "Her oxygen was weaned to room air.",
    "Pertinent Labs:",
    "WBC 14.2 H (4.0-11.0)", "Creat 1.3 H (0.6-1.1)", "K 3.3 L", "Procalcitonin 0.9",
    "Medication Changes:",
    "START amoxicillin-clavulanate 875 mg twice daily for 5 more days",
    "STOP lisinopril until your kidney numbers are rechecked",
    "CONTINUE metformin 500 mg twice daily",
    "Discharge Medications:",
    "1. Amoxicillin-clavulanate 875 mg PO BID",
    "2. Metformin 500 mg PO BID",
    "STOP aspirin 81 mg daily",
    "Follow-up Appointments:",
    "Dr. Hanna Berg (primary care) on 12/14 at 9:30 AM",
    "Pulmonology clinic on 1/10 at 2:00 PM",
]

# A portal after-visit summary: hard-wrapped at 72 columns, a bullet list whose items wrap, and
# appointment lines without a full stop.
PORTAL = """Your visit summary

You were seen today for swelling in both legs. Your heart ultrasound showed
that the heart is pumping a little weaker than normal. We started a water
pill (furosemide) to help your body get rid of extra fluid.

What to do next
- Weigh yourself every morning before breakfast and write it down. Call us
  if you gain more than 2 pounds in a day or 5 pounds in a week.
- Take furosemide 20 mg every morning for 2 weeks, then we will decide
  whether to keep it.
- Avoid salty foods
Upcoming appointments
Cardiology with Dr. Amara Singh - Tuesday, March 3 at 11:15 AM
Lab draw (kidney function and potassium) - Monday, March 2 at 8:00 AM
"""

PORTAL_SENTENCES = [
    "Your visit summary",
    "You were seen today for swelling in both legs.",
    "Your heart ultrasound showed\nthat the heart is pumping a little weaker than normal.",
    "We started a water\npill (furosemide) to help your body get rid of extra fluid.",
    "What to do next",
    "- Weigh yourself every morning before breakfast and write it down.",
    "Call us\n  if you gain more than 2 pounds in a day or 5 pounds in a week.",
    "- Take furosemide 20 mg every morning for 2 weeks, then we will decide\n  whether to keep it.",
    "- Avoid salty foods",
    "Upcoming appointments",
    "Cardiology with Dr. Amara Singh - Tuesday, March 3 at 11:15 AM",
    "Lab draw (kidney function and potassium) - Monday, March 2 at 8:00 AM",
]


@pytest.mark.parametrize("note,expected", [(EXPORT, EXPORT_SENTENCES), (PORTAL, PORTAL_SENTENCES)],
                         ids=["ehr-export", "portal-summary"])
def test_raw_export_styles_split_into_their_units(note: str, expected: list[str]) -> None:
    split = split_note(note, "rules")
    assert [s.text for s in split.sentences] == expected
    for s in split.sentences:
        assert note[s.start:s.end] == s.text


def test_a_wrapped_sentence_that_ends_a_full_line_stays_one() -> None:
    # the line is as long as the note's wrap width, so the next word did not fit: one sentence
    note = ("The patient was treated for a urinary tract infection with oral nitrofurantoin\n"
            "Macrobid for five days and the symptoms resolved before discharge home today.\n"
            "Short line here\n"
            "Another short line\n")
    texts = [s.text for s in split_note(note, "rules").sentences]
    assert texts[0].startswith("The patient") and texts[0].endswith("discharge home today.")
    assert texts[1:] == ["Short line here", "Another short line"]


def test_a_field_line_after_prose_starts_its_own_sentence() -> None:
    note = "Seen in clinic for follow-up of gout\nDiet: low purine, no alcohol\nActivity: as tolerated\n"
    assert [s.text for s in split_note(note, "rules").sentences] == [
        "Seen in clinic for follow-up of gout", "Diet: low purine, no alcohol", "Activity: as tolerated"]


def test_an_order_run_into_a_medication_item_is_cut_but_prose_is_not() -> None:
    note = ("Discharge Medications: 1. Apixaban 5 mg PO BID 2. Levothyroxine 75 mcg PO daily "
            "STOP taking: Aspirin 81 mg\n"
            "\n"
            "Please STOP taking phenytoin and START levetiracetam 500 mg twice a day.\n")
    assert [s.text for s in split_note(note, "rules").sentences] == [
        "Discharge Medications:", "1. Apixaban 5 mg PO BID", "2. Levothyroxine 75 mcg PO daily",
        "STOP taking: Aspirin 81 mg", "Please STOP taking phenytoin and START levetiracetam 500 mg twice a day."]


def test_each_appointment_block_of_a_portal_export_is_one_sentence() -> None:
    note = ("Upcoming appointments\n"
            "Bone density scan\n"
            "Wednesday, July 8, 2026 at 1:45 PM\n"
            "Riverside Imaging, 2nd floor\n"
            "\n"
            "Thursday, July 23, 2026\n"
            "9:00 AM\n"
            "Dr. Mirela Costa - Endocrinology\n"
            "\n"
            "Come back if your pain gets worse.\n")
    assert [" ".join(s.text.split()) for s in split_note(note, "rules").sentences] == [
        "Upcoming appointments",
        "Bone density scan Wednesday, July 8, 2026 at 1:45 PM Riverside Imaging, 2nd floor",
        "Thursday, July 23, 2026 9:00 AM Dr. Mirela Costa - Endocrinology",
        "Come back if your pain gets worse."]


def test_a_lab_name_in_lower_case_does_not_continue_the_line_above() -> None:
    note = "Creat 2.9 H (0.6-1.2)\neGFR 21 L (>60)\npH 7.31 L\n"
    assert [s.text for s in split_note(note, "rules").sentences] == [
        "Creat 2.9 H (0.6-1.2)", "eGFR 21 L (>60)", "pH 7.31 L"]


def test_fields_one_space_apart_after_a_number_or_a_code_are_fields_of_their_own() -> None:
    note = "Name: Ada Quill Age: 60 MRN: 1234-5678 Date of service: 02/03/2031\nArrived by: EMS Triage level: 2\n"
    assert [s.text for s in split_note(note, "rules").sentences] == [
        "Name: Ada Quill", "Age: 60", "MRN: 1234-5678", "Date of service: 02/03/2031", "Arrived by: EMS",
        "Triage level: 2"]


def test_a_label_inside_an_identifier_field_does_not_cut_it() -> None:
    # "No:" after a code that is part of the label ("NHS No") is no field of its own
    note = "Patient: Ada Quill   NHS No: 999 123 4567\n"
    assert [s.text for s in split_note(note, "rules").sentences] == ["Patient: Ada Quill", "NHS No: 999 123 4567"]


def test_an_avs_heading_over_orders_is_a_unit_even_without_a_colon() -> None:
    note = ("START taking these medications\n"
            "cephalexin 500 mg capsule\n"
            "    Take 1 capsule by mouth 4 times a day for 7 days.\n"
            "doxycycline 100 mg tablet\n"
            "    Take 1 tablet twice a day.\n"
            "\n"
            "STOP taking these medications\n"
            "naproxen 220 mg tablet (Aleve) - Use acetaminophen instead.\n")
    assert [" ".join(s.text.split()) for s in split_note(note, "rules").sentences] == [
        "START taking these medications",
        "cephalexin 500 mg capsule Take 1 capsule by mouth 4 times a day for 7 days.",
        "doxycycline 100 mg tablet Take 1 tablet twice a day.",
        "STOP taking these medications",
        "naproxen 220 mg tablet (Aleve) - Use acetaminophen instead."]


def test_a_doctors_title_in_an_appointments_label_line_keeps_it_with_its_date() -> None:
    note = ("Appointments:\n"
            "  Heart Clinic - Nurse Ivo Lind\n"
            "  Wednesday 04/09/2031, 11:00 AM, Plaza Room 4B\n"
            "  Gynecology - Dr. Mae Orr\n"
            "  Tuesday 04/22/2031, 3:15 PM, Women's Health\n")
    assert [" ".join(s.text.split()) for s in split_note(note, "rules").sentences] == [
        "Appointments:",
        "Heart Clinic - Nurse Ivo Lind Wednesday 04/09/2031, 11:00 AM, Plaza Room 4B",
        "Gynecology - Dr. Mae Orr Tuesday 04/22/2031, 3:15 PM, Women's Health"]


def test_a_sentence_begun_inside_a_line_and_left_open_carries_on_over_a_capital() -> None:
    # one long unwrapped line makes the width read 100+, so the 60-column lines look short; the sentence
    # begun after "teens." is still open at the line's end
    note = ("She has had migraines with aura since her teens. This headache began\n"
            "Tuesday morning with zigzag lines in her vision for about twenty minutes, then\n"
            "throbbing pain. She has taken over-the-counter tablets three or four days a week for two months now,\n"
            "and it has not helped.\n"
            "\n"
            "Seen today. Doing well\n"
            "Diet: regular\n")
    texts = [" ".join(s.text.split()) for s in split_note(note, "rules").sentences]
    assert texts[1] == ("This headache began Tuesday morning with zigzag lines in her vision for about twenty "
                        "minutes, then throbbing pain.")
    assert texts[-2:] == ["Doing well", "Diet: regular"]


def test_short_medicine_lines_under_an_order_heading_are_entries_but_prose_at_a_dose_runs_on() -> None:
    note = ("CONTINUE taking:\n"
            "  donepezil 10 mg at bedtime\n"
            "  levothyroxine 50 mcg every morning\n"
            "\n"
            "I have increased atorvastatin from 40 mg to 80 mg daily, aiming for a lower LDL value. He\n"
            "should continue amlodipine 10 mg daily; his blood pressure today was fine.\n")
    assert [" ".join(s.text.split()) for s in split_note(note, "rules").sentences] == [
        "CONTINUE taking:", "donepezil 10 mg at bedtime", "levothyroxine 50 mcg every morning",
        "I have increased atorvastatin from 40 mg to 80 mg daily, aiming for a lower LDL value.",
        "He should continue amlodipine 10 mg daily; his blood pressure today was fine."]


def test_an_appointment_on_one_line_in_two_space_columns_is_one_sentence() -> None:
    note = "Follow-up appointment:\n\nTue 09/03/2030 9:40 AM  Dr. Ada Quill, Primary Care  Oakmont Clinic, Suite 210\n"
    assert [s.text for s in split_note(note, "rules").sentences] == [
        "Follow-up appointment:", "Tue 09/03/2030 9:40 AM  Dr. Ada Quill, Primary Care  Oakmont Clinic, Suite 210"]


def test_a_lone_full_stop_before_a_one_word_result_is_a_dot_leader_not_a_field_gap() -> None:
    note = "Results:\n  Creatinine ............. 0.7      (0.5-1.1)\n  Pregnancy test (urine) . Negative\n"
    assert [s.text for s in split_note(note, "rules").sentences] == [
        "Results:", "Creatinine ............. 0.7      (0.5-1.1)", "Pregnancy test (urine) . Negative"]
    # a lone full stop between readings still sets them apart
    assert [s.text for s in split_note("HR 74 . RR 16\n", "rules").sentences] == ["HR 74", "RR 16"]
