"""Subtask 1: the patient's narrative -> a clinician-style question of at most 15 words.

`template` (offline): the patient's own question sentence, stripped of filler ("My question is
if ..."), put in the third person, closed with "?" and kept to 15 words at a clause boundary (the rules
and their cross-validated switches: `rules.py` and docs/question.md).
`llm`: the prompt `configs/prompts/question_v1.txt` (`question_v2` adds `demonstrations`: the training
narratives closest to the case, with their clinician questions); the reply's first line ending in "?"
(else its first line), without a label, quotes, bullets or bold, cut to the official 15 words as the
scorer cuts (no rewording: a model's question scores what it would submitted directly); an empty or
unusable reply falls back to the template, and the reason is recorded.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from archehr.data.model import Case
from archehr.llm.component import LLMComponent, Unusable
from archehr.llm.structured import reply_parts
from archehr.question.base import Question, QuestionWriter
from archehr.question.rules import DEFAULT_CONFIG, QUESTION_WORDS, write_question
from archehr.question.rules import shorten_question as shorten_question  # re-exported: the template writer's cut
from archehr.registry import Registry
from archehr_scoring.answer_format import cut_words

# the offline st1 writer: the rules of rules.py with the cross-validated switches
template_question: Callable[[Case], str] = functools.partial(write_question, cfg=DEFAULT_CONFIG)


class TemplateQuestionWriter(QuestionWriter):
    kind = "template"

    def write(self, case: Case) -> Question:
        q = template_question(case)
        return Question(q) if q else Question("What happened during the patient's hospital stay?",
                                              notes=("no narrative: generic question",))

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "max_words": QUESTION_WORDS}


_LABEL = re.compile(r"(?i)^(?:here is (?:the|a|my) )?(?:rewritten |clinician(?:'s)? |clinical )?question\s*[:\-]\s*")


def reply_question(reply: str) -> str:
    """The question a model's reply holds: its first non-empty line, labels, bullets, bold and quotes removed."""
    data, lines = reply_parts(reply)
    text = next((v for v in data.values() if isinstance(v, str) and v.strip()), "") if isinstance(data, dict) else ""
    lines = [q for q in (_LABEL.sub("", ln).strip().strip('"\u201c\u201d\'').strip()
                         for ln in (reply_parts(text)[1] if text else lines))
             if q and not q.endswith(":")]  # "Here is the question:" leads in, it is not the question
    # a chatty reply wraps the question in prose: the first line that is a question wins
    return next((x for x in lines if x.endswith("?")), lines[0] if lines else "")


class LLMQuestionWriter(LLMComponent, QuestionWriter):
    what = "question"
    reads_cut = True  # a question is its first line: a reply cut later still holds it

    def __init__(self, backend: Any, prompt: str = "question_v1", max_tokens: int = 40, seed: int = 0,
                 demonstrations: int = 0):
        self.setup(backend, prompt, demonstrations, seed=seed, max_tokens=max_tokens)
        self.fallback = TemplateQuestionWriter()

    def demonstration(self, case: Case, key: Any) -> str | None:  # the clinician question is in the cases file
        if not case.clinician_question or not (case.patient_narrative or case.patient_question):
            return None
        return (f"Example patient message: {case.patient_narrative or ''}\nExample patient's own question: "
                f"{case.question_text}\nExample clinician question: {case.clinician_question}\n")

    def fields(self, case: Case, *args: Any, level: int = 0) -> dict[str, str]:
        return {"narrative": case.patient_narrative or "", "question": case.question_text}

    def write(self, case: Case) -> Question:
        def read(replies: list[str], cut: bool, notes: list[str]) -> str:
            line = reply_question(replies[0])
            n_words = len(line.split())
            if n_words < 3:
                raise Unusable("reply too short or empty")
            if n_words > QUESTION_WORDS:  # a reply cut past 15 words still holds the (cut) question
                notes.append(f"cut from {n_words} to {QUESTION_WORDS} words")
                return cut_words(line, QUESTION_WORDS)
            if cut and "\n" not in replies[0].strip():
                raise Unusable("the one line was cut short, under 15 words: not a question the model finished")
            return line

        got = self.settle(case, read, lambda: self.fallback.write(case).text, "template")
        return Question(got.value or "", got.fallback, got.notes)


# The st1 writers (config `question: {kind: ...}`); a writer that takes `backend` gets the system's.
QUESTION_WRITERS: Registry[Any] = Registry("question writer")  # entries build a QuestionWriter
QUESTION_WRITERS.add("template", TemplateQuestionWriter)
QUESTION_WRITERS.add("llm", LLMQuestionWriter)
build_question_writer = QUESTION_WRITERS.build  # (kind, **options) -> a QuestionWriter
