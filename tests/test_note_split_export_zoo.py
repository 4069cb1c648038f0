"""Export shapes rarely seen in pasted notes: a phone app's emoji bullets, a key=value or JSON dump, Word's "o"
outline bullets, questions and answers, a pipe title bar with a field at its end, an appointment closed by one
sentence, a field value wrapped between two lines of fields. Every expected split is written out by hand; the
invented notes of tests/fixtures/export_zoo are scored as the raw-note benchmark scores a writer's folder."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from split_texts import texts

REPO = Path(__file__).resolve().parents[1]


def test_emoji_bullets_open_list_items():
    # (a line ending in "May" leaves a sentence open unless the next line is an item of its own)
    note = ("Notes from my app\n"
            "\u2705 Ramipril 5mg - 1 each morning\n"
            "\u274c Amlodipine 5mg - stopped 1 May\n"
            "\U0001f4dd Questions for the nurse\n")
    assert texts(note) == ["Notes from my app", "\u2705 Ramipril 5mg - 1 each morning",
                           "\u274c Amlodipine 5mg - stopped 1 May", "\U0001f4dd Questions for the nurse"]


def test_key_value_lines_are_units_each_and_their_sentences_split():
    note = ("case_id=4471\n"
            "reason=Painful left wrist after a fall\n"
            "advice=Wear the splint for 3 weeks. Take paracetamol for pain.\n"
            "review=Fracture clinic in 1 week\n")
    assert texts(note) == ["case_id=4471", "reason=Painful left wrist after a fall",
                           "advice=Wear the splint for 3 weeks.", "Take paracetamol for pain.",
                           "review=Fracture clinic in 1 week"]


def test_a_json_dump_gives_a_unit_a_key_and_no_unit_to_its_braces():
    note = ('{\n'
            '  "reason": "Cough for 3 weeks",\n'
            '  "plan": "Chest X-ray today. Inhaler as needed."\n'
            '}\n')
    assert texts(note) == ['"reason": "Cough for 3 weeks",', '"plan": "Chest X-ray today.', 'Inhaler as needed."']


def test_a_yaml_dump_gives_a_unit_a_lower_case_key():
    note = ("visit:\n"
            "  kind: video call\n"
            "  clinician: Nurse P. Adeyemi\n"
            "outcome: Antibiotic started. Review in 5 days.\n")
    assert texts(note) == ["visit:", "kind: video call", "clinician: Nurse P. Adeyemi", "outcome: Antibiotic started.",
                           "Review in 5 days."]


def test_word_outline_bullets_open_items():
    note = ("After your operation\n"
            "o Keep the wound dry for 5 days.\n"
            "o Walk a little every day.\n")
    assert texts(note) == ["After your operation", "o Keep the wound dry for 5 days.", "o Walk a little every day."]


def test_questions_and_answers_keep_their_letters():
    # ("A:" after a "Q:" is an answer, not a SOAP assessment: its letter stays on its line)
    note = ("Q: Can I swim after the injection?\n"
            "A: Yes. Wait one day first.\n"
            "Q: Who do I call if it swells?\n"
            "A: The clinic nurse on 555-0100.\n")
    assert texts(note) == ["Q: Can I swim after the injection?", "A: Yes.", "Wait one day first.",
                           "Q: Who do I call if it swells?", "A: The clinic nurse on 555-0100."]


def test_a_pipe_title_bar_keeps_a_field_at_its_end():
    note = ("Lakeside Health Portal | Message thread | Patient: Tom Reyes\n"
            "Your scan is booked for Monday.\n")
    assert texts(note) == ["Lakeside Health Portal | Message thread | Patient: Tom Reyes",
                           "Your scan is booked for Monday."]
    # (a name before fields opens a line of header fields: each is a unit)
    assert texts("Reyes, Tom | DOB 02/03/1970 | MRN 55123\n") == ["Reyes, Tom", "DOB 02/03/1970", "MRN 55123"]


def test_an_appointment_block_takes_the_sentence_that_closes_it():
    note = ("Upcoming Appointments\n"
            "Blood Test\n"
            "Friday, March 6, 2026 at 9:00 AM\n"
            "Hillview Lab, ground floor\n"
            "Please bring your request form.\n")
    assert texts(note) == ["Upcoming Appointments", "Blood Test Friday, March 6, 2026 at 9:00 AM Hillview Lab, "
                           "ground floor Please bring your request form."]


def test_a_field_value_wrapped_between_two_lines_of_fields_joins_its_field():
    # the first line is 61 columns; the widest prose line sets the wrap width at 64, and "Surgery" (7 letters)
    # would have run the field line to 69
    note = ("Referred by: Dr Ann Okafor (GP)    Practice: Hillview Family\n"
            "Surgery\n"
            "Received: 03/02/2026    Triaged: 04/02/2026\n"
            "The referral was accepted and she will be seen within two weeks.\n")
    assert texts(note)[:4] == ["Referred by: Dr Ann Okafor (GP)", "Practice: Hillview Family Surgery",
                               "Received: 03/02/2026", "Triaged: 04/02/2026"]


def test_the_export_zoo_splits_as_its_gold_says():
    spec = importlib.util.spec_from_file_location("raw_note_split", REPO / "benchmarks" / "raw_note_split.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    notes, gold, broken, texts_broken = bench.score_folder(REPO / "tests" / "fixtures" / "export_zoo", "rules")
    assert (notes, gold) == (10, 88)
    assert broken == 0, texts_broken


def test_a_parsers_cuts_after_a_bold_label_a_chat_stamp_or_before_closing_quotes_are_undone():
    from archehr.data.note_sentence_edits import should_join
    assert should_join("**Plan:**", "Rest for two days.", "text")
    assert should_join("[02/03/2026, 09:15]", "Nurse Kim: Your swab was negative.", "text")
    assert should_join('"advice": "Drink plenty of water.', '",', "text")
    # (a sentence's end before the next sentence stays a cut)
    assert not should_join("Rest for two days.", "Drink plenty of water.", "text")


def test_set_in_appointments_said_by_a_recurring_weekday_a_month_or_a_booking_to_come():
    note = ("Upcoming appointments\n"
            "  Pulmonary Rehab Class\n"
            "     Thursdays 14:00-15:00 for 8 weeks\n"
            "     Hillview Leisure Centre, Hall 1\n"
            "  Kidney blood test\n"
            "     March 2027 - the surgery will text you a reminder\n")
    assert texts(note) == ["Upcoming appointments",
                           "Pulmonary Rehab Class Thursdays 14:00-15:00 for 8 weeks Hillview Leisure Centre, Hall 1",
                           "Kidney blood test March 2027 - the surgery will text you a reminder"]
    booked = ("    Hearing Test\n"
              "    Not yet scheduled - the audiology team will book this after your scan\n")
    assert texts(booked) == ["Hearing Test Not yet scheduled - the audiology team will book this after your scan"]


def test_a_date_line_in_columns_takes_its_who_and_where_set_in_under_it():
    note = ("Follow-up\n"
            "Tue Mar 3, 2026 9:00 AM   Wound Clinic\n"
            "    Ana Ruiz, RN   Hillview Building, Room 4\n"
            "Fri Mar 13, 2026 1:30 PM   Surgery\n"
            "    Omar Haddad, MD   Hillview Building, Room 9\n")
    assert texts(note) == ["Follow-up",
                           "Tue Mar 3, 2026 9:00 AM Wound Clinic Ana Ruiz, RN Hillview Building, Room 4",
                           "Fri Mar 13, 2026 1:30 PM Surgery Omar Haddad, MD Hillview Building, Room 9"]


def test_an_appointment_block_takes_the_field_that_closes_it():
    note = ("Visit 2\n"
            "Monday 14/09/2026, 10:20\n"
            "Clinic Room 3, Nurse Bell\n"
            "Due: Tetanus booster; Hepatitis A dose 2\n")
    assert texts(note) == ["Visit 2 Monday 14/09/2026, 10:20 Clinic Room 3, Nurse Bell Due: Tetanus booster; "
                           "Hepatitis A dose 2"]


def test_a_lower_case_sign_off_gives_a_unit_a_line():
    note = ("the wound has healed well and he can go back to work next week.\n"
            "\n"
            "mr tomas kiely\n"
            "consultant plastic surgeon\n"
            "cc gp, dr ruth hale, hillview surgery\n")
    assert texts(note)[1:] == ["mr tomas kiely", "consultant plastic surgeon", "cc gp, dr ruth hale, hillview surgery"]


def test_a_measurement_running_on_in_lower_case_carries_its_sentence_on():
    note = ("Her kidney function is stable and her potassium is normal, with sodium at\n"
            "139 mmol/L, and she can stay on the same dose of ramipril for now.\n"
            "Please keep the oxygen at the prescribed rate and do not turn it above\n"
            "2 L/min yourself, even if you feel more breathless.\n")
    assert texts(note) == ["Her kidney function is stable and her potassium is normal, with sodium at 139 mmol/L, "
                           "and she can stay on the same dose of ramipril for now.",
                           "Please keep the oxygen at the prescribed rate and do not turn it above 2 L/min yourself, "
                           "even if you feel more breathless."]
    # (an age's "y/o" under a heading opens its own sentence)
    assert texts("HPI\n8 y/o boy fell off his bike onto his left wrist.\n") == \
        ["HPI", "8 y/o boy fell off his bike onto his left wrist."]


def test_an_order_row_of_a_table_carries_on_into_its_line_set_in():
    note = ("CHANGE    Ramipril 5 mg -> 10 mg once daily\n"
            "STOP      Ibuprofen 400 mg as needed - not safe with your kidney function at\n"
            "          this level\n"
            "START     Paracetamol 1 g up to four times a day\n"
            "          when needed for pain\n")
    assert texts(note) == ["CHANGE Ramipril 5 mg -> 10 mg once daily",
                           "STOP Ibuprofen 400 mg as needed - not safe with your kidney function at this level",
                           "START Paracetamol 1 g up to four times a day when needed for pain"]
