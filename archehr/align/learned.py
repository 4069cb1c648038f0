"""The learned st4 aligner: pairwise logistic regression over (answer sentence, note sentence) features.

P(link | a, s) from `archehr.align.features`; every answer sentence links its most probable note
sentence and the others with P >= threshold, at most `max_links`. The weights, the threshold and
max_links are saved as versioned JSON next to this file (no pickle). Rebuild the shipped file with
`archehr train rebuild-shipped [--only align]` (archehr.training.align), which fits on the labelled
pool (demo dev + test-2026 + train + synthetic dev) and chooses threshold / max_links by cross-validation
on that pool only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from archehr import __version__
from archehr.align.features import FEATURE_SETS
from archehr.atomic import write_json
from archehr.data.json_io import read_json
from archehr.errors import ConfigError, DataError, Problem, bad_model
from archehr.relevance.logistic import LogisticModel, Scaler

FORMAT = "archehr-align-model"
FORMAT_VERSION = 1
SHIPPED = Path(__file__).with_name("model_pairwise.json")


@dataclass
class PairModel:
    feature_set: str
    feature_names: tuple[str, ...]
    scaler: Scaler
    model: LogisticModel
    threshold: float = 0.5
    max_links: int = 4
    l2: float = 1.0
    training: dict[str, Any] = field(default_factory=dict)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """P(link) for features of shape (..., n_features)."""
        flat = x.reshape(-1, x.shape[-1])
        return self.model.predict_proba(self.scaler.transform(flat)).reshape(x.shape[:-1])

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "archehr_version": __version__,
                "feature_set": self.feature_set, "feature_names": list(self.feature_names),
                "scaler": {"mean": self.scaler.mean.tolist(), "scale": self.scaler.scale.tolist()},
                "weights": self.model.weights.tolist(), "bias": self.model.bias, "l2": self.l2,
                "threshold": self.threshold, "max_links": self.max_links, "training": self.training}

    def save(self, path: str | Path) -> None:
        write_json(path, self.to_json())



def parse_model(d: object, source: str) -> PairModel:
    """Check a parsed model file: format, version, feature names and shapes; typed errors name the field."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise bad_model(f"not an {FORMAT} file", source, "format")
    if d.get("format_version") != FORMAT_VERSION:
        raise bad_model(f"format_version {d.get('format_version')!r} is not supported (this code reads "
                   f"{FORMAT_VERSION}); rebuild the model", source, "format_version")
    fs = d.get("feature_set")
    if fs not in FEATURE_SETS:
        raise bad_model(f"unknown feature_set {fs!r} (known: {', '.join(FEATURE_SETS)})", source, "feature_set")
    names = tuple(d.get("feature_names") or ())
    if names != FEATURE_SETS[fs]:
        raise bad_model(f"feature_names do not match feature set {fs!r} of this code; rebuild the model", source,
                   "feature_names")
    try:
        mean = np.array(d["scaler"]["mean"], dtype=float)
        scale = np.array(d["scaler"]["scale"], dtype=float)
        weights = np.array(d["weights"], dtype=float)
        bias = float(d["bias"])
        threshold = float(d["threshold"])
        max_links = int(d["max_links"])
    except (KeyError, TypeError, ValueError) as e:
        raise bad_model(f"missing or malformed field: {e}", source) from None
    if not (mean.shape == scale.shape == weights.shape == (len(names),)):
        raise bad_model(f"scaler/weights must have {len(names)} values", source, "weights")
    if not 0.0 <= threshold <= 1.0 or max_links < 1:
        raise bad_model("threshold must be in [0, 1] and max_links >= 1", source, "threshold")
    return PairModel(fs, names, Scaler(mean, scale), LogisticModel(weights, bias), threshold, max_links,
                     float(d.get("l2", 1.0)), dict(d.get("training") or {}))


def load_model(path: str | Path | None = None) -> PairModel:
    p = Path(path) if path is not None else SHIPPED
    if not p.is_file():
        raise ConfigError(Problem("align model file not found", str(p), field="align.model", code="missing-file"))
    try:
        d = read_json(p)
    except DataError as e:
        raise ConfigError(e.problems) from None
    return parse_model(d, str(p))

