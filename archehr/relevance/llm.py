"""`llm`: ask an LLM backend to label the note sentences; self-consistency vote over n samples.

Written against the backend contract of `archehr.llm.registry`:
`backend.complete(prompt, *, n=1, temperature=0.0, seed=0, max_tokens=...) -> list[str]`.
P(essential) of a sentence = share of the parsed samples that called it essential (likewise
supplementary). When no sample can be parsed the case falls back to another classifier (lexical by
default) and is listed in `fallback_cases`, so a weak model never silently produces empty evidence.
"""

from __future__ import annotations

import re
from typing import Protocol

from archehr.data.model import Case
from archehr.relevance.base import RelevanceClassifier, SentenceScores
from archehr.relevance.lexical import LexicalClassifier, require_sentences
from archehr.relevance.text import sentence_texts


class CompletionBackend(Protocol):
    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256) -> list[str]: ...


PROMPT = """You help answer a patient's question using their clinical note.
Patient question: {patient}
Clinician's reading of the question: {clinician}

Note sentences:
{sentences}

Which note sentences are needed to answer the question?
Reply with exactly two lines:
ESSENTIAL: <comma-separated sentence numbers that must be cited>
SUPPLEMENTARY: <comma-separated sentence numbers that help but are not required, or none>
"""

_LINE = re.compile(r"^\s*\**\s*(essential|supplementary)\s*\**\s*[:=-]\s*(.*)$", re.IGNORECASE | re.MULTILINE)
_NUM = re.compile(r"\d+")


def build_prompt(case: Case) -> str:
    lines = [f"{s.id}. {t}" for s, t in zip(case.sentences, sentence_texts(case.sentences), strict=True)]
    return PROMPT.format(patient=case.question_text.strip() or "(none)",
                         clinician=(case.clinician_question or "(none)").strip(), sentences="\n".join(lines))


def parse_reply(reply: str, valid_ids: set[str]) -> tuple[set[str], set[str]] | None:
    """(essential ids, supplementary ids) from one reply, or None when it has no ESSENTIAL line."""
    found: dict[str, set[str]] = {}
    for m in _LINE.finditer(reply):
        kind = m.group(1).lower()
        found.setdefault(kind, set()).update(i for i in _NUM.findall(m.group(2)) if i in valid_ids)
    if "essential" not in found:
        return None
    ess = found["essential"]
    return ess, found.get("supplementary", set()) - ess


class LLMClassifier(RelevanceClassifier):
    name = "llm"

    def __init__(self, backend: CompletionBackend, n: int = 5, temperature: float = 0.7, seed: int = 0,
                 max_tokens: int = 128, fallback: RelevanceClassifier | None = None):
        self.backend = backend
        self.n = n
        self.temperature = temperature if n > 1 else 0.0
        self.seed = seed
        self.max_tokens = max_tokens
        self.fallback = fallback if fallback is not None else LexicalClassifier()
        self.fallback_cases: list[str] = []
        self.unparsed_replies = 0

    def score(self, case: Case) -> SentenceScores:
        require_sentences(case)
        replies = self.backend.complete(build_prompt(case), n=self.n, temperature=self.temperature,
                                        seed=self.seed, max_tokens=self.max_tokens)
        ids = case.sentence_ids
        valid = set(ids)
        votes = []
        for r in replies:
            parsed = parse_reply(r, valid)
            if parsed is None:
                self.unparsed_replies += 1
            else:
                votes.append(parsed)
        if not votes:
            self.fallback_cases.append(case.case_id)
            return self.fallback.score(case)
        ess = tuple(sum(i in e for e, _ in votes) / len(votes) for i in ids)
        sup = tuple(sum(i in s for _, s in votes) / len(votes) for i in ids)
        return SentenceScores(case.case_id, ids, ess, sup)
