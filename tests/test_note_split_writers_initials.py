"""A clinician named by a role and an initial in a log's entries ("RN J. Hart:"), an entry's writer named after its
time ("10:05 P. Vance, NP:"), a clinical query opening a sentence ("?fracture"), and a print stamp beside the
organisation that printed it. Every line here is invented for these tests; each checks both splitters' rules
where the rule is the splitter's, and `split_note`'s offsets."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_page import is_page_furniture
from archehr.data.note_sentence_edits import query_cuts, should_join


def test_an_initial_after_a_nurses_role_is_no_sentence_end():
    note = ("02/03/2026 09:10 RN J. Hart: Pt rang about the dressing. Advised to keep it dry.\n\n"
            "03/03/2026 14:00 HCA T. Bloom - Obs taken, all normal.\n")
    assert texts(note) == ["02/03/2026 09:10 RN J. Hart: Pt rang about the dressing.", "Advised to keep it dry.",
                           "03/03/2026 14:00 HCA T. Bloom - Obs taken, all normal."]


def test_roles_written_as_words_keep_their_initial_too():
    assert should_join("Seen by Nurse P.", "Okafor in clinic.", "text")
    assert should_join("Handover from Sister W.", "Grey.", "text")
    assert should_join("Phone call, RN D.", "O'Neill - Son rang.", "text")


def test_an_initial_after_an_entrys_time_before_a_surname_and_a_mark_is_no_sentence_end():
    note = "05/04/2026 10:05 P. Vance, NP: Wound checked. Healing well.\n"
    assert texts(note) == ["05/04/2026 10:05 P. Vance, NP: Wound checked.", "Healing well."]
    assert should_join("12/04/2026 R.", "Moss (Physio) - Walking with a stick.", "text")


def test_a_letter_ending_a_sentence_stays_an_end():
    # no role or time before it: "vitamin D." ends its sentence; nor after a time before a plain sentence
    assert not should_join("Low vitamin D.", "Start a supplement.", "text")
    assert not should_join("Taken at 10:30 B.", "Then rested.", "text")
    assert texts("Given hepatitis B. Next dose in a month.\n") == ["Given hepatitis B.", "Next dose in a month."]


def test_a_clinical_query_after_a_full_stop_opens_its_own_sentence():
    note = "Clinical details: Fell on the wrist. Pain and swelling. ?fracture ?scaphoid.\n"
    assert texts(note) == ["Clinical details: Fell on the wrist.", "Pain and swelling.", "?fracture ?scaphoid."]


def test_a_query_mark_left_at_a_sentences_end_goes_back_to_its_query():
    text = "On aspirin. ? gout. ?cause"
    #       0         1         2
    #       012345678901234567890123456
    # a parser's pieces "On aspirin. ?" + "gout." are joined (a mark and a space before the word stays whole)
    assert query_cuts([(0, 13), (14, 19), (20, 26)], text) == [(0, 19), (20, 26)]
    assert query_cuts([(0, 26)], "On aspirin. Tired. ?cause x") == [(0, 18), (19, 26)]
    # a question mark inside a sentence is no query's start
    assert query_cuts([(0, 20)], "Pain ? rotator cuff.") == [(0, 20)]


def test_a_print_stamp_beside_its_printers_name_is_one_footer():
    assert is_page_furniture("Printed 04/05/2026 11:20    Hillside Labs, 12 Mill Lane, Corby")
    # a one-page copy's mark beside the stamp is a footer a writer cuts; a page mark first too
    assert not is_page_furniture("Printed 04/05/2026 11:20 AM     Page 1 of 1")
    assert not is_page_furniture("Page 1 of 2                Printed 04/05/2026 11:20")
    note = "Seen today.\n\nPrinted 04/05/2026 11:20    Hillside Labs, 12 Mill Lane, Corby\n"
    assert texts(note)[-1] == "Printed 04/05/2026 11:20 Hillside Labs, 12 Mill Lane, Corby"


def test_a_log_in_columns_keeps_its_writers_initial_with_the_entry():
    # the time, two spaces, the writer, two spaces, the entry
    note = ("11/02/2026 08:30  K. Mensah (Carer)  Breakfast eaten. Walked to the lounge.\n"
            "11/02/2026 12:15  K. Mensah  Refused lunch.\n")
    assert texts(note) == ["11/02/2026 08:30 K. Mensah (Carer) Breakfast eaten.", "Walked to the lounge.",
                           "11/02/2026 12:15 K. Mensah Refused lunch."]


def test_a_writer_in_brackets_or_with_a_role_before_the_colon_after_an_entrys_time():
    assert should_join("21/05/2026 10:02 [T.", "Hobbs, ward nurse] Patient rang.", "text")
    assert should_join("21/05/2026 15:40 [Dr K.", "Ilori, SHO] Reviewed on the ward.", "text")
    assert should_join("22/05/2026 W.", "Fenn ANP: Results reviewed.", "text")
    # a plain sentence after a time's letter still starts anew
    assert not should_join("Seen at 10:02 in bay C.", "Next review tomorrow.", "text")
