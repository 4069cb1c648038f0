"""`archehr train --classifier cross-encoder`: fine-tune a local Hugging Face encoder with transformers.Trainer,
calibrate on held-out cases, and use the folder as a system's selector. A tiny random BERT built here stands in for
the user's encoder (no download), so the whole path runs on CPU in seconds."""

from __future__ import annotations

import json
import re

import pytest
from relevance_helpers import FILLER, TOPICS, tiny_split

from archehr.cli.main import main
from archehr.data.releases import write_split

pytest.importorskip("transformers")
pytest.importorskip("accelerate")


@pytest.fixture(scope="module")
def base_model(tmp_path_factory):
    """A 1-layer BERT with random weights and a word-level vocabulary of the tiny cases' words."""
    from transformers import BertConfig, BertModel, BertTokenizerFast

    words = set()
    for _, q, cq, answer in TOPICS:
        words |= set(re.findall(r"[a-z]+|\d+|[^\sa-z\d]", f"{q} {cq} {answer}".lower()))
    for t in FILLER + ["the plan was discussed with family ."]:
        words |= set(re.findall(r"[a-z]+|\d+|[^\sa-z\d]", t.lower()))
    d = tmp_path_factory.mktemp("tiny-bert")
    (d / "vocab.txt").write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(words)]) + "\n")
    tok = BertTokenizerFast(vocab_file=str(d / "vocab.txt"))
    import torch

    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=tok.vocab_size, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=128)
    BertModel(cfg).save_pretrained(str(d))
    tok.save_pretrained(str(d))
    return d


@pytest.fixture(scope="module")
def trained(base_model, tmp_path_factory):
    """The CLI run: 12 labelled cases, 3 held out; returns (release, output folder, stdout)."""
    root = tmp_path_factory.mktemp("ce-run")
    write_split(tiny_split(12), root / "release" / "dev")
    out = root / "selector"
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(["train", "cross-encoder", "--base-model", str(base_model), "--data-dir",
                   str(root / "release"), "--split", "dev", "--epochs", "20", "--lr", "2e-3", "--batch-size", "8",
                   "--max-length", "48", "--heldout", "0.25", "-o", str(out)])
    assert rc == 0, buf.getvalue()
    return root / "release", out, buf.getvalue()


def test_finetune_writes_weights_tokenizer_and_held_out_calibration(trained):
    _, out, stdout = trained
    assert (out / "config.json").is_file() and (out / "archehr-selector.json").is_file()
    assert any(out.glob("*.safetensors")) and (out / "tokenizer.json").is_file()
    rec = json.loads((out / "archehr-selector.json").read_text())
    held = rec["calibration"]["heldout_cases"]
    assert len(held) == 3 and rec["training"]["cases"] == 9  # a quarter held out, never trained on
    assert rec["training"]["engine"] == "transformers.Trainer" and rec["training"]["world_size"] == 1
    sel = rec["selector"]
    assert sel["target"] == "essential" and 0.0 < sel["threshold"] < 1.0
    best = max(f for _, f, _, _ in rec["calibration"]["curve"])
    assert rec["calibration"]["heldout_f1"] == pytest.approx(best)  # the chosen threshold is the sweep's best
    assert f"threshold {sel['threshold']:.2f} on P(essential)" in stdout
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]  # no work folder left behind


def test_the_fine_tuned_model_learned_the_labels(trained):
    from archehr.relevance.registry import build_classifier

    _, out, _ = trained
    clf = build_classifier("cross-encoder", checkpoint=str(out))
    answers, fillers = [], []
    for c in tiny_split(12).cases:
        p = clf.score(c).essential
        answers.append(p[1])  # the essential sentence of every tiny case
        fillers += [p[i] for i in (0, 2, 4, 5, 6)]  # the not-relevant ones
    assert min(answers) > max(fillers)


def test_a_system_names_the_folder_and_predicts_with_its_calibrated_selector(trained, tmp_path):
    release, out, stdout = trained
    rec = json.loads((out / "archehr-selector.json").read_text())
    line = next(x.strip() for x in stdout.splitlines() if x.strip().startswith("selector: "))  # as printed
    assert line == f'selector: {{kind: classifier, classifier: {{kind: cross-encoder, checkpoint: "{out}"}}}}'
    system = tmp_path / "ce.yaml"
    system.write_text(f"name: ce-extractive\n{line}\ngenerator: {{kind: extractive}}\n")
    run = tmp_path / "run"
    assert main(["predict", "--system", str(system), "--data-dir", str(release), "--split", "dev", "--task", "st2",
                 "-o", str(run), "--no-progress"]) == 0
    sub = json.loads((run / "submission.json").read_text())
    assert len(sub) == 12
    meta = json.loads((run / "run.json").read_text())
    text = json.dumps(meta)
    assert "cross-encoder" in text and str(out) in text
    assert f'"threshold": {rec["selector"]["threshold"]}' in text  # the calibrated selector, not the default 0.5
    # every case cites its essential sentence (2) and nothing of the filler
    cited = {str(x) for row in sub for x in _ids(row)}
    assert cited == {"2"}


def _ids(row: dict) -> list:
    for k, v in row.items():
        if k != "case_id" and isinstance(v, list):
            return v
    raise AssertionError(row)


@pytest.mark.parametrize("args, message", [
    (["cross-encoder"], "error: field --base-model: cross-encoder training needs --base-model DIR"),
    (["cross-encoder", "--base-model", "X", "--sweep"], "No such option: --sweep"),
    (["logistic", "--epochs", "2"], "No such option: --epochs"),
    # the older one-command forms: one note line naming the subcommand, then the same refusal
    (["--classifier", "cross-encoder"], "error: field --base-model: cross-encoder training needs --base-model DIR"),
    (["--classifier", "bert"], "error: field --classifier: unknown --classifier 'bert' (known: trained, "
                               "cross-encoder)"),
    (["--classifier", "cross-encoder", "--base-model", "X", "--sweep"], "No such option: --sweep"),
    (["--epochs", "2"], "No such option: --epochs"),
])
def test_bad_combinations_are_exit_2_and_write_nothing(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["train", *args]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert message in lines[-1]
    notes = [line for line in lines if line.startswith("note:")]
    if args[0].startswith("--") and message != "error: field --classifier: unknown --classifier 'bert' (known: " \
            "trained, cross-encoder)":
        sub = "cross-encoder" if "cross-encoder" in args else "logistic"
        assert len(notes) == 1 and f"write `archehr train {sub} ...`" in notes[0]
    else:
        assert notes == []
    assert not list(tmp_path.iterdir())


def test_base_model_without_config_is_exit_2_naming_it(tmp_path, capsys):
    assert main(["train", "cross-encoder", "--base-model", str(tmp_path), "-o",
                 str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "config.json" in err and str(tmp_path) in err and not (tmp_path / "o").exists()
