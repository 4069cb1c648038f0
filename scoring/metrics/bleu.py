"""BLEU exactly as the `evaluate` "bleu" metric computes it, without loading anything from a hub.

`evaluate`'s bleu tokenises with its copy of sacrebleu's 13a tokenizer and scores with
tensorflow/nmt's `compute_bleu` (max order 4, no smoothing, brevity penalty from the shortest
reference). The official 2025 scorer calls it once per case and averages, so we do the same.
The 13a tokenizer is written out here (pure `re`) because importing sacrebleu or nltk costs more
than scoring a whole submission; tests check it token for token against sacrebleu's.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from archehr_scoring.metrics.base import TextExample, TextMetric, signature

# sacrebleu's TokenizerRegexp, in its order: punctuation and symbols, period/comma not preceded by a
# digit, period/comma not followed by a digit, dash after a digit. The first rule pads single
# characters, so it is applied as one `str.translate` (same string, several times faster).
_PUNCT_RE = re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])")
_PUNCT = {c: f" {chr(c)} " for c in range(128) if _PUNCT_RE.fullmatch(chr(c))}
_REGEXES = (
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
)
_DIGIT_DASH = re.compile(r"([0-9])(-)")


@lru_cache(maxsize=2**16)
def tokenize_13a(line: str) -> tuple[str, ...]:
    """mteval-v13a tokenisation as sacrebleu's `Tokenizer13a` does it, returned as tokens."""
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} ".translate(_PUNCT)
    if "." in line or "," in line:
        for regex, repl in _REGEXES:
            line = regex.sub(repl, line)
    if "-" in line:
        line = _DIGIT_DASH.sub(r"\1 \2 ", line)
    return tuple(line.split())


def _ngrams(tokens: Sequence[str], max_order: int) -> Counter[tuple[str, ...]]:
    """Counts of the 1..max_order-grams (as tuples), counted in C by `Counter.update` over zips."""
    counts: Counter[tuple[str, ...]] = Counter()
    for order in range(1, max_order + 1):
        counts.update(zip(*(tokens[k:] for k in range(order)), strict=False))
    return counts


def compute_bleu(references: Sequence[Sequence[Sequence[str]]], translations: Sequence[Sequence[str]],
                 max_order: int = 4, smooth: bool = False) -> float:
    """tensorflow/nmt corpus BLEU on 0..1 (the arithmetic order matches, so the floats match)."""
    matches = [0] * max_order
    possible = [0] * max_order
    ref_len = 0
    trans_len = 0
    for refs, trans in zip(references, translations, strict=True):
        ref_len += min(len(r) for r in refs)
        trans_len += len(trans)
        if len(refs) == 1:  # the usual case: the union of one Counter is itself (and `|` is a Python loop)
            merged = _ngrams(refs[0], max_order)
        else:
            merged = Counter()
            for r in refs:
                merged |= _ngrams(r, max_order)
        # Clipped counts (`trans & merged`); integer sums, so the iteration order cannot change them.
        get = merged.get
        for ngram, n in _ngrams(trans, max_order).items():
            m = get(ngram)
            if m:
                matches[len(ngram) - 1] += n if n < m else m
        for order in range(1, max_order + 1):
            if len(trans) - order + 1 > 0:
                possible[order - 1] += len(trans) - order + 1
    precisions = [0.0] * max_order
    for i in range(max_order):
        if smooth:
            precisions[i] = (matches[i] + 1.0) / (possible[i] + 1.0)
        elif possible[i] > 0:
            precisions[i] = float(matches[i]) / possible[i]
    if min(precisions) > 0:
        geo_mean = math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions))
    else:
        geo_mean = 0.0
    # Newer `evaluate` returns 0 for an empty side; older versions raised ZeroDivisionError.
    if ref_len == 0 or trans_len == 0:
        return 0.0
    ratio = float(trans_len) / ref_len
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return geo_mean * bp


def sentence_bleu(prediction: str, reference: str) -> float:
    """One `evaluate` bleu call with one prediction and one reference, on 0..1."""
    return compute_bleu([[tokenize_13a(reference)]], [tokenize_13a(prediction)])


class Bleu(TextMetric):
    name = "bleu"
    keys = ("bleu",)
    value_range = (0.0, 100.0)
    card = ("BLEU of `evaluate` (tensorflow/nmt compute_bleu, 13a tokens, n-grams 1..4, no smoothing), "
            "one case at a time against the reference, x100; the leaderboard value is the mean over cases.")

    def signature(self) -> str:
        return signature("BLEU", nrefs=1, tok="13a", order=4, smooth="none", impl="nmt-compute_bleu",
                         ref=self.reference_kind, version=_version())

    def compute(self, examples: Sequence[TextExample]) -> dict[str, dict[str, float]]:
        return {ex.case_id: {"bleu": 100 * sentence_bleu(ex.prediction, ex.reference)} for ex in examples}


def _version() -> str:
    from archehr_scoring import __version__

    return f"archehr_scoring-{__version__}"
