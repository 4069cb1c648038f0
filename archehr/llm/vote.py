"""One vote over sets: each sample (a model's reply, a run, an ensemble member) names a set of items.

Pure and dependency-free, so the in-run self-consistency votes (LLM evidence, LLM alignment) and
votes across runs use the same rule. Weights default to 1 per sample; a sample's weight counts for
every item it names. Tie rule: an item whose weighted share equals the threshold exactly is
**kept** (`share >= threshold`): with two samples that disagree, a link one of them gives survives
a threshold of 0.5, as the LLM aligner has always done.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T", bound=Hashable)


def shares(samples: Sequence[Collection[T]], weights: Sequence[float] | None = None) -> dict[T, float]:
    """Item -> weighted share of the samples naming it (0 < share <= 1); {} when there is no sample or no
    weight. Items appear in the order first named."""
    w = [1.0] * len(samples) if weights is None else [float(x) for x in weights]
    if len(w) != len(samples):
        raise ValueError(f"{len(samples)} samples but {len(w)} weights")
    if any(x < 0 for x in w):
        raise ValueError(f"weights must be non-negative, got {w}")
    total = sum(w)
    out: dict[T, float] = {}
    if total <= 0:
        return out
    for sample, weight in zip(samples, w, strict=True):
        for item in dict.fromkeys(sample):  # a sample names an item once, however often it repeats it
            out[item] = out.get(item, 0.0) + weight
    return {item: v / total for item, v in out.items()}


def elected(samples: Sequence[Collection[T]], threshold: float = 0.5,
            weights: Sequence[float] | None = None) -> list[T]:
    """The items whose weighted share is at least `threshold` (a tie is kept), in the order first named."""
    return [item for item, share in shares(samples, weights).items() if share >= threshold]
