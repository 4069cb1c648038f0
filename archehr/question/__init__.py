"""Subtask 1: the patient's narrative -> a clinician-style question of at most 15 words.

`template` (offline): the patient's own question sentence, stripped of filler ("My question is
if ..."), put in the third person, closed with "?" and kept to 15 words at a clause boundary; the
rules and their cross-validated switches are in `rules.py` and docs/question.md (the first
version is `rules.FIRST_CONFIG`, every switch off).
`llm`: the prompt `configs/prompts/question_v1.txt` (`question_v2` adds `demonstrations`: the training
narratives closest to the case, archehr/llm/component.py, with their clinician questions); the reply's first line ending
in "?" (else its first line), without a "Question:" label, quotes, bullets or bold, cut to the
official 15 words as the scorer cuts (no rewording, so a model's question scores what it would score
submitted directly); an empty or unusable reply falls back to the template, and the reason is recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from archehr.data.model import Case
from archehr.errors import ConfigError
from archehr.llm.component import LLMComponent, Unusable
from archehr.question.rules import DEFAULT_CONFIG, QUESTION_WORDS, WriterConfig, write_question
from archehr.question.rules import shorten_question as shorten_question  # re-exported: the template writer's cut
from archehr.registry import Registry
from archehr_scoring.answer_format import cut_words


@dataclass(frozen=True)
class Question:
    text: str
    fallback: str | None = None
    notes: tuple[str, ...] = ()


class QuestionWriter(Protocol):
    """A kind of component: an st1 question writer (`question: {kind: ...}`); `kind` names it in run.json. One
    that learns from a labelled split also declares `prepare(train)` (archehr.llm.component.Prepared)."""

    kind: str

    def write(self, case: Case) -> Question: ...

    def describe(self) -> dict[str, Any]: ...


def template_question(case: Case, config: WriterConfig = DEFAULT_CONFIG) -> str:
    """The offline st1 writer: rules of archehr/question/rules.py with the cross-validated switches."""
    return write_question(case, config)


class TemplateQuestionWriter:
    kind = "template"

    def write(self, case: Case) -> Question:
        q = template_question(case)
        if not q:
            return Question("What happened during the patient's hospital stay?",
                            notes=("no narrative: generic question",))
        return Question(q)

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "max_words": QUESTION_WORDS}


_LABEL = re.compile(r"^(?:here is (?:the|a|my) )?(?:rewritten |clinician(?:'s)? |clinical )?question\s*[:\-]\s*",
                    re.IGNORECASE)


def reply_question(reply: str) -> str:
    """The question a model's reply holds: its first non-empty line, labels, bullets, bold and quotes removed."""
    from archehr.llm.structured import extract_json, strip_markdown, strip_thinking

    reply = strip_thinking(reply)
    data = extract_json(reply)
    if isinstance(data, dict):
        text = next((v for v in data.values() if isinstance(v, str) and v.strip()), "")
        if text:
            reply = text
    lines = []
    for raw in reply.replace("\r", "").split("\n"):
        line = re.sub(r"^\s*(?:[-*•>]|\d+[.)])\s+", "", strip_markdown(raw)).strip()
        line = _LABEL.sub("", line).strip().strip('"\u201c\u201d\'').strip()
        if line and not line.endswith(":"):  # "Here is the question:" leads in, it is not the question
            lines.append(line)
    # a chatty reply wraps the question in prose: the first line that is a question wins
    return next((x for x in lines if x.endswith("?")), lines[0] if lines else "")


class LLMQuestionWriter(LLMComponent):
    what = "question"
    reads_cut = True  # a question is its first line: a reply cut later still holds it

    def __init__(self, backend: Any, prompt: str = "question_v1", max_tokens: int = 40, seed: int = 0,
                 demonstrations: int = 0):
        self.setup(backend, prompt, demonstrations, seed=seed, max_tokens=max_tokens)
        if self.pool.k > 0 and "$demonstrations" not in self.template.text:
            raise ConfigError(f"question prompt {self.template.name} has no $demonstrations slot "
                              "(question_v2 has one); set demonstrations: 0 or change the prompt")
        self.fallback = TemplateQuestionWriter()

    def demonstration(self, case: Case, key: Any) -> str | None:
        # no key needed: the clinician question is in the cases file
        if not case.clinician_question or not (case.patient_narrative or case.patient_question):
            return None
        return (f"Example patient message: {case.patient_narrative or ''}\nExample patient's own question: "
                f"{case.question_text}\nExample clinician question: {case.clinician_question}\n")

    def prompt(self, case: Case, shown: int | None = None) -> str:
        demos = [text for _, text in self.pool.nearest(case)[:shown]]
        return self.template.render(narrative=case.patient_narrative or "", question=case.question_text,
                                    demonstrations=("\nExamples:\n" + "\n".join(demos)) if demos else "")

    def write(self, case: Case) -> Question:
        def read(replies: list[str], cut: bool, notes: list[str]) -> Question:
            line = reply_question(replies[0])
            n_words = len(line.split())
            if n_words < 3:
                raise Unusable("reply too short or empty")
            if n_words > QUESTION_WORDS:  # a reply cut past 15 words still holds the (cut) question
                notes.append(f"cut from {n_words} to {QUESTION_WORDS} words")
                return Question(cut_words(line, QUESTION_WORDS))
            if cut and "\n" not in replies[0].strip():
                raise Unusable("the one line was cut short, under 15 words: not a question the model finished")
            return Question(line)

        got = self.ask(lambda d, _: self.prompt(case, d), read, shown=len(self.pool.nearest(case)))
        if got.value is None:
            return Question(self.fallback.write(case).text, fallback=f"template: {got.fallback}", notes=got.notes)
        return Question(got.value.text, notes=got.notes)

    def runtime(self) -> dict[str, Any]:
        return {"backend": self.backend.describe()}


# The st1 writers (config `question: {kind: ...}`); a writer that takes `backend` gets the system's.
QUESTION_WRITERS: Registry[Any] = Registry("question writer")  # entries build a QuestionWriter
QUESTION_WRITERS.add("template", TemplateQuestionWriter)
QUESTION_WRITERS.add("llm", LLMQuestionWriter)


def build_question_writer(kind: str = "template", **options: Any) -> QuestionWriter:
    return QUESTION_WRITERS.build(kind, **options)
