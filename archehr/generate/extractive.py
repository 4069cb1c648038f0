"""`extractive`: the selected note sentences, cleaned, one per line with citations, fitted to 75 words.

The relevance reference of the 2025 task is built from the essential note sentences, so quoting
them (cleaned) is already a strong answer. Fitting is by sentence choice, never by cutting: the
most probable sentences go first, and every selected id that did not get its own line is cited by
the nearest kept line, so no selected evidence is lost to the budget.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from archehr.data.model import Case
from archehr.generate.answer import WORD_BUDGET, Answer, AnswerLine
from archehr.generate.base import Generator
from archehr.generate.clean import clean_sentence
from archehr.relevance.base import Selection, SentenceScores
from archehr.relevance.text import is_header
from archehr_scoring.answer_format import line_words

# The line used when every selected sentence alone is over the budget: cutting one would break
# the "never half a sentence" rule, and an answer must cite something.
OVERLONG_LINE = "The cited parts of the note address this question."
# A patient's answer (`archehr answer`) has no 2025 word limit: room for the sentences cited after the first, which
# the 75 words cut short (chosen with `archehr.ask`'s citing rule, docs/answer-methods.md)
PATIENT_WORDS = 110


@dataclass(frozen=True)
class Candidate:
    sid: str
    position: int  # index in the note
    text: str
    words: int
    priority: float


def ensure_selection(case: Case, selection: Selection, scores: SentenceScores | None) -> tuple[list[str], list[str]]:
    """The selected ids that exist in the note (note order) and notes on what was repaired."""
    ids = case.sentence_ids
    notes: list[str] = []
    chosen = [s for s in ids if s in set(selection.cited)]
    dropped = sorted(set(selection.cited) - set(ids))
    if dropped:
        notes.append(f"dropped ids not in the note: {', '.join(dropped)}")
    if not chosen and ids:
        # every case must cite at least one id (the official scorer aborts otherwise)
        if scores is not None and scores.sentence_ids:
            rel = scores.relevant()
            best = max(range(len(rel)), key=lambda i: (rel[i], -i))
            chosen = [scores.sentence_ids[best]]
        else:
            chosen = [next((s.id for s in case.sentences if not is_header(s.text)), ids[0])]
        notes.append(f"empty selection: cited the most likely sentence {chosen[0]}")
    return chosen, notes


def candidates(case: Case, chosen: list[str], scores: SentenceScores | None,
               rewrite: Callable[[str], str] | None = None) -> list[Candidate]:
    prob = dict(zip(scores.sentence_ids, scores.relevant(), strict=True)) if scores is not None else {}
    pos = {s.id: i for i, s in enumerate(case.sentences)}
    out = []
    for sid in chosen:
        raw = case.sentence(sid).text
        if is_header(raw):
            continue
        text = clean_sentence(raw)
        if rewrite is not None and text:
            text = rewrite(text)
        if not text:
            continue
        out.append(Candidate(sid, pos[sid], text, line_words(text), prob.get(sid, 1.0 - pos[sid] * 1e-6)))
    return out


def fit_lines(case: Case, chosen: list[str], cands: list[Candidate], budget: int = WORD_BUDGET,
              max_lines: int | None = None, order: str = "note",
              cite_dropped: bool = True) -> tuple[list[AnswerLine], list[str]]:
    """Choose whole sentences by priority within the budget, then cite the rest on the nearest line
    (`cite_dropped=False`: each line cites only its own sentence, so every citation is shown)."""
    notes: list[str] = []
    kept: list[Candidate] = []
    left = budget
    for c in sorted(cands, key=lambda c: (-c.priority, c.position)):
        if max_lines is not None and len(kept) >= max_lines:
            break
        if c.words <= left:
            kept.append(c)
            left -= c.words
    pos = {s.id: i for i, s in enumerate(case.sentences)}
    if not kept:
        notes.append("every selected sentence is over the word budget alone: one summary line cites them all")
        return [AnswerLine(OVERLONG_LINE, tuple(sorted(chosen, key=pos.__getitem__)))], notes
    kept.sort(key=(lambda c: c.position) if order == "note" else (lambda c: (-c.priority, c.position)))
    cites: list[list[str]] = [[c.sid] for c in kept]
    for sid in chosen if cite_dropped else ():
        if any(sid == c.sid for c in kept):
            continue
        # nearest kept line in the note; ties go to the earlier line
        j = min(range(len(kept)), key=lambda k: (abs(kept[k].position - pos[sid]), kept[k].position))
        cites[j].append(sid)
    lines = [AnswerLine(c.text, tuple(sorted(ids, key=pos.__getitem__))) for c, ids in zip(kept, cites, strict=True)]
    return lines, notes


class ExtractiveGenerator(Generator):
    name = "extractive"

    def __init__(self, budget: int = WORD_BUDGET, max_lines: int | None = None, order: str = "note",
                 cite_dropped: bool = True):
        if order not in ("note", "score"):
            from archehr.errors import ConfigError

            raise ConfigError(f"extractive: order must be 'note' or 'score', not {order!r}")
        self.budget = int(budget)
        self.max_lines = max_lines
        self.order = order
        # True (the default, what `predict` submits): a selected sentence that did not fit the budget is
        # cited by the nearest kept line, which maximises the 2025 citation score; `archehr answer`
        # shows a patient only citations a line carries (archehr.shown_lines.shown_citations) either way
        self.cite_dropped = bool(cite_dropped)

    def generate(self, case: Case, selection: Selection, scores: SentenceScores | None = None) -> Answer:
        chosen, notes = ensure_selection(case, selection, scores)
        if not chosen:
            from archehr.errors import DataError, Problem

            raise DataError(Problem("the case has no note sentences to cite", case_id=case.case_id))
        lines, more = fit_lines(case, chosen, candidates(case, chosen, scores, self.rewrite), self.budget,
                                self.max_lines, self.order, self.cite_dropped)
        return Answer(tuple(lines), self.name, notes=tuple(notes + more))

    def for_patient(self) -> ExtractiveGenerator:
        """A copy whose budget is `PATIENT_WORDS` for `archehr answer`, unless the system set a budget of its own."""
        if self.budget != WORD_BUDGET:
            return self
        other = copy.copy(self)
        other.budget = PATIENT_WORDS
        return other

    def rewrite(self, text: str) -> str:
        """Hook for subclasses that reword a cleaned sentence before it is fitted to the budget."""
        return text

    def describe(self) -> dict[str, Any]:
        d = {"kind": self.name, "budget": self.budget, "max_lines": self.max_lines, "order": self.order}
        if not self.cite_dropped:  # only when changed, so the default's run records stay as they were
            d["cite_dropped"] = False
        return d
