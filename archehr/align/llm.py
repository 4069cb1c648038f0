"""`llm` st4 aligner: the model links each clinician answer sentence to the note sentences supporting it.

The prompt (`configs/prompts/align_v1.txt`) shows the numbered note sentences, the whole clinician
answer and its numbered answer sentences, and asks for one line per answer sentence,
`<answer sentence number>: <note sentence numbers>`; with `structured` the backend is asked for JSON
(`{"alignments": [{"answer": 1, "evidence": [3, 4]}]}`, sent as `response_format`). Replies are read
JSON first, then as text (bullets, bold, brackets, "Sentence 1:" tolerated). Ids not in the note are
dropped; with n > 1 samples a link is kept when at least half of the readable samples give it
(archehr/llm/vote.py; a tie is kept). Every
answer sentence the reply skips (one it answers with "none" stays unlinked, as clinicians leave
framing sentences uncited), and the whole case when the reply is unreadable or the
backend fails, is linked by the fallback aligner (the learned one by default), and that is recorded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from archehr.align.base import AlignStep, Links
from archehr.data.model import Case, ClinicianAnswerSentence, KeyEntry
from archehr.llm.component import LLMComponent, Unusable, json_id, numbered_sentences
from archehr.llm.vote import elected
from archehr.relevance.base import Selection, SentenceScores

DEFAULT_PROMPT = "align_v1"
SCHEMA = {"type": "object", "additionalProperties": False, "required": ["alignments"],
          "properties": {"alignments": {"type": "array", "items": {
              "type": "object", "additionalProperties": False, "required": ["answer", "evidence"],
              "properties": {"answer": {"type": "integer"},
                             "evidence": {"type": "array", "items": {"type": "integer"}}}}}}}

# "1: 3, 4", "- **Sentence 1**: [3, 4]", "Answer sentence 2 -> 5", "3) 7,8"
_LINE = re.compile(r"^[\s\-*•>#]*(?:answer\s+)?(?:sentence\s+)?#?(\d+)\s*(?:[.:=)\]]|->|–|—|-(?=\s))\s*(.*)$",
                   re.IGNORECASE)
_NUM = re.compile(r"\d+")
_ANSWER_KEYS = ("answer", "answer_id", "answer_sentence", "sentence", "id")
_EVIDENCE_KEYS = ("evidence", "evidence_id", "evidence_ids", "note_sentences", "citations", "links")


def _from_json(data: Any) -> dict[str, list[str]] | None:
    from archehr.llm.structured import id_list, pick

    if isinstance(data, dict):
        items = pick(data, ("alignments", "alignment", "links"))
        if items is None:  # {"1": [3, 4], "2": [5]}
            return {str(k).strip(): id_list(v) for k, v in data.items() if str(k).strip().isdigit()} or None
        data = items
    out: dict[str, list[str]] = {}
    for item in data if isinstance(data, list) else []:
        a = id_list(pick(item, _ANSWER_KEYS)) if isinstance(item, dict) else []
        if len(a) == 1:
            out.setdefault(a[0], []).extend(id_list(pick(item, _EVIDENCE_KEYS)))
    return out or None


def parse_reply(reply: str) -> dict[str, list[str]] | None:
    """Answer sentence id -> note sentence ids (as written; unfiltered), or None when unreadable."""
    from archehr.llm.structured import reply_parts

    data, lines = reply_parts(reply, list_marks=False)  # "1. 3, 4": the number is the answer sentence's
    got = _from_json(data) if data is not None else None
    out: dict[str, list[str]] = {}
    for m in filter(None, map(_LINE.match, [] if got else lines)):
        out.setdefault(m.group(1), []).extend(_NUM.findall(m.group(2)))
    return got or out or None


class LLMAligner(LLMComponent, AlignStep):
    what = "alignment"
    schema = ("alignment", SCHEMA)

    def __init__(self, backend: Any, fallback: AlignStep, prompt: str = DEFAULT_PROMPT, n: int = 1,
                 temperature: float = 0.0, seed: int = 0, max_tokens: int = 400, demonstrations: int = 0,
                 structured: bool = False):
        self.setup(backend, prompt, demonstrations, n=n, temperature=temperature, seed=seed, max_tokens=max_tokens,
                   structured=structured)
        self.fallback = fallback

    def fields(self, case: Case, answers: Sequence[ClinicianAnswerSentence] = (), level: int = 0) -> dict[str, str]:
        return {"question": case.question_text.strip() or "(none)", "sentences": numbered_sentences(case),
                "answer": " ".join(a.text.strip() for a in answers),
                "answer_sentences": "\n".join(f"{a.id}. {a.text.strip()}" for a in answers)}

    def demonstration(self, case: Case, key: KeyEntry | None) -> str | None:
        if key is None or not key.clinician_answer_sentences:
            return None
        ans = key.clinician_answer_sentences
        b = self.fields(case, ans)
        links = (json.dumps({"alignments": [{"answer": json_id(a.id), "evidence": [json_id(i) for i in a.citations]}
                                            for a in ans]})
                 if self.asks_json else "\n".join(f"{a.id}: {', '.join(a.citations)}" for a in ans))
        return (f"Example patient question: {b['question']}\nExample note sentences:\n{b['sentences']}\n"
                f"Example answer sentences:\n{b['answer_sentences']}\nExample reply:\n{links}\n")

    def align_detailed(self, case: Case, answers: Sequence[ClinicianAnswerSentence],
                       scores: SentenceScores | None = None, selection: Selection | None = None) -> Links:
        if not answers or not case.sentences:
            return Links([{"answer_id": a.id, "evidence_id": []} for a in answers])
        order = {s: k for k, s in enumerate(case.sentence_ids)}

        def read(replies: list[str], cut: bool, notes: list[str]) -> list[dict[str, Any]]:
            parsed = [p for p in map(parse_reply, replies) if p is not None]
            if not parsed:
                raise Unusable(f"none of {len(replies)} alignment replies could be read")
            for what, bad in (("dropped note ids not in the note", {i for p in parsed for v in p.values() for i in v
                                                                    if i not in order}),
                              ("ignored lines for answer sentences that do not exist",
                               {a for p in parsed for a in p} - {a.id for a in answers})):
                notes += [f"{what}: {', '.join(sorted(bad, key=int))}"] if bad else []
            kept = elected([{(a, i) for a, ids in p.items() for i in ids if i in order} for p in parsed])
            links = {a.id: sorted({i for x, i in kept if x == a.id}, key=order.__getitem__) for a in answers}
            # an answer sentence the model answered with no note sentence ("2: none", "evidence": []) stays
            # unlinked: clinicians leave framing sentences uncited; only one the model skipped is filled in
            missing = [a for a in answers if not any(a.id in p for p in parsed)]
            if missing:
                links.update((x["answer_id"], list(x["evidence_id"]))
                             for x in self.fallback.align(case, missing, scores, selection))
                notes.append(f"{len(missing)} answer sentence(s) the model did not link, linked by the "
                             f"{self.fallback.kind} aligner: {', '.join(a.id for a in missing)}")
            return [{"answer_id": a.id, "evidence_id": links[a.id]} for a in answers]

        got = self.settle(case, read, lambda: self.fallback.align(case, answers, scores, selection),
                          f"{self.fallback.kind} aligner", answers)
        return Links(got.value or [], got.fallback, got.notes)

    def align(self, case: Case, answers: Sequence[ClinicianAnswerSentence], scores: SentenceScores | None = None,
              selection: Selection | None = None) -> list[dict[str, Any]]:
        return self.align_detailed(case, answers, scores, selection).links
