"""Rebuild the shipped model files from the labelled splits they train on, in one command.

    python -m archehr.relevance.rebuild [--synthetic ../shared/data/synthetic] [--only lexical|embedding]

Both models train on the bundled demo release's dev and test-2026 splits plus the synthetic release's
dev split (every case they hold, so new labelled demo dev cases are picked up by rerunning this). The
demo test split stays out: `archehr predict --split test` and the committed baseline runs are scored
on it. The synthetic test split is never trained on. L2 and threshold come from leave-one-case-out
calibration, as in `archehr train`. The embedding model is skipped (with a note) when MiniLM is not
installed, unless `--only embedding` asks for it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from archehr.data.model import Split
from archehr.data.releases import demo_dir, load_split
from archehr.relevance.registry import SHIPPED_MODELS

DEMO_PARTS = ("dev", "test-2026")  # the demo test split is kept out (see the module docstring)
SYNTHETIC_PART = "synthetic-dev"
FEATURES = {"lexical": "lexical", "embedding": "lexical+embedding"}
DEFAULT_SYNTHETIC = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "synthetic"


def shipped_parts(synthetic: str | Path = DEFAULT_SYNTHETIC) -> list[tuple[str, Split]]:
    """(label, split) of every part the shipped models train on, labels as recorded in the model files."""
    parts = [(name, load_split(demo_dir(), name, require_key=True)) for name in DEMO_PARTS]
    parts.append((SYNTHETIC_PART, load_split(synthetic, "dev", require_key=True)))
    return parts


def rebuild(kinds: tuple[str, ...] = ("lexical", "embedding"), synthetic: str | Path = DEFAULT_SYNTHETIC,
            out_dir: Path | None = None, log=print, **train_kw: object) -> dict[str, Path]:
    """Train and write each shipped model in `kinds` (`train_kw` go to `train`); returns the paths written."""
    from archehr.relevance.embedding import embeddings_available
    from archehr.relevance.trained import train_parts

    parts = shipped_parts(synthetic)
    n_case = sum(len(sp.cases) for _, sp in parts)
    log(f"training data: {', '.join(f'{lab} {len(sp.cases)} ({sp.source})' for lab, sp in parts)}; {n_case} cases")
    written = {}
    for kind in kinds:
        if kind == "embedding":
            ok, why = embeddings_available()
            if not ok:
                log(f"{kind}: skipped ({why})")
                continue
        model, cal = train_parts(parts, FEATURES[kind], **train_kw)
        path = (out_dir / SHIPPED_MODELS[kind].name) if out_dir else SHIPPED_MODELS[kind]
        model.save(path)
        written[kind] = path
        log(f"{kind}: leave-one-case-out L2 {model.l2}, threshold {cal.selector.threshold:.2f} on P(essential), "
            f"strict micro F1 {100 * cal.f1:.1f}; review level {cal.selector.review_level}; written to {path}")
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--synthetic", default=str(DEFAULT_SYNTHETIC), help="synthetic release folder (its dev split)")
    ap.add_argument("--only", choices=sorted(FEATURES), help="rebuild one model (default: both)")
    ap.add_argument("--out-dir", type=Path, help="write here instead of over the shipped files")
    a = ap.parse_args(argv)
    kinds = (a.only,) if a.only else ("lexical", "embedding")
    if a.only == "embedding":
        from archehr.relevance.embedding import embeddings_available

        ok, why = embeddings_available()
        if not ok:
            print(f"error: {why}", file=sys.stderr)
            return 2
    from archehr.errors import InputError

    try:
        rebuild(kinds, a.synthetic, a.out_dir)
    except InputError as e:  # a missing or unlabelled split: one line naming it, exit 2, as the CLI does
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
