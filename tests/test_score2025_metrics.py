"""BLEU / ROUGE / SARI: hand-derivable values, documented values, and parity with the reference libraries."""

from __future__ import annotations

import math
import random

import pytest

from archehr_scoring.metrics.base import TextExample
from archehr_scoring.metrics.bleu import Bleu, sentence_bleu, tokenize_13a
from archehr_scoring.metrics.registry import build_metric
from archehr_scoring.metrics.rouge import rouge_scores, tokenize
from archehr_scoring.metrics.sari import sari, sari_sentence

# Varied texts: punctuation, digits with dashes/periods, unicode, tabs, newlines, entities, empty lines.
TEXTS = [
    "The patient, a 58-year-old man, had Cr 2.1 (baseline 0.9-1.0) on 2187-10-19.",
    "He received 1 g/kg albumin; K normalized to 4.6 & Na 129 at discharge.",
    "Ünïcode — dashes and “quotes”\tTab inside the text.",
    "Line one.\nLine two with more words.\n\nLine four, after a blank line.",
    "&quot;Quoted&quot; &amp; escaped &lt;tags&gt; <skipped> hyphen-\nated",
    "",
    "   ",
    "a",
    "Why do I need a blood thinner if my heart rhythm is normal now?",
    "1,000 mg q.d. x 3 days; e.g. 5.5 L removed. $100 @ 50% off!",
]


def _random_texts(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    vocab = ["the", "patient", "heart", "rhythm", "Eliquis", "4", "weeks", "stroke", "risk", "bleed", "of", "is",
             "was", ",", ".", "(", ")", "2.5", "mg", "-", "CHA2DS2-VASc", "\n", "AF", "a", "normal"]
    return [" ".join(rng.choice(vocab) for _ in range(rng.randint(0, 40))) for _ in range(n)]


# --- BLEU ---------------------------------------------------------------------------------------------------------

def test_bleu_hand_values() -> None:
    assert sentence_bleu("a b c d", "a b c d") == 1.0
    # All n-gram precisions 1, candidate 4 tokens vs reference 6: brevity penalty exp(1 - 6/4).
    assert sentence_bleu("a b c d", "a b c d e f") == pytest.approx(math.exp(-0.5), rel=1e-12)
    assert sentence_bleu("a b c", "a b c d") == 0.0  # no 4-gram in a 3-token candidate -> 0 without smoothing
    assert sentence_bleu("", "a b") == 0.0 and sentence_bleu("a b", "") == 0.0


def test_bleu_documented_example() -> None:
    # From the `evaluate` bleu card: "hello there general kenobi" vs itself -> 1.0
    assert sentence_bleu("hello there general kenobi", "hello there general kenobi") == 1.0


def test_13a_tokenizer_matches_sacrebleu() -> None:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    ref = Tokenizer13a()
    for t in TEXTS + _random_texts(200):
        assert " ".join(tokenize_13a(t)) == ref(t), t


def test_bleu_matches_sacrebleu_statistics() -> None:
    """compute_bleu's n-gram counting equals sacrebleu's (same 13a tokens, no smoothing, closest=shortest ref)."""
    from sacrebleu.metrics import BLEU

    bleu = BLEU(tokenize="13a", smooth_method="none", effective_order=False)
    rng_texts = _random_texts(60, seed=3)
    for hyp, ref in zip(rng_texts[::2], rng_texts[1::2], strict=True):
        if not tokenize_13a(hyp) or not tokenize_13a(ref):
            continue
        ours = sentence_bleu(hyp, ref) * 100
        theirs = bleu.sentence_score(hyp, [ref]).score
        assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-9), (hyp, ref)


# --- ROUGE --------------------------------------------------------------------------------------------------------

def test_rouge_hand_values() -> None:
    s = rouge_scores("a b c", "a b d")
    assert s["rouge1"] == pytest.approx(2 / 3) and s["rougeL"] == pytest.approx(2 / 3)
    assert s["rouge2"] == pytest.approx(1 / 2)
    assert rouge_scores("", "a b") == {"rouge1": 0.0, "rouge2": 0.0, "rougeL": 0.0, "rougeLsum": 0.0}
    assert tokenize("Cr 2.1, K+ 5.6!") == ["cr", "2", "1", "k", "5", "6"]


def test_rouge_matches_rouge_score() -> None:
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=False)
    texts = TEXTS + _random_texts(80, seed=11)
    for ref, pred in zip(texts, texts[1:] + texts[:1], strict=True):
        ours = rouge_scores(ref, pred)
        theirs = scorer.score(ref, pred)
        for k in ours:
            assert ours[k] == pytest.approx(theirs[k].fmeasure, rel=1e-12, abs=1e-15), (k, ref, pred)


# --- SARI ---------------------------------------------------------------------------------------------------------

def test_sari_documented_example() -> None:
    # The `evaluate` sari card's example and printed value.
    refs = ["About 95 species are currently known .", "About 95 species are now accepted .",
            "95 species are now accepted ."]
    assert sari("About 95 species are currently accepted .", "About 95 you now get in .", refs) == \
        pytest.approx(26.953601953601954, rel=1e-12)


def test_sari_hand_values() -> None:
    # Identical source, prediction and reference: keep P=R=1, nothing deleted (0/0 = 1), nothing added (0/0 = 1).
    assert sari_sentence("a b c d", "a b c d", ["a b c d"]) == 1.0
    # Disjoint source / prediction / reference. Orders 1-2: keep 0/0 -> 1, delete 2/2 -> 1, add 0;
    # orders 3-4 have no n-grams at all: 1, 1, 1. SARI = (1 + 1 + (0 + 0 + 1 + 1) / 4) / 3.
    assert sari_sentence("x y", "p q", ["r s"]) == pytest.approx(2.5 / 3, rel=1e-12)


# --- metric classes -----------------------------------------------------------------------------------------------

def test_metric_classes_scale_and_signature() -> None:
    ex = [TextExample("1", "a b c d", "a b c d", sari_source="a b c d", sari_reference="a b c d")]
    assert Bleu().compute(ex) == {"1": {"bleu": 100.0}}
    rouge = build_metric("rouge", reference_kind="clinician")
    assert rouge.compute(ex)["1"] == {"rouge1": 100.0, "rouge2": 100.0, "rougeL": 100.0, "rougeLsum": 100.0}
    assert "ref:clinician" in rouge.signature()
    assert build_metric("sari").compute(ex) == {"1": {"sari": 100.0}}
    sig = Bleu().signature()
    assert sig.startswith("BLEU|nrefs:1|tok:13a|order:4|smooth:none|") and "version:" in sig


def test_bit_parallel_lcs_matches_dp_table() -> None:
    from archehr_scoring.metrics.rouge import _lcs_table, lcs_length

    rng = random.Random(5)
    for _ in range(300):
        a = [rng.choice("abcde") for _ in range(rng.randint(0, 70))]
        b = [rng.choice("abcdef") for _ in range(rng.randint(0, 70))]
        assert lcs_length(a, b) == _lcs_table(a, b)[-1][-1]
