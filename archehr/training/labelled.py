"""What the fitting recipes read from a labelled split: per-sentence label vectors, and the record (hash, counts)
a model file keeps of the data it learned from."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from archehr.data.model import Case, Relevance, Split


def training_hash(split: Split) -> str:
    """sha256 of what the model learned from: case ids, sentence texts and labels, canonical JSON."""
    rows = []
    for c in split.cases:
        k = split.key_for(c.case_id) if split.key is not None else None
        rows.append([c.case_id, c.question_text, c.clinician_question or "",
                     [[s.id, s.text, (k.label_of(s.id) or Relevance.NOT_RELEVANT).value if k else None]
                      for s in c.sentences]])
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False, sort_keys=True).encode()).hexdigest()


# A model file names the folders it learned from relative to the checkout, and a folder outside it by its
# last three parts only, so that a rebuild in another clone, wherever the release sits, records the same
# strings and no machine's path is committed (provenance only: no data is looked up from here).
_ROOT = Path(__file__).resolve().parents[2]


def portable_source(source: str | Path) -> str:
    """`source` as a model file records it: relative to the checkout, else its last three folders."""
    d = Path(source)
    if not d.is_absolute() and not d.exists():  # a label such as "merged", not a folder
        return str(source)
    d = d.resolve()
    if d.is_relative_to(_ROOT):
        return d.relative_to(_ROOT).as_posix()
    return Path(*d.parts[-3:]).as_posix()


def training_record(split: Split) -> dict[str, object]:
    """What one labelled split contributed: where from, how much, and the hash of its content."""
    return {"source": portable_source(split.source), "split": split.name, "version": split.version,
            "cases": len(split.cases), "sentences": sum(len(c.sentences) for c in split.cases),
            "sha256": training_hash(split)}


def labels(split: Split, case: Case) -> tuple[np.ndarray, np.ndarray]:
    """(essential, relevant) 0/1 vectors; a sentence the key does not list counts as not relevant."""
    k = split.key_for(case.case_id)
    lab = [k.label_of(s.id) for s in case.sentences]
    ess = np.array([x == Relevance.ESSENTIAL for x in lab], dtype=float)
    rel = np.array([x in (Relevance.ESSENTIAL, Relevance.SUPPLEMENTARY) for x in lab], dtype=float)
    return ess, rel
