"""`llm`: ask an LLM backend to label the note sentences; self-consistency vote over n samples.

Written against the backend contract of `archehr.llm.base.Backend`:
`backend.complete(prompt, *, n=1, temperature=0.0, seed=0, max_tokens=..., [response_format=...]) -> list[str]`.
The prompt is a versioned template (`configs/prompts/evidence_v1.txt`), optionally with `demonstrations`
retrieved from a labelled training split (`prepare(train)`: the training cases whose question is
closest by BM25, shown with their essential and supplementary ids). With `structured`, the backend is
asked for JSON (`{"essential": [...], "supplementary": [...]}`, sent as `response_format`); every reply
is read JSON first, then as text (`ESSENTIAL: 3, 4` lines, tolerant of bullets, bold and brackets).
P(essential) of a sentence = share of the parsed samples that called it essential (likewise
supplementary). When no sample can be parsed, or the backend fails, the case falls back to another
classifier (lexical by default) with the reason (`score_detailed`) and is listed in `fallback_cases`,
so a weak model or a dead server never silently produces empty evidence.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Protocol

from archehr.data.model import Case, KeyEntry, Split
from archehr.relevance.base import RelevanceClassifier, SentenceScores
from archehr.relevance.lexical import LexicalClassifier, bm25, require_sentences
from archehr.relevance.text import sentence_texts, tokens


class CompletionBackend(Protocol):
    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256) -> list[str]: ...


DEFAULT_PROMPT = "evidence_v1"  # the shipped openai-server config asks evidence_v2 (JSON in words)
SCHEMA = {"type": "object", "additionalProperties": False, "required": ["essential", "supplementary"],
          "properties": {"essential": {"type": "array", "items": {"type": "integer"}},
                         "supplementary": {"type": "array", "items": {"type": "integer"}}}}

# "ESSENTIAL: 3, 4", "- **Essential:** [3, 4]", "2. Supplementary sentences = none"
_LINE = re.compile(r"^[\s\-*•#>_]*(?:\d+[.)]\s*)?[*_]*\s*(essential|supplementary)\b[\w ]{0,20}?"
                   r"[*_\s]*[:=-][*_\s]*(.*)$", re.IGNORECASE | re.MULTILINE)
_NUM = re.compile(r"\d+")


def asks_json(template_text: str) -> bool:
    """Whether a prompt template asks for a JSON reply in words (evidence_v2, align_v2), so its
    demonstrations show JSON replies too; older templates ask for lines and show lines."""
    return "JSON" in template_text


def json_id(sentence_id: str) -> int | str:
    """A sentence id as a JSON demonstration shows it: a number when it is one."""
    return int(sentence_id) if sentence_id.isdigit() else sentence_id


def labelled_cases(train: Split | None) -> list[tuple[Case, KeyEntry]]:
    """(case, key entry) of every case of a labelled split that has note sentences: demonstration material."""
    if train is None or train.key is None:
        return []
    keyed = {k.case_id for k in train.key}
    return [(c, train.key_for(c.case_id)) for c in train.cases if c.case_id in keyed and c.sentences]


def nearest_cases(case: Case, pool: list[Case], k: int) -> list[int]:
    """Indexes of the k pool cases whose question is closest to the case's (BM25), never the case itself."""
    ok = [i for i, c in enumerate(pool) if c.case_id != case.case_id
          and (c.patient_narrative or "") != (case.patient_narrative or "")]
    if not ok or k <= 0:
        return []
    sims = bm25(tokens(case.question_text), [tokens(pool[i].question_text) for i in ok])
    return [ok[j] for j in sorted(range(len(ok)), key=lambda j: -float(sims[j]))[:k]]


def numbered_sentences(case: Case) -> str:
    """The note sentences as the LLM prompts show them: "3. text", cleaned of markup."""
    return "\n".join(f"{s.id}. {t}" for s, t in zip(case.sentences, sentence_texts(case.sentences), strict=True))


def build_prompt(case: Case, template: Any = None, demonstrations: str = "") -> str:
    from archehr.llm.prompts import load_prompt

    template = template or load_prompt(DEFAULT_PROMPT)
    return template.render(patient=case.question_text.strip() or "(none)",
                           clinician=(case.clinician_question or "(none)").strip(), sentences=numbered_sentences(case),
                           demonstrations=demonstrations)


def parse_reply(reply: str, valid_ids: set[str]) -> tuple[set[str], set[str]] | None:
    """(essential ids, supplementary ids) from one reply (JSON first, then text), or None when unreadable."""
    from archehr.llm.structured import extract_json, id_list, strip_thinking

    reply = strip_thinking(reply)
    data = extract_json(reply)
    if isinstance(data, dict):
        fields = {str(k).lower(): v for k, v in data.items()}
        if "essential" in fields:
            ess = {i for i in id_list(fields["essential"]) if i in valid_ids}
            sup = {i for i in id_list(fields.get("supplementary")) if i in valid_ids}
            return ess, sup - ess
    found: dict[str, set[str]] = {}
    for m in _LINE.finditer(reply):
        kind = m.group(1).lower()
        found.setdefault(kind, set()).update(i for i in _NUM.findall(m.group(2)) if i in valid_ids)
    if "essential" not in found:
        return None
    ess = found["essential"]
    return ess, found.get("supplementary", set()) - ess


