"""Subtask 1: the patient's narrative -> a clinician-style question of at most 15 words.

`template` (offline): the patient's own question phrase, stripped of filler ("My question is
if ..."), put in the third person, closed with "?" and kept to 15 words at a clause boundary.
`llm`: the prompt `configs/prompts/question_v1.txt`; an empty or unusable reply falls back to the
template, and the reason is recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from archehr.data.model import Case
from archehr.errors import ConfigError

MAX_WORDS = 15
_QWORDS = ("why", "what", "how", "is", "was", "are", "were", "will", "would", "could", "can", "should", "did",
           "does", "do", "when", "which", "who", "where", "has", "have", "had")
_FILLERS = [
    r"^(?:so|and|but|also|ok|okay|well|please|hi|hello)[,\s]+",
    r"^my (?:main |only |first |second |other )?questions? (?:is|are|was)?\s*(?:if|whether|that|,|:)?\s*",
    r"^i (?:want|would like|wanted|need) to know (?:if|whether|why|what|how)?\s*",
    r"^i (?:wonder|am wondering|was wondering) (?:if|whether)?\s*",
    r"^(?:can|could) (?:you|someone) (?:please )?(?:tell|explain to) me (?:if|whether)?\s*",
    r"^(?:i realize|i know|i understand) [^,]*,\s*(?:but\s*)?",
    r"^do you think\s*",
]
_PRONOUNS = [
    (r"\bmy (?:dad|father|husband|son|brother|grandfather|grandpa|uncle|boyfriend)\b", "the patient"),
    (r"\bmy (?:mom|mother|wife|daughter|sister|grandmother|grandma|aunt|girlfriend)\b", "the patient"),
    (r"\bI am\b|\bI['’]m\b", "the patient is"),
    (r"\bI was\b", "the patient was"),
    (r"\bI have\b|\bI['’]ve\b", "the patient has"),
    (r"\bI had\b", "the patient had"),
    (r"\bI\b", "the patient"),
    (r"\bme\b", "the patient"),
    (r"\bmy\b", "the patient's"),
    (r"\bmyself\b", "the patient"),
]


@dataclass(frozen=True)
class Question:
    text: str
    fallback: str | None = None
    notes: tuple[str, ...] = ()


def cut_words(text: str, limit: int = MAX_WORDS) -> str:
    """At most `limit` words, preferring to end at a clause boundary; always ends with "?"."""
    words = text.split()
    if len(words) > limit:
        head = words[:limit]
        # back off to the last clause boundary in the second half of the window
        for k in range(limit - 1, limit // 2, -1):
            if head[k - 1].endswith((",", ";", ":")):
                head = head[:k]
                break
        words = head
    out = " ".join(words).rstrip(",;:.!? ")
    return out + "?" if out else ""


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.?!])\s+|\n+", text)
    return [p.strip() for p in parts if p.strip()]


def _is_question(s: str) -> bool:
    first = s.split()[0].lower().strip(",") if s.split() else ""
    return s.endswith("?") or first in _QWORDS


_GENERIC = re.compile(r"^\W*(?:any (?:ideas|thoughts|advice)|what do you think|what (?:should|can|do) (?:i|we) do|"
                      r"please help|thanks?(?: you)?|help)\W*$", re.IGNORECASE)


def _strip_fillers(text: str) -> str:
    for rx in _FILLERS:
        text = re.sub(rx, "", text, flags=re.IGNORECASE).strip()
    return text


def _third_person(text: str) -> str:
    for rx, repl in _PRONOUNS:
        # patients often write a lower-case "i": whole-word matching makes that safe to catch
        text = re.sub(rx, repl, text, flags=re.IGNORECASE)
    return text


def template_question(case: Case) -> str:
    source = case.question_text or case.patient_narrative or ""
    cands = _sentences(source)
    if not cands:
        return ""
    questions = [s for s in cands if _is_question(s) and not _GENERIC.match(s)]
    if not questions:
        # "Any ideas?" carries no content: ask about the statement just before it
        statements = [s for s in cands if not _GENERIC.match(s)]
        if statements:
            return cut_words("What explains that " + _third_person(_strip_fillers(statements[-1])).rstrip(".!?"))
        questions = cands
    # the longest question carries the most content; ties: the first
    best = max(questions, key=lambda s: (min(len(s.split()), 25), -cands.index(s)))
    text = _third_person(_strip_fillers(best)).strip(" ,")
    if not text:
        text = best
    text = text[0].upper() + text[1:]
    return cut_words(text)


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
        return Question(cut_words(line))

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
