"""The orders in capitals a medicine list's rows open with (`archehr.answerability.order_rows`), and each rule built on
them reading the same rows as before: the words, the row's mark and each rule's own conditions (invented lines)."""

from __future__ import annotations

import re

from archehr.answerability import list_orders, roles, row_first, same_medicine, story_first, switch_rows
from archehr.answerability.order_rows import BEGUN, ENDED, ORDERS, ROW_MARK, order_words, row_opening


def test_order_words_are_whole_words_in_capitals() -> None:
    words = re.compile("^" + order_words(("STOP", "STOPPED"), ("DO NOT TAKE",)))
    assert words.match("STOP aspirin") and words.match("STOPPED: aspirin") and words.match("DO NOT TAKE ibuprofen")
    assert not words.match("STOPS aspirin")  # (a form no group lists)
    assert not words.match("Stop aspirin") and not words.match("stop aspirin")
    assert order_words(("HOLD",), ("HOLD", "HELD")) == r"(?:HOLD|HELD)\b"  # (a word in two groups once)


def test_row_opening_reads_the_rows_mark() -> None:
    row = re.compile(row_opening(ENDED))
    for line in ("STOP aspirin", "2. STOP aspirin", "1) DISCONTINUED aspirin", "• STOPPED aspirin", "| STOP | x"):
        assert row.search(line), line
    assert not row.search("Aspirin: STOP")  # (an order later in the line is no row's)
    assert not row.search("2.5 STOP")  # (a number with a decimal is no row's number)
    assert ROW_MARK.startswith("^")


def test_each_rule_keeps_its_words() -> None:
    assert row_first.is_row("RESTART Ramipril 2.5 mg once daily") and row_first.is_row("3. REDUCES x")
    assert not row_first.is_row("STARTED x")  # (row_first reads a list's orders, not a start told as done)
    assert story_first.tells_plan("Dose INCREASED") and not story_first.tells_plan("Dose went up last week")
    assert same_medicine._MARKED.search("1. HELD Metformin 1 g") and same_medicine._MARKED.search("x 5 mg (changed)")
    assert not same_medicine._MARKED.search("RESTART Metformin 1 g")
    assert switch_rows._NEW_ROW.search("ADDED Apixaban 5 mg") and switch_rows._NEW_ROW.search("Apixaban 5 mg (new)")
    assert switch_rows._STOP_ROW.search("2. DISCONTINUED Warfarin") and not switch_rows._STOP_ROW.search("HOLD x")
    assert list_orders.list_order("WITHHELD: Metformin") and not list_orders.list_order("ADDED Metformin")
    assert roles._ORDER.match("NO LIFTING") and not roles._ORDER.match("NOTES")


def test_groups_name_what_the_rules_share() -> None:
    assert {"START", "NEW"} <= set(BEGUN) & set(ORDERS) and {"STOP"} <= set(ENDED) & set(ORDERS)
