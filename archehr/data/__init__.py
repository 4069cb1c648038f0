"""Data model and loaders of ArchEHR-QA releases."""

from archehr.data.model import (
    SPLITS,
    Case,
    ClinicianAnswerSentence,
    KeyEntry,
    MappingEntry,
    NoteSentence,
    Phrase,
    Release,
    Relevance,
    SentenceLabel,
    Split,
)
from archehr.data.releases import demo_dir, find_release, load_split, load_split_dir, resolve_data_dir, write_split


def to_pandas(split: Split | str | None = "dev", data_dir: str | None = None, version_dir: str | None = None) -> object:
    """One row per note sentence as a pandas DataFrame (see `archehr.data.frames`; the `frames` extra)."""
    from archehr.data.frames import to_pandas as _to_pandas

    return _to_pandas(split, data_dir, version_dir)


def to_hf_dataset(split: Split | str | None = "dev", data_dir: str | None = None,
                  version_dir: str | None = None) -> object:
    """One row per note sentence as a Hugging Face `datasets.Dataset` (see `archehr.data.frames`)."""
    from archehr.data.frames import to_hf_dataset as _to_hf_dataset

    return _to_hf_dataset(split, data_dir, version_dir)


__all__ = [
    "SPLITS", "Case", "ClinicianAnswerSentence", "KeyEntry", "MappingEntry", "NoteSentence", "Phrase",
    "Relevance", "Release", "SentenceLabel", "Split", "demo_dir", "find_release", "load_split",
    "load_split_dir", "resolve_data_dir", "to_hf_dataset", "to_pandas", "write_split",
]
