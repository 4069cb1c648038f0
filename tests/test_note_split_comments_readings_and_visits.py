"""A report's comment of several sentences on one line (a field) against one wrapped as a paragraph (a heading), a
comment label naming its clinician, a dated test's result kept with its name, readings under a label parted by
pipes, one measure read on each side, a letterhead whose institution ends before the dash, a line left open on an
article, and a visit whose date falls after an event and is yet to be set. Every line here is invented for these
tests; each checks `split_note`'s offsets too."""

from __future__ import annotations

from split_texts import texts


def test_a_one_line_comment_of_two_sentences_keeps_its_label_with_the_first():
    note = ("[x] Stairs with a rail only\n"
            "Comment: Mr Hale lives alone in a first floor flat. His niece visits on most weekdays.\n\n"
            "SECTION B - HOME\n")
    assert texts(note)[1:3] == ["Comment: Mr Hale lives alone in a first floor flat.",
                                "His niece visits on most weekdays."]


def test_a_comment_wrapped_over_lines_is_headed_by_its_label():
    note = ("Comment: Haemoglobin has fallen since the last sample. Repeat the count within\n"
            "one week and review the iron studies.\n")
    assert texts(note)[0] == "Comment:"


def test_a_comment_label_naming_its_clinician_heads_even_a_short_first_sentence():
    note = ("Drug levels\nValproate 38 mg/L (L)\n\n"
            "Clinician comment (Dr R. Moyo, 12/02/2025): Spoke to her by phone. Dose kept the same for now.\n")
    assert texts(note)[2:] == ["Clinician comment (Dr R. Moyo, 12/02/2025):", "Spoke to her by phone.",
                           "Dose kept the same for now."]


def test_a_dated_tests_result_in_a_phrase_stays_one_field():
    note = "ECG 03/02/2025: Sinus rhythm, rate 70.\n"
    assert texts(note) == ["ECG 03/02/2025: Sinus rhythm, rate 70."]


def test_readings_parted_by_pipes_keep_their_label_with_the_first():
    note = "Obs today: IOP R 19 mmHg, L 17 mmHg (goal 16) | Pulse 61 bpm | BP 128/74\n"
    assert texts(note) == ["Obs today: IOP R 19 mmHg, L 17 mmHg (goal 16)", "Pulse 61 bpm", "BP 128/74"]


def test_one_measure_read_on_each_side_is_one_unit():
    note = "Grip strength:   R 31 kg   L 27 kg\nNext check: 6 weeks\n"
    assert texts(note)[0] == "Grip strength: R 31 kg L 27 kg"


def test_a_letterhead_ending_on_a_department_of_any_name_ends_its_line():
    note = ("=========================\n"
            "ALDER VALE HOSPITAL - MINOR INJURIES / PLASTER ROOM\n"
            "ADVICE SHEET FOR PARENTS\n"
            "=========================\n"
            "Name: Tom Reed\n")
    assert texts(note)[:2] == ["ALDER VALE HOSPITAL - MINOR INJURIES / PLASTER ROOM", "ADVICE SHEET FOR PARENTS"]


def test_a_line_left_open_on_an_article_runs_on_into_a_heading_look():
    note = ("Getting help\n"
            "Ring the ward on 01234 555 010 (any time) or come to the\n"
            "Urgent Treatment Centre if:\n"
            "- the plaster feels too tight\n"
            "- your toes go blue\n")
    assert texts(note)[1] == "Ring the ward on 01234 555 010 (any time) or come to the Urgent Treatment Centre if:"


def test_a_visit_after_an_event_with_its_date_to_be_set_is_one_block():
    note = ("Your upcoming appointments\n"
            "Liver scan with the nurse\n"
            "6 months after your last injection - date to be confirmed\n\n"
            "When to get help\n")
    assert texts(note)[1] == "Liver scan with the nurse 6 months after your last injection - date to be confirmed"
