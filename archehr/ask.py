"""One note, one patient question: split the note, run a system, return the cited answer.

This is the way in for a single patient-portal message, without a release: `archehr.answer(note,
question)` (and `archehr answer` on the command line) builds a one-case `Case` in memory from the raw
note (`archehr.data.note_split`), runs a system (the default one unless told) and returns the answer
lines with the note sentences they cite, the selector's confidence and its review flag.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archehr.data.note_split import SplitNote, SplitSentence, note_case


@dataclass(frozen=True)
class CitedLine:
    """One answer sentence and the note sentences it cites."""

    text: str
    citations: tuple[str, ...]


@dataclass(frozen=True)
class NoteAnswer:
    """The cited answer to one question about one raw note."""

    question: str
    answer: str  # the official 2025 form: one sentence per line, "|ids|" at the end
    lines: tuple[CitedLine, ...]
    cited: tuple[SplitSentence, ...]  # the cited note sentences, in note order, with their offsets
    note: SplitNote
    confidence: float  # the selector's per-case confidence in [0, 1]
    flagged: bool  # confidence below the system's review level: a human should check this answer
    system: str
    fallback: str | None = None
    notes: tuple[str, ...] = ()
    # cited sentence id -> "essential" | "supplementary": the more likely of the two by the selector's scores
    # (empty when the system gives no per-sentence scores, e.g. cite-all)
    cited_as: tuple[tuple[str, str], ...] = ()

    @property
    def text(self) -> str:
        """The answer without citations."""
        return " ".join(line.text for line in self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.answer,
            "answer_without_citations": self.text,
            "lines": [{"text": ln.text, "citations": list(ln.citations)} for ln in self.lines],
            "cited_sentences": [_sentence_dict(s) for s in self.cited],
            "confidence": self.confidence,
            "needs_review": self.flagged,
            "system": self.system,
            "splitter": self.note.splitter,
            "sentences": [_sentence_dict(s) for s in self.note.sentences],
            "fallback": self.fallback,
            "notes": list(self.notes),
            "cited_as": dict(self.cited_as),
        }


def _sentence_dict(s: SplitSentence) -> dict[str, Any]:
    return {"id": s.id, "paragraph_id": s.paragraph_id, "start": s.start, "end": s.end, "kind": s.kind,
            "text": s.text}


def answer(note: str | SplitNote, question: str, *, narrative: str | None = None, system: Any = None,
           splitter: str = "auto", specialty: tuple[str, ...] = (), cache_dir: str | Path | None = None
           ) -> NoteAnswer:
    """Answer a patient question from a raw clinical note, citing the note's sentences.

    `system` is a built-in system name, a YAML path, an already loaded `archehr.pipeline.System`, or
    None for the default system. `narrative` is the patient's whole message when there is one (the
    question should be part of it). `splitter`: "auto" (spaCy when installed, else rules), "spacy",
    "rules". Raises `InputError` for an empty note or question, `UnavailableError` for splitter
    "spacy" without the model.
    """
    from archehr.pipeline import System, load_system

    case, split = note_case(note, question, narrative=narrative, splitter=splitter, specialty=specialty)
    sys_obj = system if isinstance(system, System) else load_system(system, cache_dir=cache_dir)
    if sys_obj.config.generator.get("name") == "llm":
        # demonstrations come from the bundled demo release's labelled dev split, as `predict` does
        from archehr.data import load_split

        sys_obj.prepare(load_split(None, "dev"))
    ans, evidence = sys_obj.answer_with_evidence(case)
    selection = evidence.selection
    cited_ids = set(ans.cited_ids)
    notes = split.notes + ans.notes
    return NoteAnswer(
        question=question.strip(), answer=ans.render(),
        lines=tuple(CitedLine(ln.text, ln.citations) for ln in ans.lines),
        cited=tuple(s for s in split.sentences if s.id in cited_ids), note=split,
        confidence=float(selection.confidence), flagged=bool(selection.flagged), system=sys_obj.config.name,
        fallback=ans.fallback, notes=notes, cited_as=_cited_as(evidence.scores, cited_ids))


def _cited_as(scores: Any, cited: set[str]) -> tuple[tuple[str, str], ...]:
    """How the selector labelled each cited sentence: essential when P(essential) >= P(supplementary)."""
    if scores is None:
        return ()
    return tuple((sid, "essential" if e >= s else "supplementary")
                 for sid, e, s in zip(scores.sentence_ids, scores.essential, scores.supplementary, strict=True)
                 if sid in cited)
