"""Subtask 1: the patient's narrative -> a clinician-style question of at most 15 words.

`template` (offline): the patient's own question sentence, stripped of filler ("My question is
if ..."), put in the third person, closed with "?" and kept to 15 words at a clause boundary; the
rules and their cross-validated switches are in `rules.py` and docs/question.md (the first
version is `rules.FIRST_CONFIG`, every switch off).
`llm`: the prompt `configs/prompts/question_v1.txt`; an empty or unusable reply falls back to the
template, and the reason is recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from archehr.data.model import Case
from archehr.errors import ConfigError
from archehr.question.rules import DEFAULT_CONFIG, MAX_WORDS, WriterConfig, shorten_question, write_question


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
        return {"method": self.name, "max_words": MAX_WORDS}


class LLMQuestionWriter:
    name = "llm"

    def __init__(self, backend: Any, prompt: str = "question_v1", max_tokens: int = 40, seed: int = 0):
        from archehr.llm.prompts import load_prompt

        self.backend = backend
        self.template = load_prompt(prompt)
        self.max_tokens = max_tokens
        self.seed = seed
        self.fallback = TemplateQuestionWriter()

    def write(self, case: Case) -> Question:
        from archehr.llm.base import BackendError

        prompt = self.template.render(narrative=case.patient_narrative or "", question=case.question_text)
        try:
            reply = self.backend.complete(prompt, n=1, temperature=0.0, seed=self.seed, max_tokens=self.max_tokens)[0]
        except BackendError as e:
            return Question(self.fallback.write(case).text, fallback=f"template: backend error: {e.reason}")
        line = next((x.strip().strip('"') for x in reply.splitlines() if x.strip()), "")
        line = re.sub(r"^(clinician question|question)\s*:\s*", "", line, flags=re.IGNORECASE)
        if len(line.split()) < 3:
            return Question(self.fallback.write(case).text, fallback="template: reply too short or empty")
        return Question(shorten_question(line))

    def describe(self) -> dict[str, Any]:
        return {"method": self.name, "prompt": self.template.name, "prompt_sha256": self.template.sha256,
                "backend": self.backend.describe()}


def build_question_writer(method: str = "template", backend: Any = None, **params: Any) -> Any:
    if method == "template":
        return TemplateQuestionWriter(**params)
    if method == "llm":
        if backend is None:
            raise ConfigError("question method llm needs a backend section in the system config")
        return LLMQuestionWriter(backend, **params)
    raise ConfigError(f"question method must be template or llm, not {method!r}")
