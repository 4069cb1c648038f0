"""`llm`: a two-stage answer: the selector picks evidence, an LLM writes a short cited answer.

Prompt = the question, the numbered note sentences with the selector's choices marked, and k
demonstrations (the most similar training cases by embedding, never the case itself). The reply is
verified and repaired: citations parsed (`|1,2|` or `[1,2]`), ids not in the note dropped, uncited
lines attached to their best-supported sentence, selected evidence the model left out attached to
the closest line, the 75-word budget enforced by dropping whole trailing lines. An invalid reply is
retried (different seed, some temperature); after the retries, or when the backend fails, the
answer falls back to `extractive` and the reason goes into run.json.
"""

from __future__ import annotations

import re
from typing import Any

from archehr.data.model import Case, Split
from archehr.errors import ConfigError
from archehr.generate.answer import WORD_BUDGET, Answer, AnswerLine, line_words, safe_text
from archehr.generate.base import Generator
from archehr.generate.clean import clean_sentence
from archehr.generate.extractive import ExtractiveGenerator, ensure_selection
from archehr.generate.similarity import Similarity
from archehr.llm.base import Backend, BackendError
from archehr.llm.prompts import load_prompt
from archehr.relevance.base import Selection, SentenceScores

_PIPES = re.compile(r"\|\s*([\d\s,]+?)\s*\|\s*[.!?]?\s*$")
_BRACKETS = re.compile(r"\[\s*([\d\s,]+?)\s*\]\s*[.!?]?\s*$")
_INLINE = re.compile(r"\s*(?:\|\s*[\d\s,]+\s*\||\[\s*[\d\s,]+\s*\])")
_LIST_MARK = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def parse_reply(text: str) -> list[tuple[str, list[str]]]:
    """(sentence, cited ids) per non-empty line of a model reply; tolerant of common formats."""
    out = []
    for raw in text.replace("\r", "").split("\n"):
        line = _LIST_MARK.sub("", raw.strip())
        if not line or line.lower().startswith(("answer:", "note sentences", "patient question")):
            continue
        ids: list[str] = []
        m = _PIPES.search(line) or _BRACKETS.search(line)
        if m:
            ids = [x.strip() for x in m.group(1).split(",") if x.strip()]
            line = line[:m.start()]
        for inline in re.findall(r"\|\s*([\d\s,]+)\s*\||\[\s*([\d\s,]+)\s*\]", line):
            ids += [x.strip() for x in (inline[0] or inline[1]).split(",") if x.strip()]
        line = safe_text(_INLINE.sub("", line)).strip()
        if line:
            out.append((line, ids))
    return out


