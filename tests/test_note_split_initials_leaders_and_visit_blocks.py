"""Four shapes of export, on invented lines: an initial before a surname and a credential with its colon, a sentence
begun at a line's end by an article and one word, a dot leader of two dots, a label naming a visit after surgery over
its block, and an appointment block closed by two short sentences of instructions. Each expected split is written out
by hand."""

from __future__ import annotations

from split_texts import texts


def test_an_initial_before_a_surname_and_a_credential_with_its_colon_ends_no_sentence():
    note = ("03/02/2026 10:15  Wound check with R. Mallory NP: sutures out, edges dry. Shower from tomorrow.\n"
            "   Entered by: P. Quint, RN\n")
    assert texts(note) == ["03/02/2026 10:15 Wound check with R. Mallory NP: sutures out, edges dry.",
                           "Shower from tomorrow.", "Entered by: P. Quint, RN"]
    # (a comma before the credential, as before)
    assert texts("Reviewed with A. Osei, PA, to plan the taper.\n") == ["Reviewed with A. Osei, PA, to plan the taper."]
    # (a letter after no such word still ends its sentence: "... group B." + "Next ...")
    assert texts("Blood group B. Next check in May.\n") == ["Blood group B.", "Next check in May."]


def test_a_sentence_begun_at_the_lines_end_by_an_article_and_one_word_runs_on():
    # (the first line runs a little past the width the others wrap at, so it reads as no full line)
    note = ("The skin was prepared and draped in the usual sterile fashion before we began. A curved\n"
            "Langer incision was made over the lump and the capsule was opened. The wound was\n"
            "closed in layers with an absorbable suture and a dressing was\n"
            "applied.\n")
    assert texts(note) == [
        "The skin was prepared and draped in the usual sterile fashion before we began.",
        "A curved Langer incision was made over the lump and the capsule was opened.",
        "The wound was closed in layers with an absorbable suture and a dressing was applied."]


def test_a_dot_leader_of_two_dots_ends_no_sentence():
    note = ("Results\n"
            "    Hepatitis B core antibody ......... Negative\n"
            "    Chlamydia NAAT, throat + rectal .. Pending\n")
    assert texts(note)[-1] == "Chlamydia NAAT, throat + rectal .. Pending"
    # (an ellipsis after a word still ends nothing, a full stop still ends a sentence)
    assert texts("Felt dizzy.. Then fine. Went home.\n")[-1] == "Went home."


def test_a_label_naming_a_visit_after_surgery_stands_over_its_block():
    note = ("Follow-up\n"
            "Post-op visit:\n"
            "   Monday 2026-03-09 at 14:30\n"
            "   Mr. T. Okoye, Orthopaedic Clinic C, level 2\n")
    assert texts(note)[1:] == ["Post-op visit:",
                               "Monday 2026-03-09 at 14:30 Mr. T. Okoye, Orthopaedic Clinic C, level 2"]


def test_an_appointment_block_keeps_two_short_sentences_of_instructions_set_in_under_it():
    note = ("Upcoming appointments\n"
            "Friday, April 3, 2026 at 8:20 AM\n"
            "    Endoscopy Unit - gastroscopy\n"
            "    Harlow General Hospital, level 1\n"
            "    Arrive 20 minutes early. Nothing to eat for 6 hours before.\n")
    assert texts(note) == ["Upcoming appointments",
                           "Friday, April 3, 2026 at 8:20 AM Endoscopy Unit - gastroscopy Harlow General Hospital, "
                           "level 1 Arrive 20 minutes early. Nothing to eat for 6 hours before."]
    # (under lines flush with the page, two sentences are the note's own, no block's)
    flush = ("Friday, April 3, 2026 at 8:20 AM\nEndoscopy Unit - gastroscopy\nHarlow General Hospital, level 1\n"
             "Arrive 20 minutes early. Nothing to eat for 6 hours before.\n")
    assert texts(flush)[-2:] == ["Arrive 20 minutes early.", "Nothing to eat for 6 hours before."]


def test_a_paragraph_wrapped_narrower_than_the_note_carries_a_name_on_at_its_own_width():
    wide = ("The scan was reviewed at the multidisciplinary meeting on Monday and the findings were discussed in\n"
            "detail with the radiologist, who agreed that no further imaging is needed before the next clinic.\n")
    # (three of its lines run on into lower case at 63 columns at most: the paragraph wraps there, so its line
    # ending on "the Riverside", 62 columns, was full for "Leisure")
    narrow = ("She has been walking more and sleeping a little better, though\n"
              "her appetite is still poor and she tires easily in the\n"
              "afternoons, and her daughter now visits every other day to help\n"
              "with meals. She has joined the exercise group at the Riverside\n"
              "Leisure Centre on Thursdays and enjoys it.\n")
    assert texts(f"{wide}\n{narrow}")[-1] == \
        "She has joined the exercise group at the Riverside Leisure Centre on Thursdays and enjoys it."
