"""Per-question features of answerability: does the note hold what the question asks about?

The signal that generalises across writers is coverage: a question whose specific words (a drug, a
test, a procedure) the note never uses cannot be answered from it, whatever its wording. A word's
specificity is its inverse document frequency over a background of notes (`Background`, counted
from the training notes and stored in the model file), so "daily" or "discharge" count for little and
"warfarin" for much; a word no background note uses counts as the most specific.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from archehr.answerability.cues import QUESTION_TYPES
from archehr.answerability.data import question_type
from archehr.data.model import Case
from archehr.glossary import Glossary, load_glossary
from archehr.relevance.text import is_header, sentence_texts, tokens

# Words of a patient's question that name no clinical content: a note "covers" them by chance.
QUESTION_FILLER = frozenset(tokens("""
need needs needed take taking took stop stopping stopped start starting started keep keeping pill pills
medicine medication meds doctor doctors hospital home day days time times thing things sure okay ok safe
happen happened happening mean means tell told say said give gave given make made put come came long
normal better worse right ever again back still much many way supposed allowed instead first next new
old used use hospital him her mom dad son wife husband baby kid kids little bit lot
mum mam mother father nan nana gran granny grandma grandpa grandad grandmother grandfather hubby partner
boyfriend girlfriend daughter brother sister
""", stem=True))

FEATURE_NAMES: tuple[str, ...] = (
    "coverage_weighted", "coverage_plain", "missing_max", "missing_count", "best_sentence", "best_window",
    "log_terms", "unknown_share", "known_coverage", "support", *(f"type_{t}" for t in QUESTION_TYPES if t != "other"),
)
EMBEDDING_FEATURES: tuple[str, ...] = ("cos_max", "cos_top3")


@dataclass(frozen=True)
class Background:
    """Document frequencies of (stemmed) words over background notes: the specificity of a word."""

    notes: int
    df: dict[str, int]

    @classmethod
    def count(cls, notes: Iterable[Iterable[str]]) -> Background:
        df: Counter[str] = Counter()
        n = 0
        for words in notes:
            df.update(set(words))
            n += 1
        return cls(n, dict(df))

    def weight(self, term: str) -> float:
        """IDF in [0, 1]: 1 for a word no background note has, near 0 for one every note has."""
        top = math.log(self.notes + 2)
        return math.log((self.notes + 2) / (self.df.get(term, 0) + 1)) / top

    def to_json(self) -> dict[str, object]:
        return {"notes": self.notes, "df": dict(sorted(self.df.items()))}

    @classmethod
    def from_json(cls, d: dict[str, object]) -> Background:
        return cls(int(d["notes"]), {str(k): int(v) for k, v in dict(d["df"]).items()})  # type: ignore[arg-type]


def note_terms(case: Case, glossary: Glossary | None = None) -> list[list[str]]:
    """Each note sentence's words, abbreviations expanded (HTN -> hypertension), as the relevance features do."""
    g = glossary if glossary is not None else load_glossary()
    out = []
    for text in sentence_texts(case.sentences):
        extra = [x for e in g.matches(text) if e.kind == "abbr" for x in e.expansions]
        out.append(tokens(text + " " + " ".join(extra)))
    return out


@dataclass(frozen=True)
class Concept:
    """One thing the question asks about: a content word, or a glossary term with its alternatives."""

    surface: tuple[str, ...]  # the question's own words
    # the term and each of its expansions as word tuples: one of them whole in the note covers it
    # ("blood thinner" needs both words: "blood" alone is in nearly every note)
    phrases: frozenset[tuple[str, ...]]

    @property
    def alternatives(self) -> frozenset[str]:
        return frozenset(t for ph in self.phrases for t in ph)

    def covered_by(self, words: set[str]) -> bool:
        return any(all(t in words for t in ph) for ph in self.phrases)


def question_concepts(question: str, glossary: Glossary | None = None) -> list[Concept]:
    """The question's content words as concepts; a glossary term ("water pill", "Eliquis") is one concept
    covered by any of its expansions, so "blood thinner" is covered by a note that says apixaban; a brand drug name
    ("Xanax") also by its generic name (alprazolam, `drugs.generic_of`)."""
    return _with_generics(_concepts(question, glossary), question)


def _with_generics(concepts: list[Concept], question: str) -> list[Concept]:
    """Each concept naming a brand or variant drug name of the question, widened by that drug's generic name."""
    from archehr.glossary.drugs import WORD, generic_of

    brand = {t: tuple(tokens(g)) for w in WORD.findall(question) if (g := generic_of(w)) is not None
             for t in tokens(w)}
    out = []
    for c in concepts:
        extra = {brand[t] for t in c.surface if t in brand and brand[t]}
        out.append(Concept(c.surface, frozenset(set(c.phrases) | extra)) if extra else c)
    return out


def resolved_concepts(question: str, texts: list[str], words: list[set[str]]) -> list[Concept]:
    """The question's concepts (`question_concepts`) read as the answer types read them: by the everyday lexicon
    ("water tablet", "puffer", "jab") and as the note's names they stand for (`shorthand.widen`: heard, "flu clocks a
    sillin" for flucloxacillin; shortened, "fludro"; misspelt, "amlodapine", "stiches"), a brand by its generic name;
    `texts` are the note's sentences, `words` their words. So what the ranking finds the note naming, the coverage
    counts as named."""
    from archehr.answerability.shorthand import widen
    from archehr.glossary import load_lexicon

    lexicon = load_lexicon()
    return widen(question_concepts(question, lexicon), question, texts, words, lexicon)


