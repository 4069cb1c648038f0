"""Features of (clinician answer sentence, note sentence) pairs for the learned st4 aligner.

Every feature is computed within one case, so nothing depends on other cases: lexical overlap in
several normalisations (the answer paraphrases the note in lay words, so the glossary expands note
abbreviations and answer terms), BM25 of the answer sentence against the note, its rank, neighbours,
competition with the other answer sentences of the case, shared numbers, position, the selector's
relevance probability and, optionally, MiniLM cosine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.data.model import Case, ClinicianAnswerSentence
from archehr.glossary import Glossary, load_glossary, load_lexicon
from archehr.relevance.base import SentenceScores
from archehr.relevance.everyday import everyday_sentence_tokens
from archehr.relevance.lexical import bm25, sentence_tokens
from archehr.relevance.text import is_header, sentence_texts, tokens

LEXICAL_FEATURES: tuple[str, ...] = (
    "bm25_rel",  # BM25 of the answer sentence against each note sentence / the best one
    "bm25_rank",  # 1 / (1 + rank) by bm25_rel within the answer sentence
    "jaccard",  # stem-set Jaccard
    "jaccard_rel",  # Jaccard / the best Jaccard of the answer sentence
    "cover_answer",  # share of the answer's stems found in the sentence
    "cover_sentence",  # share of the sentence's stems found in the answer
    "neighbour_rel",  # best bm25_rel of the previous / next sentence (a cited run of sentences)
    "other_margin",  # bm25_rel minus the best bm25_rel of the same sentence for another answer sentence
    "shared_numbers",  # log(1 + numbers in both)
    "position_gap",  # |relative answer position - relative sentence position|: answers follow the note
    "log_note_sentences",  # long notes: each sentence less likely
)
SELECTOR_FEATURES: tuple[str, ...] = ("selector_prob", "selector_rank")
EMBEDDING_FEATURES: tuple[str, ...] = ("cosine", "cosine_rel")
EVERYDAY_FEATURES: tuple[str, ...] = (
    "ev_bm25_rel",  # BM25 with the everyday lexicon: lay words expanded, the note's drugs read as their lay classes
    "ev_class_hit",  # log(1 + drug classes named by both: "blood thinner" in the answer, apixaban in the note)
)
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "lexical": LEXICAL_FEATURES,
    "lexical+selector": LEXICAL_FEATURES + SELECTOR_FEATURES,
    "lexical+selector+everyday": LEXICAL_FEATURES + SELECTOR_FEATURES + EVERYDAY_FEATURES,
    "lexical+embedding": LEXICAL_FEATURES + EMBEDDING_FEATURES,
    "lexical+selector+embedding": LEXICAL_FEATURES + SELECTOR_FEATURES + EMBEDDING_FEATURES,
}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _rel(x: np.ndarray) -> np.ndarray:
    """Each row divided by its maximum (rows without a positive value stay 0)."""
    m = x.max(axis=1, keepdims=True) if x.size else x
    return np.where(m > 0, x / np.where(m > 0, m, 1.0), 0.0)


def _rank_score(x: np.ndarray) -> np.ndarray:
    """1 / (1 + rank) within each row (rank 0 = best; ties keep note order)."""
    out = np.zeros_like(x)
    for i, row in enumerate(x):
        order = np.argsort(-row, kind="stable")
        out[i, order] = 1.0 / (1.0 + np.arange(len(row)))
    return out


def _neighbours(x: np.ndarray) -> np.ndarray:
    prev = np.pad(x[:, :-1], ((0, 0), (1, 0)))
    nxt = np.pad(x[:, 1:], ((0, 0), (0, 1)))
    return np.maximum(prev, nxt)


def _other_margin(x: np.ndarray) -> np.ndarray:
    """x[i, j] - max over the other rows of x[:, j] (0 other rows -> x itself)."""
    if x.shape[0] < 2:
        return x.copy()
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] - np.delete(x, i, axis=0).max(axis=0)
    return out


def _selector(case: Case, scores: SentenceScores | None) -> np.ndarray:
    if scores is None:
        return np.zeros(len(case.sentences))
    by_id = dict(zip(scores.sentence_ids, scores.relevant(), strict=True))
    return np.clip(np.array([by_id.get(s.id, 0.0) for s in case.sentences], dtype=float), 0.0, 1.0)


def headers(case: Case) -> np.ndarray:
    return np.array([is_header(s.text) for s in case.sentences], dtype=bool)


def pair_features(case: Case, answers: Sequence[ClinicianAnswerSentence], names: Sequence[str],
                  scores: SentenceScores | None = None, glossary: Glossary | None = None,
                  encoder: object | None = None) -> np.ndarray:
    """(n_answers, n_sentences, len(names)) features, columns in `names` order."""
    g = glossary if glossary is not None else load_glossary()
    na, ns = len(answers), len(case.sentences)
    docs = sentence_tokens(case, g)
    queries = [tokens(g.expand(a.text)) for a in answers]
    qsets, dsets = [set(q) for q in queries], [set(d) for d in docs]
    hdr = headers(case)
    raw = np.array([bm25(q, docs) for q in queries]).reshape(na, ns)
    raw[:, hdr] = 0.0
    bm = _rel(raw)
    inter = np.array([[len(q & d) for d in dsets] for q in qsets], dtype=float).reshape(na, ns)
    qlen = np.array([max(1, len(q)) for q in qsets], dtype=float)[:, None]
    dlen = np.array([max(1, len(d)) for d in dsets], dtype=float)[None, :]
    jac = inter / np.maximum(qlen + dlen - inter, 1.0)
    jac[:, hdr] = 0.0
    nums_a = [set(_NUMBER.findall(a.text)) for a in answers]
    nums_s = [set(_NUMBER.findall(s.text)) for s in case.sentences]
    cols: dict[str, np.ndarray] = {
        "bm25_rel": bm,
        "bm25_rank": _rank_score(bm),
        "jaccard": jac,
        "jaccard_rel": _rel(jac),
        "cover_answer": inter / qlen,
        "cover_sentence": inter / dlen,
        "neighbour_rel": _neighbours(bm),
        "other_margin": _other_margin(bm),
        "shared_numbers": np.log1p(np.array([[len(a & s) for s in nums_s] for a in nums_a], dtype=float)
                                   ).reshape(na, ns),
        "position_gap": np.abs(np.arange(na)[:, None] / max(1, na - 1) - np.arange(ns)[None, :] / max(1, ns - 1)),
        "log_note_sentences": np.full((na, ns), np.log(ns)),
    }
    if any(n in SELECTOR_FEATURES for n in names):
        p = _selector(case, scores)
        cols["selector_prob"] = np.broadcast_to(p, (na, ns))
        cols["selector_rank"] = np.broadcast_to(_rank_score(p[None, :])[0], (na, ns))
    if any(n in EMBEDDING_FEATURES for n in names):
        cos = _cosines(case, answers, encoder)
        cos[:, hdr] = 0.0
        cols["cosine"] = cos
        cols["cosine_rel"] = cos - cos.max(axis=1, keepdims=True)
    if any(n in EVERYDAY_FEATURES for n in names):
        cols["ev_bm25_rel"], cols["ev_class_hit"] = _everyday(case, answers, hdr)
    missing = [n for n in names if n not in cols]
    if missing:  # a model file naming features this code does not build is caught at load time
        raise KeyError(f"unknown pair features: {', '.join(missing)}")
    return np.stack([cols[n] for n in names], axis=-1).astype(float)


def _everyday(case: Case, answers: Sequence[ClinicianAnswerSentence], hdr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The `EVERYDAY_FEATURES` columns: the answer speaks the patient's words, the note the clinician's."""
    lex = load_lexicon()
    docs, classes = everyday_sentence_tokens(sentence_texts(case.sentences), lex)
    na, ns = len(answers), len(case.sentences)
    raw = np.array([bm25(tokens(lex.expand(a.text)), docs) for a in answers]).reshape(na, ns)
    raw[:, hdr] = 0.0
    a_classes = [{e.expansions[0] for e in lex.matches(a.text) if e.kind == "class" and e.expansions}
                 for a in answers]
    _, a_drug_classes = everyday_sentence_tokens([a.text for a in answers], lex)
    hits = np.array([[len((ac | ad) & c) for c in classes] for ac, ad in zip(a_classes, a_drug_classes, strict=True)],
                    dtype=float).reshape(na, ns)
    hits[:, hdr] = 0.0
    return _rel(raw), np.log1p(hits)


def _cosines(case: Case, answers: Sequence[ClinicianAnswerSentence], encoder: object | None) -> np.ndarray:
    from archehr.relevance.embedding import get_encoder

    enc = encoder or get_encoder()
    ea = enc.encode([a.text for a in answers])  # type: ignore[attr-defined]
    eb = enc.encode([s.text for s in case.sentences])  # type: ignore[attr-defined]
    ea = ea / np.maximum(np.linalg.norm(ea, axis=1, keepdims=True), 1e-12)
    eb = eb / np.maximum(np.linalg.norm(eb, axis=1, keepdims=True), 1e-12)
    return np.asarray(ea @ eb.T, dtype=float)
