"""Signatures name a local model folder, checkpoint or index by its name and a short content hash, never by its
absolute path: reports are shared, and the same files must give the same signature on every machine."""

from __future__ import annotations

import hashlib
import json
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
    "medcon index": lambda d: build_metric("medcon", quickumls=str(_index_folder(d))).signature(),
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
    before = build_metric("medcon", quickumls=str(index)).signature()
    assert "|index:umls-index#" in before
    (index / "umls-simstring.db" / "umls-terms.simstring").write_bytes(b"more terms")
    assert build_metric("medcon", quickumls=str(index)).signature() != before


def test_a_weight_file_replaced_in_place_is_hashed_again(tmp_path):
    folder = _model_folder(tmp_path)
    first = build_metric("alignscore", model=str(folder)).signature()
    shutil.copyfile(folder / "config.json", folder / "model.safetensors")
    assert build_metric("alignscore", model=str(folder)).signature() != first


def test_no_output_of_score_report_or_compare_holds_a_local_path(tmp_path, capsys):
    """`_meta.metric_params`, per-case files, the HTML report and the comparison name model paths as signatures do."""
    from archehr.cli.main import main
    from archehr.data.releases import demo_dir

    root = Path(__file__).resolve().parents[1] / "submissions"
    sub_a, sub_b = root / "cite-all" / "submission.json", root / "lexical-extractive" / "submission.json"
    key = str(demo_dir() / "test" / "archehr-qa_key.json")
    local = tmp_path / "alice" / "models"
    folder = _model_folder(local)
    baseline = local / "distilbert.tsv"
    baseline.write_text("LAYER,P,R,F\n4,0.1,0.1,0.1\n")
    options = ["--metrics", "bleu", "--bertscore-model", str(folder), "--bertscore-baseline", str(baseline),
               "--alignscore-model", str(folder), "--alignscore-ckpt", str(folder / "model.safetensors"),
               "--quickumls", str(_index_folder(local))]
    cache = ["--cache-dir", str(tmp_path / "cache")]
    out = tmp_path / "out"
    out.mkdir()
    printed = []
    for fmt in ("json", "csv", "md", "text"):
        per_case = out / f"cases-{fmt}.{'csv' if fmt == 'csv' else 'json'}"
        assert main(["score", str(sub_a), key, "-q", "--format", fmt, "--per-case", str(per_case)] + options) == 0
        printed.append(capsys.readouterr().out)
    assert main(["report", str(sub_a), "--key", key, "-o", str(out / "r.html"), "--resamples", "10"]
                + options + cache) == 0
    assert main(["compare", str(sub_a), str(sub_b), "--key", key, "--resamples", "10", "--json",
                 str(out / "cmp.json")] + options + cache) == 0
    printed.append(capsys.readouterr().out)
    params = json.loads(printed[0])["_meta"]["metric_params"]
    assert params["bertscore"]["model"] == params["alignscore"]["model"] == f"my-model#{_short(b'weights-1')}"
    assert params["alignscore"]["ckpt"] == f"model.safetensors#{_short(b'weights-1')}"
    assert params["medcon"]["quickumls"].startswith("umls-index#") and params["bertscore"]["baseline"].startswith(
        "distilbert.tsv#")
    assert params["bleu"] == {}  # the metric that ran, with its (no) parameters
    texts = printed + [p.read_text() for p in sorted(out.iterdir())]
    assert len(texts) == 4 + 1 + 4 + 2
    for text in texts:
        assert str(tmp_path) not in text and "alice" not in text


def test_path_id_of_a_missing_path_or_a_hub_name(tmp_path):
    from archehr_scoring.metrics.model_ids import path_id

    assert path_id(str(tmp_path / "gone" / "my-model"), "model") == ".../my-model"  # absent: not where it was
    assert path_id(str(_model_folder(tmp_path)), "file") == ".../my-model"  # a folder where a file belongs
    assert path_id("distilbert-base-uncased", "model") == "distilbert-base-uncased"
    assert path_id("minilm", "model") == "minilm"
