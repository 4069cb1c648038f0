"""Official 2025 answer parsing, trap warnings, the fixer, and submission shape errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archehr.data.model import Case, NoteSentence
from archehr.errors import SubmissionError
from archehr_scoring.submission2025 import (
    answer_warnings,
    check_submission_2025,
    fix_answer,
    load_submission_2025,
    parse_answer,
)

CASE = Case("1", "n", (), "q", "x", tuple(NoteSentence(str(i), 1, 0, f"S{i}.") for i in range(1, 21)))


def codes(problems: list) -> list[str]:
    return [p.code for p in problems]


def test_space_after_comma_keeps_unstripped_piece() -> None:
    p = parse_answer("1", "Sentence one. |1, 2|")
    assert p.citations == frozenset({"1", " 2"})
    assert p.text == "Sentence one."
    w = answer_warnings(p, CASE)
    assert "warning-citation-space" in codes(w)
    assert "warning-unknown-id" not in codes(w)  # the space warning already explains it


def test_only_last_pipe_group_counts_and_text_after_is_dropped() -> None:
    p = parse_answer("1", "A |4| B |5| tail words")
    assert p.citations == frozenset({"5"})
    assert p.text == "A |4| B."
    w = answer_warnings(p, CASE)
    assert {"warning-mid-line-citation", "warning-text-after-citation"} <= set(codes(w))


def test_period_added_brackets_kept_and_uncited_lines() -> None:
    p = parse_answer("1", "First [3] here |1|\nQuestion? |2|\nNo citation line")
    assert p.text == "First [3] here. Question? No citation line."
    assert p.citations == frozenset({"1", "2"})
    assert "warning-bracket-citation" in codes(answer_warnings(p, CASE))


def test_word_cut_keeps_citations_of_cut_lines() -> None:
    long = " ".join(f"w{i}" for i in range(80))
    p = parse_answer("1", f"{long} |1|\nLate line |2|")
    assert p.truncated and p.n_words == 82
    assert p.text.split(" ") == [f"w{i}" for i in range(75)]
    assert p.citations == frozenset({"1", "2"})
    w = answer_warnings(p, CASE)
    assert codes(w).count("warning-cut-citation") == 2 and "warning-over-word-limit" in codes(w)


def test_no_citation_and_empty_answer_warn() -> None:
    assert "warning-no-citation" in codes(answer_warnings(parse_answer("1", "No ids at all."), CASE))
    p = parse_answer("1", "  \n ")
    assert p.text == "" and not p.citations
    assert "warning-empty-answer" in codes(answer_warnings(p, CASE))


def test_unknown_zero_padded_and_range_ids() -> None:
    w = answer_warnings(parse_answer("1", "A |999|\nB |018|\nC |2-18|"), CASE)
    msgs = [p.message for p in w if p.code == "warning-unknown-id"]
    assert len(msgs) == 3
    assert "zero-padded" in msgs[1] and "ranges" in msgs[2]
    assert [p.field for p in w if p.code == "warning-unknown-id"] == ["answer line 1", "answer line 2",
                                                                      "answer line 3"]


def test_answer_line_numbers_count_leading_blank_lines() -> None:
    p = parse_answer("1", "\n\nA |1, 2|")
    assert p.lines[0].number == 3


def test_fixer() -> None:
    fixed = fix_answer("A |4| B |5, 6| tail.\nBracket [7] here\nUnknown |999,018|\n\nPlain", CASE)
    assert fixed.split("\n") == ["A B tail. |4,5,6|", "Bracket here |7|", "Unknown |18|", "", "Plain"]
    p = parse_answer("1", fixed)
    assert p.citations == frozenset({"4", "5", "6", "7", "18"})
    assert not [x for x in answer_warnings(p, CASE) if x.code != "warning-no-citation"]


@pytest.mark.parametrize("obj, code", [
    ({"case_id": "1", "answer": "x"}, "type"),
    ([{"answer": "x |1|"}], "missing-field"),
    ([{"case_id": "1"}], "missing-field"),
    ([{"case_id": 1, "answer": "x |1|"}], "type"),
    ([{"case_id": "1", "answer": ["x"]}], "type"),
    ([{"case_id": "1", "answer": "a |1|"}, {"case_id": "1", "answer": "b |1|"}], "duplicate-case"),
    (["not an object"], "type"),
])
def test_shape_errors(obj: object, code: str) -> None:
    _, problems = check_submission_2025(obj, "sub.json")
    assert code in codes(problems)


def test_file_errors_have_lines(tmp_path: Path) -> None:
    f = tmp_path / "sub.json"
    f.write_text(json.dumps([{"case_id": "1", "answer": "a |1|"}, {"case_id": "1", "answer": 3}], indent=2))
    _, problems = load_submission_2025(f)
    assert [(p.code, p.line) for p in problems] == [("type", 6), ("duplicate-case", 6)]
    (tmp_path / "bad.json").write_text("[{")
    with pytest.raises(SubmissionError) as e:
        load_submission_2025(tmp_path / "bad.json")
    assert e.value.problems[0].code == "json-syntax"
