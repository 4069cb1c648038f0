"""Shapes read from the second blind export zoo (tests/fixtures/export_zoo2_blind, written before these rules) and
from the print footers of PDF copies: a box-drawn table's borders, a footer of a print stamp and its mark of
confidence, a message's date and time alone over its text, a header row spaced unevenly. Every expected split is
written out by hand on invented lines."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from split_texts import texts

REPO = Path(__file__).resolve().parents[1]


def test_a_box_drawn_tables_borders_are_no_sentence_and_do_not_join_the_prose_under_them():
    note = ("\u250c\u2500\u2500\u2500\u2500\u2500\u252c\u2500\u2500\u2500\u2500\u2510\n"
            "\u2502 Drug \u2502 Dose \u2502\n"
            "\u251c\u2500\u2500\u2500\u2500\u2500\u253c\u2500\u2500\u2500\u2500\u2524\n"
            "\u2502 Senna \u2502 15 mg \u2502\n"
            "\u2514\u2500\u2500\u2500\u2500\u2500\u2534\u2500\u2500\u2500\u2500\u2518\n"
            "Senna is a laxative. Take it at night.\n")
    assert texts(note) == ["\u2502 Drug \u2502 Dose \u2502", "\u2502 Senna \u2502 15 mg \u2502",
                           "Senna is a laxative.", "Take it at night."]


def test_a_footer_of_a_print_stamp_and_confidential_is_one_unit():
    note = ("Clinic letter\n"
            "She is well.\n"
            "Printed 03/04/2026 10:15 by WEB        CONFIDENTIAL - PATIENT COPY\n")
    assert texts(note) == ["Clinic letter", "She is well.",
                           "Printed 03/04/2026 10:15 by WEB CONFIDENTIAL - PATIENT COPY"]


def test_a_page_mark_first_or_a_title_beside_confidential_keeps_its_columns_apart():
    # (a page mark before the print stamp, and a trust's name beside CONFIDENTIAL, are cut as writers cut them)
    note = ("Page 1 of 2        Printed 03/04/2026 10:15\n"
            "Elmfield Hospitals Trust        CONFIDENTIAL\n")
    assert texts(note) == ["Page 1 of 2", "Printed 03/04/2026 10:15", "Elmfield Hospitals Trust", "CONFIDENTIAL"]


def test_a_messages_date_and_time_alone_stays_with_its_first_sentence():
    note = ("Fri 7 Mar, 16:20\n"
            "Oakfield Surgery: Your swab was clear. No treatment is needed.\n"
            "\n"
            "Sat 8 Mar, 09:02\n"
            "Thanks\n")
    assert texts(note) == ["Fri 7 Mar, 16:20 Oakfield Surgery: Your swab was clear.", "No treatment is needed.",
                           "Sat 8 Mar, 09:02 Thanks"]


def test_a_date_alone_over_timed_entries_heads_them_and_is_no_message_stamp():
    note = ("07/03/2026\n"
            "09:14 Phoned patient. Feeling better.\n"
            "15:30 Visited at home.\n")
    assert texts(note) == ["07/03/2026", "09:14 Phoned patient.", "Feeling better.", "15:30 Visited at home."]


def test_a_header_row_spaced_unevenly_is_one_row():
    note = ("Week  Day  Date        Drug  Dose  Given\n"
            "W1    D1   02/03/2026  Senna  15 mg  Yes\n"
            "W1    D2   03/03/2026  Senna  15 mg  No\n")
    assert texts(note) == ["Week Day Date Drug Dose Given", "W1 D1 02/03/2026 Senna 15 mg Yes",
                           "W1 D2 03/03/2026 Senna 15 mg No"]


def test_a_title_pushed_apart_from_its_clinic_by_a_wide_gap_still_stands_apart():
    # (single-word sides hold no columns: the wide gap sets the two apart, as before)
    assert texts("RADIOLOGY REPORT          Elmfield Imaging\n") == ["RADIOLOGY REPORT", "Elmfield Imaging"]


def test_the_second_blind_zoo_breaks_no_more_than_when_its_rules_were_written():
    spec = importlib.util.spec_from_file_location("raw_note_split", REPO / "benchmarks" / "raw_note_split.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    folder = REPO / "tests" / "fixtures" / "export_zoo2_blind"
    notes, gold, broken, texts_broken = bench.score_folder(folder, "rules")
    assert (notes, gold) == (15, 253)
    # (12 broken before these rules, then 7, then 3 once a numbered appointment's heading over its lines set in was
    # a unit of its own; the 3 left are readings writers differ on: a page mark before a print stamp, a sentence
    # carried over a page break)
    assert broken <= 3, texts_broken
