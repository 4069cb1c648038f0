"""Make a note sentence readable as an answer line without changing what it says."""

from __future__ import annotations

import re

from archehr.relevance.text import is_header

__all__ = ["clean_sentence", "is_header"]  # is_header is defined once, with the note's sections

_DEID = re.compile(r"\[\*\*(.*?)\*\*\]")
_DATE = re.compile(r"^[\d/\-]+$")
# "# Syncope / heart block: On telemetry ..." -> the problem-list header is not part of the sentence
_HASH_HEADER = re.compile(r"^\s*#+\s*[^:]{1,80}:\s+")
# "Discharge Instructions: Take ..." -> a section label glued to the sentence
_LABEL = re.compile(r"^\s*[A-Z][A-Za-z /&]{2,40}:\s+(?=[A-Z0-9])")


def _deid(match: re.Match[str]) -> str:
    inner = match.group(1).strip()
    if _DATE.match(inner):
        return inner
    low = inner.lower()
    if low.startswith("hospital"):
        return "the hospital"
    return ""  # names and other identifiers: nothing a patient needs


def clean_sentence(text: str) -> str:
    """De-identification placeholders, header prefixes and whitespace; never drops content words."""
    text = _DEID.sub(_deid, text)
    text = " ".join(text.split())
    stripped = _HASH_HEADER.sub("", text)
    stripped = _LABEL.sub("", stripped)
    if stripped.strip():
        text = stripped
    text = re.sub(r"\s+([,.;:])", r"\1", text)
    text = re.sub(r"\bthe the\b", "the", text)
    return " ".join(text.split()).strip()
