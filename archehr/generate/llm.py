"""`llm`: a two-stage answer: the selector picks evidence, an LLM writes a short cited answer.

Prompt = the question, numbered note sentences (the whole note with the selector's choices marked,
or with `context: N` only the chosen sentences and N neighbours each: a tiny model reads a short
prompt better and far faster) and k demonstrations (the most similar training cases, never the case
itself). The reply is verified and repaired: citations parsed (`|1,2|` or `[1,2]`), ids not in the
note dropped; uncited text split into sentences, questions and repeats dropped, and each sentence
attached to the note sentence that supports it best (the selector's choices first, then the whole
note) when that support reaches `min_support`, else dropped as unsupported (`uncited: keep` keeps them
as written instead, unless no line is cited); a line stating a number
that neither its cited sentences nor the question contain is dropped (`verify_numbers`, on by
default: similarity compares meaning, not facts, and invented doses and ages pass it); selected evidence the
model left out is cited by the closest line; the 75-word budget is kept by dropping whole trailing
lines. A reply with no surviving line is retried (another seed, some temperature); after the
retries, or when the backend fails, the answer falls back to `extractive` with the reason recorded.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from archehr.data.model import Case, KeyEntry
from archehr.errors import ConfigError
from archehr.generate.answer import WORD_BUDGET, Answer, AnswerLine
from archehr.generate.base import Generator
from archehr.generate.clean import clean_sentence, is_header
from archehr.generate.extractive import ExtractiveGenerator, ensure_selection
from archehr.generate.facts import recite_unsupported, unsupported_numbers
from archehr.generate.similarity import Similarity
from archehr.llm.base import REPLY_START, Backend
from archehr.llm.component import LLMComponent, Unusable
from archehr.llm.prompts import load_prompt
from archehr.relevance.base import Selection, SentenceScores
from archehr_scoring.answer_format import line_words, safe_text

_PIPES = re.compile(r"\|\s*([\d\s,]*?)\s*\|\s*[.!?]?\s*$")
_BRACKETS = re.compile(r"\[\s*([\d\s,]*?)\s*\]\s*[.!?]?\s*$")
_INLINE = re.compile(r"\s*(?:\|\s*[\d\s,]+\s*\||\[\s*[\d\s,]+\s*\])")
_LIST_MARK = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
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

# Minimum support of an uncited line by a note sentence (Similarity.support), per similarity kind.
# From `python benchmarks/repair_threshold.py [--similarity embedding]` on the demo dev split
# (65 clinician answer sentences): the value rejecting ~97% of answer sentences matched against
# another patient's note. It keeps 71% (embedding, 0.50) and 59% (lexical, 0.25) of the clinician
# sentences matched against what they cite: those are paraphrases; a model copying the note scores higher.
MIN_SUPPORT = {"embedding": 0.50, "lexical": 0.25}


def _parse_json(text: str) -> list[tuple[str, list[str]]] | None:
    """[{"text": ..., "citations": [3, 4]}] or {"answer": [...]} (a model answering JSON unasked)."""
    from archehr.llm.structured import extract_json, id_list

    data = extract_json(text)
    if isinstance(data, dict):
        data = next((v for v in data.values() if isinstance(v, list)), None)
    if not isinstance(data, list):
        return None
    out = []
    for item in data:
        if isinstance(item, dict):
            fields = {str(k).lower(): v for k, v in item.items()}
            line = next((fields[k] for k in ("text", "sentence", "answer") if isinstance(fields.get(k), str)), "")
            ids = next((id_list(fields[k]) for k in ("citations", "evidence", "ids", "sources") if k in fields), [])
            line = safe_text(line).strip()
            if line:
                out.append((line, ids))
    return out or None


def says_not_in_note(reply: str) -> bool:
    """Whether a reply is the patient prompt's abstention ("NOT IN THE NOTE", "The note does not say."),
    alone or as its first line, with no citation anywhere."""
    lines = [ln.strip() for ln in (reply or "").replace("\r", "").split("\n") if ln.strip()]
    if not lines or re.search(r"\|\s*\d|\[\s*\d", reply):
        return False
    from archehr.llm.structured import strip_markdown

    return bool(_NOT_IN_NOTE.match(strip_markdown(lines[0])))


def parse_reply(text: str) -> list[tuple[str, list[str]]]:
    """(sentence, cited ids) per non-empty line of a model reply; tolerant of common formats
    (JSON, pipes or brackets at the end or in front, bullets, numbered lists, bold)."""
    from archehr.llm.structured import strip_markdown, strip_thinking

    text = strip_thinking(text)
    as_json = _parse_json(text)
    if as_json is not None:
        return as_json
    out = []
    for raw in text.replace("\r", "").split("\n"):
        line = _LIST_MARK.sub("", strip_markdown(raw).strip())
        if not line or line.lower().startswith(("answer:", "note sentences", "patient question")):
            continue
        ids: list[str] = []
        lead = _LEADING.match(line)
        if lead:
            ids = [x.strip() for x in (lead.group(1) or lead.group(2)).split(",") if x.strip()]
            line = line[lead.end():]
        m = _PIPES.search(line) or _BRACKETS.search(line)
        if m:
            ids = [x.strip() for x in m.group(1).split(",") if x.strip()]
            line = line[:m.start()]
        for inline in re.findall(r"\|\s*([\d\s,]+)\s*\||\[\s*([\d\s,]+)\s*\]", line):
            ids += [x.strip() for x in (inline[0] or inline[1]).split(",") if x.strip()]
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
        # off by default: a capable model's paraphrase can score under min_support). verify_numbers: a line stating
        # a number its citations (and the question) do not contain is dropped (a faithful answer copies numbers).
        # uncited: "attach" a line the model left uncited to its best-supported note sentence or drop it (a small
        # model's uncited lines are mostly noise), or "keep" it (a capable model's is a framing sentence, which
        # clinicians leave uncited too; a made-up citation would cost precision). Numbers are checked either way.
        self.keep_selected, self.cite_first = bool(keep_selected), bool(cite_first)
        self.verify_cited, self.verify_numbers, self.uncited = bool(verify_cited), bool(verify_numbers), uncited
        self.min_support = float(min_support) if min_support is not None else MIN_SUPPORT[self.similarity.kind]
        self.fallback = ExtractiveGenerator(budget=budget)
        self.may_abstain = False

    def for_patient(self) -> LLMGenerator:
        """A copy asking the patient prompt, which may answer "NOT IN THE NOTE" (read as an abstention);
        `archehr answer` uses it, `predict` never does (the official tasks have no abstention)."""
        import copy

        other = copy.copy(self)
        other.template = load_prompt(PATIENT_PROMPT)
        other.may_abstain = True
        other.number_repair = "drop"  # a patient never reads a line whose number its citations do not hold
        return other

    def demonstration(self, case: Case, key: KeyEntry | None) -> tuple[str, tuple[str, ...]] | None:
        """(answer, ids it cites) of a training case with a reference answer."""
        if key is None:
            return None
        if key.clinician_answer_sentences:
            lines = key.clinician_answer_sentences[:3]  # short: a demonstration teaches the format
            cited = tuple(dict.fromkeys(c for s in lines for c in s.citations))
            return "\n".join(self._line(safe_text(s.text), s.citations) for s in lines), cited
        ess = key.essential_ids or key.supplementary_ids
        return (self.fallback.generate(case, Selection(case.case_id, ess, 1.0)).render(), tuple(ess)) if ess else None

    def _line(self, text: str, ids: tuple[str, ...] | list[str]) -> str:
        return f"|{','.join(ids)}| {text}" if self.cite_first else f"{text} |{','.join(ids)}|"

    def demonstrations(self, case: Case) -> list[tuple[Case, str]]:
        return [(c, a) for c, (a, _) in self.pool.nearest(case)]

    # -- prompt ----------------------------------------------------------------------------------
    def ladder(self) -> list[tuple[int, int, str]]:
        """Less context, step by step, for a prompt over the model's window: (context, max_evidence, what)."""
        half = max(1, self.max_evidence // 2)
        steps = [(c, self.max_evidence) for c in range(2 if self.context is None else self.context - 1, -1, -1)]
        return [(c, m, f"the note cut to the {m} first chosen sentences" + (f" and {c} neighbours each" if c else ""))
                for c, m in steps + [(0, half)]]

    def evidence_ids(self, case: Case, selection: Selection, context: int | None = None,
                     max_evidence: int | None = None) -> list[str]:
        """The note sentences shown: all (context None) or the chosen ones with `context` neighbours."""
        ids = case.sentence_ids
        context = self.context if context is None else context
        if context is None:
            return list(ids)
        chosen = [i for i, s in enumerate(ids) if s in set(selection.cited)][: max_evidence or self.max_evidence]
        keep = {j for i in chosen for j in range(i - context, i + context + 1) if 0 <= j < len(ids)}
        return [ids[j] for j in sorted(keep) if not is_header(case.sentences[j].text)]

    def prompt(self, case: Case, selection: Selection, shown: int | None = None, level: int = 0) -> str:
        """The prompt with the `shown` nearest demonstrations (all) and the `level`-th step of `ladder` (0: none)."""
        chosen = set(selection.cited)
        if self.context is None:
            kept = set(self.evidence_ids(case, selection, *self.ladder()[level - 1][:2])) if level else None
            sentences = "\n".join(f"{'*' if s.id in chosen else ' '}{s.id}: {clean_sentence(s.text)}"
                                  for s in case.sentences if kept is None or s.id in kept)
        else:
            step = self.ladder()[level - 1][:2] if level else (None, None)
            sentences = "\n".join(f"{i}: {clean_sentence(case.sentence(i).text)}"
                                  for i in self.evidence_ids(case, selection, *step))
        demos = []
        for c, (ans, cited) in self.pool.nearest(case)[:shown]:
            if self.context is None:
                note = "\n".join(f" {s.id}: {clean_sentence(s.text)}" for s in c.sentences[:30])
                demos.append(f"Example question: {c.question_text}\nExample note sentences:\n{note}\n"
                             f"Example answer:\n{ans}\n")
            else:  # the same layout as the real question, showing only what the answer cites
                note = "\n".join(f"{i}: {clean_sentence(c.sentence(i).text)}" for i in c.sentence_ids if i in cited)
                demos.append(f"Question: {c.question_text}\nNote sentences:\n{note}\nAnswer:\n{ans}\n")
        demo_text = (("\nExamples:\n" if self.context is None else "\n") + "\n".join(demos)) if demos else ""
        text = self.template.render(question=case.question_text, sentences=sentences, demonstrations=demo_text)
        if self.cite_first and REPLY_START in text:
            top = self._top_id(case, selection)
            if top is not None:
                text += f"|{top}|"
        return text

    @staticmethod
    def _top_id(case: Case, selection: Selection) -> str | None:
        ids = [i for i in case.sentence_ids if i in set(selection.cited) and not is_header(case.sentence(i).text)]
        return ids[0] if ids else None

    # -- verify and repair -----------------------------------------------------------------------
    def _split_uncited(self, case: Case, parsed: list[tuple[str, list[str]]]) -> tuple[list[tuple[str, list[str]]],
                                                                                       list[str]]:
        """Uncited paragraphs -> sentences; questions, echoes of the question and repeats dropped."""
        notes: list[str] = []
        out: list[tuple[str, list[str]]] = []
        seen: dict[str, int] = {}
        q_words = set(re.findall(r"[a-z0-9]+", case.question_text.lower()))
        dropped_q = dropped_rep = 0
        for text, ids in parsed:
            pieces = [text] if ids else [p.strip() for p in _SENTENCE_END.split(text) if p.strip()]
            for piece in pieces:
                key = " ".join(re.findall(r"[a-z0-9]+", piece.lower()))
                words = key.split()
                if not words:
                    continue
                if not ids and (piece.rstrip().endswith("?") or
                                sum(w in q_words for w in words) >= 0.8 * len(words)):
                    dropped_q += 1  # a question (often the patient's own, copied) answers nothing
                    continue
                if key in seen:  # a repeat adds nothing but its citations
                    dropped_rep += 1
                    out[seen[key]][1].extend(i for i in ids if i not in out[seen[key]][1])
                    continue
                seen[key] = len(out)
                out.append((piece, list(ids)))
        if dropped_q:
            notes.append(f"dropped {dropped_q} line(s) that ask or repeat the question")
        if dropped_rep:
            notes.append(f"dropped {dropped_rep} repeated line(s), keeping their citations")
        return out, notes

    def repair_with_overflow(self, case: Case, selection: Selection, reply: str, cut: bool = False
                             ) -> tuple[list[AnswerLine] | None, tuple[AnswerLine, ...], list[str], str]:
        """(lines or None, lines the word budget dropped, repairs made, why invalid); `cut`: the backend says the
        reply was cut by the token limit (its last line is dropped whatever it looks like)."""
        notes: list[str] = []
        note_ids = case.sentence_ids
        known = set(note_ids)
        parsed = parse_reply(reply)
        if not parsed:
            return None, (), notes, "empty reply"
        checked: list[tuple[str, list[str]]] = []
        for text, ids in parsed:
            bad = [i for i in ids if i not in known]
            if bad:
                notes.append(f"dropped ids not in the note: {', '.join(bad)}")
            checked.append((text, list(dict.fromkeys(i for i in ids if i in known))))
        last = checked[-1][0].rstrip()
        if cut and len(checked) == 1:
            return None, (), notes, "the reply was cut by the token limit within its first line"
        if len(checked) > 1 and (cut or (not last.endswith((".", "!", "?")) and self._cut_off(reply))):
            checked = checked[:-1]  # the reply ran into max_tokens mid-sentence: half a sentence says nothing
            notes.append("dropped the last line, cut off by the token limit")
        lines, more = self._split_uncited(case, checked)
        notes += more
        if not lines:
            return None, (), notes, "no answer sentence in the reply (only questions or repeats)"
        if self.verify_cited:
            lines, more = self._verify_cited(case, lines)
            notes += more
        uncited = [k for k, (_, ids) in enumerate(lines) if not ids]
        if uncited and self.uncited == "keep" and len(uncited) < len(lines):  # (all uncited: attach, as below)
            notes.append(f"kept {len(uncited)} uncited line(s) as written")
        elif uncited:
            lines, more, best = self._attach(case, selection, lines, uncited)
            notes += more
            if not lines:
                return None, (), notes, (f"no line of the reply is supported by the note (best support {best:.2f} < "
                                     f"{self.min_support:.2f}, {self.similarity.kind})")
        if self.verify_numbers:  # predict re-writes a line from its citations (keeps them); answer drops it
            lines, more = self._verify_numbers(case, lines) if self.number_repair == "drop" else recite_unsupported(
                lines, {s.id: s.text for s in case.sentences}, case.question_text)
            notes += more
            if not lines:
                return None, (), notes, "every line states numbers that its cited sentences do not contain"
        if self.keep_selected:
            cited = {i for _, ids in lines for i in ids}
            missing = [i for i in note_ids if i in set(selection.cited) and i not in cited]
            if missing:
                sims = self.similarity.matrix([clean_sentence(case.sentence(i).text) for i in missing],
                                              [t for t, _ in lines])
                for row, i in enumerate(missing):
                    lines[int(sims[row].argmax())][1].append(i)
        if not any(ids for _, ids in lines):
            # what is left cites nothing (e.g. `uncited: keep` kept a framing line and the number check dropped
            # every cited one): the official scorer aborts on an answer without a single citation (an assert)
            return None, (), notes, "no line of the reply cites the note"
        # the budget: drop whole trailing lines, moving their citations onto the last kept line
        total = 0
        kept: list[tuple[str, list[str]]] = []
        over: list[tuple[str, list[str]]] = []
        for text, ids in lines:
            n = line_words(text)
            if over or total + n > self.budget:
                if not kept:
                    return None, (), notes, f"first sentence alone is {n} words (over {self.budget})"
                kept[-1][1].extend(ids)
                over.append((text, []))
                continue
            kept.append((text, ids))
            total += n
        if over:
            notes.append(f"dropped {len(over)} trailing line(s) over the word budget; their citations kept")
        pos = {s: i for i, s in enumerate(note_ids)}
        overflow = tuple(AnswerLine(t, ()) for t, _ in over)
        return ([AnswerLine(t, tuple(sorted(dict.fromkeys(ids), key=pos.__getitem__))) for t, ids in kept], overflow,
                notes, "")

    @staticmethod
    def _cut_off(reply: str) -> bool:
        """The reply ends inside a line (no final newline or end mark): generation hit its limit."""
        from archehr.llm.structured import strip_markdown

        tail = strip_markdown(reply).rstrip(" ")
        return bool(tail) and not tail.endswith(("\n", ".", "!", "?", "|", "]", "}"))

    def _verify_cited(self, case: Case, lines: list[tuple[str, list[str]]]) -> tuple[list[tuple[str, list[str]]],
                                                                                  list[str]]:
        """A cited line its citations do not support (text copied from the demonstration, invented
        facts) loses them and goes through re-attachment like an uncited line."""
        cited = [k for k, (_, ids) in enumerate(lines) if ids]
        if not cited:
            return lines, []
        pool = list(dict.fromkeys(i for k in cited for i in lines[k][1]))
        sims = self.similarity.support([lines[k][0] for k in cited],
                                       [clean_sentence(case.sentence(i).text) for i in pool])
        col = {i: j for j, i in enumerate(pool)}
        n = 0
        out = [(t, list(ids)) for t, ids in lines]
        for row, k in enumerate(cited):
            if max(sims[row, col[i]] for i in lines[k][1]) < self.min_support:
                out[k] = (lines[k][0], [])
                n += 1
        return out, ([f"{n} cited line(s) not supported by their citations: citations removed"] if n else [])

    @staticmethod
    def _verify_numbers(case: Case, lines: list[tuple[str, list[str]]]) -> tuple[list[tuple[str, list[str]]],
                                                                                  list[str]]:
        """Drop each line that states a number found neither in its cited sentences nor in the question."""
        kept: list[tuple[str, list[str]]] = []
        bad: list[str] = []
        for text, ids in lines:
            sources = [case.sentence(i).text for i in ids] + [case.question_text]
            missing = unsupported_numbers(text, sources)
            if missing:
                bad += missing
            else:
                kept.append((text, ids))
        if not bad:
            return kept, []
        shown = ", ".join(dict.fromkeys(bad))
        return kept, [f"dropped {len(lines) - len(kept)} line(s) stating numbers their citations do not "
                      f"contain ({shown})"]

    def _attach(self, case: Case, selection: Selection, lines: list[tuple[str, list[str]]],
                uncited: list[int]) -> tuple[list[tuple[str, list[str]]], list[str], float]:
        """Cite each uncited line by its best-supported sentence (chosen ones first) or drop it."""
        chosen = [i for i in case.sentence_ids if i in set(selection.cited)]
        rest = [s.id for s in case.sentences if s.id not in set(chosen) and not is_header(s.text)]
        texts = [lines[k][0] for k in uncited]
        best_all = 0.0
        tiers = [(pool, self.similarity.support(texts, [clean_sentence(case.sentence(i).text) for i in pool]))
                 for pool in (chosen, rest) if pool]
        to_chosen = to_rest = 0
        drop: set[int] = set()
        for row, k in enumerate(uncited):
            for pool, sims in tiers:
                j = int(sims[row].argmax())
                best_all = max(best_all, float(sims[row, j]))
                if sims[row, j] >= self.min_support:
                    lines[k][1].append(pool[j])
                    if pool is chosen:
                        to_chosen += 1
                    else:
                        to_rest += 1
                    break
            else:
                drop.add(k)
        notes = []
        if to_chosen:
            notes.append(f"attached {to_chosen} uncited line(s) to their best-supported selected sentence")
        if to_rest:
            notes.append(f"attached {to_rest} uncited line(s) to a supporting sentence outside the selection")
        if drop:
            notes.append(f"dropped {len(drop)} unsupported line(s) (support < {self.min_support:.2f})")
        return [ln for k, ln in enumerate(lines) if k not in drop], notes, best_all

    def generate(self, case: Case, selection: Selection, scores: SentenceScores | None = None) -> Answer:
        chosen, sel_notes = ensure_selection(case, selection, scores)
        selection = Selection(selection.case_id, tuple(chosen), selection.confidence, selection.flagged)

        def read(replies: list[str], cut: bool, notes: list[str]) -> Answer:
            if self.may_abstain and not cut and says_not_in_note(replies[0]):
                return Answer((), self.name, abstained=True)
            lines, overflow, more, invalid = self.repair_with_overflow(case, selection, replies[0], cut=cut)
            if not lines:  # the repairs of an attempt that gave nothing are not the answer's
                raise Unusable(invalid)
            notes += more
            return Answer(tuple(lines), self.name, overflow=overflow)

        got = self.ask(lambda d, level: self.prompt(case, selection, d, level), read,
                       shown=len(self.pool.nearest(case)), levels=[what for _, _, what in self.ladder()])
        if got.value is not None:
            return dataclasses.replace(got.value, notes=tuple(sel_notes) + got.notes)
        fb = self.fallback.generate(case, selection, scores)
        return Answer(fb.lines, self.name, fallback="extractive: " + got.fallback, notes=fb.notes)

    def runtime(self) -> dict[str, Any]:
        return {"similarity": self.similarity.kind, "min_support": self.min_support,
                "backend": self.backend.describe()}
