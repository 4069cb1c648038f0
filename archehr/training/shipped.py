"""Rebuild the shipped model files from the labelled splits they train on (library side).

The command is `archehr train rebuild-shipped [--synthetic DIR] [--only KIND] [--out-dir DIR]` (KIND: lexical,
embedding, interactions or align; archehr/cli/train_cmd.py); this module only loads, trains, writes and reports
through `log`. Besides the three selector models (lexical, the default; embedding; interactions, an option with
the expected-F1 rule) it rebuilds the st4 aligner (kind `align`, archehr/align/model_pairwise.json) through
archehr.training.align, which trains on the same three splits (only their cases with answer-sentence citations).
The data locations are arguments (the CLI resolves their defaults): nothing here knows where a checkout keeps
its data.
The aligner refits its selector probabilities out of fold and reads no relevance model file, so it does not
depend on the lexical model written in the same run.

The selector models train on the demo release's (the bundled one, by default) dev, test-2026 and train splits (the train
split holds the cases written in eight more voices, docs/voices.md) plus the synthetic release's dev split (every
case they hold, so new labelled demo cases are picked up by rerunning it). The
demo test split stays out: `archehr predict --split test` and the committed baseline runs are scored
on it. The synthetic test split is never trained on. L2 and threshold come from leave-one-voice-out
calibration (`voice_groups`: each demo case's writer from the release's voices.json, the synthetic part one
voice of its own), the criterion benchmarks/voices_cv.py measures; `archehr train` on a single split keeps
leave-one-case-out. The embedding model is skipped (with a note) when MiniLM is not
installed, unless the caller asks for it alone (`skip_unavailable=False`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from archehr.align.learned import SHIPPED as ALIGN_SHIPPED
from archehr.data.model import Split
from archehr.data.releases import load_split
from archehr.errors import ConfigError, Problem, UnavailableError
from archehr.relevance.registry import SHIPPED_MODELS
from archehr.training.relevance_logistic import EXTRA_PENALTY_GRID, SUPPLEMENTARY_GRID

DEMO_PARTS = ("dev", "test-2026", "train")  # the demo test split is kept out (see the module docstring)
SYNTHETIC_PART = "synthetic-dev"
FEATURES = {"lexical": "lexical", "embedding": "lexical+embedding", "interactions": "lexical+interactions"}
RULES = {"interactions": "expected-f1"}  # the selector rule of each kind (default: threshold)
# further settings each kind chooses in its leave-one-voice-out calibration (relevance_logistic.Setting)
GRIDS: dict[str, dict[str, tuple[float, ...]]] = {
    "interactions": {"extra_penalties": EXTRA_PENALTY_GRID, "supplementary_weights": SUPPLEMENTARY_GRID}}
KINDS = (*FEATURES, "align")
SHIPPED_FILES: dict[str, Path] = {**SHIPPED_MODELS, "align": ALIGN_SHIPPED}  # kind -> the shipped file it replaces


def shipped_parts(synthetic: str | Path, demo: str | Path) -> list[tuple[str, Split]]:
    """(label, split) of every part the shipped models train on, labels as recorded in the model files.

    `synthetic` and `demo` are the release folders. A missing or unlabelled split raises the loader's InputError
    naming its folder.
    """
    parts = [(name, load_split(demo, name, require_key=True)) for name in DEMO_PARTS]
    parts.append((SYNTHETIC_PART, load_split(synthetic, "dev", require_key=True)))
    return parts


def voice_groups(parts: Sequence[tuple[str, Split]], demo: str | Path) -> dict[str, str] | None:
    """Merged case id ("label:id") -> writer's voice, for leave-one-voice-out calibration.

    Demo cases take their voice from the demo release's voices.json; a case it does not list (the synthetic
    part, or a release without the manifest) counts as one voice per part. None when that leaves fewer than two
    voices (then calibration falls back to leave-one-case-out).
    """
    from archehr.data.releases import VOICES_NAME, load_voices
    from archehr.relevance.cv import SEP

    manifest = load_voices(demo) if (Path(demo) / VOICES_NAME).is_file() else {}
    groups = {f"{lab}{SEP}{c}": (manifest.get(c, f"part-{lab}") if lab in DEMO_PARTS else f"part-{lab}")
              for lab, sp in parts for c in sp.case_ids}
    return groups if len(set(groups.values())) >= 2 else None


def _check_kinds(kinds: Sequence[str], skip_unavailable: bool) -> None:
    """Refuse an unknown kind, or (unless `skip_unavailable`) an embedding model that cannot be built here."""
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ConfigError(Problem(f"unknown shipped model {', '.join(map(repr, unknown))} (known: {', '.join(KINDS)})"))
    if "embedding" in kinds and not skip_unavailable:
        from archehr.relevance.embedding import embeddings_available

        ok, why = embeddings_available()
        if not ok:  # `why` reads "<what> unavailable: <reason> (<how to fix>)"
            what, _, reason = why.partition(" unavailable: ")
            raise UnavailableError(what, reason)


def rebuild(kinds: Sequence[str], synthetic: str | Path, demo: str | Path, out_dir: Path | None = None,
            log: Callable[[str], None] | None = None, skip_unavailable: bool = True,
            **train_kw: object) -> dict[str, Path]:
    """Train and write each shipped model in `kinds` (`train_kw` go to `train`); returns kind -> path written.

    `synthetic` and `demo` are the synthetic and demo release folders the models train on.

    Every training split is loaded before anything is written, so a missing or unlabelled one (InputError
    naming its folder) leaves the model files untouched. `out_dir` writes there (same file names) instead of
    over the shipped files. The embedding model is skipped with a note in `log` when MiniLM is missing,
    unless `skip_unavailable` is False, which raises UnavailableError first instead. `align` is built by
    archehr.training.align (`train_kw` do not apply to it).
    """
    from archehr.relevance.embedding import embeddings_available
    from archehr.training.align import load_pool, rebuild_align
    from archehr.training.relevance_logistic import train_parts

    note = log or (lambda _msg: None)  # the library reports through the caller; it never prints itself
    _check_kinds(kinds, skip_unavailable)
    parts = shipped_parts(synthetic, demo) if any(k in FEATURES for k in kinds) else []
    if parts:
        n_case = sum(len(sp.cases) for _, sp in parts)
        note(f"training data: {', '.join(f'{lab} {len(sp.cases)} ({sp.source})' for lab, sp in parts)}; "
             f"{n_case} cases")
    pool = load_pool(synthetic, demo, note) if "align" in kinds else None  # loaded (and checked) before any write
    written: dict[str, Path] = {}
    for kind in kinds:
        path = (out_dir / SHIPPED_FILES[kind].name) if out_dir else SHIPPED_FILES[kind]
        if kind == "align":
            rebuild_align(synthetic, demo, path, note, pool)
            written[kind] = path
            continue
        if kind == "embedding":
            ok, why = embeddings_available()
            if not ok:
                note(f"{kind}: skipped ({why})")
                continue
        groups = voice_groups(parts, demo)
        model, cal = train_parts(parts, FEATURES[kind], groups=groups, rule=RULES.get(kind, "threshold"),
                                 **{**GRIDS.get(kind, {}), **train_kw})
        model.save(path)
        written[kind] = path
        how = f"leave-one-voice-out ({len(set(groups.values()))} voices)" if groups else "leave-one-case-out"
        setting = (f"power {cal.selector.power:g} (expected-F1 rule)" if cal.selector.rule == "expected-f1"
                   else f"threshold {cal.selector.threshold:.2f}")
        if "extra_penalty" in model.calibration:
            setting += (f", extra penalty x{model.calibration['extra_penalty']:g}, supplementary target "
                        f"{model.calibration['supplementary_weight']:g}")
        note(f"{kind}: {how} L2 {model.l2}, {setting} on P(essential), "
             f"strict micro F1 {100 * cal.f1:.1f}; review level {cal.selector.review_level}; written to {path}")
    return written