@dataclass(frozen=True)
class LLMScores:
    """The scores of one case, and how they were obtained (for run.json)."""

    scores: SentenceScores
    fallback: str | None = None  # why the fallback classifier scored this case, if it did
    notes: tuple[str, ...] = ()


class LLMClassifier(RelevanceClassifier):
    name = "llm"

    def __init__(self, backend: CompletionBackend, n: int = 5, temperature: float = 0.7, seed: int = 0,
                 max_tokens: int = 256, fallback: RelevanceClassifier | None = None, prompt: str = DEFAULT_PROMPT,
                 demonstrations: int = 0, structured: bool = False):
        from archehr.llm.prompts import load_prompt
        from archehr.llm.structured import StructuredCaller, json_schema

        self.backend = backend
        self.n = n
        self.temperature = temperature if n > 1 else 0.0
        self.seed = seed
        self.max_tokens = max_tokens
        self.fallback = fallback if fallback is not None else LexicalClassifier()
        self.template = load_prompt(prompt)
        self.asks_json = asks_json(self.template.text)
        self.k = int(demonstrations)
        self.structured = bool(structured)
        self.caller = StructuredCaller(backend, json_schema("evidence", SCHEMA) if structured else None)
        self.fallback_cases: list[str] = []
        self.unparsed_replies = 0
        self._pool: list[tuple[Case, tuple[str, ...], tuple[str, ...]]] = []

    def prepare(self, train: Split | None) -> None:
        """Index a labelled split's cases as demonstrations (nothing when `demonstrations` is 0)."""
        self._pool = [(case, tuple(key.essential_ids), tuple(key.supplementary_ids))
                      for case, key in labelled_cases(train if self.k > 0 else None) if key.essential_ids]

    def demonstrations(self, case: Case) -> str:
        shown = []
        for i in nearest_cases(case, [c for c, _, _ in self._pool], self.k):
            c, ess, sup = self._pool[i]
            # a demonstration's reply is in the format the template asks for (evidence_v2: JSON, v1: lines)
            reply = (json.dumps({"essential": [json_id(x) for x in ess], "supplementary": [json_id(x) for x in sup]})
                     if self.asks_json else f"ESSENTIAL: {', '.join(ess)}\nSUPPLEMENTARY: {', '.join(sup) or 'none'}")
            shown.append(f"Example patient question: {c.question_text.strip()}\nExample note sentences:\n"
                         f"{numbered_sentences(c)}\n{reply}\n")
        return "\nExamples:\n" + "\n".join(shown)

    def prompt(self, case: Case) -> str:
        return build_prompt(case, self.template, self.demonstrations(case))

    def score_detailed(self, case: Case) -> LLMScores:
        from archehr.llm.base import BackendError, CutReply

        require_sentences(case)
        notes: list[str] = []
        try:
            replies, notes = self.caller.complete(self.prompt(case), n=self.n, temperature=self.temperature,
                                                  seed=self.seed, max_tokens=self.max_tokens)
        except CutReply as e:  # every sample still cut after a larger budget: none is read
            return self._fall_back(case, f"every evidence reply was cut: {e.reason}", notes)
        except BackendError as e:
            return self._fall_back(case, f"backend error: {e.reason}", notes)
        if len(replies) < self.n:  # the backend returns the samples that came back: the vote uses them
            notes.append(f"{self.n - len(replies)} of {self.n} evidence samples failed; voted on {len(replies)}")
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
            return self._fall_back(case, f"none of {len(replies)} evidence replies could be read", notes)
        if len(votes) < len(replies):
            notes.append(f"{len(replies) - len(votes)} of {len(replies)} evidence replies unreadable")
        ess = tuple(sum(i in e for e, _ in votes) / len(votes) for i in ids)
        sup = tuple(sum(i in s for _, s in votes) / len(votes) for i in ids)
        return LLMScores(SentenceScores(case.case_id, ids, ess, sup), None, tuple(notes))

    def _fall_back(self, case: Case, why: str, notes: list[str]) -> LLMScores:
        self.fallback_cases.append(case.case_id)
        name = getattr(self.fallback, "name", type(self.fallback).__name__)
        return LLMScores(self.fallback.score(case), f"{name} evidence: {why}", tuple(notes))

    def score(self, case: Case) -> SentenceScores:
        return self.score_detailed(case).scores

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "prompt": self.template.name, "prompt_sha256": self.template.sha256,
                "n": self.n, "temperature": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens,
                "demonstrations": self.k, "demonstration_pool": len(self._pool), "structured": self.structured}
