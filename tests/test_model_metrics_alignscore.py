"""AlignScore: chunking and aggregation by hand, availability, and a tiny random-weight checkpoint.

The tiny checkpoint has the structure of AlignScore-base.ckpt (a Lightning dict whose `state_dict` holds
`base_model.*`, `mlm_head.*`, `bin_layer.*`, `tri_layer.*`, `reg_layer.*`), over a 2-layer RoBERTa with a
byte-level vocabulary, all built here in a tmp dir. Its numbers mean nothing; the test checks that the
metric computes exactly what nli_sp prescribes with whatever model it is given.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import subprocess
import sys
from pathlib import Path

import pytest

from archehr_scoring.metrics.alignscore import OFFICIAL_MINI_BATCH, AlignScore, aggregate, chunk_context, encode_pairs
from archehr_scoring.metrics.alignscore_checkpoint import read_checkpoint
from archehr_scoring.metrics.alignscore_sentences import english_splitter
from archehr_scoring.metrics.base import TextExample
from archehr_scoring.metrics.registry import build_metric

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


# -- hand-derivable pieces -----------------------------------------------------------------------------
def test_chunking_groups_sentences_by_word_count():
    sentences = [" ".join(["w"] * 80) + "." for _ in range(10)]  # 800 words in 10 sentences
    context = " ".join(sentences)
    chunks = chunk_context(context, sentences)
    # 800 // 350 + 1 = 3 chunks wanted -> 10 // 3 = 3 sentences per chunk -> 3 + 3 + 3 + 1
    assert len(chunks) == 4
    assert chunks[0] == " ".join(sentences[:3])
    assert chunks[-1] == sentences[9]


def test_chunking_short_context_is_one_chunk_and_empty_context_one_empty_chunk():
    assert chunk_context("A b. C d.", ["A b.", "C d."]) == ["A b. C d."]
    assert chunk_context("", []) == [""]
    # more chunks wanted than sentences: one sentence per chunk
    long_sentence = " ".join(["w"] * 400)
    assert chunk_context(long_sentence, [long_sentence]) == [long_sentence]


def test_aggregate_is_mean_over_claims_of_max_over_chunks():
    assert aggregate([[0.2, 0.9], [0.5, 0.1]]) == pytest.approx((0.5 + 0.9) / 2)
    assert aggregate([[0.3]]) == pytest.approx(0.3)
    with pytest.raises(ValueError):
        aggregate([[]])


# -- availability ----------------------------------------------------------------------------------------
def test_no_checkpoint_is_unavailable_with_how_to_fix():
    result = AlignScore().run([TextExample("1", "a", "b")])
    assert not result.available and result.per_case is None
    assert "--alignscore-ckpt" in result.unavailable
    assert result.mean("alignscore") is None
    assert "ckpt:none" in result.signature and result.signature.startswith("AlignScore|")


def test_missing_checkpoint_file_is_unavailable(tmp_path):
    metric = build_metric("alignscore", ckpt=str(tmp_path / "nope.ckpt"))
    reason = metric.unavailable_reason()
    assert reason is not None and "not found" in reason and "--alignscore-ckpt" in reason


@pytest.mark.parametrize("punkt_tab", [True, False], ids=["nltk-punkt-tab-data", "no-nltk-data"])
def test_signature_names_the_splitter_without_importing_nltk(tmp_path, punkt_tab):
    if punkt_tab:
        (tmp_path / "tokenizers" / "punkt_tab" / "english").mkdir(parents=True)
    code = ("import sys\n"
            "from archehr_scoring.metrics.alignscore import AlignScore\n"
            "from archehr_scoring.metrics.alignscore_sentences import english_splitter\n"
            "sig = AlignScore().run([]).signature\n"
            "print('NLTK', 'nltk' in sys.modules)\n"
            "print('SAME', sig.split('|split:')[1].split('|')[0] == english_splitter().name)\n"
            "print('SPLIT', english_splitter().name)\n")
    env = {**os.environ, "NLTK_DATA": str(tmp_path), "HOME": str(tmp_path / "home")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert "NLTK False" in out.stdout and "SAME True" in out.stdout, out.stdout + out.stderr
    assert ("punkt_tab" in out.stdout) == punkt_tab, out.stdout


# -- a tiny model with the official checkpoint layout ----------------------------------------------------
def _write_tiny_roberta(folder: Path) -> transformers.RobertaModel:
    from transformers.models.roberta.tokenization_roberta import bytes_to_unicode

    folder.mkdir(parents=True)
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for ch in bytes_to_unicode().values():
        vocab.setdefault(ch, len(vocab))
    vocab["<mask>"] = len(vocab)
    (folder / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    (folder / "merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
    tokenizer = transformers.RobertaTokenizer(str(folder / "vocab.json"), str(folder / "merges.txt"))
    tokenizer.model_max_length = 512
    tokenizer.save_pretrained(folder)
    config = transformers.RobertaConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=514,
        pad_token_id=1,
    )
    torch.manual_seed(0)
    model = transformers.RobertaModel(config)
    model.save_pretrained(folder)
    return model


class AttributeDict(dict):
    """Like Lightning's AttributeDict, in which the official checkpoint keeps its hyper_parameters."""


