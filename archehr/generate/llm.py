"""`llm`: a two-stage answer: the selector picks evidence, an LLM writes a short cited answer.

Prompt = the question, numbered note sentences (the whole note with the selector's choices marked, or with
`context: N` only the chosen sentences and N neighbours each: a tiny model reads a short prompt better and
far faster) and k demonstrations (the most similar training cases, never the case itself). The reply is
verified and repaired: citations parsed (`|1,2|` or `[1,2]`), ids not in the note dropped; uncited text
split into sentences, questions and repeats dropped, and each sentence attached to the note sentence that
supports it best (the selector's choices first, then the whole note) when that support reaches
`min_support`, else dropped as unsupported (`uncited: keep` keeps them as written instead, unless no line
is cited); a line stating a number that neither its cited sentences nor the question contain is re-written
from its citations (`verify_numbers`, on by default: similarity compares meaning, not facts, and invented
doses and ages pass it); selected evidence the model left out is cited by the closest line; the 75-word
budget is kept by dropping whole trailing lines. A reply with no surviving line is retried (another seed,
some temperature); after the retries, or when the backend fails, the answer falls back to `extractive`.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import re
from typing import Any

from archehr.data.model import Case, KeyEntry
from archehr.errors import ConfigError
from archehr.generate.answer import WORD_BUDGET, Answer, AnswerLine
from archehr.generate.base import Generator
from archehr.generate.clean import clean_sentence, is_header
from archehr.generate.extractive import ExtractiveGenerator, ensure_selection
from archehr.generate.facts import recite_unsupported
from archehr.generate.similarity import Similarity
from archehr.llm.base import REPLY_START, Backend
from archehr.llm.component import LLMComponent, Unusable, whole_lines
from archehr.llm.prompts import load_prompt
from archehr.llm.structured import id_list, pick, reply_parts
from archehr.relevance.base import Selection, SentenceScores
from archehr_scoring.answer_format import line_words, safe_text

_PIPES = re.compile(r"\|\s*([\d\s,]*?)\s*\|\s*[.!?]?\s*$")
_BRACKETS = re.compile(r"\[\s*([\d\s,]*?)\s*\]\s*[.!?]?\s*$")
_INLINE = re.compile(r"\s*(?:\|\s*([\d\s,]+)\s*\||\[\s*([\d\s,]+)\s*\])")  # a citation inside a line
# a citation in front ("|4| text", the cite-first format) or a copied note label ("4: text")
_LEADING = re.compile(r"^\s*(?:\|\s*([\d\s,]+?)\s*\||(\d+):)\s*")
# chat boilerplate around an answer ("Sure! Here is ...:", "I hope this helps."): never content, never cited
_CHAT = re.compile(r"^(?:(?:sure|certainly|of course|okay|ok|absolutely)\b[!,.]?|here(?: is|'s| are)\b|i hope\b|"
                   r"let me know\b|feel free\b|based on the (?:note|information)[^.]*:|.*:$)", re.IGNORECASE)
# a reply saying the note does not answer the question (the patient prompt allows it: NOT IN THE NOTE)
_NOT_IN_NOTE = re.compile(r"^\W*(?:not in (?:the )?note|the note does not (?:say|answer|tell)[^.]*|"
                          r"(?:this|that) is not in the note)\W*$", re.IGNORECASE)
PATIENT_PROMPT = "answer_patient_v1"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")

# Minimum support of an uncited line by a note sentence (Similarity.support), per similarity kind. From `python
# benchmarks/repair_threshold.py [--similarity embedding]` on the demo dev split (65 clinician answer sentences): the
# value rejecting ~97% of answer sentences matched against another patient's note. It keeps 71% (embedding, 0.50) and
# 59% (lexical, 0.25) of the clinician sentences matched against what they cite: those are paraphrases; a model
# copying the note scores higher.
MIN_SUPPORT = {"embedding": 0.50, "lexical": 0.25}


def _from_json(data: Any) -> list[tuple[str, list[str]]] | None:
    """[{"text": ..., "citations": [3, 4]}] or {"answer": [...]} (a model answering JSON unasked)."""
    data = next((v for v in data.values() if isinstance(v, list)), None) if isinstance(data, dict) else data
    items = [x for x in data if isinstance(x, dict)] if isinstance(data, list) else []
    out = [(safe_text(pick(x, ("text", "sentence", "answer"), str) or "").strip(),
            id_list(pick(x, ("citations", "evidence", "ids", "sources")))) for x in items]
    return [(line, ids) for line, ids in out if line] or None


def says_not_in_note(reply: str) -> bool:
    """Whether a reply is the patient prompt's abstention ("NOT IN THE NOTE", "The note does not say."),
    alone or as its first line, with no citation anywhere."""
    lines = reply_parts(reply or "")[1]
    return bool(lines) and not re.search(r"\|\s*\d|\[\s*\d", reply) and bool(_NOT_IN_NOTE.match(lines[0]))


def parse_reply(text: str) -> list[tuple[str, list[str]]]:
    """(sentence, cited ids) per non-empty line of a model reply; tolerant of common formats
    (JSON, pipes or brackets at the end or in front, bullets, numbered lists, bold)."""
    data, lines = reply_parts(text)
    out = _from_json(data)
    if out is not None:
        return out
    out = []
    for line in lines:
        if line.lower().startswith(("answer:", "note sentences", "patient question")):
            continue
        ids: list[str] = []
        lead = _LEADING.match(line)
        if lead:
            ids, line = id_list(lead.group(1) or lead.group(2)), line[lead.end():]
        m = _PIPES.search(line) or _BRACKETS.search(line)
        if m:
            ids, line = id_list(m.group(1)), line[:m.start()]
        ids += [i for inline in _INLINE.findall(line) for i in id_list(inline[0] or inline[1])]
        line = safe_text(_INLINE.sub("", line)).strip()
        if line and (ids or not _CHAT.match(line)):
            out.append((line, ids))
    return out


class LLMGenerator(LLMComponent, Generator):
    name = "llm"
    what = "answer"
    reads_cut = True  # a cut reply's complete lines are read
    numbered_attempts = True
    number_repair = "recite"  # a line with an invented number: "recite" (facts.recite_unsupported) or "drop"

    def __init__(self, backend: Backend | None = None, prompt: str = "answer_v1", demonstrations: int = 2,
                 retries: int = 2, max_tokens: int = 160, temperature: float = 0.0, retry_temperature: float = 0.7,
                 seed: int = 0, similarity: str = "auto", keep_selected: bool = True, budget: int = WORD_BUDGET,
                 context: int | None = None, min_support: float | None = None, max_evidence: int = 12,
                 cite_first: bool = False, verify_cited: bool = False, verify_numbers: bool = True,
                 uncited: str = "attach"):
        self.setup(backend, prompt, demonstrations, temperature=temperature, seed=seed, max_tokens=max_tokens,
                   retries=retries, retry_temperature=retry_temperature)
        if uncited not in ("attach", "keep"):
            raise ConfigError(f"uncited must be attach or keep, not {uncited!r}")
        self.similarity = Similarity(similarity)
        self.budget, self.max_evidence = int(budget), int(max_evidence)
        self.context = None if context is None else int(context)
        # cite_first: "|4| text" lines, the reply begun with the top chosen id (a tiny model then only continues a
        # sentence about a cited fact). verify_cited: check cited lines too (a tiny model copies its demonstration;
        # a capable model's paraphrase can score under min_support). uncited: "attach" (a small model's uncited
        # lines are mostly noise) or "keep" (a capable model's is a framing line, as clinicians leave uncited).
        self.keep_selected, self.cite_first = bool(keep_selected), bool(cite_first)
        self.verify_cited, self.verify_numbers, self.uncited = bool(verify_cited), bool(verify_numbers), uncited
        self.min_support = float(min_support) if min_support is not None else MIN_SUPPORT[self.similarity.kind]
        self.fallback = ExtractiveGenerator(budget=budget)
        self.may_abstain = False
        self.examples = "\nExamples:\n" if self.context is None else "\n"

    def for_patient(self) -> LLMGenerator:
        """A copy asking the patient prompt, which may answer "NOT IN THE NOTE" (read as an abstention);
        `archehr answer` uses it, `predict` never does (the official tasks have no abstention)."""
        other = copy.copy(self)
        other.template = load_prompt(PATIENT_PROMPT)
        other.may_abstain = True
        other.number_repair = "drop"  # a patient never reads a line whose number its citations do not hold
        return other

    def demonstration(self, case: Case, key: KeyEntry | None) -> str | None:
        """A training case with its reference answer (else its extractive answer), laid out as the prompt lays
        out the case (with `context`, only the note sentences the answer cites)."""
        lines = (key.clinician_answer_sentences or ())[:3] if key else ()  # short: a demonstration shows the format
        ess = (key.essential_ids or key.supplementary_ids) if key else ()
        if not lines and not ess:
            return None
        cites = [(safe_text(s.text), ",".join(s.citations)) for s in lines]
        ans = "\n".join(f"|{c}| {t}" if self.cite_first else f"{t} |{c}|" for t, c in cites) if lines else \
            self.fallback.generate(case, Selection(case.case_id, ess, 1.0)).render()
        cited = {c for s in lines for c in s.citations} if lines else set(ess)
        if self.context is None:
            note = "\n".join(f" {s.id}: {clean_sentence(s.text)}" for s in case.sentences[:30])
            return f"Example question: {case.question_text}\nExample note sentences:\n{note}\nExample answer:\n{ans}\n"
        note = "\n".join(f"{i}: {clean_sentence(case.sentence(i).text)}" for i in case.sentence_ids if i in cited)
        return f"Question: {case.question_text}\nNote sentences:\n{note}\nAnswer:\n{ans}\n"

    def _steps(self) -> list[tuple[int, int]]:
        """Less context, step by step, for a prompt over the model's window: (context, max_evidence)."""
        steps = [(c, self.max_evidence) for c in range(2 if self.context is None else self.context - 1, -1, -1)]
        return steps + [(0, max(1, self.max_evidence // 2))]

    def levels(self) -> list[str]:
        return [f"the note cut to the {m} first chosen sentences" + (f" and {c} neighbours each" if c else "")
                for c, m in self._steps()]

    def fields(self, case: Case, selection: Selection, level: int = 0) -> dict[str, str]:
        """The question and the note sentences shown at the `level`-th of `levels` (0: the configured context):
        all (context None: the selector's choices starred) or the chosen ones with `context` neighbours each."""
        context, most = self._steps()[level - 1] if level else (self.context, self.max_evidence)
        ids = list(case.sentence_ids)
        if context is not None:
            chosen = [k for k, i in enumerate(ids) if i in set(selection.cited)][:most]
            keep = {j for k in chosen for j in range(k - context, k + context + 1) if 0 <= j < len(ids)}
            ids = [ids[j] for j in sorted(keep) if not is_header(case.sentences[j].text)]
        star = (lambda i: "*" if i in set(selection.cited) else " ") if self.context is None else (lambda i: "")
        return {"question": case.question_text,
                "sentences": "\n".join(f"{star(i)}{i}: {clean_sentence(case.sentence(i).text)}" for i in ids)}

    def prompt(self, case: Case, selection: Selection, shown: int | None = None, level: int = 0) -> str:
        """The base's prompt; with `cite_first`, the reply begun with the top chosen id."""
        text = super().prompt(case, selection, shown=shown, level=level)
        top = [i for i in case.sentence_ids if i in set(selection.cited) and not is_header(case.sentence(i).text)]
        return text + f"|{top[0]}|" if self.cite_first and REPLY_START in text and top else text

    # -- verify and repair: each step notes what it changed and raises Unusable when nothing is left ----------
    def repair(self, case: Case, selection: Selection, reply: str, cut: bool, notes: list[str]) -> Answer:
        """The answer a reply holds, verified and repaired; `cut`: the backend says the reply was cut by the token
        limit (its last line is dropped whatever it looks like)."""
        known = set(case.sentence_ids)
        parsed = parse_reply(reply)
        if not parsed:
            raise Unusable("empty reply")
        notes += [f"dropped ids not in the note: {', '.join(b)}" for _, ids in parsed
                  if (b := [i for i in ids if i not in known])]
        lines = [(text, list(dict.fromkeys(i for i in ids if i in known))) for text, ids in parsed]
        lines = self._split_uncited(case, whole_lines(lines, lines[-1][0], reply, cut, notes), notes)
        if self.verify_cited:
            lines = self._verify_cited(case, lines, notes)
        uncited = [k for k, (_, ids) in enumerate(lines) if not ids]
        if uncited and self.uncited == "keep" and len(uncited) < len(lines):  # (all uncited: attach, as below)
            notes.append(f"kept {len(uncited)} uncited line(s) as written")
        elif uncited:
            lines = self._attach(case, selection, lines, uncited, notes)
        if self.verify_numbers:  # predict re-writes a line from its citations (keeps them); answer drops it
            lines, more = recite_unsupported(lines, {s.id: s.text for s in case.sentences}, case.question_text,
                                             drop=self.number_repair == "drop")
            notes += more
            if not lines:
                raise Unusable("every line states numbers that its cited sentences do not contain")
        if self.keep_selected:  # selected evidence the model left out is cited by the closest line
            missing = [i for i in case.sentence_ids if i in set(selection.cited) and all(i not in x for _, x in lines)]
            sims = self.similarity.matrix([clean_sentence(case.sentence(i).text) for i in missing],
                                          [t for t, _ in lines]) if missing else []
            for row, i in enumerate(missing):
                lines[int(sims[row].argmax())][1].append(i)
        if not any(ids for _, ids in lines):
            # what is left cites nothing (e.g. `uncited: keep` kept a framing line and the number check dropped
            # every cited one): the official scorer aborts on an answer without a single citation (an assert)
            raise Unusable("no line of the reply cites the note")
        return self._fit(case, lines, notes)

    def _fit(self, case: Case, lines: list[tuple[str, list[str]]], notes: list[str]) -> Answer:
        """The word budget: whole trailing lines dropped (kept as `overflow`), their citations moved onto the
        last kept line."""
        total = list(itertools.accumulate(line_words(text) for text, _ in lines))
        n = next((k for k, words in enumerate(total) if words > self.budget), len(lines))
        if n == 0:
            raise Unusable(f"first sentence alone is {total[0]} words (over {self.budget})")
        kept, over = lines[:n], lines[n:]
        kept[-1][1].extend(i for _, ids in over for i in ids)
        notes += [f"dropped {len(over)} trailing line(s) over the word budget; their citations kept"] if over else []
        pos = {s: i for i, s in enumerate(case.sentence_ids)}
        return Answer(tuple(AnswerLine(t, tuple(sorted(dict.fromkeys(ids), key=pos.__getitem__))) for t, ids in kept),
                      self.name, overflow=tuple(AnswerLine(t, ()) for t, _ in over))

    @staticmethod
    def _split_uncited(case: Case, parsed: list[tuple[str, list[str]]], notes: list[str]
                       ) -> list[tuple[str, list[str]]]:
        """Uncited paragraphs -> sentences; questions, echoes of the question and repeats dropped."""
        out: list[tuple[str, list[str]]] = []
        seen: dict[str, int] = {}
        q_words = set(re.findall(r"[a-z0-9]+", case.question_text.lower()))
        dropped_q = dropped_rep = 0
        for text, ids in parsed:
            for piece in [text] if ids else [p.strip() for p in _SENTENCE_END.split(text) if p.strip()]:
                key = " ".join(words := re.findall(r"[a-z0-9]+", piece.lower()))
                if not words:
                    continue
                if not ids and (piece.rstrip().endswith("?") or sum(w in q_words for w in words) >= 0.8 * len(words)):
                    dropped_q += 1  # a question (often the patient's own, copied) answers nothing
                elif key in seen:  # a repeat adds nothing but its citations
                    dropped_rep += 1
                    out[seen[key]][1].extend(i for i in ids if i not in out[seen[key]][1])
                else:
                    seen[key] = len(out)
                    out.append((piece, list(ids)))
        notes += [f"dropped {dropped_q} line(s) that ask or repeat the question"] if dropped_q else []
        notes += [f"dropped {dropped_rep} repeated line(s), keeping their citations"] if dropped_rep else []
        if not out:
            raise Unusable("no answer sentence in the reply (only questions or repeats)")
        return out

    def _support(self, case: Case, texts: list[str], ids: list[str]) -> Any:
        return self.similarity.support(texts, [clean_sentence(case.sentence(i).text) for i in ids])

    def _verify_cited(self, case: Case, lines: list[tuple[str, list[str]]], notes: list[str]
                      ) -> list[tuple[str, list[str]]]:
        """A cited line its citations do not support (text copied from the demonstration, invented
        facts) loses them and goes through re-attachment like an uncited line."""
        cited = [k for k, (_, ids) in enumerate(lines) if ids]
        pool = list(dict.fromkeys(i for k in cited for i in lines[k][1]))
        sims = self._support(case, [lines[k][0] for k in cited], pool) if cited else None
        col = {i: j for j, i in enumerate(pool)}
        weak = {k for row, k in enumerate(cited) if max(sims[row, col[i]] for i in lines[k][1]) < self.min_support}
        notes += [f"{len(weak)} cited line(s) not supported by their citations: citations removed"] if weak else []
        return [(t, [] if k in weak else list(ids)) for k, (t, ids) in enumerate(lines)]

    def _attach(self, case: Case, selection: Selection, lines: list[tuple[str, list[str]]], uncited: list[int],
                notes: list[str]) -> list[tuple[str, list[str]]]:
        """Cite each uncited line by its best-supported sentence (chosen ones first) or drop it."""
        chosen = [i for i in case.sentence_ids if i in set(selection.cited)]
        rest = [s.id for s in case.sentences if s.id not in set(chosen) and not is_header(s.text)]
        tiers = [(pool, self._support(case, [lines[k][0] for k in uncited], pool), what) for pool, what in (
            (chosen, "their best-supported selected sentence"), (rest, "a supporting sentence outside the selection"))
            if pool]
        best_all, attached, drop = 0.0, {what: 0 for _, _, what in tiers}, set()
        for row, k in enumerate(uncited):
            for pool, sims, what in tiers:
                j = int(sims[row].argmax())
                best_all = max(best_all, float(sims[row, j]))
                if sims[row, j] >= self.min_support:
                    lines[k][1].append(pool[j])
                    attached[what] += 1
                    break
            else:
                drop.add(k)
        notes += [f"attached {n} uncited line(s) to {what}" for what, n in attached.items() if n]
        notes += [f"dropped {len(drop)} unsupported line(s) (support < {self.min_support:.2f})"] if drop else []
        if len(drop) == len(lines):
            raise Unusable(f"no line of the reply is supported by the note (best support {best_all:.2f} < "
                           f"{self.min_support:.2f}, {self.similarity.kind})")
        return [ln for k, ln in enumerate(lines) if k not in drop]

    def generate(self, case: Case, selection: Selection, scores: SentenceScores | None = None) -> Answer:
        chosen, sel_notes = ensure_selection(case, selection, scores)
        selection = Selection(selection.case_id, tuple(chosen), selection.confidence, selection.flagged)

        def read(replies: list[str], cut: bool, notes: list[str]) -> Answer:
            if self.may_abstain and not cut and says_not_in_note(replies[0]):
                return Answer((), self.name, abstained=True)
            return self.repair(case, selection, replies[0], cut, notes)

        got = self.settle(case, read, lambda: self.fallback.generate(case, selection, scores), "extractive", selection)
        if got.fallback is not None:  # the extractive answer, with why
            return dataclasses.replace(got.value, generator=self.name, fallback=got.fallback)
        return dataclasses.replace(got.value, notes=tuple(sel_notes) + got.notes)

    def runtime(self) -> dict[str, Any]:
        return {"similarity": self.similarity.kind, "min_support": self.min_support}
