"""The reply reading every LLM component shares (archehr/llm/structured.py, archehr/llm/component.py)."""

from __future__ import annotations

import pytest

from archehr.llm.component import Unusable, json_id, whole_lines
from archehr.llm.structured import ends_mid_line, pick, reply_parts


def test_reply_parts_drops_thinking_and_marks_and_finds_json() -> None:
    data, lines = reply_parts("<think>1. no</think>\n- **Why** was it stopped?\n\n2) `It bled`\n> quoted")
    assert data is None and lines == ["Why was it stopped?", "It bled", "quoted"]
    data, lines = reply_parts('Here:\n```json\n{"essential": [3]}\n```')
    assert data == {"essential": [3]} and lines[0] == "Here:"


def test_reply_parts_keeps_list_numbers_when_they_are_the_content() -> None:
    # the aligner's "1. 3, 4": the number is the answer sentence's
    assert reply_parts("1. 3, 4\n* 2: 5", list_marks=False)[1] == ["1. 3, 4", "* 2: 5"]


def test_pick_takes_the_first_named_field_in_any_case_and_of_a_type() -> None:
    item = {"Text": 3, "sentence": "The ECG was normal.", "IDS": [1]}
    assert pick(item, ("text", "sentence")) == 3
    assert pick(item, ("text", "sentence"), str) == "The ECG was normal."
    assert pick(item, ("citations", "ids")) == [1] and pick(item, ("evidence",)) is None


def test_whole_lines_drops_a_last_line_the_token_limit_cut() -> None:
    notes: list[str] = []
    assert whole_lines(["A.", "B"], "B", "A.\nB", cut=True, notes=notes) == ["A."] and len(notes) == 1
    assert whole_lines(["A.", "B was"], "B was", "A.\nB was", cut=False, notes=notes) == ["A."]
    assert whole_lines(["A.", "B."], "B.", "A.\nB.", cut=False, notes=notes) == ["A.", "B."]
    assert whole_lines(["A.", "B"], "B", "A.\nB\n", cut=False, notes=notes) == ["A.", "B"]  # ended its line
    with pytest.raises(Unusable, match="within its first line"):
        whole_lines(["A"], "A", "A", cut=True, notes=notes)


def test_ends_mid_line_and_json_ids() -> None:
    assert ends_mid_line("He was given") and not ends_mid_line("He was given aspirin.")
    assert not ends_mid_line("He was given |3|") and not ends_mid_line("")
    assert json_id("12") == 12 and json_id("12a") == "12a"