class Trap:
    """Unpickling this runs `_spring`: a checkpoint loader that executes code from the file would fire it."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (_spring, (str(self.marker),))


def _spring(marker: str) -> str:
    Path(marker).write_text("code from the checkpoint ran", encoding="utf-8")
    return marker


def _write_checkpoint(path: Path, encoder: transformers.RobertaModel, **extra) -> dict[str, torch.Tensor]:
    """Different encoder weights than the saved pretrained folder: the checkpoint's must win."""
    torch.manual_seed(1)
    hidden = encoder.config.hidden_size
    state = {}
    for k, v in encoder.state_dict().items():
        state[f"base_model.{k}"] = v + 0.05 * torch.randn_like(v) if v.is_floating_point() else v
    heads = {
        "tri_layer": torch.nn.Linear(hidden, 3),
        "bin_layer": torch.nn.Linear(hidden, 2),
        "reg_layer": torch.nn.Linear(hidden, 1),
        "mlm_head.dense": torch.nn.Linear(hidden, hidden),
    }
    for prefix, layer in heads.items():
        for k, v in layer.state_dict().items():
            state[f"{prefix}.{k}"] = v
    # Large head weights so that P(aligned) moves visibly between inputs.
    state["tri_layer.weight"] = 8.0 * torch.randn(3, hidden)
    # transformers < 4.31 saved this buffer; newer RobertaModels no longer have it in their state_dict
    state["base_model.embeddings.position_ids"] = torch.arange(encoder.config.max_position_embeddings)[None]
    checkpoint = {
        "epoch": 2,
        "global_step": 100,
        "pytorch-lightning_version": "1.7.7",
        "state_dict": state,
        "hyper_parameters": AttributeDict(model="roberta-base", using_pretrained=True),
        # trainer state pickles objects a weights-only load does not allow by default
        "callbacks": {"ModelCheckpoint": {"dirpath": pathlib.PurePosixPath("/ckpt")}},
        **extra,
    }
    torch.save(checkpoint, path)
    return state


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("alignscore")
    encoder = _write_tiny_roberta(root / "tiny-roberta")
    ckpt = root / "AlignScore-tiny.ckpt"
    state = _write_checkpoint(ckpt, encoder)
    return root / "tiny-roberta", ckpt, state


def _metric(tiny, **extra) -> AlignScore:
    folder, ckpt, _ = tiny
    return AlignScore(ckpt=str(ckpt), model=str(folder), **extra)


LONG_CONTEXT = " ".join(
    f"Sentence {i} says the patient had test number {i} done on day {i} with a normal result overall."
    for i in range(40)
)  # 40 sentences of 18 words = 720 words -> 3 chunks wanted -> 13 sentences per chunk -> 13+13+13+1
EXAMPLES = [
    TextExample("1", "The patient had a CT scan. It was normal. He went home.", "CT scan was normal.\n\nHe is home."),
    TextExample("2", "Surgery was needed.", "The aorta ruptured. Emergency surgery was done."),
    TextExample("3", "Test 3 was done. The result was normal. Day 39 too.", LONG_CONTEXT),
]


@pytest.fixture(scope="module")
def hand(tiny):
    folder, _, state = tiny
    tokenizer = transformers.AutoTokenizer.from_pretrained(folder)
    encoder = transformers.RobertaModel.from_pretrained(folder)
    weights = {k[len("base_model.") :]: v for k, v in state.items() if k.startswith("base_model.")}
    weights.pop("embeddings.position_ids")  # the legacy buffer; the rest must load strictly
    encoder.load_state_dict(weights)
    return tokenizer, encoder.eval(), state


def _by_hand(hand, premise: str, hypothesis: str) -> float:
    """One pair, no batching, no padding: the nli_sp probability straight from the weights."""
    tokenizer, encoder, state = hand
    enc = tokenizer(premise, hypothesis, truncation="only_first", max_length=512, return_tensors="pt")
    with torch.no_grad():
        pooled = encoder(**enc).pooler_output
        logits = pooled @ state["tri_layer.weight"].T + state["tri_layer.bias"]
    return torch.softmax(logits, dim=-1)[0, 0].item()


