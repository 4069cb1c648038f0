"""The official 2025 answer format, owned by the scorer and used by the generators: one reading, one count."""

from __future__ import annotations

import random

import pytest

from archehr.generate.answer import Answer, AnswerLine
from archehr_scoring.answer_format import (
    MAX_WORDS,
    cut_words,
    line_words,
    official_sentence,
    parse_answer,
    render_line,
    safe_text,
    word_count,
)
from archehr_scoring.submission2025 import answer_problems
from archehr_scoring.submission2025 import parse_answer as scorer_parse_answer


def test_the_scorer_and_the_generators_share_one_parser() -> None:
    assert scorer_parse_answer is parse_answer


def test_an_empty_sentence_stays_empty_and_adds_no_word() -> None:
    # The generator's old parser turned "|1|" into the sentence "." (one word); the official code keeps
    # the empty sentence, leaves it out of the text and counts nothing for it.
    p = parse_answer("1", "|1|\nHe fainted. |2|")
    assert [ln.sentence for ln in p.lines] == ["", "He fainted."]
    assert p.text == "He fainted." and p.n_words == 2
    assert p.citations == frozenset({"1", "2"})
    assert word_count("|1|") == 0 and word_count("   |3,4|  ") == 0
    assert line_words("") == 0 and line_words(" \t ") == 0
    ans = Answer((AnswerLine("", ("1",)), AnswerLine("He fainted", ("2",))), "test")
    assert word_count(ans.render()) == 2 == sum(line_words(ln.text) for ln in ans.lines)
    assert ans.text_without_citations() == "He fainted."


def test_official_quirks_of_the_spec() -> None:
    assert parse_answer("1", "A |4| B |5| tail").lines[0].sentence == "A |4| B."
    assert parse_answer("1", "A |4| B |5| tail").citations == frozenset({"5"})
    assert parse_answer("1", "Sentence. |1, 2|").citations == frozenset({"1", " 2"})
    assert parse_answer("1", "See [1] here").citations == frozenset()
    assert parse_answer("1", "Why? |1|").lines[0].sentence == "Why?"
    assert parse_answer("1", "a\tb c |1|").n_words == 2  # words are split(" ") pieces: a tab does not split


def test_the_cut_keeps_75_words_and_the_citations_of_cut_lines() -> None:
    first = " ".join(f"w{i}" for i in range(70)) + ". |1|"
    answer = first + "\n" + " ".join(f"x{i}" for i in range(10)) + " |2|"
    p = parse_answer("1", answer)
    assert p.n_words == 80 and p.truncated
    assert len(p.text.split(" ")) == MAX_WORDS and p.text.endswith("x4")
    assert p.citations == frozenset({"1", "2"})
    assert any("75" in msg and "words" in msg for msg in answer_problems(answer))


_PIECES = ["", " ", "  ", "\t", "word", "Word.", "why?", "a|b", "|", "||", "x\ny", ".", "!", "end:", "two words"]


@pytest.mark.parametrize("seed", range(40))
def test_the_generators_budget_equals_the_scorers_count(seed: int) -> None:
    # What extractive and LLM generators add up line by line must be what the scorer counts on the rendered answer.
    rng = random.Random(seed)
    lines = tuple(AnswerLine(" ".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 6))),
                             tuple(str(rng.randint(1, 9)) for _ in range(rng.randint(0, 2))))
                  for _ in range(rng.randint(1, 6)))
    rendered = Answer(lines, "test").render()
    p = parse_answer("1", rendered)
    assert p.n_words == sum(line_words(ln.text) for ln in lines)
    assert p.citations == frozenset(c for ln in lines for c in ln.citations)
    for ln in lines:  # every rendered line reads back as written
        back = parse_answer("1", render_line(ln.text, ln.citations)).lines
        if safe_text(ln.text) or ln.citations:
            assert [(b.sentence, b.citations) for b in back] == [(official_sentence(safe_text(ln.text)), ln.citations)]


def test_2026_cut_is_split_based() -> None:
    assert cut_words("  a  b\tc  ", 15) == "a  b\tc"
    assert cut_words("a b\tc d", 2) == "a b"
