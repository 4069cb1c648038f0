"""BERTScore without transformers or bert-score: BERT-family encoders in plain torch, same numbers.

bert-score 0.3.13 (the official scorer's BERTScore) loads the model through transformers, whose import
alone pulls in scikit-learn and scipy (~10 s here), then runs padded batches through the full
`BertModel`. This module computes the same quantities for the two architectures the scorer uses
(`model_type` "bert", e.g. the MiniLM golden model, and "distilbert", the official
distilbert-base-uncased), importing only torch (and safetensors for `.safetensors` weights):

* **Tokens** -- `bert_tokenizer.py`: a re-implementation of the *slow* `BertTokenizer` that bert-score asks for
  (`use_fast=False`), read from the same files it reads (vocab.txt, tokenizer_config.json,
  special_tokens_map.json): per-character lowercasing outside special tokens, special-token split,
  BasicTokenizer (control-character removal, CJK spacing, NFC, whitespace split, lowercase + accent
  stripping, punctuation split) and greedy longest-match WordPiece, then `[CLS] ... [SEP]`, truncated
  to `model_max_length` (capped by `max_position_embeddings`) exactly like
  `tokenizer.encode(sent.strip(), add_special_tokens=True, max_length=..., truncation=True)`.
  Configurations this does not reproduce (added tokens, `never_split`, left truncation, ...) are
  reported by `fast_path_problem`, and the caller falls back to bert-score.
* **Encoder** -- embeddings + the first `num_layers` transformer layers, float32, eval mode, the
  output of the last kept layer (what bert-score's truncated model returns). Token-wise work
  (projections, feed-forward, LayerNorm, GELU) runs on all tokens of many sentences packed into one
  matrix -- no padding at all; attention runs per sentence. Padding never changes a real token's
  output in `BertModel` (masked keys get weight exactly 0), so only float summation order differs
  (~1e-7).
* **Score** -- bert-score's `greedy_cos_idf` with idf off: L2-normalised embeddings, weights 1
  except [CLS]/[SEP] (by token id), greedy max cosine, including its batch-padding quirk (a token's
  best match is at least 0 when the other sentence is shorter than the longest one of its greedy
  batch), its empty-sentence and NaN rules, and baseline rescaling with row `num_layers` of the TSV.

Sentences are deduplicated (first occurrence order) and grouped by token length, so the work and the
result never depend on the hash seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archehr_scoring.metrics.bert_tokenizer import BertTokenizerReplica, FastPathUnsupported, read_json_file

MODEL_TYPES = ("bert", "distilbert")
ACTIVATIONS = ("gelu", "relu", "gelu_new", "gelu_pytorch_tanh")
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")  # transformers' order of preference


# ---------------------------------------------------------------------------------------------------------------
# Model description


@dataclass(frozen=True)
class EncoderConfig:
    model_type: str
    hidden: int
    heads: int
    layers: int
    activation: str
    eps: float
    max_positions: int
    type_vocab: int


def read_config(folder: Path) -> EncoderConfig:
    cfg = read_json_file(folder / "config.json")
    mt = cfg.get("model_type")
    if mt == "bert":
        if cfg.get("position_embedding_type", "absolute") != "absolute":
            raise FastPathUnsupported(f"position_embedding_type {cfg.get('position_embedding_type')!r}")
        if cfg.get("is_decoder"):
            raise FastPathUnsupported("a decoder configuration")
        c = EncoderConfig("bert", int(cfg.get("hidden_size", 768)), int(cfg.get("num_attention_heads", 12)),
                          int(cfg.get("num_hidden_layers", 12)), str(cfg.get("hidden_act", "gelu")),
                          float(cfg.get("layer_norm_eps", 1e-12)), int(cfg.get("max_position_embeddings", 512)),
                          int(cfg.get("type_vocab_size", 2)))
    elif mt == "distilbert":
        if cfg.get("sinusoidal_pos_embds"):
            raise FastPathUnsupported("sinusoidal position embeddings")
        c = EncoderConfig("distilbert", int(cfg.get("dim", 768)), int(cfg.get("n_heads", 12)),
                          int(cfg.get("n_layers", 6)), str(cfg.get("activation", "gelu")), 1e-12,
                          int(cfg.get("max_position_embeddings", 512)), 0)
    else:
        raise FastPathUnsupported(f"model_type {mt!r} (fast path: {', '.join(MODEL_TYPES)})")
    if c.activation not in ACTIVATIONS:
        raise FastPathUnsupported(f"activation {c.activation!r}")
    if c.hidden % c.heads:
        raise FastPathUnsupported("hidden size not divisible by the number of heads")
    return c


def weights_file(folder: Path) -> Path:
    for name in WEIGHT_FILES:
        if (folder / name).is_file():
            return folder / name
    raise FastPathUnsupported("no single-file model.safetensors / pytorch_model.bin")


def _bert_names(i: int) -> dict[str, str]:
    p = f"encoder.layer.{i}."
    return {"q": p + "attention.self.query", "k": p + "attention.self.key", "v": p + "attention.self.value",
            "o": p + "attention.output.dense", "ln1": p + "attention.output.LayerNorm",
            "f1": p + "intermediate.dense", "f2": p + "output.dense", "ln2": p + "output.LayerNorm"}


def _distil_names(i: int) -> dict[str, str]:
    p = f"transformer.layer.{i}."
    return {"q": p + "attention.q_lin", "k": p + "attention.k_lin", "v": p + "attention.v_lin",
            "o": p + "attention.out_lin", "ln1": p + "sa_layer_norm", "f1": p + "ffn.lin1", "f2": p + "ffn.lin2",
            "ln2": p + "output_layer_norm"}


class _Weights:
    """Tensors of a checkpoint by HF name, whatever the prefix (bert./distilbert.) or LayerNorm naming."""

    def __init__(self, path: Path):
        import torch

        self.path = path
        if path.suffix == ".safetensors":
            from safetensors import safe_open

            self._f = safe_open(str(path), framework="pt")
            self._keys = set(self._f.keys())
            self._sd = None
        else:
            self._sd = torch.load(str(path), map_location="cpu", weights_only=True)
            self._keys = set(self._sd)
        anchor = "embeddings.word_embeddings.weight"
        found = sorted(k for k in self._keys if k.endswith(anchor))
        if not found:
            raise FastPathUnsupported(f"no {anchor} in {path.name}")
        self.prefix = found[0][: -len(anchor)]

    def get(self, name: str) -> Any:
        import torch

        candidates = [self.prefix + name]
        if name.endswith("LayerNorm.weight") or name.endswith("layer_norm.weight"):
            candidates.append(self.prefix + name[: -len("weight")] + "gamma")
        if name.endswith("LayerNorm.bias") or name.endswith("layer_norm.bias"):
            candidates.append(self.prefix + name[: -len("bias")] + "beta")
        for key in candidates:
            if key in self._keys:
                t = self._f.get_tensor(key) if self._sd is None else self._sd[key]
                return t.to(torch.float32).contiguous()
        raise FastPathUnsupported(f"weight {name} missing from {self.path.name}")


@dataclass
class _Layer:
    w_qkv: Any  # [hidden, 3*hidden], transposed once for x @ W
    b_qkv: Any
    w_o: Any
    b_o: Any
    ln1: tuple[Any, Any]
    w_1: Any
    b_1: Any
    w_2: Any
    b_2: Any
    ln2: tuple[Any, Any]


class BertEncoder:
    """Embeddings + the first `num_layers` layers of a BERT/DistilBERT checkpoint, float32, inference only."""

    # Tokens per packed chunk: big enough for efficient matrix products, small enough for the chunk's
    # activations (chunk x intermediate floats) to stay in cache, and enough chunks to keep every worker busy.
    CHUNK_TOKENS = 1024

    def __init__(self, folder: Path, num_layers: int, config: EncoderConfig | None = None):
        import torch

        self.config = cfg = config or read_config(folder)
        if not 0 <= num_layers <= cfg.layers:
            raise ValueError(f"Invalid num_layers: num_layers should be between 0 and {cfg.layers}")
        self.num_layers = num_layers
        w = _Weights(weights_file(folder))
        self.word = w.get("embeddings.word_embeddings.weight")
        self.pos = w.get("embeddings.position_embeddings.weight")
        self.max_positions = min(cfg.max_positions, self.pos.shape[0])
        # token_type_ids are all 0 in bert-score: BertEmbeddings adds row 0 (before the positions)
        self.type0 = w.get("embeddings.token_type_embeddings.weight")[0] if cfg.model_type == "bert" else None
        self.ln0 = (w.get("embeddings.LayerNorm.weight"), w.get("embeddings.LayerNorm.bias"))
        names = _bert_names if cfg.model_type == "bert" else _distil_names
        self.layers = []
        for i in range(num_layers):
            n = names(i)
            g = w.get
            self.layers.append(_Layer(
                w_qkv=torch.cat([g(n["q"] + ".weight"), g(n["k"] + ".weight"), g(n["v"] + ".weight")]).t().contiguous(),
                b_qkv=torch.cat([g(n["q"] + ".bias"), g(n["k"] + ".bias"), g(n["v"] + ".bias")]),
                w_o=g(n["o"] + ".weight").t().contiguous(), b_o=g(n["o"] + ".bias"),
                ln1=(g(n["ln1"] + ".weight"), g(n["ln1"] + ".bias")),
                w_1=g(n["f1"] + ".weight").t().contiguous(), b_1=g(n["f1"] + ".bias"),
                w_2=g(n["f2"] + ".weight").t().contiguous(), b_2=g(n["f2"] + ".bias"),
                ln2=(g(n["ln2"] + ".weight"), g(n["ln2"] + ".bias"))))
        self.intermediate = self.layers[0].w_1.shape[1] if self.layers else 0

    def flops(self, lengths: Sequence[int]) -> float:
        """Multiply-add FLOPs (x2) of encoding sentences of these token lengths, without padding."""
        h, f = self.config.hidden, self.intermediate
        per_token = 2 * (4 * h * h + 2 * h * f)
        return float(self.num_layers * sum(per_token * n + 4 * n * n * h for n in lengths))

    def _act(self, x: Any) -> Any:
        import torch.nn.functional as F

        a = self.config.activation
        if a == "gelu":
            return F.gelu(x)
        if a == "relu":
            return F.relu(x)
        return F.gelu(x, approximate="tanh")

    def _chunk(self, seqs: Sequence[Sequence[int]]) -> list[Any]:
        """Final hidden states of each sentence (token ids incl. [CLS]/[SEP]) of one packed chunk."""
        import torch
        import torch.nn.functional as F

        cfg = self.config
        h, nh = cfg.hidden, cfg.heads
        dh = h // nh
        lens = [len(s) for s in seqs]
        offsets = [0]
        for n in lens:
            offsets.append(offsets[-1] + n)
        with torch.inference_mode():  # thread-local: entered in the worker thread
            ids = torch.tensor([t for s in seqs for t in s], dtype=torch.long)
            pos = torch.cat([torch.arange(n) for n in lens])
            x = self.word[ids]
            if self.type0 is not None:
                x += self.type0
            x = F.layer_norm(x.add_(self.pos[pos]), (h,), self.ln0[0], self.ln0[1], cfg.eps)
            for layer in self.layers:
                qkv = torch.addmm(layer.b_qkv, x, layer.w_qkv)
                ctx = torch.empty_like(x)
                for i, n in enumerate(lens):  # attention never crosses sentences
                    a, b = offsets[i], offsets[i + 1]
                    q, k, v = qkv[a:b].view(n, 3, nh, dh).permute(1, 2, 0, 3).unsqueeze(1)  # strided views
                    ctx[a:b] = F.scaled_dot_product_attention(q, k, v)[0].transpose(0, 1).reshape(n, h)
                x = F.layer_norm(torch.addmm(layer.b_o, ctx, layer.w_o).add_(x), (h,), layer.ln1[0], layer.ln1[1],
                                 cfg.eps)
                inner = self._act(torch.addmm(layer.b_1, x, layer.w_1))
                x = F.layer_norm(torch.addmm(layer.b_2, inner, layer.w_2).add_(x), (h,), layer.ln2[0],
                                 layer.ln2[1], cfg.eps)
            return list(x.split(lens))

    def chunks(self, lengths: Sequence[int]) -> list[list[int]]:
        """Sentence indices packed into chunks of ~CHUNK_TOKENS tokens (similar lengths together), costliest
        first. Depends only on the lengths and their order, so the float results are reproducible."""
        order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
        groups: list[list[int]] = []
        size = 0
        for i in order:
            if not groups or size >= self.CHUNK_TOKENS:
                groups.append([])
                size = 0
            groups[-1].append(i)
            size += lengths[i]
        h = max(self.config.hidden, 1)
        cost = [sum(lengths[i] * (1 + lengths[i] / (3 * h)) for i in g) for g in groups]  # projections + attention
        return [g for _, g in sorted(zip(cost, groups, strict=True), key=lambda t: -t[0])]

    def encode(self, seqs: Sequence[Sequence[int]], workers: int | None = None) -> list[Any]:
        """Final hidden states ([len, hidden] float32 tensors) of every sentence, in input order.

        Chunks run in parallel on `workers` threads (default: torch's intra-op thread count), each chunk
        single-threaded: no per-operation thread synchronisation, results independent of the thread count.
        """
        import torch

        for s in seqs:
            if len(s) > self.max_positions:
                raise ValueError(f"a sentence of {len(s)} tokens exceeds the model's {self.max_positions} positions")
        groups = self.chunks([len(s) for s in seqs])
        out: list[Any] = [None] * len(seqs)
        before = torch.get_num_threads()
        n_workers = max(1, min(workers or before, len(groups)))
        torch.set_num_threads(1)
        try:
            if n_workers == 1:
                results = [self._chunk([seqs[j] for j in g]) for g in groups]
            else:
                from concurrent.futures import ThreadPoolExecutor

                with ThreadPoolExecutor(n_workers, thread_name_prefix="bert-encoder") as pool:
                    results = list(pool.map(lambda g: self._chunk([seqs[j] for j in g]), groups))
        finally:
            torch.set_num_threads(before)
        for g, embs in zip(groups, results, strict=True):
            for j, e in zip(g, embs, strict=True):
                out[j] = e
        return out


# ---------------------------------------------------------------------------------------------------------------
# BERTScore


def read_baseline(path: Path, num_layers: int) -> tuple[float, float, float]:
    """(P, R, F) of row `num_layers` of a bert-score baseline file (header LAYER,P,R,F).

    A file without that row or with non-numbers in it is bad input (ConfigError naming the file), for
    either implementation: bert-score itself would fail deep inside pandas.
    """
    import csv

    from archehr.errors import ConfigError, Problem

    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    data = rows[1:]
    if not 0 <= num_layers < len(data) or len(data[num_layers]) < 4:
        raise ConfigError(Problem(f"baseline file has no row for layer {num_layers} (rows LAYER,P,R,F)",
                                  file=str(path), field="--bertscore-baseline", code="option"))
    try:
        p, r, fv = (float(v) for v in data[num_layers][1:4])
    except ValueError:
        raise ConfigError(Problem(f"baseline row for layer {num_layers} is not three numbers: "
                                  f"{','.join(data[num_layers])}", file=str(path), field="--bertscore-baseline",
                                  code="option")) from None
    return p, r, fv


def greedy_f1(refs: Sequence[Any], hyps: Sequence[Any], ref_ids: Sequence[Sequence[int]],
              hyp_ids: Sequence[Sequence[int]], special_ids: frozenset[int], batch_size: int) -> Any:
    """bert-score's greedy_cos_idf (idf off) on unpadded embeddings: a float32 tensor [N, 3] of P, R, F.

    Per pair: cosine matrix of the L2-normalised token embeddings, best match per candidate token
    (precision) and per reference token (recall), averaged with weight 1 per token except [CLS]/[SEP].
    bert-score runs this on zero-masked padded batches of `batch_size` pairs, so a best match is at least
    0 whenever the other sentence is shorter than the longest one of its batch: reproduced here. Empty
    sentences ([CLS][SEP] only) get P = R = 0, and a NaN F (0/0) becomes 0, in bert-score's order.
    """
    import torch

    normed: dict[int, Any] = {}
    weights: dict[int, Any] = {}

    def norm(e: Any) -> Any:
        got = normed.get(id(e))
        if got is None:
            got = normed[id(e)] = e / torch.norm(e, dim=-1).unsqueeze(-1)
        return got

    def weight(ids: Sequence[int]) -> Any:
        got = weights.get(id(ids))
        if got is None:
            w = torch.tensor([0.0 if t in special_ids else 1.0 for t in ids], dtype=torch.float32)
            got = weights[id(ids)] = w / w.sum()
        return got

    zero = torch.zeros((), dtype=torch.float32)
    rows = []
    with torch.inference_mode():
        for start in range(0, len(refs), batch_size):
            stop = min(start + batch_size, len(refs))
            ref_max = max(refs[i].shape[0] for i in range(start, stop))
            hyp_max = max(hyps[i].shape[0] for i in range(start, stop))
            for i in range(start, stop):
                r, h = norm(refs[i]), norm(hyps[i])
                sim = h @ r.t()
                wp = sim.amax(dim=1)
                wr = sim.amax(dim=0)
                if r.shape[0] < ref_max:  # bert-score pads the batch; padded similarities are 0 and join the max
                    wp = wp.clamp(min=0.0)
                if h.shape[0] < hyp_max:
                    wr = wr.clamp(min=0.0)
                p = (wp * weight(hyp_ids[i])).sum()
                rc = (wr * weight(ref_ids[i])).sum()
                f = 2 * p * rc / (p + rc)
                if len(hyp_ids[i]) == 2 or len(ref_ids[i]) == 2:  # empty sentence: P = R = 0 (F from the NaNs)
                    p = rc = zero
                rows.append(torch.stack((p, rc, f)))
        out = torch.stack(rows) if rows else torch.empty(0, 3, dtype=torch.float32)
        return out.masked_fill(torch.isnan(out) & (torch.arange(3) == 2), 0.0)


class FastBertScorer:
    """Token ids, embeddings and BERTScore of one model folder (loaded once, reused across calls)."""

    # Pairs scored per block: embeddings live only for their block, so memory stays flat however many cases
    # a submission has (a 1,000-case run would otherwise hold ~2 GB of embeddings and their normalised copies).
    BLOCK_PAIRS = 256

    def __init__(self, folder: Path, num_layers: int):
        cfg = read_config(folder)
        weights_file(folder)
        self.tokenizer = BertTokenizerReplica(folder, cfg.model_type, cfg.max_positions)
        self.encoder = BertEncoder(folder, num_layers, cfg)
        self.special_ids = frozenset({self.tokenizer.cls_id, self.tokenizer.sep_id})
        self.last_stats: dict[str, float] = {}

    def score(self, cands: Sequence[str], refs: Sequence[str], batch_size: int,
              baseline: tuple[float, float, float] | None) -> Any:
        """[N, 3] float32 tensor of (P, R, F), rescaled when `baseline` is given (as BERTScorer.score).

        Pairs go in blocks of whole greedy batches (`batch_size` pairs, bert-score's padding unit), so the
        blocks change which sentences share a packed chunk (float summation order, ~1e-7) but never a batch.
        """
        import time

        import torch

        stats = dict.fromkeys(("tokenize_s", "encode_s", "greedy_s", "gflop"), 0.0)
        encoded = tokens = 0
        ids_of: dict[str, list[int]] = {}
        block = max(1, self.BLOCK_PAIRS // max(batch_size, 1)) * max(batch_size, 1)
        parts = []
        for start in range(0, len(refs), block):
            b_refs, b_cands = refs[start:start + block], cands[start:start + block]
            t0 = time.perf_counter()
            texts = list(dict.fromkeys((*b_refs, *b_cands)))  # first-occurrence order: no hash-seed dependence
            for t in texts:  # a text repeated in a later block is tokenized once
                if t not in ids_of:
                    ids_of[t] = self.tokenizer.encode(t)
            ids = [ids_of[t] for t in texts]
            t1 = time.perf_counter()
            embs = dict(zip(texts, self.encoder.encode(ids), strict=True))
            t2 = time.perf_counter()
            before = torch.get_num_threads()
            torch.set_num_threads(1)  # hundreds of tiny operations: thread synchronisation would dominate
            try:
                parts.append(greedy_f1([embs[s] for s in b_refs], [embs[s] for s in b_cands],
                                       [ids_of[s] for s in b_refs], [ids_of[s] for s in b_cands],
                                       self.special_ids, batch_size))
            finally:
                torch.set_num_threads(before)
            del embs
            stats["tokenize_s"] += t1 - t0
            stats["encode_s"] += t2 - t1
            stats["greedy_s"] += time.perf_counter() - t2
            stats["gflop"] += self.encoder.flops([len(i) for i in ids]) / 1e9
            encoded += len(texts)
            tokens += sum(len(i) for i in ids)
        preds = torch.cat(parts) if parts else torch.empty(0, 3, dtype=torch.float32)
        if baseline is not None:
            b = torch.tensor(baseline, dtype=torch.float64).float()
            preds = (preds - b) / (1 - b)
        self.last_stats = {"sentences": len(ids_of), "encoded": encoded, "tokens": tokens, **stats}
        return preds


def fast_path_problem(folder: Path, num_layers: int | None) -> str | None:
    """None when this module reproduces bert-score for `folder`; else why not (the caller falls back)."""
    try:
        cfg = read_config(folder)
        weights_file(folder)
        BertTokenizerReplica(folder, cfg.model_type, cfg.max_positions)
    except FastPathUnsupported as e:
        return str(e)
    except (OSError, ValueError) as e:
        return f"unreadable model folder: {e}"
    if num_layers is None or not 0 <= num_layers <= cfg.layers:
        return f"num_layers {num_layers} outside 0..{cfg.layers}"
    return None


__all__ = ["BertEncoder", "BertTokenizerReplica", "FastBertScorer", "FastPathUnsupported", "fast_path_problem",
           "greedy_f1", "read_baseline"]
