"""`POST /api/answer`: a note and a patient question -> what `archehr answer --format json` prints."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter

from archehr.errors import InputError, Problem
from archehr.serve import models as m
from archehr.serve.errors import ERRORS, TooLarge


def check_text(value: str | None, limit: int, field: str, what: str) -> None:
    """Size limit (413) and text a response can carry: JSON's \\ud800 escapes decode to lone surrogates."""
    if value is None:
        return
    try:
        n = len(value.encode("utf-8"))
    except UnicodeEncodeError as e:
        raise InputError(Problem(f"the {what} is not valid Unicode text (a lone surrogate at character {e.start})",
                                 field=field, code="encoding")) from None
    if n > limit:
        raise TooLarge(Problem(f"the {what} is {n // 1024} KB; this server takes at most {limit // 1024} KB",
                               field=field, code="too-large"))


def answer_response(a: Any, seconds: float) -> m.AnswerResponse:
    """The library's Answer as the API's type: every sentence with its citation label and relatedness."""
    cited = {s.id for s in a.cited}
    labels = dict(a.cited_as)
    related = [s.id for s in a.related]
    return m.AnswerResponse(
        question=a.question, answer=a.answer, answer_without_citations=a.text,
        lines=[m.Line(text=ln.text, citations=list(ln.citations)) for ln in a.lines],
        cited_ids=[s.id for s in a.cited],
        sentences=[m.Sentence(id=s.id, paragraph_id=s.paragraph_id, start=s.start, end=s.end, kind=s.kind,
                              text=s.text, cited=s.id in cited, cited_as=labels.get(s.id),  # type: ignore[arg-type]
                              related=s.id in related)
                   for s in a.note.sentences],
        confidence=a.confidence, needs_review=a.flagged, abstained=a.abstained,
        related_ids=related, related_note=a.related_note, evidence_confidence=a.evidence_confidence,
        system=a.system, splitter=a.note.splitter,
        fallback=a.fallback, notes=list(a.notes), seconds=seconds)


def router(state: Any) -> APIRouter:
    r = APIRouter()

    @r.post("/api/answer", response_model=m.AnswerResponse, responses=ERRORS,
            summary="Answer a patient question from a clinical note, citing its sentences.",
            description="What `archehr answer --format json` prints: the answer lines with the sentence ids they "
                        "cite, every note sentence (numbered, with offsets), the calibrated confidence and the "
                        "review flag, the split used; or, when the note does not say, `abstained` with the "
                        "sentences about the question as `related_ids` (or none, with `related_note` saying so). "
                        "The note is not stored or logged.")
    def answer(req: m.AnswerRequest) -> m.AnswerResponse:
        from archehr.ask import answer as run_answer

        check_text(req.note, m.MAX_NOTE_BYTES, "note", "note")
        check_text(req.narrative, m.MAX_NOTE_BYTES, "narrative", "narrative")
        check_text(req.question, m.MAX_QUESTION_BYTES, "question", "question")
        with state.lock:
            t0 = time.perf_counter()
            a = run_answer(req.note, req.question, narrative=req.narrative, system=state.system,
                           splitter=req.splitter)
            seconds = time.perf_counter() - t0
        return answer_response(a, seconds)

    return r
