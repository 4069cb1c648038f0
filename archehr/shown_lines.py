"""The answer lines a patient sees: each line shows only the note sentences it says, the lines in rank order.

`archehr.ask` shows every cited sentence (docs/answer.md): a line keeps only the citations whose content words it
carries (`shown_citations`, at least `CARRIED` of them, or its best one), the lines are ordered by the best rank
among their citations (`by_rank`), and rendered as the answer's text (`render`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from archehr.data.note_split import SplitNote
from archehr.relevance.text import tokens
from archehr_scoring.answer_format import AnswerLine

CARRIED = 0.5  # a line carries a sentence when it holds at least this share of the sentence's content words


def carried(line: str, sentence: str) -> float:
    """Share of the sentence's content words that the line holds (1.0: the line quotes it)."""
    words = set(tokens(sentence))
    if not words:
        return 0.0
    return len(words & set(tokens(line))) / len(words)


def shown_citations(lines: Any, split: SplitNote) -> tuple[AnswerLine, ...]:
    """Each line keeps only the citations whose content it carries (the best one when none reaches
    `CARRIED`), so no line shows a citation to a sentence it does not say."""
    text = {s.id: s.text for s in split.sentences}
    out = []
    for ln in lines:
        share = {c: carried(ln.text, text[c]) for c in ln.citations if c in text}
        keep = tuple(c for c in ln.citations if share.get(c, 0.0) >= CARRIED)
        if not keep and share:
            best = max(share, key=lambda c: share[c])
            keep = (best,) if share[best] > 0 else ()
        out.append(AnswerLine(ln.text, keep))
    return tuple(out)


def render(lines: tuple[AnswerLine, ...]) -> str:
    """The lines as the answer's text, each with its citations."""
    return "\n".join(AnswerLine(ln.text, ln.citations).render() for ln in lines)


def by_rank(lines: tuple[AnswerLine, ...], rank: np.ndarray, ids: list[str]) -> tuple[AnswerLine, ...]:
    """Lines ordered by the best rank among their citations (stable: ties keep the generator's order)."""
    place = {ids[i]: k for k, i in enumerate(np.argsort(-rank, kind="stable").tolist())}
    return tuple(sorted(lines, key=lambda ln: min((place.get(c, len(ids)) for c in ln.citations),
                                                  default=len(ids))))
