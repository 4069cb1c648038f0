"""One note, one patient question: split the note, run a system, return the cited answer.

This is the way in for a single patient-portal message, without a release: `archehr.answer(note,
question)` (and `archehr answer` on the command line) builds a one-case `Case` in memory from the raw
note (`archehr.data.note_split`), runs a system (the default one unless told) and returns the answer
lines with the note sentences they cite, a calibrated confidence and a review flag.

What a patient sees differs from what `predict` submits in three ways (docs/answer.md):
- abstention: when the answerability model (`archehr.answerability`) gives P(answerable) below its
  threshold, the answer is "The note does not say." with the sentences about the question offered as
  related, never as citations, or none, said so (`archehr.answerability.related`); `confidence` is that
  calibrated P(answerable), and `flagged` is set when an answer is given with P below the model's review level;
- the sentence that answers first: the question's kind of answer (how long, when, which medication
  change, a test result, why, may I) is matched to what each sentence holds, with the everyday lexicon
  (`archehr.answerability.kinds`); the best sentences are cited, the one that answers on the first
  line, the rest by that score (direct answers, `archehr.answerability.direct`, count in it);
- every cited sentence is shown: a line cites only the note sentences whose content it carries
  (`archehr.shown_lines`; the extractive generator's "dropped ids are cited by the nearest kept line", which
  maximises the 2025 score, stays in `predict`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from archehr.answerability.follow_on import CitePolicy, kept_together
from archehr.answerability.review import HOLDS_MIN, names_asked, review_flags, shown_confidence
from archehr.data.model import Case
from archehr.data.note_split import SplitNote, SplitSentence, note_case
from archehr.relevance.base import Selection, SentenceScores
from archehr.shown_lines import by_rank, render, shown_citations
from archehr_scoring.answer_format import AnswerLine

NOT_IN_NOTE = "The note does not say."
CITES = CitePolicy()  # which sentences are cited after the first (its defaults, docs/answer-methods.md)
W_SELECTOR = 0.15  # weight of the selector's relevance (max-normalised) beside the answer-type score
W_DIRECT = 0.0  # weight of the direct-answer cue (direct.py): the answer types cover it (0 measured best)


@dataclass(frozen=True)
class NoteAnswer:
    """The cited answer to one question about one raw note."""

    question: str
    # the 2025 form (one sentence per line, "|ids|" at the end), up to 110 words for a patient (the extractive
    # generator's `for_patient`); the official submission that `predict` writes keeps its 75
    answer: str
    lines: tuple[AnswerLine, ...]
    cited: tuple[SplitSentence, ...]  # the cited note sentences, in note order, with their offsets
    note: SplitNote
    confidence: float  # calibrated P(the note answers the question) (the answerability model's)
    flagged: bool  # answered with confidence below the review level: a human should check this answer
    system: str
    fallback: str | None = None
    notes: tuple[str, ...] = ()
    # cited sentence id -> "essential" | "supplementary": the more likely of the two by the selector's scores
    # (empty when the system gives no per-sentence scores, e.g. cite-all)
    cited_as: tuple[tuple[str, str], ...] = ()
    abstained: bool = False  # "The note does not say.": no answer, no citation
    # with an abstention: the sentences about the question, related, not an answer (`answerability.related`), and
    # when there are none, the line saying so ("no sentence in the note is about ...")
    related: tuple[SplitSentence, ...] = ()
    related_note: str = ""
    evidence_confidence: float | None = None  # the selector's separation confidence (as in predict's run.json)
    kind: str = ""  # the kind of answer the question asks for (archehr.answerability.kinds.KINDS, or "other")
    lexicon: str = ""  # the glossary version (with its everyday layer) and the drug-name source used
    ranker: str = ""  # the sentence ranking used: "hand" or "embedding" (archehr.answerability.embed_rank)

    @property
    def text(self) -> str:
        """The answer without citations."""
        return " ".join(line.text for line in self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.answer,
            "answer_without_citations": self.text,
            "lines": [{"text": ln.text, "citations": list(ln.citations)} for ln in self.lines],
            "cited_sentences": [_sentence_dict(s) for s in self.cited],
            "confidence": self.confidence,
            "needs_review": self.flagged,
            "abstained": self.abstained,
            "related_not_cited": [_sentence_dict(s) for s in self.related],
            "related_note": self.related_note,
            "evidence_confidence": self.evidence_confidence,
            "system": self.system,
            "splitter": self.note.splitter,
            "sentences": [_sentence_dict(s) for s in self.note.sentences],
            "fallback": self.fallback,
            "notes": list(self.notes),
            "cited_as": dict(self.cited_as),
            "kind": self.kind,
            "lexicon": self.lexicon,
            "ranker": self.ranker,
        }


def _sentence_dict(s: SplitSentence) -> dict[str, Any]:
    return {"id": s.id, "paragraph_id": s.paragraph_id, "start": s.start, "end": s.end, "kind": s.kind,
            "text": s.text}


def answer(note: str | SplitNote, question: str, *, narrative: str | None = None, system: Any = None,
           splitter: str = "auto", specialty: tuple[str, ...] = (), cache_dir: str | Path | None = None,
           answerability: Any = "lexical", direct: bool = True, typed: Any = "shipped",
           first: Any = None, ranker: str = "auto") -> NoteAnswer:
    """Answer a patient question from a raw clinical note, citing the note's sentences, or say the note
    does not say.

    `system` is a built-in system name, a YAML path, an already loaded `archehr.pipeline.System`, or
    None for the default system. `narrative` is the patient's whole message when there is one (the
    question should be part of it). `splitter`: "auto" (spaCy when installed, else rules), "spacy",
    "rules". `answerability`: a shipped answerability model ("lexical", the default; "embedding", "reading"), a
    model file, a loaded `AnswerabilityModel`, or None to never abstain (the confidence is then the
    selector's). `typed`: the typed confidence model over it (`archehr.answerability.typed`: "shipped",
    a model file, a loaded `TypedConfidence`, or None for the lexical P alone).
    `first`: None for the hand ranking's first sentence, or a first-line ranker (`answerability.first_rank`: a model
    file or a loaded `FirstRanker`) choosing it among the hand ranking's best few (with `direct` only).
    `ranker`: "auto" (the default: "embedding" when MiniLM is installed, else "hand" with a note saying so), "hand"
    (the answer types alone) or "embedding" (when the hand ranking's best is weak, MiniLM's similarity of each
    sentence with the question lifts its answer score, `answerability.embed_rank`; needs the models extra:
    UnavailableError when the model is not installed). The ranker used is recorded with the answer.
    `direct=False` ranks by the selector alone (no answer types; to measure them). Raises `InputError` for an empty
    note or question, `UnavailableError` for splitter "spacy" without the model.
    """
    from archehr.answerability.embed_rank import resolve_ranker
    from archehr.answerability.kinds import answer_types
    from archehr.answerability.model import resolve_model
    from archehr.answerability.related import related_sentences
    from archehr.answerability.typed import TypedConfidence
    from archehr.generate.answer import Answer
    from archehr.glossary import load_lexicon

    ranker, ranker_note = resolve_ranker(ranker)
    asked = (question or "").strip()  # shown with the answer as the patient wrote it
    written = (question, narrative)  # what an LLM part reads (`_case_for`)
    question, narrative = read_question(question, narrative)
    case, split = note_case(note, question, narrative=narrative, splitter=splitter, specialty=specialty)
    sys_obj = _system(system, cache_dir)
    model = resolve_model(answerability) if answerability is not None else None
    p = model.probability(case) if model is not None else None
    ev = sys_obj.evidence_for(_case_for(sys_obj.evidence, case, split, written))
    by_id, ids = {s.id: s for s in split.sentences}, list(case.sentence_ids)
    lexicon = load_lexicon()
    types = answer_types(case, lexicon)
    rank, typed_rank, order = _ordered(case, split, ev.scores, types, direct, ranker == "embedding", first, question)
    ranked_note = (ranker_note,) if ranker_note else ()
    common = dict(question=asked, note=split, system=sys_obj.config.name,
                  evidence_confidence=float(ev.selection.confidence), kind=types.kind,
                  lexicon=_lexicon_version(lexicon), ranker=ranker)

    def abstain(notes: tuple[str, ...], fallback: str | None = None) -> NoteAnswer:
        # related: the sentences naming the question's topic, else holding the asked kind, else none, said so
        near = related_sentences(question, split.sentences, types, rank, lexicon)
        return NoteAnswer(answer=NOT_IN_NOTE, lines=(AnswerLine(NOT_IN_NOTE, ()),), cited=(),
                          confidence=float(p) if p is not None else 0.0, flagged=False, fallback=fallback,
                          notes=split.notes + ranked_note + notes, abstained=True,
                          related=tuple(by_id[ids[i]] for i in near.indices), related_note=near.note, **common)

    model, p, absent = _judge(model, typed, p, types, (case.question_text, split, lexicon))
    if absent:
        return abstain((absent,))
    # a sentence names the question's topic and holds the asked kind of answer (a duration, a date, a
    # result ...), or names the asked thing itself: the typed model's decline becomes an answer flagged for review
    held = isinstance(model, TypedConfidence) and direct and (types.best_typed >= HOLDS_MIN or names_asked(types))
    if model is not None and p is not None and model.abstains(p) and not held:
        return abstain((f"P(answerable) {p:.2f} is below the abstention threshold {model.threshold:.2f}",))
    chosen = _cited(order, rank, typed_rank if direct else None, split, types.topic if direct else None,
                    types.kind if direct else "", question)
    together = kept_together(chosen, split.sentences, rank, types.kind) if direct else rank
    selection, scores = _chosen(ev.selection, tuple(ids[i] for i in chosen), together, case.case_id, ids)
    gen = sys_obj.generator.for_patient()  # an LLM generator: the patient prompt, which may say "not in the note"
    ans: Answer = gen.generate(_case_for(gen, case, split, written), selection, scores)
    notes = ev.notes + ans.notes
    if ans.abstained:
        return abstain(notes + ("the model said the note does not answer the question",),
                       ans.fallback or ev.fallback)
    lines = by_rank(shown_citations(ans.lines, split), rank, ids)
    shown = {c for ln in lines for c in ln.citations}
    flagged, confidence = _review(model, p, ev.selection, types, direct, order, question, split)
    return NoteAnswer(answer=render(lines), lines=lines, cited=tuple(s for s in split.sentences if s.id in shown),
                      confidence=confidence, flagged=flagged, fallback=ans.fallback or ev.fallback,
                      notes=split.notes + ranked_note + notes, cited_as=_cited_as(ev.scores, shown), **common)


def _ordered(case: Any, split: SplitNote, scores: Any, types: Any, direct: bool, embedding: bool, first: Any,
             question: str) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The hand ranking, then its first line chosen by a first-line ranker (`first`) or by the asked fact."""
    rank, typed_rank, order = _ranked(case, split, scores, types, direct, embedding)
    if first is not None and direct:
        rank, order = _learned_first(first, case, order, rank, typed_rank, types, scores)
    elif direct:
        rank, order = _fact_first(types, order, rank, split, question)
    return rank, typed_rank, order


