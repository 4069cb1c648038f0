"""Shapes of the split convention read on invented lines: a medicine's status after a dash in capitals, a letterhead
over a note not hard-wrapped, phrase lines under a heading, given doses listed with their brands, a header's place and
date in columns, and the labels whose reading depends on what follows them (a named patient's narrative, a comment of
several sentences, a course's verdict)."""

from __future__ import annotations

from archehr.data.note_split import split_note

# two paragraphs of one long line each: the note is not hard-wrapped
_LONG_PROSE = (
    "PRESENTATION:\n"
    "Admitted with three days of fever and a productive cough after a week of coryzal symptoms at home. Chest "
    "X-ray showed right lower lobe consolidation and she was started on intravenous co-amoxiclav with good effect; "
    "her oxygen requirement came down over two days and she was walking on the ward by day three.\n"
    "\n"
    "COURSE:\n"
    "Switched to oral antibiotics on day three once her temperature had settled and her inflammatory markers were "
    "falling. She was seen by the respiratory nurse, who checked her inhaler technique and gave her a written plan for "
    "what to do if her breathing gets worse again at home.\n")


def _texts(note: str) -> list[str]:
    return [" ".join(s.text.split()) for s in split_note(note, "rules").sentences]


def test_a_letterhead_in_capitals_over_a_note_not_hard_wrapped_is_a_unit_a_line() -> None:
    note = ("NORTHWICK ROYAL INFIRMARY - INPATIENT DISCHARGE LETTER\n"
            "WARD 12, RESPIRATORY MEDICINE\n"
            "\n" + _LONG_PROSE + "\n"
            "MEDICATIONS ON DISCHARGE:\n"
            "TRELEGY (FLUTICASONE/UMECLIDINIUM/VILANTEROL) 1 PUFF AT 08:00 - UNCHANGED\n"
            "PREDNISOLONE 30 MG ONCE DAILY WITH BREAKFAST FOR 5 DAYS - CHANGED (WAS 40 MG)\n"
            "SPACER DEVICE (AEROCHAMBER) FOR THE BLUE INHALER - NEW\n")
    texts = _texts(note)
    assert texts[:2] == ["NORTHWICK ROYAL INFIRMARY - INPATIENT DISCHARGE LETTER", "WARD 12, RESPIRATORY MEDICINE"]
    assert texts[-3:] == ["TRELEGY (FLUTICASONE/UMECLIDINIUM/VILANTEROL) 1 PUFF AT 08:00 - UNCHANGED",
                          "PREDNISOLONE 30 MG ONCE DAILY WITH BREAKFAST FOR 5 DAYS - CHANGED (WAS 40 MG)",
                          "SPACER DEVICE (AEROCHAMBER) FOR THE BLUE INHALER - NEW"]


# a hard-wrapped letter's opening, in prose, before the lines each test adds
_LETTER = ("Dear Dr Lindqvist,\n"
           "\n"
           "I reviewed Mr Okafor in clinic today. His breathing has been much better\n"
           "since the change of inhaler and he has had no flare since the spring,\n"
           "which he puts down to the new routine with his spacer at home.\n"
           "\n")


def test_capital_medicine_lines_ending_on_their_status_are_entries_in_a_hard_wrapped_note_too() -> None:
    note = (_LETTER
            + "MEDICATIONS:\n"
            "TRELEGY (FLUTICASONE/UMECLIDINIUM/VILANTEROL) 1 PUFF AT 08:00 - UNCHANGED\n"
            "MONTELUKAST 10 MG AT NIGHT - NEW\n"
            "SALBUTAMOL 100 MICROGRAMS 2 PUFFS AS REQUIRED - UNCHANGED\n")
    assert _texts(note)[-4:] == ["MEDICATIONS:",
                                 "TRELEGY (FLUTICASONE/UMECLIDINIUM/VILANTEROL) 1 PUFF AT 08:00 - UNCHANGED",
                                 "MONTELUKAST 10 MG AT NIGHT - NEW",
                                 "SALBUTAMOL 100 MICROGRAMS 2 PUFFS AS REQUIRED - UNCHANGED"]


def test_capital_prose_left_open_still_wraps_in_a_hard_wrapped_note() -> None:
    note = (_LETTER
            + "RETURN TO THE EMERGENCY DEPARTMENT STRAIGHT AWAY IF YOUR LIPS TURN BLUE\n"
            "OR YOU CANNOT FINISH A SENTENCE.\n")
    assert _texts(note)[-1] == ("RETURN TO THE EMERGENCY DEPARTMENT STRAIGHT AWAY IF YOUR LIPS TURN BLUE OR YOU "
                                "CANNOT FINISH A SENTENCE.")


