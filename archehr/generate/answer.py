"""A cited answer and the official 2025 reading of it (line format, citation parsing, word budget).

The official parser (spec/official-scoring.md) reads each non-empty line with `rsplit("|", 2)`,
keeps citation pieces unstripped, appends "." to a sentence not ending in .!?, joins sentences by
" ", counts words as non-empty `split(" ")` pieces and cuts at 75. Our writer produces only lines
that parser reads back unchanged, so what we count here is what the scorer will count.
"""

from __future__ import annotations

from dataclasses import dataclass, field

WORD_BUDGET = 75


@dataclass(frozen=True)
class AnswerLine:
    """One answer sentence with the note sentence ids it cites."""

    text: str
    citations: tuple[str, ...]

    def render(self) -> str:
        text = safe_text(self.text)
        return f"{text} |{','.join(self.citations)}|" if self.citations else text


@dataclass(frozen=True)
class Answer:
    """A generated answer: its lines plus how it was obtained (fallbacks, repairs) for run.json."""

    lines: tuple[AnswerLine, ...]
    generator: str
    fallback: str | None = None  # why a fallback answer replaced the generator's own, if it did
    notes: tuple[str, ...] = field(default=())  # repairs applied (dropped ids, re-attached lines, ...)

    def render(self) -> str:
        """The official 2025 answer string: one sentence per line, citations at the end."""
        return "\n".join(line.render() for line in self.lines)

    def text_without_citations(self) -> str:
        """The answer as plain text (subtask 3): the sentences joined by spaces."""
        return " ".join(official_sentence(safe_text(line.text)) for line in self.lines if line.text.strip())

    @property
    def cited_ids(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for line in self.lines:
            for c in line.citations:
                seen.setdefault(c, None)
        return tuple(seen)


def safe_text(text: str) -> str:
    """One line of text the official parser reads back as written: no newlines, no pipes."""
    return " ".join(text.replace("|", "/").split())


def official_sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def parse_official(answer: str) -> list[tuple[str, list[str]]]:
    """(sentence, citations) per non-empty line, exactly as the official 2025 parser reads them."""
    out: list[tuple[str, list[str]]] = []
    for raw in answer.split("\n"):
        line = raw.strip()
        if not line:
            continue
        parts = line.rsplit("|", 2)
        if len(parts) < 3:
            sentence, cits = line, []
        else:
            sentence, cits = parts[0].strip(), [c for c in parts[1].split(",") if c.strip()]
        out.append((official_sentence(sentence), cits))
    return out


def official_word_count(answer: str) -> int:
    text = " ".join(s for s, _ in parse_official(answer))
    return sum(1 for w in text.split(" ") if w.strip())


def line_words(text: str) -> int:
    """Words one line adds to the official count (its text, after the final-period rule)."""
    return sum(1 for w in official_sentence(safe_text(text)).split(" ") if w.strip())


def answer_problems(answer: str, note_ids: set[str] | None = None) -> list[str]:
    """Why an answer string would be rejected or mis-read by the official scorer (empty = valid)."""
    problems: list[str] = []
    parsed = parse_official(answer)
    if not parsed:
        return ["empty answer"]
    cited = [c for _, cs in parsed for c in cs]
    if not cited:
        problems.append("no citation at all (the official scorer aborts on such a case)")
    if any(c != c.strip() for c in cited):
        problems.append("citation ids with spaces (the official scorer never matches them)")
    if note_ids is not None:
        unknown = sorted({c.strip() for c in cited} - note_ids)
        if unknown:
            problems.append(f"cites ids not in the note: {', '.join(unknown)}")
    n = official_word_count(answer)
    if n > WORD_BUDGET:
        problems.append(f"{n} words, over the {WORD_BUDGET}-word budget (the scorer would cut it)")
    return problems
