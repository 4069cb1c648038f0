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


def _stems(text: str) -> set[str]:
    # a 5-letter prefix is a crude stemmer that needs nothing: "placed"/"placement", "bleed"/"bleeding"
    return {w[:5] for w in _tokens(text)}


class Similarity:
    """`matrix` compares texts symmetrically; `support` asks how far a line is backed by a sentence."""

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

    def support(self, lines: Sequence[str], sentences: Sequence[str]) -> np.ndarray:
        """len(lines) x len(sentences): how much of each line a note sentence backs.

        Embeddings: cosine (meaning). Lexical: the share of the line's content words (5-letter stems)
        found in the sentence; unlike Jaccard it does not punish a short line for a long sentence.
        One shared word ("heart") is no evidence, so lexical support needs two shared stems (or all
        of a one-word line).
        """
        if self.kind == "embedding" or not lines or not sentences:
            return self.matrix(lines, sentences)
        la, sb = [_stems(x) for x in lines], [_stems(x) for x in sentences]
        out = np.zeros((len(lines), len(sentences)))
        for i, x in enumerate(la):
            for j, y in enumerate(sb):
                shared = len(x & y)
                out[i, j] = shared / len(x) if x and (shared >= 2 or shared == len(x)) else 0.0
        return out