def test_two_phrase_lines_under_a_heading_are_two_items_even_when_the_first_is_full() -> None:
    note = ("Dear Dr Varga,\n"
            "\n"
            "Current treatment:\n"
            "Omnipod 5 tubeless insulin pump in automated mode, using Fiasp (insulin aspart)\n"
            "Freestyle Libre 3 continuous glucose sensor\n"
            "\n"
            "I saw Isla today in the young adult clinic, six weeks after she moved over onto\n"
            "the pump from her pens. She is pleased with it and says her nights are settled,\n"
            "with no alarms waking her on most nights of the last fortnight.\n")
    texts = _texts(note)
    assert texts[1:4] == ["Current treatment:",
                          "Omnipod 5 tubeless insulin pump in automated mode, using Fiasp (insulin aspart)",
                          "Freestyle Libre 3 continuous glucose sensor"]
    assert texts[4] == ("I saw Isla today in the young adult clinic, six weeks after she moved over onto the pump "
                        "from her pens.")


_AVS = ("AFTER VISIT SUMMARY\n"
        "Tobias Lindgren    DOB: 03/22/1988\n"
        "Harbor Point Urgent Care - Bayside    Tuesday, March 4, 2025\n"
        "Provider: Renata Calloway, PA-C\n"
        "\n"
        "Medicines given during your visit\n"
        "  ketorolac (TORADOL) 30 mg injection into the muscle - given 10:05 AM\n"
        "  dexamethasone (DECADRON) 10 mg tablet by mouth with water - given 10:20 AM\n"
        "\n"
        "Your next appointments\n"
        "  Harbor Point Orthopedics    Friday, March 7, 2025\n"
        "  Physical Therapy Intake    Monday, March 10, 2025\n"
        "\n"
        "Your instructions\n"
        "  Rest the ankle and keep it raised above the level of your heart when you can,\n"
        "  and use the brace every time you are up and walking for the next two weeks.\n")


def test_doses_listed_at_one_depth_with_their_brands_are_an_entry_each() -> None:
    texts = _texts(_AVS)
    assert "ketorolac (TORADOL) 30 mg injection into the muscle - given 10:05 AM" in texts
    assert "dexamethasone (DECADRON) 10 mg tablet by mouth with water - given 10:20 AM" in texts
    # (a sentence set in at one depth and wrapped still runs on)
    assert texts[-1].startswith("Rest the ankle") and texts[-1].endswith("for the next two weeks.")


def test_a_place_and_a_date_in_columns_among_header_fields_are_two_fields_an_appointment_row_one() -> None:
    texts = _texts(_AVS)
    assert texts[1:6] == ["Tobias Lindgren", "DOB: 03/22/1988", "Harbor Point Urgent Care - Bayside",
                          "Tuesday, March 4, 2025", "Provider: Renata Calloway, PA-C"]
    assert "Harbor Point Orthopedics Friday, March 7, 2025" in texts


_OP_NOTE = ("OPERATIVE NOTE\n"
            "Surgeon: Ms P. Adebayo    Date: 11/03/2025\n"
            "\n"
            "Indications: Mr. Haldane is a 61-year-old joiner with eight months of numbness in the left hand that "
            "wakes him at night. Nerve conduction studies confirmed moderate compression.\n"
            "\n"
            "Findings: Thickened flexor retinaculum with a pale, flattened median nerve beneath it.\n"
            "Hospital course: Uneventful apart from mild wound ooze, settled with a fresh dressing on day 1. Home the "
            "same evening.\n"
            "Discharge: 11/03/2025\n"
            "\n"
            "Comment: Serum ferritin is below the reference range. Iron studies were added to the sample on\n"
            "request and will follow.\n"
            "Comment: Results are in keeping with iron deficiency.\n"
            "Comments: Take the tablets with orange juice. Avoid tea with meals.\n"
            "\n"
            "Plan:\n"
            "Follow-up in clinic 2025-04-14 at 09:30 with B. Tanaka, PA, to check the wound and grip.\n"
            "Sutures out at the practice at 10 to 14 days.\n")


def test_a_label_before_a_titled_patients_narrative_is_a_unit_of_its_own() -> None:
    texts = _texts(_OP_NOTE)
    i = texts.index("Indications:")
    assert texts[i + 1].startswith("Mr. Haldane is a 61-year-old joiner")
    # (a finding in a noun phrase keeps its label: a field)
    assert "Findings: Thickened flexor retinaculum with a pale, flattened median nerve beneath it." in texts


def test_a_course_stated_as_a_verdict_is_a_field() -> None:
    texts = _texts(_OP_NOTE)
    assert "Hospital course: Uneventful apart from mild wound ooze, settled with a fresh dressing on day 1." in texts
    assert "Home the same evening." in texts


def test_a_comment_in_sentences_of_prose_heads_them_one_sentence_or_advice_is_a_field() -> None:
    texts = _texts(_OP_NOTE)
    i = texts.index("Comment:")
    assert texts[i + 1:i + 3] == ["Serum ferritin is below the reference range.",
                                  "Iron studies were added to the sample on request and will follow."]
    assert "Comment: Results are in keeping with iron deficiency." in texts
    assert "Comments: Take the tablets with orange juice." in texts


def test_an_initial_after_with_before_a_surname_and_a_credential_ends_no_sentence() -> None:
    texts = _texts(_OP_NOTE)
    assert "Follow-up in clinic 2025-04-14 at 09:30 with B. Tanaka, PA, to check the wound and grip." in texts
