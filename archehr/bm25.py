"""Okapi BM25 with IDF from the scored documents themselves (one note, or one pool of demonstrations).

Below every subpackage that ranks text: relevance features and the LLM components' demonstration pool
score with the same formula, and neither may import the other."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np


def bm25_doc_weights(docs: Sequence[Sequence[str]], k1: float,
                      b: float) -> tuple[dict[str, int], np.ndarray, np.ndarray]:
    """(term -> column, TF, W): TF[i, t] counts term t in doc i, W[i, t] is its BM25 weight (IDF from the docs)."""
    n = len(docs)
    vocab = {t: k for k, t in enumerate(dict.fromkeys(t for d in docs for t in d))}
    tf = np.zeros((n, len(vocab)))
    for i, d in enumerate(docs):
        for t, f in Counter(d).items():
            tf[i, vocab[t]] = f
    df = (tf > 0).sum(axis=0)
    idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
    avg = sum(len(d) for d in docs) / n or 1.0
    norm = k1 * (1 - b + b * np.array([len(d) for d in docs]) / avg)
    return vocab, tf, idf * tf * (k1 + 1) / (tf + norm[:, None])  # W is 0 where the term is absent


def query_weights(tf: np.ndarray) -> np.ndarray:
    """Query-side weight of a term seen `tf` times: 1 + log(tf), 0 when absent."""
    return np.where(tf > 0, 1 + np.log(np.maximum(tf, 1)), 0.0)


def bm25(query: Sequence[str], docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75) -> np.ndarray:
    """Okapi BM25 of one query against each doc, IDF from the docs themselves (one note)."""
    if not docs:
        return np.zeros(0)
    vocab, _, w = bm25_doc_weights(docs, k1, b)
    q = np.zeros(len(vocab))
    for t, f in Counter(query).items():
        if t in vocab:  # a query term no doc holds adds nothing
            q[vocab[t]] = f
    return w @ query_weights(q)
