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
from archehr_scoring.prf import f1

ROUGE_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def tokenize(text: str) -> list[str]:
    """rouge-score's DefaultTokenizer without stemming: lowercase ASCII alphanumeric runs.

    rouge-score splits on `\\s+` and keeps tokens matching `^[a-z0-9]+$`; after the substitution only
    [a-z0-9] runs and spaces are left, so `str.split()` yields exactly those tokens.
    """
    return _NON_ALNUM.sub(" ", text.lower()).split()


def _ngrams(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(zip(*(tokens[k:] for k in range(n)), strict=False))


def rouge_n(target: Sequence[str], prediction: Sequence[str], n: int) -> float:
    t, p = _ngrams(target, n), _ngrams(prediction, n)
    get = t.get
    hits = 0
    for g, c in p.items():  # sum of min(t, p) over shared n-grams (rouge-score loops over t; same integer)
        tc = get(g, 0)
        hits += c if c < tc else tc
    precision = hits / max(sum(p.values()), 1)
    recall = hits / max(sum(t.values()), 1)
    return f1(precision, recall)


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
    return f1(lcs / len(prediction), lcs / len(target))


def _lcs_indices_dp(ref: Sequence[str], can: Sequence[str]) -> list[int]:
    """One LCS as indices into `ref`, read back exactly as rouge-score's `_backtrack_norec` (from the DP table)."""
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


def _position_masks(can: Sequence[str]) -> dict[str, int]:
    """token -> bit mask of its positions in `can` (bit j-1 for position j)."""
    masks: dict[str, int] = {}
    for j, tok in enumerate(can):
        masks[tok] = masks.get(tok, 0) | (1 << j)
    return masks


def _lcs_indices(ref: Sequence[str], can: Sequence[str], masks: dict[str, int] | None = None) -> list[int]:
    """The same LCS as `_lcs_indices_dp` (rouge-score's read-back), from bit-parallel DP rows.

    Row i of the DP table is kept as one int `v` (Hyyro's bit-parallel LCS): t[i][j] = j - popcount(v_i & low_j),
    where low_j has the j lowest bits set. Building the rows costs one big-int step per reference token
    instead of a list per row, and the read-back takes the same path: "t[i][j-1] > t[i-1][j]" becomes
    popcount(v_{i-1} & low_j) - popcount(v_i & low_{j-1}) > 1.
    """
    if masks is None:
        masks = _position_masks(can)
    full = (1 << len(can)) - 1
    v = full
    rows = [v]
    for tok in ref:
        m = masks.get(tok)
        if m:
            u = v & m
            v = ((v + u) | (v - u)) & full
        rows.append(v)
    i, j = len(ref), len(can)
    out: list[int] = []
    while i > 0 and j > 0:
        tok = ref[i - 1]
        if tok == can[j - 1]:
            out.append(i - 1)
            i -= 1
            j -= 1
        elif tok not in masks:  # row i equals row i-1, so t[i][j-1] <= t[i-1][j]: the read-back moves up
            i -= 1
        elif (rows[i - 1] & ((1 << j) - 1)).bit_count() - (rows[i] & ((1 << (j - 1)) - 1)).bit_count() > 1:
            j -= 1
        else:
            i -= 1
    out.reverse()
    return out


def _lines_tokens(text: str) -> list[list[str]]:
    """rougeLsum's sentences: the non-empty newline-separated lines, tokenised (may be empty lists)."""
    return [tokenize(s) for s in text.split("\n") if len(s)]


def rouge_lsum(target: str, prediction: str, ref_sents: list[list[str]] | None = None,
               can_sents: list[list[str]] | None = None) -> float:
    """Summary-level LCS over newline-separated sentences (rouge-score's `_summary_level_lcs`)."""
    if ref_sents is None:
        ref_sents = _lines_tokens(target)
    if can_sents is None:
        can_sents = _lines_tokens(prediction)
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
    cans = [(c, _position_masks(c)) for c in can_sents if c]
    hits = 0
    for r in ref_sents:
        # A candidate sharing no token with r has an empty LCS, so it adds nothing to the union.
        union = sorted(set().union(*(_lcs_indices(r, c, masks) for c, masks in cans if not masks.keys().isdisjoint(r))))
        for tok in (r[i] for i in union):
            # rouge-score (like ROUGE 1.5.5) never counts a token more often than it occurs.
            if cnt_c[tok] > 0 and cnt_r[tok] > 0:
                hits += 1
                cnt_c[tok] -= 1
                cnt_r[tok] -= 1
    return f1(hits / n, hits / m)


def rouge_scores(target: str, prediction: str) -> dict[str, float]:
    """The four F-measures on 0..1 for one (reference, prediction) pair."""
    # Tokens never cross a newline, so the whole text's tokens are its lines' tokens joined (one pass each).
    ref_sents, can_sents = _lines_tokens(target), _lines_tokens(prediction)
    t = [tok for s in ref_sents for tok in s]
    p = [tok for s in can_sents for tok in s]
    return {"rouge1": rouge_n(t, p, 1), "rouge2": rouge_n(t, p, 2), "rougeL": rouge_l(t, p),
            "rougeLsum": rouge_lsum(target, prediction, ref_sents, can_sents)}


class Rouge(TextMetric):
    name = "rouge"
    keys = ROUGE_KEYS
    value_range = (0.0, 100.0)
    card = ("ROUGE-1/2/L/Lsum F-measure of rouge-score 0.1.2 (default tokenizer, no stemmer; rougeLsum splits "
            "sentences on newlines), one case at a time, x100; rougeLsum enters the overall relevance score.")

    def signature(self) -> str:
        from archehr_scoring.metrics.bleu import _version

        return signature("ROUGE", types="1+2+L+Lsum", stem="no", tok="rouge_score-default", lsum_split="newline",
                         stat="fmeasure", ref=self.reference_kind,
                         impl="rouge_score-0.1.2", version=_version())

    def compute(self, examples: Sequence[TextExample]) -> dict[str, dict[str, float]]:
        out = {}
        for ex in examples:
            out[ex.case_id] = {k: 100 * v for k, v in rouge_scores(ex.reference, ex.prediction).items()}
        return out
