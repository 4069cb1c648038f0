"""Signatures name a local model folder, checkpoint or index by its name and a short content hash, never by its
absolute path: reports are shared, and the same files must give the same signature on every machine."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from archehr_scoring.metrics.registry import build_metric


def _model_folder(root: Path, weights: bytes = b"weights-1") -> Path:
    folder = root / "my-model"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text('{"model_type": "bert"}')
    (folder / "model.safetensors").write_bytes(weights)
    return folder


def _index_folder(root: Path) -> Path:
    folder = root / "umls-index"
    (folder / "umls-simstring.db").mkdir(parents=True)
    (folder / "umls-simstring.db" / "umls-terms.simstring").write_bytes(b"terms")
    (folder / "lowercase.flag").write_text("")
    (folder / "database_backend.flag").write_text("leveldb")
    return folder


def _short(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


SIGNATURES = {
    "alignscore model": lambda d: build_metric("alignscore", model=str(_model_folder(d))).signature(),
    "alignscore ckpt": lambda d: build_metric("alignscore", ckpt=str(_model_folder(d) / "model.safetensors"))
    .signature(),
    "bertscore model": lambda d: build_metric("bertscore", model=str(_model_folder(d)), layers=2,
                                              rescale=False).signature(),
    "medcon index": lambda d: build_metric("medcon", quickumls_path=str(_index_folder(d))).signature(),
}


@pytest.mark.parametrize("make", SIGNATURES.values(), ids=SIGNATURES.keys())
def test_no_local_path_and_the_same_signature_on_every_machine(make, tmp_path):
    here, there = make(tmp_path / "alice" / "models"), make(tmp_path / "bob")
    assert str(tmp_path) not in here and "/alice" not in here
    assert here == there


def test_model_and_checkpoint_are_named_with_their_weight_hash(tmp_path):
    folder = _model_folder(tmp_path)
    sig = build_metric("alignscore", model=str(folder), ckpt=str(folder / "model.safetensors")).signature()
    assert f"|model:my-model#{_short(b'weights-1')}|ckpt:model.safetensors#{_short(b'weights-1')}|" in sig
    sig = build_metric("bertscore", model=str(folder), layers=2, rescale=False).signature()
    assert f"BERTScore|model:my-model|found:folder|weights_sha256:{_short(b'weights-1')}|" in sig
    assert build_metric("alignscore").signature().startswith("AlignScore|model:roberta-base|")  # a hub name as is


def test_other_weights_or_index_files_change_the_signature(tmp_path):
    a = build_metric("alignscore", model=str(_model_folder(tmp_path / "a"))).signature()
    b = build_metric("alignscore", model=str(_model_folder(tmp_path / "b", b"weights-2"))).signature()
    assert a != b
    index = _index_folder(tmp_path / "i")
    before = build_metric("medcon", quickumls_path=str(index)).signature()
    assert "|index:umls-index#" in before
    (index / "umls-simstring.db" / "umls-terms.simstring").write_bytes(b"more terms")
    assert build_metric("medcon", quickumls_path=str(index)).signature() != before


def test_a_weight_file_replaced_in_place_is_hashed_again(tmp_path):
    folder = _model_folder(tmp_path)
    first = build_metric("alignscore", model=str(folder)).signature()
    shutil.copyfile(folder / "config.json", folder / "model.safetensors")
    assert build_metric("alignscore", model=str(folder)).signature() != first