def test_tiny_checkpoint_matches_hand_computation(tiny, hand):
    splitter = english_splitter()
    result = _metric(tiny).run(EXAMPLES)
    assert result.available, result.unavailable
    assert set(result.per_case) == {"1", "2", "3"}
    for ex in EXAMPLES:
        claims = splitter.split(ex.prediction)
        chunks = chunk_context(ex.reference, splitter.split(ex.reference))
        matrix = [[_by_hand(hand, c, s) for s in claims] for c in chunks]
        expected = 100 * sum(max(row[j] for row in matrix) for j in range(len(claims))) / len(claims)
        assert result.per_case[ex.case_id]["alignscore"] == pytest.approx(expected, abs=1e-4)
    # case 3 really exercised several chunks (with the official odd remainder chunk) and three claim sentences
    assert [c.count(".") for c in chunk_context(LONG_CONTEXT, splitter.split(LONG_CONTEXT))] == [13, 13, 13, 1]
    assert len(splitter.split(EXAMPLES[2].prediction)) == 3


def test_tiny_checkpoint_range_determinism_and_batch_size(tiny):
    first = _metric(tiny).run(EXAMPLES)
    again = _metric(tiny).run(EXAMPLES)
    one_by_one = _metric(tiny, batch_size=1).run(EXAMPLES)
    for cid, values in first.per_case.items():
        assert 0.0 <= values["alignscore"] <= 100.0
        assert values["alignscore"] == again.per_case[cid]["alignscore"]
        assert values["alignscore"] == pytest.approx(one_by_one.per_case[cid]["alignscore"], abs=1e-4)
    scores = [v["alignscore"] for v in first.per_case.values()]
    assert len(set(scores)) == len(scores)  # the cases are told apart


def test_checkpoint_weights_override_the_pretrained_folder(tiny):
    folder, ckpt, state = tiny
    metric = _metric(tiny)
    assert metric.unavailable_reason() is None
    loaded = metric._model.encoder.state_dict()
    for key in loaded:  # every encoder tensor comes from the checkpoint
        assert torch.equal(loaded[key], state[f"base_model.{key}"]), key


def test_signature_names_checkpoint_and_its_hash(tiny):
    _, ckpt, _ = tiny
    digest = hashlib.sha256(ckpt.read_bytes()).hexdigest()[:12]
    sig = _metric(tiny).signature()
    assert f"ckpt:{ckpt.name}#{digest}" in sig
    assert "|mode:nli_sp|chunk:350|maxlen:512|" in sig


def test_empty_prediction_scores_zero_with_a_warning(tiny):
    result = _metric(tiny).run([TextExample("9", "   ", "Some context here.")])
    assert result.per_case["9"]["alignscore"] == 0.0
    assert any("case 9" in w for w in result.warnings)


def test_long_claim_sentence_is_truncated_not_crashing(tiny):
    claim = " ".join(["word"] * 300) + "."  # ~1500 byte-level tokens, longer than 512 on its own
    result = _metric(tiny).run([TextExample("7", claim, "Short context.")])
    assert 0.0 <= result.per_case["7"]["alignscore"] <= 100.0


def test_an_over_long_claim_retokenises_its_whole_official_mini_batch(tiny):
    """Official batch_tokenize: one pair failing `only_first` sends all 8 pairs of its mini-batch to longest_first."""
    folder, _, _ = tiny
    tokenizer = transformers.AutoTokenizer.from_pretrained(folder)  # byte-level, no merges: one token per byte
    long_claim, half = "x" * 600, "y" * 300
    premises = ["short."] + [half] + ["p."] * (OFFICIAL_MINI_BATCH - 2) + [half]
    hypotheses = [long_claim] + [half] + ["h."] * (OFFICIAL_MINI_BATCH - 2) + [half]
    encoded = encode_pairs(tokenizer, premises, hypotheses, 512)
    assert len(encoded) == OFFICIAL_MINI_BATCH + 1
    assert all(len(e["input_ids"]) <= 512 for e in encoded)

    def claim_tokens(e):  # <s> premise </s></s> claim </s>
        ids = e["input_ids"]
        return len(ids) - 1 - ids.index(tokenizer.sep_token_id) - 2

    # same mini-batch as the failing pair: longest_first cut the 300-token claim too
    assert claim_tokens(encoded[1]) < 300
    assert encoded[1] == tokenizer(half, half, truncation="longest_first", max_length=512).data
    # next mini-batch: only_first again, the claim is whole and the premise is cut
    assert claim_tokens(encoded[OFFICIAL_MINI_BATCH]) == 300
    assert encoded[OFFICIAL_MINI_BATCH] == tokenizer(half, half, truncation="only_first", max_length=512).data
    # pairs that fit are the same either way
    assert encoded[2] == tokenizer("p.", "h.").data


