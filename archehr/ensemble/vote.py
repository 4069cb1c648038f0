"""The two choices an ensemble makes: a weighted vote per item, and a minimum-Bayes-risk text.

**Vote** (evidence ids, st4 links, a 2025 answer's citations): the one vote of the package,
`archehr.llm.vote` (the LLM evidence and alignment self-consistency votes use it too): item x gets support
`sum(w_i for ballots i holding x) / sum(w_i)`, in [0, 1], and is chosen when its support is at least the
threshold (a tie is kept: with four equal voters and 0.5, two votes of four carry). When nothing reaches
the threshold, the best-supported items are taken (every item at the top support, ties included), so a case
is never left empty because its voters disagree; a case no voter gave any item stays empty. Items come out
in first-seen order (voter order, then each ballot's order).

**Text** (st1 questions, st3 answers, the 2025 answer's text): the voter text with the highest weighted
agreement with the other voters, `sum_j w_j * sim(t_i, t_j)` over j != i, sim = ROUGE-L F1 (the scorer's
own tokenizer and LCS, `archehr_scoring.metrics.rouge`). Ties go to the earlier voter (command-line order).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, TypeVar

from archehr.llm.vote import elected, shares
from archehr_scoring.metrics.rouge import rouge_l, tokenize

T = TypeVar("T", bound=Hashable)
EPS = 1e-9  # support is a ratio of float sums: the top support, up to rounding
SIMILARITY = "rougeL-f1 (archehr_scoring.metrics.rouge, no stemming)"


@dataclass(frozen=True)
class VoteResult(Generic[T]):
    chosen: tuple[T, ...]
    support: dict[T, float]  # every item any ballot held
    fell_back: bool  # nothing reached the threshold: the best-supported items were taken


def weighted_vote(ballots: Sequence[tuple[float, Sequence[T]]], threshold: float) -> VoteResult[T]:
    """Items whose weighted share of the ballots reaches `threshold` (see the module docstring)."""
    samples = [items for _, items in ballots]
    weights = [w for w, _ in ballots]
    support = shares(samples, weights)
    if not support:  # no item, or no weight
        items = dict.fromkeys(x for s in samples for x in s)
        return VoteResult((), {x: 0.0 for x in items}, False)
    chosen = tuple(elected(samples, threshold, weights))
    if chosen:
        return VoteResult(chosen, support, False)
    top = max(support.values())
    return VoteResult(tuple(x for x, s in support.items() if s >= top - EPS), support, True)


def similarity(a: str, b: str) -> float:
    """ROUGE-L F1 of two texts with the scorer's tokenizer (symmetric)."""
    return _similarity(a, b) if a <= b else _similarity(b, a)


@lru_cache(maxsize=1 << 16)
def _similarity(a: str, b: str) -> float:
    # fitting on dev builds the same cases' ensembles under many settings: each pair is compared once
    return rouge_l(tokenize(a), tokenize(b))


@dataclass(frozen=True)
class TextChoice:
    index: int  # which voter's text
    agreement: tuple[float, ...]  # per voter: weighted mean similarity to the others


def mbr_choice(texts: Sequence[str], weights: Sequence[float]) -> TextChoice:
    """The minimum-Bayes-risk text: the highest weighted similarity to the other texts; ties: earliest."""
    if not texts:
        raise ValueError("mbr_choice needs at least one text")
    scores: list[float] = []
    for i in range(len(texts)):
        others = [(weights[j], similarity(texts[i], texts[j])) for j in range(len(texts)) if j != i]
        wsum = sum(w for w, _ in others)
        scores.append(sum(w * s for w, s in others) / wsum if wsum > 0 else 0.0)
    best = max(range(len(texts)), key=lambda i: (round(scores[i], 12), -i))
    return TextChoice(best, tuple(round(s, 6) for s in scores))