def _ranked(case: Any, split: SplitNote, scores: Any, types: Any, direct: bool,
            embedded: bool = False) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """(rank, typed rank, order): each sentence's rank as the answer (`_rank`; by the selector's scores alone when not
    `direct`), the answer types' ranking (a schedule's row takes its title's drug; with `embedded`, lifted by MiniLM's
    similarity with the question, `embed_rank.embedding_lift`), and the sentences ranked above zero, best first."""
    from archehr.answerability.direct import direct_scores
    from archehr.answerability.roles import carry_over

    n = len(case.sentence_ids)
    typed_rank = carry_over(types.ranking, split.sentences)
    if embedded and direct:
        typed_rank = typed_rank + _embedding_lift(case, split, types, typed_rank)
    rank = _rank(scores, direct_scores(case) if direct and W_DIRECT else np.zeros(n),
                 typed_rank if direct else np.zeros(n), split, types.kind if direct else "")
    order = [i for i in np.argsort(-rank, kind="stable").tolist() if rank[i] > 0]
    return rank, typed_rank, order


def _embedding_lift(case: Any, split: SplitNote, types: Any, hand: np.ndarray) -> np.ndarray:
    """What each sentence's answer score gains from MiniLM's similarity with the question (`embed_rank`)."""
    from archehr.answerability.embed_rank import embedding_lift, lifts, question_cosines
    from archehr.relevance.text import is_header, sentence_texts

    if not lifts(hand):  # a firm hand ranking is left as it is: no sentence is encoded, no model loaded
        return np.zeros(len(split.sentences))
    cos = question_cosines(case.question_text, sentence_texts(split.sentences))
    headers = np.array([is_header(s.text) for s in split.sentences], dtype=bool)
    return embedding_lift(cos, types.topic, types.holds, headers, hand)


