"""Sentence similarity for the `llm` generator (demonstration retrieval, citation repair).

`embedding` uses the relevance package's MiniLM encoder; `lexical` is token-set overlap and
needs nothing. `auto` takes the embedding when the model is installed; which one ran is recorded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.errors import ConfigError

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("the a an and or of to in on for with was is are were be been his her he she they their my "
                  "it at by as from that this did do not no".split())


def _tokens(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


class Similarity:
    def __init__(self, kind: str = "auto"):
        if kind not in ("auto", "embedding", "lexical"):
            raise ConfigError(f"similarity must be auto, embedding or lexical, not {kind!r}")
        if kind == "auto":
            try:
                from archehr.relevance.embedding import embeddings_available

                kind = "embedding" if embeddings_available()[0] else "lexical"
            except ImportError:
                kind = "lexical"
        self.kind = kind

    def matrix(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        """len(a) x len(b) similarities (cosine for embeddings, Jaccard for tokens)."""
        if not a or not b:
            return np.zeros((len(a), len(b)))
        if self.kind == "embedding":
            from archehr.relevance.embedding import get_encoder

            enc = get_encoder()
            ea, eb = enc.encode(list(a)), enc.encode(list(b))
            ea = ea / np.maximum(np.linalg.norm(ea, axis=1, keepdims=True), 1e-12)
            eb = eb / np.maximum(np.linalg.norm(eb, axis=1, keepdims=True), 1e-12)
            return ea @ eb.T
        ta, tb = [_tokens(x) for x in a], [_tokens(x) for x in b]
        out = np.zeros((len(a), len(b)))
        for i, x in enumerate(ta):
            for j, y in enumerate(tb):
                u = len(x | y)
                out[i, j] = len(x & y) / u if u else 0.0
        return out
