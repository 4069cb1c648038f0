"""SARI as `evaluate`'s "sari" metric computes it (tensor2tensor variant: 0/0 = 1, fixed keep recall).

Texts are lowercased and 13a-tokenised (sacrebleu's tokenizer, as `evaluate` normalises them),
then split on single spaces; n-grams of orders 1..4 over add / keep / delete operations; the
per-sentence score is already on 0..100. The official 2025 scorer uses one source (narrative +
clinician question), the prediction and one reference (the essential sentences).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from archehr_scoring.metrics.base import TextExample, TextMetric, signature
from archehr_scoring.metrics.bleu import tokenize_13a


def normalize(sentence: str) -> str:
    """`evaluate` sari's normalize(): lowercase, then sacrebleu 13a, joined back with single spaces."""
    return " ".join(tokenize_13a(sentence.lower()))


def _orders(tokens: list[str]) -> list[list[str]]:
    """1..4-grams as space-joined strings (what the reference implementation compares)."""
    return [tokens] + [list(map(" ".join, zip(*(tokens[k:] for k in range(n)), strict=False))) for n in (2, 3, 4)]


def _sari_ngram(sgrams: list[str], cgrams: list[str], rgramslist: list[list[str]], numref: int
                ) -> tuple[float, float, float]:
    """`SARIngram` of the reference implementation, in one pass over the source n-grams.

    The reference builds Counter intersections/differences (`s & c`, `keep & r`, `s - c`, ...), which
    keep the source's n-gram order; the float sums below visit the same n-grams in the same order, so
    the result is bit-identical, without the per-key Python calls of Counter arithmetic.
    """
    rgramcounter = Counter(g for rgrams in rgramslist for g in rgrams)
    sgramcounter = Counter(sgrams)
    cgramcounter = Counter(cgrams)
    if numref == 1:
        s_rep, c_rep = sgramcounter, cgramcounter
    else:
        s_rep = Counter({g: c * numref for g, c in sgramcounter.items()})
        c_rep = Counter({g: c * numref for g, c in cgramcounter.items()})

    cget, rget = c_rep.get, rgramcounter.get
    keep1 = 0.0  # sum over keep_good of keep_good/keep, in source order
    keep2 = 0.0  # sum of keep_good
    n_keep = 0  # len(keep)
    keep_all = 0  # sum of (s_rep & r)
    del1 = 0.0  # sum over dele_good of dele_good/dele, in source order
    n_dele = 0  # len(dele)
    for g, s_n in s_rep.items():
        c_n = cget(g, 0)
        r_n = rget(g, 0)
        if c_n > 0:  # KEEP: min(s, c) > 0
            k = s_n if s_n < c_n else c_n
            n_keep += 1
            good = k if k < r_n else r_n
            if good > 0:
                keep1 += good / k
                keep2 += good
        if r_n > 0:
            keep_all += s_n if s_n < r_n else r_n
        d = s_n - c_n  # DELETION: (s - c) > 0, good part (s - c) - r > 0
        if d > 0:
            n_dele += 1
            good = d - r_n
            if good > 0:
                del1 += good / d
    keep_p = keep1 / n_keep if n_keep > 0 else 1
    keep_r = keep2 / keep_all if keep_all > 0 else 1
    keepscore = 2 * keep_p * keep_r / (keep_p + keep_r) if keep_p > 0 or keep_r > 0 else 0

    # DELETION (precision only, as in the paper)
    del_p = del1 / n_dele if n_dele > 0 else 1

    # ADDITION
    add = cgramcounter.keys() - sgramcounter.keys()
    add_good = add & rgramcounter.keys()
    add_all = rgramcounter.keys() - sgramcounter.keys()
    add_p = len(add_good) / len(add) if len(add) > 0 else 1
    add_r = len(add_good) / len(add_all) if len(add_all) > 0 else 1
    addscore = 2 * add_p * add_r / (add_p + add_r) if add_p > 0 or add_r > 0 else 0
    return keepscore, del_p, addscore


def sari_sentence(source: str, prediction: str, references: Sequence[str]) -> float:
    """SARI of one (normalised) sentence on 0..1, as `SARIsent`."""
    s = _orders(source.split(" "))
    c = _orders(prediction.split(" "))
    r = [_orders(ref.split(" ")) for ref in references]
    keeps, dels, adds = [], [], []
    for n in range(4):
        k, d, a = _sari_ngram(s[n], c[n], [rr[n] for rr in r], len(references))
        keeps.append(k)
        dels.append(d)
        adds.append(a)
    return (sum(keeps) / 4 + sum(dels) / 4 + sum(adds) / 4) / 3


def sari(source: str, prediction: str, references: Sequence[str]) -> float:
    """One `evaluate` sari call with one source/prediction/reference list, on 0..100."""
    return 100 * sari_sentence(normalize(source), normalize(prediction), [normalize(r) for r in references])


class Sari(TextMetric):
    name = "sari"
    keys = ("sari",)
    value_range = (0.0, 100.0)
    card = ("SARI of `evaluate` (lowercase, 13a tokens, n-grams 1..4, add/keep F1 and delete precision; 0/0 = 1), "
            "source = narrative + clinician question, reference = the essential sentences (or the clinician "
            "answer), one case at a time; already 0..100.")

    def signature(self) -> str:
        from archehr_scoring.metrics.bleu import _version

        return signature("SARI", nrefs=1, tok="13a", lc="yes", order=4, impl="evaluate-sari",
                         ref=self.reference_kind, version=_version())

    def compute(self, examples: Sequence[TextExample]) -> dict[str, dict[str, float]]:
        out = {}
        for ex in examples:
            source = ex.sari_source if ex.sari_source is not None else ""
            reference = ex.sari_reference if ex.sari_reference is not None else ex.reference
            out[ex.case_id] = {"sari": sari(source, ex.prediction, [reference])}
        return out