def _learned_first(first: Any, case: Any, order: list[int], rank: np.ndarray, typed_rank: np.ndarray, types: Any,
                   scores: Any) -> tuple[np.ndarray, list[int]]:
    """(rank, order) with the first-line ranker's choice among the hand ranking's best few put first."""
    from archehr.answerability.first_rank import FirstRanker, load_first_ranker, note_candidates

    ranker = first if isinstance(first, FirstRanker) else load_first_ranker(first)
    chosen = ranker.first(note_candidates(case, order, rank, typed_rank, types, scores, ranker.k))
    if chosen < 0 or chosen == order[0]:
        return rank, order
    return _put_first(chosen, order, rank)


def _fact_first(types: Any, order: list[int], rank: np.ndarray, split: SplitNote,
                question: str) -> tuple[np.ndarray, list[int]]:
    """(rank, order) with a sentence giving the asked result put first when the first gives none
    (`answerability.first_fact`), or one dating a when question's event when the first only stamps its entry
    (`answerability.when_first`), or one giving a how-long question's length when the first gives none
    (`answerability.length_first`), or one telling a medicine's change when the first tells no decision
    (`answerability.change_first`), or advice when a may-I answer's first gives none (`answerability.advice_first`),
    or one that is no safety net when the first is (`answerability.safety_first`)."""
    from archehr.answerability.kind_first import kind_first
    from archehr.answerability.safety_first import safety_first

    texts = [s.text for s in split.sentences]
    chosen = kind_first(types.kind, question, order, rank, texts, types.topic)
    if chosen is None:  # a safety net first answers only a question asking for help; page furniture none
        chosen = safety_first(question, order, rank, texts, types.topic)
    if chosen is None:
        return rank, order
    return _put_first(chosen, order, rank)


