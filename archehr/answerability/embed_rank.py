"""MiniLM similarity of the question with each note sentence, as a ranking signal (`archehr answer --ranker
embedding`).

The hand ranking (`kinds.answer_types`) scores a sentence by the share of the question's topic it names: a
sentence that answers in other words than the question's ("Can I go back to the gym?" / "No heavy lifting for six
weeks.") names none of it and ranks nowhere. Here each sentence's cosine with the question (all-MiniLM-L6-v2, the
relevance encoder, `archehr.relevance.embedding`) is scaled within the note, from the note's median sentence (0) to
its most similar one (1), and lifts the sentence's answer score (`embedding_lift`): by `W_EMBED` of it for one
holding the asked kind of answer, `HOLDS_FLOOR` of that for one that does not (as a named topic counts in
`kinds._score`), only when the hand ranking's best answer score is under `WEAK` (no sentence names the topic and
holds the asked kind firmly: there the first line is mostly right already). `FALLBACK_ONLY` would lift only the
sentences naming none of the topic; lifting every sentence did better. The three were chosen among seven
candidates by leave-one-writer-out and forward over the everyday writers (`benchmarks/embed_ranker.py`,
docs/answer-methods.md "Sentence similarity as a ranking signal").
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from archehr.errors import ConfigError, Problem

RANKERS = ("auto", "hand", "embedding")
W_EMBED = 0.2  # the lift of the note's most similar sentence holding the asked kind (docs/answer-methods.md)
HOLDS_FLOOR = 0.35  # ... its share for a sentence not holding it (kinds.HOLDS_FLOOR)
FALLBACK_ONLY = False  # lift only the sentences naming none of the question's topic
HAND_ONLY = "ranked by the answer types alone, sentence similarity is unavailable"  # the note "auto" leaves
WEAK: float | None = 0.5  # lift only when the hand ranking's best answer score is under this (None: always)


def check_ranker(ranker: str) -> str:
    """The ranker's name, or ConfigError naming the known ones."""
    if ranker not in RANKERS:
        raise ConfigError(Problem(f"unknown ranker {ranker!r} (known: {', '.join(RANKERS)})", field="ranker"))
    return ranker


def resolve_ranker(ranker: str) -> tuple[str, str | None]:
    """The ranker a call uses and a note saying why when "auto" could not use the model: "auto" is "embedding"
    when MiniLM is installed (checked without loading it) and "hand" otherwise, with the reason recorded with the
    answer (never a silent choice); "hand" and "embedding" are themselves (ConfigError for another name)."""
    check_ranker(ranker)
    if ranker != "auto":
        return ranker, None
    from archehr.relevance.embedding import embeddings_available

    ok, why = embeddings_available()
    return ("embedding", None) if ok else ("hand", f"{HAND_ONLY}: {why}")


def question_cosines(question: str, texts: Sequence[str], encoder: object | None = None) -> np.ndarray:
    """The cosine of the question with each text (MiniLM, unit-norm embeddings cached per text by the encoder;
    UnavailableError when the model is not installed)."""
    if encoder is None:
        from archehr.relevance.embedding import get_encoder

        encoder = get_encoder()
    v = np.asarray(encoder.encode([question, *texts]), dtype=float)  # type: ignore[attr-defined]
    v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    return v[1:] @ v[0]


def scaled(cos: np.ndarray, headers: np.ndarray) -> np.ndarray:
    """The cosines scaled within the note: the median non-header sentence 0, the most similar 1, clipped to
    [0, 1]; headers 0 (also when all sentences are alike)."""
    cos = np.asarray(cos, dtype=float)
    body = cos[~headers]
    if not body.size:
        return np.zeros_like(cos)
    lo, hi = float(np.median(body)), float(body.max())
    out = np.clip((cos - lo) / (hi - lo), 0.0, 1.0) if hi > lo else np.zeros_like(cos)
    return np.where(headers, 0.0, out)


def lifts(hand: np.ndarray | None, weak: float | None = -1.0) -> bool:
    """Whether the similarity may lift this question's sentences at all: the hand ranking's best score (`hand`) is
    under `weak` (unset: this module's `WEAK`, read at the call; None: always). Checked before the sentences are
    encoded, so a question the hand ranking answers firmly costs no MiniLM."""
    weak = WEAK if weak == -1.0 else weak
    return weak is None or hand is None or not hand.size or float(hand.max()) < weak


def embedding_lift(cos: np.ndarray, topic: np.ndarray, holds: np.ndarray, headers: np.ndarray,
                   hand: np.ndarray | None = None, weight: float | None = None, floor: float = HOLDS_FLOOR,
                   fallback_only: bool | None = None, weak: float | None = -1.0) -> np.ndarray:
    """What each sentence's answer score gains from its similarity with the question: `weight` times its scaled
    cosine (`scaled`), times 1 when it holds the asked kind of answer (`holds`) and `floor` when not; 0 for a
    sentence naming some of the question's topic (`topic` > 0) when `fallback_only`; none at all when the hand
    ranking's best score (`hand`) is `weak` or more. Unset, they are this module's `W_EMBED`, `FALLBACK_ONLY`
    and `WEAK` (read at the call)."""
    weight = W_EMBED if weight is None else weight
    fallback_only = FALLBACK_ONLY if fallback_only is None else fallback_only
    if not lifts(hand, weak):
        return np.zeros(len(cos))
    s = scaled(cos, np.asarray(headers, dtype=bool))
    lift = weight * s * (floor + (1.0 - floor) * np.asarray(holds, dtype=float))
    return np.where(np.asarray(topic) > 0, 0.0, lift) if fallback_only else lift
