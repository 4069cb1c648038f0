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

__all__ = [
    "SPLITS", "Case", "ClinicianAnswerSentence", "KeyEntry", "MappingEntry", "NoteSentence", "Phrase",
    "Relevance", "Release", "SentenceLabel", "Split", "demo_dir", "find_release", "load_split",
    "load_split_dir", "resolve_data_dir", "write_split",
]
