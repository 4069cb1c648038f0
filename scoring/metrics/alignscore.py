"""AlignScore (Zha et al., ACL 2023) in its official `nli_sp` mode, rebuilt without the `alignscore` package.

The `alignscore` package pins torch<2, numpy<2 and pytorch-lightning<2, so it cannot be installed next to
this project's torch; it is also not on PyPI. Its inference is small, so it is rebuilt here from its
description: a RoBERTa encoder (parameter `model`, config + tokenizer, loaded offline) whose weights and
3-way head come from the Lightning checkpoint (`AlignScore-base.ckpt`, keys `base_model.*`, `tri_layer.*`).

nli_sp, per case (context = reference, claim = prediction):
- the context is split into sentences, then grouped into consecutive chunks: n = words // 350 + 1 chunks
  wanted, so `max(len(sentences) // n, 1)` sentences per chunk, joined with a space;
- the claim is split into sentences;
- each (chunk, claim sentence) pair gets P(aligned) = softmax(tri_layer(pooler))[0], inputs truncated to
  512 tokens, context side first. The official code tokenises a case's pairs (chunk-major) in mini-batches
  of 8, its scorer's batch size; when the claim of any pair of a mini-batch is too long on its own, the
  tokenizer raises and the WHOLE mini-batch is tokenised again with `longest_first` truncation, which also
  cuts the claims of the other pairs of that mini-batch whose pair is over 512 tokens (`encode_pairs`);
- score = mean over claim sentences of the max over chunks, x100.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archehr_scoring.metrics.alignscore_checkpoint import AlignScoreCheckpoint, check_fits, read_checkpoint
from archehr_scoring.metrics.alignscore_sentences import FIX_HINT, english_splitter, splitter_name
from archehr_scoring.metrics.base import MetricResult, TextExample, TextMetric, missing_path, signature
from archehr_scoring.metrics.model_ids import file_id, model_folder_id
from archehr_scoring.metrics.params import Param

CHUNK_WORDS = 350  # official nli_sp chunk size (words)
MAX_TOKENS = 512  # official: tokenizer.model_max_length of roberta-base
OFFICIAL_MINI_BATCH = 8  # the official scorer's AlignScorer batch_size: the unit of the truncation fallback
IMPLEMENTATION = "archehr-2"  # bump when a change here can move the numbers
CKPT_HINT = (
    "pass --alignscore-ckpt PATH to the AlignScore-base.ckpt checkpoint "
    "(https://huggingface.co/yzha/AlignScore/resolve/main/AlignScore-base.ckpt)"
)


def chunk_context(context: str, sentences: list[str], chunk_words: int = CHUNK_WORDS) -> list[str]:
    """The official nli_sp context chunks: consecutive sentence groups sized from the context's word count."""
    sentences = sentences or [""]
    wanted = len(context.strip().split()) // chunk_words + 1
    per_chunk = max(len(sentences) // wanted, 1)
    return [" ".join(sentences[i : i + per_chunk]) for i in range(0, len(sentences), per_chunk)]


def aggregate(probabilities: Sequence[Sequence[float]]) -> float:
    """probabilities[chunk][claim_sentence] -> mean over claim sentences of the max over chunks."""
    n_sentences = len(probabilities[0]) if probabilities else 0
    if n_sentences == 0:
        raise ValueError("no claim sentence")
    best = [max(row[j] for row in probabilities) for j in range(n_sentences)]
    return sum(best) / n_sentences


def encode_pairs(
    tokenizer: Any, premises: Sequence[str], hypotheses: Sequence[str], max_tokens: int
) -> list[dict[str, list[int]]]:
    """One case's (premise, hypothesis) pairs tokenised as the official `Inferencer.batch_tokenize`.

    Mini-batches of OFFICIAL_MINI_BATCH consecutive pairs, `only_first` truncation; if that fails for any
    pair of a mini-batch (a claim alone longer than the limit: the fast tokenizer raises, a slow one returns
    an over-long input), the whole mini-batch is tokenised again with `longest_first`.
    """
    encoded: list[dict[str, list[int]]] = []
    for start in range(0, len(premises), OFFICIAL_MINI_BATCH):
        batch_p = list(premises[start : start + OFFICIAL_MINI_BATCH])
        batch_h = list(hypotheses[start : start + OFFICIAL_MINI_BATCH])
        try:
            batch = tokenizer(batch_p, batch_h, truncation="only_first", max_length=max_tokens)
            fits = all(len(ids) <= max_tokens for ids in batch["input_ids"])
        except Exception:  # the official code catches everything here too (a bare `except`)
            fits = False
        if not fits:
            batch = tokenizer(batch_p, batch_h, truncation="longest_first", max_length=max_tokens)
        encoded.extend({k: v[i] for k, v in batch.items()} for i in range(len(batch_p)))
    return encoded


@dataclass
class _LoadedModel:
    tokenizer: Any
    encoder: Any
    tri_layer: Any
    max_tokens: int
    device: str


def _load_base(model_name: str) -> tuple[Any, Any]:
    """Tokenizer and pretrained encoder, offline; as the official loader, the checkpoint is laid over them."""
    from transformers import AutoTokenizer, RobertaModel

    tokenizer = AutoTokenizer.from_pretrained(model_name, local_files_only=True)
    return tokenizer, RobertaModel.from_pretrained(model_name, local_files_only=True)


def _apply_checkpoint(tokenizer: Any, encoder: Any, checkpoint: AlignScoreCheckpoint, model_name: str,
                      device: str) -> _LoadedModel:
    import torch

    check_fits(checkpoint, encoder, model_name)  # ConfigError naming the file when it does not fit
    # strict=False as the official load_from_checkpoint; check_fits made sure every encoder weight is there.
    encoder.load_state_dict(checkpoint.encoder, strict=False)
    tri_layer = torch.nn.Linear(encoder.config.hidden_size, 3)
    tri_layer.load_state_dict(checkpoint.tri_layer)
    encoder.eval().to(device)
    tri_layer.eval().to(device)
    max_tokens = min(MAX_TOKENS, tokenizer.model_max_length, encoder.config.max_position_embeddings - 2)
    return _LoadedModel(tokenizer, encoder, tri_layer, max_tokens, device)


class AlignScore(TextMetric):
    """AlignScore-base, nli_sp; context = reference, claim = prediction; 0..100."""

    name = "alignscore"
    keys = ("alignscore",)

    parameters = (
        Param("ckpt", str, None, "AlignScore-base.ckpt", nullable=True, path="file"),
        Param("model", str, "roberta-base", "base model: a local roberta-base folder or a name in the HF cache",
              path="model"),
        Param("batch_size", int, 32, "pairs per forward pass", minimum=1),
        Param("device", str, "cpu", "torch device"),
    )

    def __init__(self, reference_kind: str | None = "essential", **params: Any):
        super().__init__(reference_kind, **params)
        self.ckpt: str | None = self.params["ckpt"]
        self.model_name: str = self.params["model"]
        self.batch_size: int = self.params["batch_size"]
        self.device: str = self.params["device"]
        self._model: _LoadedModel | None = None
        self._load_error: str | None = None
        self._warnings: list[str] = []

    # -- availability -------------------------------------------------------------------------------
    def unavailable_reason(self) -> str | None:
        why = missing_path(self.ckpt, "AlignScore needs its checkpoint", "AlignScore checkpoint", Path.is_file,
                           CKPT_HINT)
        if why:
            return why
        missing = [m for m in ("torch", "transformers") if importlib.util.find_spec(m) is None]
        if missing:
            return f"AlignScore needs {', '.join(missing)}: pip install 'archehr[models]'"
        if english_splitter() is None:
            return f"AlignScore needs NLTK's English sentence splitter: {FIX_HINT}"
        if self._model is None and self._load_error is None:
            try:
                tokenizer, encoder = _load_base(self.model_name)
            except Exception as exc:  # a base model that cannot be loaded is absent: unavailable, with the cause
                self._load_error = (
                    f"AlignScore could not load base model {self.model_name!r} offline "
                    f"({type(exc).__name__}: {exc}); pass --alignscore-model (alignscore(model=...) in --metrics or "
                    "the API) as a local roberta-base folder or a name in the Hugging Face cache"
                )
                return self._load_error
            # A checkpoint that is there but wrong is bad input, not an absent model: ConfigError naming it.
            checkpoint = read_checkpoint(Path(self.ckpt).expanduser())  # type: ignore[arg-type]
            self._model = _apply_checkpoint(tokenizer, encoder, checkpoint, self.model_name, self.device)
        return self._load_error

    def signature(self) -> str:
        return signature(
            "AlignScore",
            model=model_folder_id(self.model_name),  # a local folder by name + weights hash: no machine path
            ckpt=self._checkpoint_id(),
            mode="nli_sp",
            chunk=CHUNK_WORDS,
            maxlen=MAX_TOKENS,
            split=splitter_name(),
            impl=IMPLEMENTATION,
        )

    def _checkpoint_id(self) -> str | None:
        if self.ckpt and Path(self.ckpt).expanduser().is_file():
            return file_id(Path(self.ckpt).expanduser())
        return None

    # -- scoring ------------------------------------------------------------------------------------
    def run(self, examples: Sequence[TextExample]) -> MetricResult:
        self._warnings = []
        result = super().run(examples)
        if self._warnings:
            return MetricResult(
                result.name, result.keys, result.signature, result.per_case, result.unavailable, tuple(self._warnings)
            )
        return result

    def compute(self, examples: Sequence[TextExample]) -> dict[str, dict[str, float]]:
        reason = self.unavailable_reason()
        if reason is not None:
            from archehr.errors import UnavailableError

            raise UnavailableError("AlignScore", reason)
        splitter = english_splitter()
        if splitter is None:  # unavailable_reason said it is there; only a broken install gets here
            raise RuntimeError("sentence splitter vanished")
        model = self._model
        if model is None:
            raise RuntimeError("compute called before the model was loaded")
        # Pairs are tokenised case by case (the official truncation fallback works on a case's mini-batches);
        # then every pair of every case goes through the model in one batched pass.
        layouts: dict[str, tuple[int, int, int]] = {}  # case -> (first pair index, n chunks, n sentences)
        encoded: list[dict[str, list[int]]] = []
        for ex in examples:
            chunks = chunk_context(ex.reference, splitter.split(ex.reference))
            claims = splitter.split(ex.prediction)
            layouts[ex.case_id] = (len(encoded), len(chunks), len(claims))
            premises = [chunk for chunk in chunks for _ in claims]
            hypotheses = [claim for _ in chunks for claim in claims]
            encoded += encode_pairs(model.tokenizer, premises, hypotheses, model.max_tokens)
        probs = self.aligned_probabilities(encoded)
        out: dict[str, dict[str, float]] = {}
        for case_id, (start, n_chunks, n_claims) in layouts.items():
            if n_claims == 0:
                # The official code stops the whole run here (torch.cat of an empty list raises); an empty
                # answer aligns with nothing, so it scores 0, with a warning.
                self._warnings.append(f"case {case_id}: empty prediction, AlignScore set to 0")
                out[case_id] = {"alignscore": 0.0}
                continue
            matrix = [probs[start + i * n_claims : start + (i + 1) * n_claims] for i in range(n_chunks)]
            out[case_id] = {"alignscore": 100.0 * aggregate(matrix)}
        return out

    def aligned_probabilities(self, encoded: Sequence[dict[str, list[int]]]) -> list[float]:
        """P(aligned) for each tokenised pair (see `encode_pairs`), in order; batched, model loaded once."""
        import torch

        model = self._model
        if model is None:
            raise RuntimeError("aligned_probabilities called before the model was loaded")
        # Longest first, so that padding inside a batch stays small; results go back to input order.
        order = sorted(range(len(encoded)), key=lambda i: -len(encoded[i]["input_ids"]))
        result = [0.0] * len(encoded)
        # Pairs are tokenised apart from padding on purpose (official truncation, our own batching): silence the hint.
        model.tokenizer.deprecation_warnings["Asking-to-pad-a-fast-tokenizer"] = True
        with torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                idx = order[start : start + self.batch_size]
                batch = model.tokenizer.pad([encoded[i] for i in idx], padding=True, return_tensors="pt")
                hidden = model.encoder(
                    input_ids=batch["input_ids"].to(model.device),
                    attention_mask=batch["attention_mask"].to(model.device),
                )
                aligned = torch.softmax(model.tri_layer(hidden.pooler_output), dim=-1)[:, 0]
                for i, p in zip(idx, aligned.tolist(), strict=True):
                    result[i] = float(p)
        return result
