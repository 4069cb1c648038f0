"""The scorer a leaderboard uses: the official one by default, any object with the same two methods in tests.

`fingerprint()` names everything besides the input files that changes the numbers (task, metric parameters, library
versions, the scorer's own code, which metrics can run here); it is part of every cache key.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from archehr.data.model import Split
from archehr.errors import ArchehrError
from archehr_scoring import reference
from archehr_scoring.reference import reference_files, resolve_reference_file
from archehr_scoring.results import ScoreReport
from archehr_scoring.tasks import get_task

# Libraries whose version can change a metric's numbers (read from package metadata: no import).
FINGERPRINT_DISTRIBUTIONS = ("rouge-score", "sacrebleu", "nltk", "bert-score", "transformers", "torch",
                             "medspacy-quickumls", "quickumls")
# The scorer's own code: a change to a metric's implementation without a version bump must not reuse old scores.
SCORER_SOURCE = Path(reference.__file__).parent


class Scorer(Protocol):
    task: str

    def fingerprint(self) -> str:
        """Everything besides the submission and key files that changes the scores."""
        ...

    def score(self, submission: Path, key: Path) -> ScoreReport:
        """Validate and score one submission; raise an InputError listing every problem when invalid."""
        ...


def resolve_key(key: str | Path) -> Path:
    """The reference file: the key JSON (or, for st1, the XML) given as the file itself or its split folder."""
    return resolve_reference_file(key)


def key_files(key: Path) -> list[Path]:
    """The files whose content the scores depend on: the key and the XML beside it (questions, notes)."""
    return reference_files(key)


class OfficialScorer:
    """The official-parity scorer of `archehr_scoring` for one task, metrics and metric parameters."""

    def __init__(self, task: str, metrics: list[str] | None = None,
                 params: Mapping[str, Mapping[str, Any]] | None = None):
        from archehr_scoring.metrics.spec import apply_metric_specs

        self.task = task
        # `bertscore(layers=3)` items: names here, parameters per metric (checked, defaults left out, and so the
        # same fingerprint for the same scores)
        self.metrics, self.params = apply_metric_specs(metrics, params)
        self._fingerprint: str | None = None
        self._ref: tuple[tuple[object, ...], tuple[Split, str | None]] | None = None
        self.spec = get_task(task)  # an unknown task fails here, before any run is scored

    def _metric_names(self) -> tuple[list[str], str | None]:
        from archehr_scoring.metric_runs import resolve_metrics

        names = [m for m in resolve_metrics(self.spec, self.metrics) if m not in self.spec.own_metrics]
        return names, self.spec.references[0] if self.spec.references else None

    def fingerprint(self) -> str:
        """Task, scorer version and code, metric parameters, library versions, each metric's IMPLEMENTATION
        constant (if its module has one) and which metrics can run here.

        Metric signatures themselves are not computed here: some import heavy libraries (seconds),
        which would defeat the cache; everything they record comes from the parameters and versions
        below, and the real signatures are stored with each cached report.
        """
        if self._fingerprint is None:
            from importlib import metadata

            import archehr_scoring
            from archehr_scoring.metrics.registry import build_metric

            parts = [f"task:{self.task}", f"scorer:{archehr_scoring.__version__}",
                     f"metrics:{','.join(self.metrics) if self.metrics else 'default'}",
                     f"metric_params:{self.params!r}"]
            for dist in FINGERPRINT_DISTRIBUTIONS:
                try:
                    parts.append(f"{dist}:{metadata.version(dist)}")
                except metadata.PackageNotFoundError:
                    parts.append(f"{dist}:absent")
            parts += _baseline_file_parts(self.params)
            parts.append(f"code:{source_hash(SCORER_SOURCE)}")
            names, ref = self._metric_names()
            for name in names:
                try:
                    m = build_metric(name, reference_kind=ref, **self.params.get(name, {}))
                    impl = getattr(sys.modules[type(m).__module__], "IMPLEMENTATION", None)
                    parts.append(f"{name}|impl:{impl}|available:{m.unavailable_reason() is None}")
                except (ModuleNotFoundError, ArchehrError) as e:
                    parts.append(f"{name}|unavailable:{e}")
            self._fingerprint = "\n".join(parts)
        return self._fingerprint

    def score(self, submission: Path, key: Path) -> ScoreReport:
        from archehr_scoring.api import score

        split, key_file = self._reference(key)
        return score(self.task, submission, split, metrics=self.metrics, metric_params=self.params, key_file=key_file)

    def _reference(self, key: Path) -> tuple[Split, str | None]:
        """The key (and XML) read once for all the runs of a leaderboard, again when a file changes."""
        from archehr_scoring.api import load_key_split

        stamp = (str(key), *(p.stat().st_mtime_ns if p.is_file() else None for p in key_files(key)))
        if self._ref is None or self._ref[0] != stamp:
            self._ref = (stamp, load_key_split(key))
        return self._ref[1]


def _baseline_file_parts(params: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The content of the given rescale baseline: the parameters name its path only, and editing the file in
    place (or the same relative path from another folder) must not reuse scores rescaled with the old one.

    Nothing is added when no baseline is given, so the default fingerprint (and existing caches) stay as they
    were. Model folders and checkpoints are large and not hashed here (their metric signatures are).
    """
    from archehr.leaderboard.cache import sha256_file

    path = params.get("bertscore", {}).get("baseline")
    if not path:
        return []
    p = Path(path).expanduser()
    return [f"bertscore_baseline:{p.resolve()}#{sha256_file(p) if p.is_file() else 'missing'}"]


def source_hash(root: Path) -> str:
    """One hash over the .py files under `root` (relative path and bytes, sorted by path); milliseconds, no imports."""
    h = hashlib.sha256()
    for p in sorted(root.rglob("*.py"), key=lambda q: q.relative_to(root).as_posix()):
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def make_scorer(task: str, metrics: list[str] | None = None,
                params: Mapping[str, Mapping[str, Any]] | None = None) -> Scorer:
    """The scorer the CLI uses (tests replace this function to rank with a toy scorer)."""
    return OfficialScorer(task, metrics, params)


def load_key_with_notes(key: Path) -> Split:
    """The split a key belongs to, with its notes: the key plus the XML beside it (cases, questions, sentences)."""
    split = reference.load_reference(key)
    reference.require_notes(split, "the case texts and note sentences are read from it")
    return split
