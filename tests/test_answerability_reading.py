"""Token-alignment (reading) features of answerability: hand-derived values, edge cases, the real MiniLM."""

from __future__ import annotations

import numpy as np
import pytest

from archehr.answerability.model import FEATURE_SETS, FeatureCache, names_for
from archehr.answerability.reading import READING_FEATURES, alignment_features, content_states


def _states(*rows: list[float]) -> tuple[tuple[str, ...], np.ndarray]:
    return tuple(f"t{k}" for k in range(len(rows))), np.array(rows, dtype=float)


def test_alignment_features_by_hand() -> None:
    q = _states([1, 0], [0, 1])
    a = _states([1, 0])  # matches the first question token only: recall (1 + 0) / 2
    b = _states([0.6, 0.8])  # matches both a little: recall (0.6 + 0.8) / 2, weakest 0.6
    x = dict(zip(READING_FEATURES, alignment_features(q, [a, b]), strict=True))
    assert x["tok_rec_max"] == pytest.approx(0.7)  # b is the best sentence
    assert x["tok_rec_top3"] == pytest.approx((0.7 + 0.5) / 2)
    assert x["tok_note_rec"] == pytest.approx((1.0 + 0.8) / 2)  # each token's best match anywhere: 1 (a), 0.8 (b)
    assert x["tok_note_min"] == pytest.approx(0.8)
    assert x["tok_note_min2"] == pytest.approx(0.9)
    assert x["tok_best_min"] == pytest.approx(0.6)
    assert x["tok_best_prec"] == pytest.approx(0.8)  # b's one token: its best question token, 0.8
    assert x["tok_max_min"] == pytest.approx(0.6)  # a's weakest is 0, b's 0.6


def test_alignment_features_without_question_tokens_or_sentences_are_zero() -> None:
    q = _states([1, 0])
    empty = ((), np.zeros((0, 2)))
    assert not alignment_features(empty, [q]).any()
    assert not alignment_features(q, []).any()
    assert not alignment_features(q, [empty, empty]).any()
    assert alignment_features(q, [empty, q])[0] == pytest.approx(1.0)  # an empty sentence is skipped, not scored 0


def test_content_states_keep_content_pieces_and_unit_norm() -> None:
    tokens = ["[CLS]", "can", "i", "eat", "salt", "?", "##s", "[SEP]"]
    states = np.arange(16, dtype=float).reshape(8, 2) + 1.0
    states[3] = [3.0, 4.0]
    kept, h = content_states(tokens, states)
    assert kept == ("eat", "salt", "##s")  # "can", "i" are function words, "?" punctuation, [CLS]/[SEP] special
    assert h[0] == pytest.approx([0.6, 0.8])
    assert np.linalg.norm(h, axis=1) == pytest.approx(np.ones(3))
    assert content_states(["[CLS]", "the", "[SEP]"], np.ones((3, 2)))[1].shape == (0, 2)


def test_reading_feature_set_names() -> None:
    assert "lexical+reading" in FEATURE_SETS
    names = names_for("lexical+reading")
    assert names[-len(READING_FEATURES):] == READING_FEATURES and len(set(names)) == len(names)


def test_shipped_reading_model_loads_without_torch_and_round_trips() -> None:
    import json

    from archehr.answerability.model import load_model, parse_model

    m = load_model("reading")  # reading the file needs no torch; scoring with it does (the models extra)
    assert m.feature_set == "lexical+reading" and 0.0 < m.threshold <= m.review_level < 1.0
    again = parse_model(json.loads(json.dumps(m.to_json())), "mem")
    assert again.names == m.names and again.threshold == m.threshold
    assert np.array_equal(again.head.weights, m.head.weights)


class _FakeTokenEncoder:
    """One 2-d state per whitespace word: "salt" and "sodium" along x, anything else along y."""

    def states(self, texts: list[str]) -> list[tuple[tuple[str, ...], np.ndarray]]:
        out = []
        for t in texts:
            words = [w.strip("?.,").lower() for w in t.split()]
            rows = [[1.0, 0.0] if w in ("salt", "sodium") else [0.0, 1.0] for w in words]
            out.append(content_states(["[CLS]", *words, "[SEP]"], np.array([[0, 1], *rows, [0, 1]], dtype=float)))
        return out


def test_feature_cache_appends_the_reading_row() -> None:
    from archehr.answerability.data import question_case
    from archehr.answerability.features import Background
    from archehr.data.model import NoteSentence

    sents = (NoteSentence("1", 1, 0, "Brief Hospital Course:"), NoteSentence("2", 1, 23, "Sodium was low."))
    case = question_case("x", "Can I eat salt?", sents)
    cache = FeatureCache("lexical+reading", token_encoder=_FakeTokenEncoder())
    row = cache.row(case, Background.count([["sodium", "low"]]))
    assert row.shape == (len(names_for("lexical+reading")),)
    x = dict(zip(READING_FEATURES, row[-len(READING_FEATURES):], strict=True))
    # question content tokens "eat" (y) and "salt" (x); the one non-header sentence "sodium" (x), "low" (y)
    assert x["tok_rec_max"] == pytest.approx(1.0) and x["tok_note_min"] == pytest.approx(1.0)


@pytest.mark.slow
def test_reading_model_scores_with_real_minilm() -> None:
    from archehr.relevance.embedding import embeddings_available

    ok, why = embeddings_available()
    if not ok:
        pytest.skip(why)
    from archehr.answerability.model import load_model
    from archehr.answerability.reading import get_token_encoder

    (toks, h), = get_token_encoder().states(["Can I eat more salt?"])
    assert "salt" in toks and "can" not in toks and h.shape == (len(toks), 384)
    m = load_model("reading")
    assert m.feature_set == "lexical+reading" and 0.0 < m.threshold <= m.review_level < 1.0
    import archehr

    def ask(q: str) -> archehr.ask.NoteAnswer:
        return archehr.answer(NOTE, q, splitter="rules", answerability="reading")

    yes, no = ask("Should I still take furosemide at home?"), ask("When is my colonoscopy?")
    assert yes.confidence > no.confidence and no.abstained and not yes.abstained


NOTE = """Brief Hospital Course:
Mr. ___ is a 68 yo man with heart failure who came in with leg swelling and a 5 kg weight gain on furosemide.
He was diuresed with IV furosemide and his breathing returned to baseline.
Because oral furosemide was no longer working well, his water pill was switched to torsemide 20 mg daily.
Potassium was low at 3.3 and was repleted.

Discharge Instructions:
Please stop taking furosemide. Take torsemide 20 mg every morning instead.
Weigh yourself every morning and call Dr. ___ if you gain more than 2 lbs in a day.
"""
