"""ROUGE-1/2/L/Lsum F-measures as `evaluate`'s "rouge" (rouge-score 0.1.2, no stemmer) computes them.

The official scorer calls `evaluate`'s rouge once per case; with one case its bootstrap aggregator
returns that case's F-measure unchanged, so a per-case value is `RougeScorer.score(ref, pred)`.
rouge-score imports nltk at module level (seconds of start-up, for a stemmer we do not use), so the
default tokenizer and the scoring functions are written out here; tests compare them with
rouge-score itself on varied texts and with the official numbers.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import accumulate

from archehr_scoring.metrics.base import TextExample, TextMetric, signature

ROUGE_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_SPACES = re.compile(r"\s+")
_VALID = re.compile(r"^[a-z0-9]+$")


def tokenize(text: str) -> list[str]:
    """rouge-score's DefaultTokenizer without stemming: lowercase ASCII alphanumeric runs."""
    text = _NON_ALNUM.sub(" ", text.lower())
    return [t for t in _SPACES.split(text) if _VALID.match(t)]


def _fmeasure(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def _ngrams(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def rouge_n(target: Sequence[str], prediction: Sequence[str], n: int) -> float:
    t, p = _ngrams(target, n), _ngrams(prediction, n)
    hits = sum(min(c, p[g]) for g, c in t.items())
    precision = hits / max(sum(p.values()), 1)
    recall = hits / max(sum(t.values()), 1)
    return _fmeasure(precision, recall)


def _lcs_table(ref: Sequence[str], can: Sequence[str]) -> list[list[int]]:
    """rouge-score's LCS DP table, computed row by row in C-speed steps (same values).

    A row whose reference token does not occur in `can` equals the previous row (rows are
    non-decreasing), so it is shared; otherwise the matches are set and a running max fills the rest
    (valid because row[j-1] <= prev[j-1] + 1 always holds).
    """
    positions: dict[str, list[int]] = {}
    for j, tok in enumerate(can, start=1):
        positions.setdefault(tok, []).append(j)
    prev = [0] * (len(can) + 1)
    table = [prev]
    for r in ref:
        hits = positions.get(r)
        if hits is None:
            table.append(prev)
            continue
        tmp = prev[:]
        for j in hits:
            tmp[j] = prev[j - 1] + 1
        prev = list(accumulate(tmp, max))
        table.append(prev)
    return table


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """LCS length by the bit-parallel algorithm (Allison-Dix / Hyyro): one big-int step per token of `b`."""
    masks: dict[str, int] = {}
    for i, tok in enumerate(a):
        masks[tok] = masks.get(tok, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for tok in b:
        u = v & masks.get(tok, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


def rouge_l(target: Sequence[str], prediction: Sequence[str]) -> float:
    if not target or not prediction:
        return 0.0
    lcs = lcs_length(target, prediction)
    return _fmeasure(lcs / len(prediction), lcs / len(target))


def _lcs_indices(ref: Sequence[str], can: Sequence[str]) -> list[int]:
    """One LCS as indices into `ref`, read back exactly as rouge-score's `_backtrack_norec`."""
    t = _lcs_table(ref, can)
    i, j = len(ref), len(can)
    out: list[int] = []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            out.append(i - 1)
            i -= 1
            j -= 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    out.reverse()
    return out


def rouge_lsum(target: str, prediction: str) -> float:
    """Summary-level LCS over newline-separated sentences (rouge-score's `_summary_level_lcs`)."""
    ref_sents = [tokenize(s) for s in target.split("\n") if len(s)]
    can_sents = [tokenize(s) for s in prediction.split("\n") if len(s)]
    if not ref_sents or not can_sents:
        return 0.0
    m = sum(map(len, ref_sents))
    n = sum(map(len, can_sents))
    if not n or not m:
        return 0.0
    cnt_r: Counter[str] = Counter()
    cnt_c: Counter[str] = Counter()
    for s in ref_sents:
        cnt_r.update(s)
    for s in can_sents:
        cnt_c.update(s)
    hits = 0
    for r in ref_sents:
        union = sorted(set().union(*(_lcs_indices(r, c) for c in can_sents)))
        for tok in (r[i] for i in union):
            # rouge-score (like ROUGE 1.5.5) never counts a token more often than it occurs.
            if cnt_c[tok] > 0 and cnt_r[tok] > 0:
                hits += 1
                cnt_c[tok] -= 1
                cnt_r[tok] -= 1
    return _fmeasure(hits / n, hits / m)


def rouge_scores(target: str, prediction: str) -> dict[str, float]:
    """The four F-measures on 0..1 for one (reference, prediction) pair."""
    t, p = tokenize(target), tokenize(prediction)
    return {"rouge1": rouge_n(t, p, 1), "rouge2": rouge_n(t, p, 2), "rougeL": rouge_l(t, p),
            "rougeLsum": rouge_lsum(target, prediction)}


class Rouge(TextMetric):
    name = "rouge"
    keys = ROUGE_KEYS
    value_range = (0.0, 100.0)
    card = ("ROUGE-1/2/L/Lsum F-measure of rouge-score 0.1.2 (default tokenizer, no stemmer; rougeLsum splits "
            "sentences on newlines), one case at a time, x100; rougeLsum enters the overall relevance score.")

    def signature(self) -> str:
        from archehr_scoring.metrics.bleu import _version

        return signature("ROUGE", types="1+2+L+Lsum", stem="no", tok="rouge_score-default", lsum_split="newline",
                         stat="fmeasure", ref=self.settings.get("reference_kind", "essential"),
                         impl="rouge_score-0.1.2", version=_version())

    def compute(self, examples: Sequence[TextExample]) -> dict[str, dict[str, float]]:
        out = {}
        for ex in examples:
            out[ex.case_id] = {k: 100 * v for k, v in rouge_scores(ex.reference, ex.prediction).items()}
        return out
