"""Subtask 1: the patient's narrative -> a clinician-style question of at most 15 words.

`template` (offline): the patient's own question sentence, stripped of filler ("My question is
if ..."), put in the third person, closed with "?" and kept to 15 words at a clause boundary; the
rules and their cross-validated switches are in `rules.py` and docs/question.md (the first
version is `rules.FIRST_CONFIG`, every switch off).
`llm`: the prompt `configs/prompts/question_v1.txt` (`question_v2` adds `demonstrations`: the training
narratives closest to the case, BM25, with their clinician questions); the reply's first line ending
in "?" (else its first line), without a "Question:" label, quotes, bullets or bold, cut to the
official 15 words as the scorer cuts (no rewording, so a model's question scores what it would score
submitted directly); an empty or unusable reply falls back to the template, and the reason is recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from archehr.data.model import Case
from archehr.errors import ConfigError
from archehr.question.rules import DEFAULT_CONFIG, QUESTION_WORDS, WriterConfig, write_question
from archehr.question.rules import shorten_question as shorten_question  # re-exported: the template writer's cut
from archehr.registry import Registry
from archehr_scoring.answer_format import cut_words


@dataclass(frozen=True)
class Question:
    text: str
    fallback: str | None = None
    notes: tuple[str, ...] = ()


def template_question(case: Case, config: WriterConfig = DEFAULT_CONFIG) -> str:
    """The offline st1 writer: rules of archehr/question/rules.py with the cross-validated switches."""
    return write_question(case, config)


class TemplateQuestionWriter:
    name = "template"

    def write(self, case: Case) -> Question:
        q = template_question(case)
        if not q:
            return Question("What happened during the patient's hospital stay?",
                            notes=("no narrative: generic question",))
        return Question(q)

    def describe(self) -> dict[str, Any]:
        return {"method": self.name, "max_words": QUESTION_WORDS}


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


class LLMQuestionWriter:
    name = "llm"

    def __init__(self, backend: Any, prompt: str = "question_v1", max_tokens: int = 40, seed: int = 0,
                 demonstrations: int = 0):
        from archehr.llm.prompts import load_prompt

        self.backend = backend
        self.template = load_prompt(prompt)
        self.max_tokens = max_tokens
        self.seed = seed
        self.k = int(demonstrations)
        if self.k > 0 and "$demonstrations" not in self.template.text:
            raise ConfigError(f"question prompt {self.template.name} has no $demonstrations slot "
                              "(question_v2 has one); set demonstrations: 0 or change the prompt")
        self.fallback = TemplateQuestionWriter()
        self._pool: list[Case] = []

    def prepare(self, train: Any) -> None:
        """Index a labelled split's narratives with their clinician questions (the demonstrations)."""
        # no key needed: the clinician question is in the cases file
        pool = list(train.cases) if train is not None and self.k > 0 else []
        self._pool = [c for c in pool if c.clinician_question and (c.patient_narrative or c.patient_question)]

    def prompt(self, case: Case) -> str:
        from archehr.relevance.llm import nearest_cases

        demos = [f"Example patient message: {c.patient_narrative or ''}\nExample patient's own question: "
                 f"{c.question_text}\nExample clinician question: {c.clinician_question}\n"
                 for c in (self._pool[i] for i in nearest_cases(case, self._pool, self.k))]
        return self.template.render(narrative=case.patient_narrative or "", question=case.question_text,
                                    demonstrations=("\nExamples:\n" + "\n".join(demos)) if demos else "")

    def write(self, case: Case) -> Question:
        from archehr.llm.base import BackendError, CutReply

        prompt = self.prompt(case)
        cut_note: tuple[str, ...] = ()
        try:
            reply = self.backend.complete(prompt, n=1, temperature=0.0, seed=self.seed, max_tokens=self.max_tokens)[0]
        except CutReply as e:
            # cut by the token limit: a question is its first line, cut to 15 words anyway; a reply cut within
            # that line is still that long question begun (the cut drops only words past the limit)
            reply, cut_note = e.text, (f"the reply was cut by the token limit ({e.reason})",)
        except BackendError as e:
            return Question(self.fallback.write(case).text, fallback=f"template: backend error: {e.reason}")
        line = reply_question(reply)
        n_words = len(line.split())
        if n_words < 3:
            return Question(self.fallback.write(case).text, fallback="template: reply too short or empty",
                            notes=cut_note)
        if n_words > QUESTION_WORDS:
            return Question(cut_words(line, QUESTION_WORDS),
                            notes=cut_note + (f"cut from {n_words} to {QUESTION_WORDS} words",))
        if cut_note and "\n" not in reply.strip():
            # the one line was cut short, under 15 words: not a question the model finished
            return Question(self.fallback.write(case).text, fallback="template: " + cut_note[0])
        return Question(line, notes=cut_note)

    def describe(self) -> dict[str, Any]:
        return {"method": self.name, "prompt": self.template.name, "prompt_sha256": self.template.sha256,
                "demonstrations": self.k, "demonstration_pool": len(self._pool), "backend": self.backend.describe()}


# The st1 writers (config `question: {kind: ...}`); a writer that takes `backend` gets the system's.
QUESTION_WRITERS: Registry[Any] = Registry("question writer")
QUESTION_WRITERS.add("template", TemplateQuestionWriter)
QUESTION_WRITERS.add("llm", LLMQuestionWriter)


def build_question_writer(kind: str = "template", **options: Any) -> Any:
    return QUESTION_WRITERS.build(kind, **options)
