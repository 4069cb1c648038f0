"""The official answer formats: how the scorers read, count and cut an answer, and how to write one.

The scorer owns this module and the answer generators import it, so a generator counts words exactly
as the scorer will (the 2025 format used to have two parsers that disagreed on an empty sentence).

2025 (answers with citations), as the organisers' `load_submission` reads them (see
../shared/spec/official-scoring.md): the answer is stripped and split on "\\n"; each non-empty line is
`line.rsplit("|", 2)`; with fewer than 3 parts the line has no citation, else the sentence is the
stripped first part, the citations are the middle part split on "," keeping every piece whose strip()
is non-empty WITHOUT stripping it, and the text after the closing pipe is dropped. A sentence that is
not empty and does not end in .!? gets a final "."; an empty sentence stays empty and is left out of
the text. Text = sentences joined by " "; words = `split(" ")` pieces that are non-empty after strip;
more than 75 are cut to the first 75, but the citations of cut lines still count.

2026 texts (subtask 1 questions, subtask 3 answers) are stripped and cut to their limit with `split()`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MAX_WORDS = 75  # the 2025 answer limit


def words(text: str) -> list[str]:
    """The official 2025 words of a text: its `split(" ")` pieces that are not blank."""
    return [w for w in text.split(" ") if w.strip()]


def official_sentence(text: str) -> str:
    """A line's sentence as scored: stripped, with a final "." unless empty or ending in .!?"""
    text = text.strip()
    return text + "." if text and text[-1] not in ".!?" else text


def answer_text(sentences: Iterable[str]) -> str:
    """The scored text of an answer's sentences (empty sentences are left out, as the official code does)."""
    return " ".join(s for s in sentences if s)


@dataclass(frozen=True)
class ParsedLine:
    """One non-empty line of an answer, as the official scorer reads it."""

    number: int  # 1-based line number inside the submitted answer text
    raw: str
    sentence: str  # stripped text before the last |...|, with a final "." added when missing
    citations: tuple[str, ...]  # the official pieces, NOT stripped, in written order
    first_word: int  # index of the line's first word in the joined answer
    n_words: int
    after: str = ""  # text after the closing pipe (dropped by the official scorer)
    has_citation_part: bool = False


@dataclass(frozen=True)
class ParsedAnswer:
    case_id: str
    raw: str
    lines: tuple[ParsedLine, ...]
    text: str  # the answer as scored (sentences joined by " ", cut to MAX_WORDS words)
    citations: frozenset[str]
    n_words: int  # before the cut
    truncated: bool


def parse_answer(case_id: str, answer: str, max_words: int = MAX_WORDS) -> ParsedAnswer:
    """The official reading of one answer (`load_submission` of the 2025 scoring script)."""
    stripped = answer.strip()
    offset = answer[: len(answer) - len(answer.lstrip())].count("\n")  # lines removed by strip()
    lines: list[ParsedLine] = []
    word_pos = 0
    for i, line in enumerate(stripped.split("\n")):
        if not line.strip():
            continue
        parts = line.rsplit("|", 2)
        if len(parts) < 3:
            sent, cits, after, has = line, (), "", False
        else:
            sent = parts[0]
            cits = tuple(c for c in parts[1].split(",") if c.strip())
            after, has = parts[2], True
        sent = official_sentence(sent)
        n = len(words(sent))
        lines.append(ParsedLine(offset + i + 1, line, sent, cits, word_pos, n, after, has))
        word_pos += n
    all_words = words(answer_text(ln.sentence for ln in lines))
    truncated = len(all_words) > max_words
    text = " ".join(all_words[:max_words]) if truncated else answer_text(ln.sentence for ln in lines)
    cited = frozenset(c for ln in lines for c in ln.citations)
    return ParsedAnswer(case_id, answer, tuple(lines), text, cited, len(all_words), truncated)


def word_count(answer: str) -> int:
    """Words of an answer before the cut, exactly as the 2025 scorer counts them."""
    return parse_answer("", answer).n_words


# --- writing ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnswerLine:
    """One answer sentence with the note sentence ids it cites: the one line type of a 2025 answer, as the
    generators build it, `archehr answer` returns it and `render_line` writes it."""

    text: str
    citations: tuple[str, ...]

    def render(self) -> str:
        return render_line(self.text, self.citations)


def safe_text(text: str) -> str:
    """One line of text the official parser reads back as written: no newlines, no pipes, single spaces."""
    return " ".join(text.replace("|", "/").split())


def render_line(text: str, citations: Sequence[str]) -> str:
    """`text |id,id|` (or the bare text without citations), read back by `parse_answer` unchanged."""
    text = safe_text(text)
    return f"{text} |{','.join(citations)}|" if citations else text


def line_words(text: str) -> int:
    """Words one rendered line adds to the official count (its safe text after the final-period rule)."""
    return len(words(official_sentence(safe_text(text))))


# --- 2026 texts ---------------------------------------------------------------------------------------------------


def cut_words(text: str, limit: int) -> str:
    """The official 2026 cut: strip; over `limit` whitespace-separated words -> the first `limit` joined by ' '."""
    text = text.strip()
    pieces = text.split()
    return " ".join(pieces[:limit]) if len(pieces) > limit else text
