"""`llm`: ask an LLM backend to label the note sentences; self-consistency vote over n samples.

The prompt is a versioned template (`configs/prompts/evidence_v1.txt`), optionally with `demonstrations`
(the labelled training cases closest to the case, shown with their essential and supplementary ids;
archehr/llm/component.py). With `structured`, the backend is asked for JSON (`{"essential": [...],
"supplementary": [...]}`, sent as `response_format`); every reply is read JSON first, then as text
(`ESSENTIAL: 3, 4` lines, tolerant of bullets, bold and brackets). P(essential) of a sentence = share
of the parsed samples that called it essential (likewise supplementary; archehr/llm/vote.py). When no
sample can be parsed, or the backend fails, the case falls back to another classifier (lexical by
default) with the reason (`score_detailed`) and is listed in `fallback_cases`, so a weak model or a
dead server never silently produces empty evidence.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from archehr.data.model import Case, KeyEntry
from archehr.llm.component import LLMComponent, Unusable, json_id, numbered_sentences
from archehr.llm.vote import shares
from archehr.relevance.base import RelevanceClassifier, SentenceScores
from archehr.relevance.lexical import LexicalClassifier, require_sentences

DEFAULT_PROMPT = "evidence_v1"  # the shipped openai-server config asks evidence_v2 (JSON in words)
SCHEMA = {"type": "object", "additionalProperties": False, "required": ["essential", "supplementary"],
          "properties": {"essential": {"type": "array", "items": {"type": "integer"}},
                         "supplementary": {"type": "array", "items": {"type": "integer"}}}}

# "ESSENTIAL: 3, 4", "- **Essential:** [3, 4]", "2. Supplementary sentences = none"
_LINE = re.compile(r"^[\s\-*•#>_]*(?:\d+[.)]\s*)?[*_]*\s*(essential|supplementary)\b[\w ]{0,20}?"
                   r"[*_\s]*[:=-][*_\s]*(.*)$", re.IGNORECASE | re.MULTILINE)
_NUM = re.compile(r"\d+")


def build_prompt(case: Case, template: Any = None, demonstrations: str = "") -> str:
    from archehr.llm.prompts import load_prompt

    return (template or load_prompt(DEFAULT_PROMPT)).render(demonstrations=demonstrations, **prompt_fields(case))


def prompt_fields(case: Case) -> dict[str, str]:
    return {"patient": case.question_text.strip() or "(none)", "sentences": numbered_sentences(case),
            "clinician": (case.clinician_question or "(none)").strip()}


def parse_reply(reply: str, valid_ids: set[str]) -> tuple[set[str], set[str]] | None:
    """(essential ids, supplementary ids) from one reply (JSON first, then text), or None when unreadable."""
    from archehr.llm.structured import id_list, reply_parts

    data, lines = reply_parts(reply, list_marks=False)
    fields = {str(k).lower(): v for k, v in data.items()} if isinstance(data, dict) else {}
    found = {k: set(id_list(fields.get(k))) for k in ("essential", "supplementary")} if "essential" in fields else {}
    for m in filter(None, map(_LINE.match, [] if found else lines)):
        found.setdefault(m.group(1).lower(), set()).update(_NUM.findall(m.group(2)))
    if "essential" not in found:
        return None
    ess = found["essential"] & valid_ids
    return ess, found.get("supplementary", set()) & valid_ids - ess


@dataclass(frozen=True)
class LLMScores:
    """The scores of one case, and how they were obtained (for run.json)."""

    scores: SentenceScores
    fallback: str | None = None  # why the fallback classifier scored this case, if it did
    notes: tuple[str, ...] = ()


class LLMClassifier(LLMComponent, RelevanceClassifier):
    name = "llm"
    what = "evidence"
    schema = ("evidence", SCHEMA)

    def __init__(self, backend: Any, n: int = 5, temperature: float = 0.7, seed: int = 0,
                 max_tokens: int = 256, fallback: RelevanceClassifier | None = None, prompt: str = DEFAULT_PROMPT,
                 demonstrations: int = 0, structured: bool = False):
        self.setup(backend, prompt, demonstrations, n=n, temperature=temperature, seed=seed, max_tokens=max_tokens,
                   structured=structured)
        self.fallback = fallback if fallback is not None else LexicalClassifier()
        self.fallback_cases: list[str] = []
        self.unparsed_replies = 0

    def demonstration(self, case: Case, key: KeyEntry | None) -> str | None:
        if key is None or not key.essential_ids:
            return None
        ess, sup = key.essential_ids, key.supplementary_ids
        # a demonstration's reply is in the format the template asks for (evidence_v2: JSON, v1: lines)
        reply = (json.dumps({"essential": [json_id(x) for x in ess], "supplementary": [json_id(x) for x in sup]})
                 if self.asks_json else f"ESSENTIAL: {', '.join(ess)}\nSUPPLEMENTARY: {', '.join(sup) or 'none'}")
        return (f"Example patient question: {case.question_text.strip()}\nExample note sentences:\n"
                f"{numbered_sentences(case)}\n{reply}\n")

    def fields(self, case: Case, *args: Any, level: int = 0) -> dict[str, str]:
        return prompt_fields(case)

    def score_detailed(self, case: Case) -> LLMScores:
        require_sentences(case)
        ids = case.sentence_ids

        def read(replies: list[str], cut: bool, notes: list[str]) -> SentenceScores:
            votes = [p for p in (parse_reply(r, set(ids)) for r in replies) if p is not None]
            self.unparsed_replies += len(replies) - len(votes)
            if not votes:
                raise Unusable(f"none of {len(replies)} evidence replies could be read")
            if len(votes) < len(replies):
                notes.append(f"{len(replies) - len(votes)} of {len(replies)} evidence replies unreadable")
            ess, sup = shares([e for e, _ in votes]), shares([s for _, s in votes])
            return SentenceScores(case.case_id, ids, tuple(ess.get(i, 0.0) for i in ids),
                                  tuple(sup.get(i, 0.0) for i in ids))

        got = self.settle(case, read, lambda: self.fallback.score(case), f"{self.fallback.name} evidence")
        self.fallback_cases += [case.case_id] if got.fallback else []
        return LLMScores(got.value, got.fallback, got.notes)

    def score(self, case: Case) -> SentenceScores:
        return self.score_detailed(case).scores
