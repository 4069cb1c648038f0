"""`lexical`: BM25 of each note sentence against the question fields, glossary-expanded, header-aware.

Section titles ("Brief Hospital Course:") score 0; a sentence inside a problem block
("# Syncope / heart block: ...") also gets part of its block title's score, because clinicians cite
the whole workup of the problem the patient asks about.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from archehr.bm25 import bm25, bm25_doc_weights, query_weights
from archehr.data.model import Case
from archehr.errors import InputError, Problem
from archehr.glossary import Glossary, load_glossary
from archehr.relevance.base import RelevanceClassifier, SentenceScores
from archehr.relevance.text import contexts, question_fields, sentence_texts, tokens

FIELDS = ("patient", "clinician", "narrative")
FIELD_WEIGHTS = {"patient": 1.0, "clinician": 1.0, "narrative": 0.5}


def require_sentences(case: Case) -> None:
    """Every classifier needs sentences to score; a case without them is bad input, named."""
    if not case.sentences:
        raise InputError(Problem("the case has no note sentences to score", case_id=case.case_id,
                                 field="note_excerpt_sentences", code="no-sentences"))


def bm25_matrix(docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75) -> np.ndarray:
    """B[j, i] = `bm25(docs[j], docs)[i]`: every doc of the note as the query against every doc, vectorised."""
    if not docs:
        return np.zeros((0, 0))
    _, tf, w = bm25_doc_weights(docs, k1, b)
    return query_weights(tf) @ w.T


def max_norm(x: np.ndarray) -> np.ndarray:
    m = float(x.max()) if x.size else 0.0
    return x / m if m > 0 else np.zeros_like(x)


def percentile_rank(x: np.ndarray) -> np.ndarray:
    """Percentile rank in [0, 1] within the case (ties share the mean rank)."""
    n = len(x)
    if n <= 1:
        return np.ones(n)
    order = x.argsort(kind="stable")
    ranks = np.empty(n)
    ranks[order] = np.arange(n)
    for v in np.unique(x):  # average ties so equal scores get equal features
        m = x == v
        ranks[m] = ranks[m].mean()
    return ranks / (n - 1)


def sentence_tokens(case: Case, glossary: Glossary | None) -> list[list[str]]:
    """Sentence tokens plus the expansions of the abbreviations they use (HTN -> hypertension)."""
    out = []
    for text in sentence_texts(case.sentences):
        extra = []
        if glossary is not None:
            extra = [x for e in glossary.matches(text) if e.kind == "abbr" for x in e.expansions]
        out.append(tokens(text + " " + " ".join(extra)))
    return out


def query_tokens(case: Case, glossary: Glossary | None) -> dict[str, list[str]]:
    fields = question_fields(case)
    if glossary is not None:
        fields = {k: glossary.expand(v) for k, v in fields.items()}
    return {k: tokens(v) for k, v in fields.items()}


def field_similarities(case: Case, glossary: Glossary | None) -> dict[str, np.ndarray]:
    """Raw BM25 of every sentence against each question field (headers forced to 0)."""
    docs = sentence_tokens(case, glossary)
    queries = query_tokens(case, glossary)
    headers = np.array([c.header for c in contexts(case)], dtype=bool)
    out = {}
    for f in FIELDS:
        s = bm25(queries[f], docs)
        s[headers] = 0.0
        out[f] = s
    return out


def block_title_similarity(case: Case, glossary: Glossary | None) -> np.ndarray:
    """BM25 of each sentence's problem-block title against all question fields together (0 outside blocks)."""
    ctx = contexts(case)
    titles = sorted({c.block_title for c in ctx if c.block_title})
    if not titles:
        return np.zeros(len(ctx))
    q = [t for toks in query_tokens(case, glossary).values() for t in toks]
    docs = sentence_tokens(case, glossary)  # IDF from the note, titles scored as docs of that note
    title_tokens = [tokens(t + " " + " ".join(x for e in (glossary.matches(t) if glossary else ())
                                              if e.kind == "abbr" for x in e.expansions)) for t in titles]
    scores = bm25(q, list(docs) + title_tokens)[len(docs):]
    by_title = dict(zip(titles, max_norm(scores), strict=True))
    return np.array([by_title.get(c.block_title, 0.0) for c in ctx])


def combined_lexical(case: Case, glossary: Glossary | None, block_weight: float = 0.3) -> np.ndarray:
    """The lexical classifier's score in [0, 1]: weighted max-normalised field scores plus block context."""
    sims = field_similarities(case, glossary)
    total = sum(FIELD_WEIGHTS[f] * max_norm(sims[f]) for f in FIELDS) / sum(FIELD_WEIGHTS.values())
    headers = np.array([c.header for c in contexts(case)], dtype=bool)
    s = max_norm(total) + block_weight * block_title_similarity(case, glossary)
    s[headers] = 0.0
    return max_norm(s)


class LexicalClassifier(RelevanceClassifier):
    """Unsupervised: the score is a similarity in [0, 1], not a calibrated probability.

    It is reported as P(essential) (P(supplementary) = 0) so a selector threshold applies directly.
    """

    name = "lexical"

    def __init__(self, use_glossary: bool = True, block_weight: float = 0.3):
        self.use_glossary = use_glossary
        self.block_weight = block_weight

    def score(self, case: Case) -> SentenceScores:
        require_sentences(case)
        g = load_glossary() if self.use_glossary else None
        s = combined_lexical(case, g, self.block_weight)
        return SentenceScores(case.case_id, case.sentence_ids, tuple(float(x) for x in s), (0.0,) * len(s))


class CiteAllClassifier(RelevanceClassifier):
    """The reference baseline: every sentence gets probability 1 (cites the whole note)."""

    name = "cite-all"

    def score(self, case: Case) -> SentenceScores:
        require_sentences(case)
        n = len(case.sentences)
        return SentenceScores(case.case_id, case.sentence_ids, (1.0,) * n, (0.0,) * n)
