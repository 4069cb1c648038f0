"""A cited answer as the generators build it, written in the official 2025 format.

The format itself (parsing, word count, the 75-word cut, safe line text) is the scorer's
`archehr_scoring.answer_format`; everything here counts with it, so what a generator counts is what
the scorer will count.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from archehr_scoring.answer_format import (
    MAX_WORDS,
    AnswerLine,
    answer_text,
    cut_words,
    official_sentence,
    safe_text,
)

WORD_BUDGET = MAX_WORDS


@dataclass(frozen=True)
class Answer:
    """A generated answer: its lines plus how it was obtained (fallbacks, repairs) for run.json."""

    lines: tuple[AnswerLine, ...]
    generator: str
    fallback: str | None = None  # why a fallback answer replaced the generator's own, if it did
    notes: tuple[str, ...] = field(default=())  # repairs applied (dropped ids, re-attached lines, ...)
    # lines the 75-word budget dropped from the cited answer (their citations moved onto the last kept
    # line); the plain-text answer keeps them up to the st3 scorer's own cut, so a model that writes a
    # little long loses no more words than it would submitted directly
    overflow: tuple[AnswerLine, ...] = field(default=())
    # the model said the note does not answer the question (only a generator asked for a patient, via
    # `archehr answer`, may say so: the official tasks have no abstention); `lines` is then empty
    abstained: bool = False

    def render(self) -> str:
        """The official 2025 answer string: one sentence per line, citations at the end."""
        return "\n".join(line.render() for line in self.lines)

    def text_without_citations(self) -> str:
        """The answer as plain text (subtask 3): the sentences joined by spaces (with `overflow`, cut to the
        st3 word limit as the st3 scorer cuts)."""
        from archehr_scoring.tasks import get_task

        text = answer_text(official_sentence(safe_text(line.text)) for line in self.lines + self.overflow)
        return cut_words(text, get_task("st3").word_limit or len(text)) if self.overflow else text

    @property
    def cited_ids(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for line in self.lines:
            for c in line.citations:
                seen.setdefault(c, None)
        return tuple(seen)