def test_loader_reads_the_lightning_layout(tiny):
    _, ckpt, state = tiny
    checkpoint = read_checkpoint(ckpt)
    assert checkpoint.hyper_parameters == {"model": "roberta-base", "using_pretrained": True}
    assert checkpoint.base_model_name == "roberta-base"
    assert checkpoint.other_prefixes == ("bin_layer", "mlm_head", "reg_layer")  # present, unused by nli_sp
    assert "embeddings.position_ids" not in checkpoint.encoder  # the legacy buffer is dropped, not an error
    assert torch.equal(checkpoint.tri_layer["weight"], state["tri_layer.weight"])
    assert set(checkpoint.encoder) == {k[len("base_model.") :] for k in state if k.startswith("base_model.")} - {
        "embeddings.position_ids"
    }


def test_checkpoint_never_runs_code_from_the_file(tiny, tmp_path):
    folder, _, _ = tiny
    marker = tmp_path / "fired"
    encoder = transformers.RobertaModel.from_pretrained(folder)
    ckpt = tmp_path / "trapped.ckpt"
    state = _write_checkpoint(ckpt, encoder, loops={"fit_loop": Trap(marker)})
    torch.load(ckpt, weights_only=False)  # an unsafe load springs the trap: the test can fail
    assert marker.exists()
    marker.unlink()

    checkpoint = read_checkpoint(ckpt)
    metric = AlignScore(ckpt=str(ckpt), model=str(folder))
    assert metric.unavailable_reason() is None
    assert 0.0 <= metric.run(EXAMPLES[:1]).per_case["1"]["alignscore"] <= 100.0
    assert not marker.exists()
    assert torch.equal(checkpoint.tri_layer["weight"], state["tri_layer.weight"])


def _config_error(ckpt: Path, folder: Path) -> str:
    from archehr.errors import ConfigError

    with pytest.raises(ConfigError) as info:
        AlignScore(ckpt=str(ckpt), model=str(folder)).run(EXAMPLES)
    problems = info.value.problems
    assert len(problems) == 1 and problems[0].file == str(ckpt)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(ckpt)) and "--alignscore-ckpt" in message
    return message


def test_checkpoint_of_the_wrong_shape_is_one_config_error_naming_the_file(tiny, tmp_path):
    folder, _, _ = tiny
    config = transformers.RobertaConfig.from_pretrained(folder)
    config.hidden_size, config.intermediate_size = 8, 16  # another encoder size, same layer names
    other = tmp_path / "other.ckpt"
    _write_checkpoint(other, transformers.RobertaModel(config))
    message = _config_error(other, folder)
    assert "has shape [" in message and "more)" in message and "trained on 'roberta-base'" in message


def test_checkpoint_lacking_encoder_weights_or_head_or_torch_format_is_a_config_error(tiny, tmp_path):
    folder, ckpt, state = tiny
    no_head = tmp_path / "no-head.ckpt"
    torch.save({"state_dict": {k: v for k, v in state.items() if not k.startswith("tri_layer.")}}, no_head)
    assert "tri_layer" in _config_error(no_head, folder)
    partial = tmp_path / "partial.ckpt"
    torch.save({"state_dict": {k: v for k, v in state.items() if "layer.1." not in k}}, partial)
    assert "lacks encoder weight base_model.encoder.layer.1." in _config_error(partial, folder)
    other_model = tmp_path / "other-model.ckpt"
    torch.save({"state_dict": {"layer.weight": torch.zeros(2, 2)}}, other_model)
    assert "no base_model.*" in _config_error(other_model, folder)
    text = tmp_path / "notes.ckpt"
    text.write_text("not a checkpoint", encoding="utf-8")
    assert "torch cannot read it" in _config_error(text, folder)


def test_base_model_not_loadable_offline_is_unavailable(tiny, tmp_path):
    _, ckpt, _ = tiny
    metric = AlignScore(ckpt=str(ckpt), model=str(tmp_path / "no-such-model"))
    result = metric.run(EXAMPLES)
    assert not result.available and "no-such-model" in result.unavailable