class LLMGenerator(Generator):
    name = "llm"

    def __init__(self, backend: Backend | None = None, prompt: str = "answer_v1", demonstrations: int = 2,
                 retries: int = 2, max_tokens: int = 160, temperature: float = 0.0, retry_temperature: float = 0.7,
                 seed: int = 0, similarity: str = "auto", keep_selected: bool = True, budget: int = WORD_BUDGET):
        self.backend = backend
        self.template = load_prompt(prompt)
        self.k = int(demonstrations)
        self.retries = int(retries)
        self.max_tokens = int(max_tokens)
        self.temperature = float(temperature)
        self.retry_temperature = float(retry_temperature)
        self.seed = int(seed)
        self.similarity = Similarity(similarity)
        self.keep_selected = bool(keep_selected)
        self.budget = int(budget)
        self.fallback = ExtractiveGenerator(budget=budget)
        self._train: list[tuple[Case, str]] = []

    # -- demonstrations --------------------------------------------------------------------------
    def prepare(self, train: Split | None) -> None:
        """Index the training split's cases with a reference answer (the demonstrations)."""
        self._train = []
        if train is None or train.key is None or self.k <= 0:
            return
        for case in train.cases:
            key = train.key_for(case.case_id) if case.case_id in {k.case_id for k in train.key} else None
            if key is None or not case.sentences:
                continue
            if key.clinician_answer_sentences:
                ans = "\n".join(f"{safe_text(s.text)} |{','.join(s.citations)}|"
                                 for s in key.clinician_answer_sentences)
            else:
                ess = key.essential_ids or key.supplementary_ids
                if not ess:
                    continue
                ans = self.fallback.generate(case, Selection(case.case_id, ess, 1.0)).render()
            self._train.append((case, ans))

    def demonstrations(self, case: Case) -> list[tuple[Case, str]]:
        pool = [(c, a) for c, a in self._train if c.case_id != case.case_id
                and (c.patient_narrative or "") != (case.patient_narrative or "")]
        if not pool or self.k <= 0:
            return []
        sims = self.similarity.matrix([case.question_text], [c.question_text for c, _ in pool])[0]
        order = sorted(range(len(pool)), key=lambda i: -sims[i])[: self.k]
        return [pool[i] for i in order]

    # -- prompt ----------------------------------------------------------------------------------
    def prompt(self, case: Case, selection: Selection) -> str:
        chosen = set(selection.cited)
        sentences = "\n".join(f"{'*' if s.id in chosen else ' '}{s.id}: {clean_sentence(s.text)}"
                              for s in case.sentences)
        demos = []
        for c, ans in self.demonstrations(case):
            note = "\n".join(f" {s.id}: {clean_sentence(s.text)}" for s in c.sentences[:30])
            demos.append(f"Example question: {c.question_text}\nExample note sentences:\n{note}\n"
                         f"Example answer:\n{ans}\n")
        demo_text = ("\nExamples:\n" + "\n".join(demos)) if demos else ""
        return self.template.render(question=case.question_text, sentences=sentences, demonstrations=demo_text)

    # -- verify and repair -----------------------------------------------------------------------
    def repair(self, case: Case, selection: Selection, reply: str) -> tuple[list[AnswerLine] | None, list[str], str]:
        """(lines or None when invalid, repairs made, why invalid)."""
        notes: list[str] = []
        note_ids = case.sentence_ids
        known = set(note_ids)
        parsed = parse_reply(reply)
        if not parsed:
            return None, notes, "empty reply"
        lines: list[tuple[str, list[str]]] = []
        for text, ids in parsed:
            bad = [i for i in ids if i not in known]
            if bad:
                notes.append(f"dropped ids not in the note: {', '.join(bad)}")
            lines.append((text, list(dict.fromkeys(i for i in ids if i in known))))
        if not any(ids for _, ids in lines):
            return None, notes, "no valid citation in the reply"
        pool = [i for i in note_ids if i in set(selection.cited)] or list(note_ids)
        pool_text = [clean_sentence(case.sentence(i).text) for i in pool]
        uncited = [k for k, (_, ids) in enumerate(lines) if not ids]
        if uncited:
            sims = self.similarity.matrix([lines[k][0] for k in uncited], pool_text)
            for row, k in enumerate(uncited):
                best = pool[int(sims[row].argmax())]
                lines[k][1].append(best)
            notes.append(f"attached {len(uncited)} uncited line(s) to their most similar sentence")
        if self.keep_selected:
            cited = {i for _, ids in lines for i in ids}
            missing = [i for i in note_ids if i in set(selection.cited) and i not in cited]
            if missing:
                sims = self.similarity.matrix([clean_sentence(case.sentence(i).text) for i in missing],
                                              [t for t, _ in lines])
                for row, i in enumerate(missing):
                    lines[int(sims[row].argmax())][1].append(i)
        # the budget: drop whole trailing lines, moving their citations onto the last kept line
        total = 0
        kept: list[tuple[str, list[str]]] = []
        for text, ids in lines:
            n = line_words(text)
            if total + n > self.budget:
                if not kept:
                    return None, notes, f"first sentence alone is {n} words (over {self.budget})"
                kept[-1][1].extend(ids)
                notes.append("dropped trailing line(s) over the word budget; their citations kept")
                continue
            kept.append((text, ids))
            total += n
        pos = {s: i for i, s in enumerate(note_ids)}
        return [AnswerLine(t, tuple(sorted(dict.fromkeys(ids), key=pos.__getitem__))) for t, ids in kept], notes, ""

    def generate(self, case: Case, selection: Selection, scores: SentenceScores | None = None) -> Answer:
        if self.backend is None:
            raise ConfigError("the llm generator needs a backend (system config: backend:)")
        chosen, sel_notes = ensure_selection(case, selection, scores)
        selection = Selection(selection.case_id, tuple(chosen), selection.confidence, selection.flagged)
        prompt = self.prompt(case, selection)
        why: list[str] = []
        for attempt in range(self.retries + 1):
            temperature = self.temperature if attempt == 0 else max(self.temperature, self.retry_temperature)
            try:
                reply = self.backend.complete(prompt, n=1, temperature=temperature, seed=self.seed + attempt,
                                              max_tokens=self.max_tokens)[0]
            except BackendError as e:
                why.append(f"attempt {attempt + 1}: backend error: {e.reason}")
                continue
            lines, notes, invalid = self.repair(case, selection, reply)
            if lines:
                return Answer(tuple(lines), self.name, notes=tuple(sel_notes + notes + why))
            why.append(f"attempt {attempt + 1}: {invalid}")
        fb = self.fallback.generate(case, selection, scores)
        return Answer(fb.lines, self.name, fallback="extractive: " + "; ".join(why), notes=fb.notes)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "prompt": self.template.name, "prompt_sha256": self.template.sha256,
                "demonstrations": self.k, "demonstration_pool": len(self._train), "retries": self.retries,
                "max_tokens": self.max_tokens, "temperature": self.temperature,
                "retry_temperature": self.retry_temperature, "seed": self.seed, "similarity": self.similarity.kind,
                "keep_selected": self.keep_selected, "budget": self.budget,
                "backend": self.backend.describe() if self.backend is not None else None}
