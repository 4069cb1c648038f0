"""Shapes of exported notes the written split conventions settle: a dictation's plan numbered in words on one line
(each item a unit from its number word), and more below. Every expected split is written out by hand, on invented
lines."""

from __future__ import annotations

from split_texts import texts


def test_a_dictations_plan_numbered_in_words_inline_gives_one_unit_per_item():
    note = ("seen today with a sore knee after a fall. weight 71.5. no fever.\n\n"
            "plan. one. ice the knee and rest it for two days. two. ibuprofen 400 mg three times a day with food. "
            "she may stop it when the pain settles. three. review in one week.\n")
    assert texts(note) == ["seen today with a sore knee after a fall.", "weight 71.5.", "no fever.", "plan.",
                           "one. ice the knee and rest it for two days.",
                           "two. ibuprofen 400 mg three times a day with food.",
                           "she may stop it when the pain settles.", "three. review in one week."]


def test_a_number_word_a_parser_cut_before_a_pronoun_still_opens_its_item():
    note = "plan. one. rest at home. two. she should drink plenty. three. he can return to school monday.\n"
    assert texts(note) == ["plan.", "one. rest at home.", "two. she should drink plenty.",
                           "three. he can return to school monday."]


def test_a_logs_stamp_and_writer_alone_over_its_entry_stays_with_the_first_sentence():
    note = ("PHONE LOG\n\n"
            "03/02/2025 10:15 RN Ola Berg\n"
            "Mother rang about a rash on the arms. Advised an antihistamine.\n\n"
            "03/02/2025 11:40 Kemi Adeyemi, MD\n"
            "Reviewed. Photos look like hives.\n")
    assert texts(note) == ["PHONE LOG", "03/02/2025 10:15 RN Ola Berg Mother rang about a rash on the arms.",
                           "Advised an antihistamine.", "03/02/2025 11:40 Kemi Adeyemi, MD Reviewed.",
                           "Photos look like hives."]


_PROSE = ("seen today with her husband about her sugars, which have run high for a month on tablets, and she is "
          "keen to try a different tablet before anything else is started.")


def test_a_lower_case_dictations_short_header_and_sign_off_lines_are_a_unit_each():
    note = ("hillside clinic, leith\n"
            "re: mrs ann lowe\n"
            "dob 02/03/1950\n\n"
            f"{_PROSE}\n{_PROSE}\n\n"
            "dr p moss\n"
            "consultant physician\n")
    assert texts(note) == ["hillside clinic, leith", "re: mrs ann lowe", "dob 02/03/1950", _PROSE, _PROSE,
                           "dr p moss", "consultant physician"]


def test_a_short_line_left_open_or_followed_by_a_joining_word_still_carries_its_sentence_on():
    note = (f"{_PROSE}\n{_PROSE}\n\n"
            "she was seen with\n"
            "her husband today.\n"
            "we talked it over\n"
            "and she agreed.\n")
    assert texts(note)[2:] == ["she was seen with her husband today.", "we talked it over and she agreed."]


def test_a_dictations_stamps_without_colons_on_one_line_are_a_field_each():
    note = "dictated 03/04/2025 transcribed 03/05/2025 by kl\npatient: joan fry\n"
    assert texts(note) == ["dictated 03/04/2025", "transcribed 03/05/2025 by kl", "patient: joan fry"]
    # (a stamp after a name and a comma stays in its line's one field: only a date runs straight into the next stamp)
    note = "dictated 03/04/2025 dr a bell, typed 03/05/2025 kl\npatient: joan fry\n"
    assert texts(note)[0] == "dictated 03/04/2025 dr a bell, typed 03/05/2025 kl"


def test_a_signatures_role_line_over_its_date_is_two_units_not_an_appointment():
    note = "Wound healing well.\n\nSigned: Dr. Ann Lowe\nConsultant Surgeon\n04/03/2025 10:20\n"
    assert texts(note) == ["Wound healing well.", "Signed: Dr. Ann Lowe", "Consultant Surgeon", "04/03/2025 10:20"]
    note = "Wound healing well.\n\nTom Reyes, MD\nGeneral Surgery\n04/03/2025 10:20\n"
    assert texts(note)[1:] == ["Tom Reyes, MD", "General Surgery", "04/03/2025 10:20"]
    # (a clinic's name over a visit's date and time, under no signature, is an appointment's block)
    note = "Next visit:\n\nFracture Clinic\n04/03/2025 10:20\n"
    assert texts(note)[1:] == ["Fracture Clinic 04/03/2025 10:20"]