def _concepts(question: str, glossary: Glossary | None) -> list[Concept]:
    g = glossary if glossary is not None else load_glossary()
    out: list[Concept] = []
    used: set[str] = set()
    for e in g.matches(question):
        surface = tuple(t for t in tokens(e.term) if t not in QUESTION_FILLER)
        phrases = {tuple(t for t in tokens(x) if t not in QUESTION_FILLER) or tuple(tokens(x))
                   for x in (e.term, *e.expansions)}
        phrases.discard(())
        if surface and phrases:
            out.append(Concept(surface, frozenset(phrases)))
            used.update(tokens(e.term))
    for t in dict.fromkeys(tokens(question)):
        if t not in QUESTION_FILLER and t not in used:
            out.append(Concept((t,), frozenset({(t,)})))
    return out


def features(case: Case, background: Background, glossary: Glossary | None = None,
             sentence_terms: list[list[str]] | None = None) -> np.ndarray:
    """The lexical feature row of one (note, question) case, in `FEATURE_NAMES` order."""
    g = glossary if glossary is not None else load_glossary()
    question = case.question_text
    # a brand drug name counts as found where the note gives its generic ("restoril" for temazepam), as in the
    # answer types: the words a note uses, whichever name the patient knows it by
    sents = [set(toks) for toks in (sentence_terms if sentence_terms is not None else note_terms(case, g))]
    concepts = resolved_concepts(question, sentence_texts(case.sentences), sents)
    headers = [is_header(s.text) for s in case.sentences]
    in_note = set().union(*sents) if sents else set()
    w = np.array([max(background.weight(t) for t in c.surface) for c in concepts]) if concepts else np.zeros(0)
    total = float(w.sum())
    present = np.array([c.covered_by(in_note) for c in concepts], dtype=bool)
    cov_w = float(w[present].sum()) / total if total > 0 else 0.0
    cov_p = float(present.mean()) if concepts else 0.0
    missing = w[~present]
    per_sentence = np.array([0.0 if h else float(sum(wt for c, wt in zip(concepts, w, strict=True)
                                                     if c.covered_by(toks)))
                             for toks, h in zip(sents, headers, strict=True)])
    best = float(per_sentence.max()) / total if total > 0 and per_sentence.size else 0.0
    window = np.convolve(per_sentence, np.ones(3), mode="same") if per_sentence.size else per_sentence
    best_w = min(1.0, float(window.max()) / total) if total > 0 and window.size else 0.0
    # a word no background note uses is as often a lay word ("scared", "faking") as a clinical one the note
    # lacks: the coverage of the words notes do use ("known") is the cleaner signal, the unknown share apart
    known = np.array([any(background.df.get(t, 0) > 0 for t in c.alternatives) for c in concepts], dtype=bool)
    kw = w * known
    known_cov = float(kw[present].sum()) / float(kw.sum()) if kw.sum() > 0 else 1.0
    unknown = float((~known).mean()) if concepts else 0.0
    # how much of the note is about the asked-about words: a drug named once in a medication list
    # supports an answer less than one the hospital course discusses (mentions per concept, capped at 3)
    mentions = np.array([sum(c.covered_by(toks) for toks, h in zip(sents, headers, strict=True) if not h)
                         for c in concepts], dtype=float)
    support = float((w * np.minimum(mentions, 3) / 3).sum()) / total if total > 0 else 0.0
    qt = question_type(question)
    row = [cov_w, cov_p, float(missing.max()) if missing.size else 0.0, math.log1p(int((missing > 0.5).sum())),
           best, best_w, math.log1p(len(concepts)), unknown, known_cov, support,
           *(float(qt == t) for t in QUESTION_TYPES if t != "other")]
    return np.array(row, dtype=float)


def embedding_features(case: Case, encoder: object) -> np.ndarray:
    """MiniLM cosine of the question with its best note sentence, and the mean of its best three."""
    texts = [t for t, s in zip(sentence_texts(case.sentences), case.sentences, strict=True) if not is_header(s.text)]
    if not texts:
        return np.zeros(len(EMBEDDING_FEATURES))
    v = np.asarray(encoder.encode([case.question_text] + texts))  # type: ignore[attr-defined]
    v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    cos = np.sort(v[1:] @ v[0])[::-1]
    return np.array([float(cos[0]), float(cos[:3].mean())])


def reading_features(case: Case, token_encoder: object) -> np.ndarray:
    """The token alignment row (`archehr.answerability.reading.READING_FEATURES`) of the question with
    the note's non-header sentences."""
    from archehr.answerability.reading import alignment_features

    texts = [t for t, s in zip(sentence_texts(case.sentences), case.sentences, strict=True) if not is_header(s.text)]
    states = token_encoder.states([case.question_text, *texts])  # type: ignore[attr-defined]
    return alignment_features(states[0], states[1:])