def _put_first(chosen: int, order: list[int], rank: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """(rank, order) with `chosen` first: its rank raised just above the first's, so the citations after it are
    chosen by shares of nearly the same rank."""
    rank = rank.copy()
    rank[chosen] = float(rank[order[0]]) * (1 + 1e-6) + 1e-12
    return rank, [chosen] + [i for i in order if i != chosen]


def read_question(question: str, narrative: str | None = None) -> tuple[str, str | None]:
    """The question (and the patient's message) as it is read: non-standard spellings of common words in standard
    spelling ("wis the blawin test bad": "was the blowing test bad", `answerability.voices`), after the words of
    another language mixed in are read in English ("bakit po": why, `answerability.languages`), and without the
    greetings, apologies, thanks and sign-offs around what the question asks (`answerability.courtesy`: "Sumimasen,",
    "thanks, Maria"; left out in the words written, then again once the languages are read: "abeg no vex" is "please
    no vex"), nor a story sentence telling only who asks, when, how (`answerability.asking.asked_reading`)."""
    from archehr.answerability.asking import asked_reading
    from archehr.answerability.courtesy import without_courtesy
    from archehr.answerability.languages import in_english
    from archehr.answerability.voices import plain_words

    read = plain_words(without_courtesy(in_english(without_courtesy(question or ""))))
    return asked_reading(read) or read, plain_words(in_english(narrative)) if narrative else narrative


def _case_for(part: Any, case: Case, split: SplitNote, written: tuple[str, str | None]) -> Case:
    """The case a system part reads: with the patient's own words (`written`: the question and message as given)
    when an LLM reads it, a capable model reading "wis the blawin test bad" as it is meant and a respelling's slip
    never reaching its prompt; else `case`, with the question as `read_question` reads it (the lexical and typed
    parts are built on that reading)."""
    from archehr.llm.component import LLMComponent
    from archehr.relevance.evidence import LLMEvidence

    if not isinstance(part, (LLMComponent, LLMEvidence)):
        return case
    question, narrative = written
    return note_case(split, question, narrative=narrative, case_id=case.case_id,
                     specialty=case.clinical_specialty)[0]


def first_line_candidates(note: str | SplitNote, question: str, system: Any = None, k: int | None = None) -> Any:
    """The candidates a first-line ranker chooses among for this question (`first_rank.Candidates`, their note
    indices in the hand order) and the note's sentence ids: what `benchmarks/first_ranker.py` fits on."""
    from archehr.answerability.first_rank import K, note_candidates
    from archehr.answerability.kinds import answer_types
    from archehr.glossary import load_lexicon

    case, split = note_case(note, read_question(question)[0])
    sys_obj = _system(system, None)
    ev = sys_obj.evidence_for(_case_for(sys_obj.evidence, case, split, (question, None)))
    types = answer_types(case, load_lexicon())
    rank, typed_rank, order = _ranked(case, split, ev.scores, types, True)
    return note_candidates(case, order, rank, typed_rank, types, ev.scores, k or K), list(case.sentence_ids)


def _review(model: Any, p: float | None, selection: Selection, types: Any, direct: bool, order: list[int],
            question: str, split: SplitNote) -> tuple[bool, float]:
    """(flagged, confidence shown) of an answer given, whose first line is `order`'s first sentence
    (`review.review_flags`, `review.shown_confidence`; by the selector's flag alone when not `direct`)."""
    best = (split.sentences[order[0]].text, float(types.topic[order[0]])) if order else None
    flagged, ruled = review_flags(model, p, bool(selection.flagged), types if direct else None, best, question, split)
    confidence = shown_confidence(model, p, flagged, float(p) if p is not None else float(selection.confidence),
                                  ruled)
    return flagged, confidence


def _cited(order: list[int], rank: np.ndarray, typed: np.ndarray | None, split: SplitNote,
           topic: np.ndarray | None = None, kind: str = "", question: str = "") -> list[int]:
    """The sentences to cite (indices): the first, the best by answer type, and those close to it (`CITES`: `topic`,
    `AnswerTypes.topic`, None with `typed` when ranking by the selector alone); then the units that go with them for
    a question of `kind` (`goes_with`: a medication entry's line, a result's rows and report, a medicine's list rows,
    both sides of a medicine switch `question` names)."""
    from archehr.answerability.goes_with import goes_with

    chosen = CITES.choose(order, rank, typed, topic)
    return chosen + goes_with(chosen, split.sentences, kind, question)


def _chosen(selected: Selection, cited: tuple[str, ...], rank: np.ndarray, case_id: str,
            ids: list[str]) -> tuple[Selection, SentenceScores]:
    """The generator's input: the sentences chosen (the selector's own when none is) and the rank scaled to 1."""
    selection = Selection(selected.case_id, cited or tuple(selected.cited), selected.confidence, selected.flagged)
    top = float(rank.max()) if rank.size and rank.max() > 0 else 1.0
    return selection, SentenceScores(case_id, tuple(ids), tuple(float(x) / top for x in rank), tuple(0.0 for _ in ids))



def _system(system: Any, cache_dir: str | Path | None) -> Any:
    from archehr.pipeline import System, load_system
    from archehr.system_config import DEFAULT_SYSTEM, configs_dir, find_system_file

    if isinstance(system, System):
        sys_obj = system
    else:
        path = find_system_file(system or DEFAULT_SYSTEM)
        builtin = path.parent == configs_dir() / "systems"
        sys_obj = System(_builtin_config(str(path)), cache_dir=cache_dir) if builtin else load_system(
            system, cache_dir=cache_dir)
    if sys_obj.wants_training_split():
        # demonstrations come from the bundled demo release's labelled dev split, as `predict` does
        from archehr.data import load_split

        sys_obj.prepare(load_split(None, "dev"))
    return sys_obj


@functools.lru_cache(maxsize=8)
def _builtin_config(path: str) -> Any:
    """A built-in system's config (frozen), parsed once per process: answering many questions (the benchmarks,
    `serve`) would otherwise parse its YAML again for each, about 6 ms of a 15 ms answer."""
    from archehr.system_config import load_config

    return load_config(path)


def _judge(model: Any, typed: Any, p: float | None, types: Any,
           story: tuple[str, SplitNote, Any] | None = None) -> tuple[Any, float | None, str]:
    """The model that decides (the typed confidence over the lexical model, else the model given), its
    P, and a reason to decline outright ("" if none). With `story` (the question, the split note, the lexicon),
    a question telling a story around its ask has its P weighed with that of the question without the story's
    words the note never names (`_story_row`)."""
    from archehr.answerability.typed import declines_outright, names_nothing, typed_row

    # the typed model was fitted over the lexical P: other answerability models keep their own decision
    lexical = model is not None and getattr(model, "feature_set", "") == "lexical"
    judge = _typed_model(typed) if p is not None and lexical else None
    if judge is None or p is None:
        return model, p, ""
    if names_nothing(types) and model.abstains(p) and declines_outright(p, types.kind):
        # the note never names the thing asked about, and the lexical model declines too: firmly, or of a test
        return model, p, f"the note does not name what the question asks about (P(answerable) {p:.2f})"
    pruned = _story_row(model, types, *story) if story is not None else None
    return judge, judge.probability(typed_row(p, types), pruned), ""


def _story_row(model: Any, types: Any, question: str, split: SplitNote, lexicon: Any) -> np.ndarray | None:
    """The typed feature row of the question with its story's words that name nothing in the note left out
    (`asking.story_pruned`; the kind stays the whole question's), or None when it tells no such story or what is
    left names nothing."""
    from dataclasses import replace

    from archehr.answerability.asking import story_pruned
    from archehr.answerability.kinds import answer_types, sentence_words
    from archehr.answerability.typed import typed_row
    from archehr.relevance.text import sentence_texts

    texts = sentence_texts(split.sentences)
    each = [set(sentence_words(t, lexicon)) for t in texts]
    words: set[str] = set().union(*each)
    text = story_pruned(question, words, lexicon, (texts, each))
    if text is None:
        return None
    case, _ = note_case(split, text)
    pruned = answer_types(case, lexicon)
    if not pruned.concepts:
        return None
    return typed_row(model.probability(case), replace(pruned, kind=types.kind))


def _typed_model(typed: Any) -> Any:
    from archehr.answerability.typed import TypedConfidence, load_typed

    if typed is None or isinstance(typed, TypedConfidence):
        return typed
    return load_typed(None if typed == "shipped" else typed)


def _rank(scores: Any, direct: np.ndarray, typed: np.ndarray, split: SplitNote, kind: str = "") -> np.ndarray:
    """Each sentence's score as the answer: answer type and topic, the direct-answer cue, and the
    selector's relevance (max-normalised); headers never lead; with the question's `kind`, each sentence's
    role weighs it (a question asked in the note or a title never answers; history less than the plan)."""
    from archehr.answerability.roles import weigh_by_role
    from archehr.relevance.text import is_header

    rel = np.asarray(scores.relevant(), dtype=float) if scores is not None else np.zeros(len(typed))
    rel = rel / rel.max() if rel.size and rel.max() > 0 else rel
    out = typed + W_SELECTOR * rel + W_DIRECT * direct
    if kind:
        out = weigh_by_role(out, split.sentences, kind)
    return np.where([is_header(s.text) for s in split.sentences], 0.0, out)


def _lexicon_version(lexicon: Any) -> str:
    from archehr.glossary.drugs import package_version

    drugs = package_version()
    return f"glossary {lexicon.version}; " + (f"drug-named-entity-recognition {drugs}" if drugs else
                                               "no brand drug names (drug-named-entity-recognition not installed)")


def _cited_as(scores: Any, cited: set[str]) -> tuple[tuple[str, str], ...]:
    """How the selector labelled each cited sentence: essential when P(essential) >= P(supplementary)."""
    if scores is None:
        return ()
    return tuple((sid, "essential" if e >= s else "supplementary")
                 for sid, e, s in zip(scores.sentence_ids, scores.essential, scores.supplementary, strict=True)
                 if sid in cited)
