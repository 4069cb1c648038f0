"""The team's clinical glossary: abbreviations and lay terms mapped to the words a clinical note uses.

Used to expand a patient's words (and a note's abbreviations) before lexical matching, the way
domain statements are retrieved by sub-string match: "water pill" brings in diuretic, furosemide,
Lasix; "HTN" brings in hypertension. The data file is `glossary.tsv` beside this module.

`load_lexicon()` adds the everyday layer (`everyday.tsv`, same format) used by `archehr answer`: drug
classes in patients' words (`class` entries: "blood thinner" -> apixaban, warfarin, ...), tests, people
and places, time words and misspellings; a term in both files has the union of their expansions.
British spellings of its terms and expansions are added on load (`spelling.py`: a note's "haemoglobin" is the
glossary's "hemoglobin").
A class in patients' words takes any word for a medicine's form ("thyroid tablet" is "thyroid pill"), a test any
word for a test ("thyroid bloods" is "thyroid test"): `forms.py`.
`predict`'s models keep `load_glossary()` (the base file alone) so their features do not move.
`load_voices()` reads `voices.tsv` (same format, its own kinds): non-standard spellings of common words that a
patient's question is read with (`archehr.answerability.voices`), never a note; `languages/*.tsv` (same format, one
file per language) the words of other languages mixed into a patient's English (`archehr.answerability.languages`).
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from archehr.errors import DataError, Problem

DEFAULT_PATH = Path(__file__).resolve().parent / "glossary.tsv"
# class: a drug class in patients' words -> member generic names; activity: something a patient does and may
# ask permission for (driving, work, bathing, alcohol ...) -> the words a note uses for it
KINDS = ("abbr", "lay", "class", "activity")
EVERYDAY_PATH = Path(__file__).resolve().parent / "everyday.tsv"
# common English words that begin a drug's name: never read as the drug shortened (`answerability.shorthand`)
SHORT_WORDS_PATH = Path(__file__).resolve().parent / "short_words.txt"
# non-standard spellings of common words (Scots, Caribbean, texting ...) read as standard words in a patient's question
# (`answerability.voices`); the kinds say where a term is read so (the file's header)
VOICES_PATH = Path(__file__).resolve().parent / "voices.tsv"
# words of the languages most often mixed into English patient messages (Taglish, Spanglish, Hinglish ...), one
# file per language, read in English in a patient's question (`answerability.languages`; kinds in its README)
LANGUAGES_DIR = Path(__file__).resolve().parent / "languages"
VOICE_KINDS = ("spelling", "possessive", "subject", "verb", "wh", "link", "adjective", "keep")
HEADER = ("term", "kind", "expansions")


@dataclass(frozen=True)
class GlossaryEntry:
    term: str
    kind: str  # "abbr", "lay" or "class"
    expansions: tuple[str, ...]
    line: int


_WORD = re.compile(r"[a-z0-9]+")


def _key(text: str) -> tuple[str, ...]:
    """A term or text as its alphanumeric words: "s/p" -> ("s", "p"), "Water  pills" -> ("water", "pills")."""
    return tuple(_WORD.findall(text.lower()))


class Glossary:
    """Entries plus an index by word sequence: matching is a dictionary lookup of the text's n-grams
    (longest first, whole words, case-insensitive), linear in the text length."""

    def __init__(self, entries: list[GlossaryEntry], source: str = "<memory>", version: str = ""):
        self.entries = tuple(entries)
        self.source = source
        self.version = version  # a hash of the data file(s): recorded with the answers it made
        self._by_term = {e.term: e for e in self.entries}
        self._by_key: dict[tuple[str, ...], GlossaryEntry] = {}
        for e in self.entries:
            self._by_key.setdefault(_key(e.term), e)
        self._max_words = max((len(k) for k in self._by_key), default=0)
        # a class member's word sequence -> the class terms it belongs to ("apixaban" -> blood thinner, ...)
        self._classes: dict[tuple[str, ...], list[str]] = {}
        for e in self.entries:
            if e.kind == "class":
                for x in e.expansions:
                    self._classes.setdefault(_key(x), []).append(e.term)
        self._max_member = max((len(k) for k in self._classes), default=0)

    def classes_in(self, text: str) -> list[str]:
        """The class terms whose member a text names ("apixaban 5 mg" -> "blood thinner", ...), in order."""
        words = _key(text)
        found: dict[str, None] = {}
        for i in range(len(words)):
            for n in range(min(self._max_member, len(words) - i), 0, -1):
                for c in self._classes.get(tuple(words[i:i + n]), ()):
                    found.setdefault(c, None)
        return list(found)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, term: object) -> bool:
        return isinstance(term, str) and term.lower() in self._by_term

    def get(self, term: str) -> GlossaryEntry | None:
        return self._by_term.get(term.lower())

    def matches(self, text: str) -> list[GlossaryEntry]:
        """Entries whose term occurs in `text` (each once, in order of first occurrence)."""
        found: dict[str, GlossaryEntry] = {}
        for _, _, entry in self.match_spans(text):
            found.setdefault(entry.term, entry)
        return list(found.values())

    def match_spans(self, text: str) -> list[tuple[int, int, GlossaryEntry]]:
        """Each occurrence of a term in `text` as (start, end, entry): longest first, left to right, whole words."""
        if not text or not self._by_key:
            return []
        spans = [(m.start(), m.end()) for m in _WORD.finditer(text.lower())]
        words = [text[a:b].lower() for a, b in spans]
        out = []
        i = 0
        while i < len(words):
            for n in range(min(self._max_words, len(words) - i), 0, -1):
                entry = self._by_key.get(tuple(words[i:i + n]))
                if entry is None:
                    continue
                surface = text[spans[i][0]:spans[i + n - 1][1]]
                # Short abbreviations ("or", "us", "ed", "pt") are ordinary words in lower case: only an
                # upper/mixed-case spelling ("ED", "Cr") counts as the abbreviation.
                if entry.kind == "abbr" and len(entry.term) <= 2 and surface.islower():
                    continue
                out.append((spans[i][0], spans[i + n - 1][1], entry))
                i += n - 1
                break
            i += 1
        return out

    def expansion_terms(self, text: str) -> list[str]:
        """The expansions of every matched term, de-duplicated, in order."""
        out: dict[str, None] = {}
        for e in self.matches(text):
            for x in e.expansions:
                out.setdefault(x, None)
        return list(out)

    def expand(self, text: str) -> str:
        """`text` followed by the expansions of the glossary terms found in it."""
        extra = self.expansion_terms(text)
        return text + (" ; " + " ; ".join(extra) if extra else "")


def parse_glossary(text: str, source: str = "<memory>", kinds: tuple[str, ...] = KINDS) -> Glossary:
    """Parse the TSV (its kinds one of `kinds`); every bad line is reported (DataError with one Problem per line)."""
    entries: list[GlossaryEntry] = []
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    header_seen = False
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cols = line.split("\t")
        if not header_seen:
            header_seen = True
            if tuple(c.strip().lower() for c in cols) == HEADER:
                continue
        if len(cols) != 3:
            problems.append(Problem(f"expected 3 tab-separated columns ({', '.join(HEADER)}), got {len(cols)}",
                                    source, line=n, code="bad-line"))
            continue
        term, kind, exp = (c.strip() for c in cols)
        term = " ".join(term.lower().split())
        if kind not in kinds:
            problems.append(Problem(f"kind must be one of {', '.join(kinds)}, got {kind!r}", source, line=n,
                                    field="kind", code="bad-kind"))
            continue
        expansions = tuple(x.strip() for x in exp.split(";") if x.strip())
        if not term or not expansions:
            problems.append(Problem("empty term or expansions", source, line=n, code="bad-line"))
            continue
        if term in seen:
            problems.append(Problem(f"term {term!r} already defined on line {seen[term]}", source, line=n,
                                    field="term", code="duplicate"))
            continue
        seen[term] = n
        entries.append(GlossaryEntry(term, kind, expansions, n))
    if problems:
        raise DataError(problems)
    return Glossary(entries, source)


def merge(base: Glossary, layer: Glossary) -> Glossary:
    """`base` with `layer`'s entries: a term in both keeps base's line and the union of the expansions
    (a `class` or `activity` entry in the layer gives it that kind); a new term is added."""
    extra = {e.term: e for e in layer.entries}
    out = []
    for e in base.entries:
        x = extra.pop(e.term, None)
        if x is not None:
            e = GlossaryEntry(e.term, x.kind if x.kind in ("class", "activity") else e.kind,
                              tuple(dict.fromkeys((*e.expansions, *x.expansions))), e.line)
        out.append(e)
    out.extend(extra.values())
    return Glossary(out, f"{base.source} + {layer.source}", _version(base.version, layer.version))


def _version(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]


def load_glossary(path: str | Path | None = None) -> Glossary:
    """The glossary in `path`, or the shipped one (parsed once per process)."""
    p = None if path is None else Path(path)
    if p is not None and not p.is_file():
        raise DataError(Problem("glossary file not found", str(p), code="missing-file"))
    return _default_glossary() if p is None else parse_glossary(p.read_text(encoding="utf-8"), str(p))


@functools.lru_cache(maxsize=1)
def _default_glossary() -> Glossary:
    text = DEFAULT_PATH.read_text(encoding="utf-8")
    g = parse_glossary(text, str(DEFAULT_PATH))
    g.version = _version(text)
    return g


# the rules `load_lexicon` applies to the files' entries: part of the lexicon's version, so a change of rule
# changes the version recorded with the answers
LEXICON_RULES = "british-spellings-1 form-aliases-1 test-aliases-1 vaccine-aliases-2"


def with_british_spellings(g: Glossary) -> Glossary:
    """`g` with each expansion's British spelling added after it ("hemoglobin" -> also "haemoglobin"), and
    a British-spelt term for each term a spelling rule changes ("diarrhea" -> "diarrhoea"), unless `g`
    already has that term."""
    from archehr.glossary.spelling import british_variants

    out = []
    for e in g.entries:
        exp = tuple(dict.fromkeys(y for x in e.expansions for y in (x, *british_variants(x))))
        out.append(GlossaryEntry(e.term, e.kind, exp, e.line))
    have = {e.term for e in out}
    for e in list(out):
        for t in british_variants(e.term):
            if t not in have:
                have.add(t)
                out.append(GlossaryEntry(t, e.kind, e.expansions, e.line))
    from archehr.glossary.drugs import BRANDS_PATH, FILTER_VERSION

    # the drug-name filter's version too: brand names resolve to the generics the class layer lists; the English
    # words a drug's shortened name must not be (`answerability.shorthand`); the question's spellings read as
    # standard words (`voices.tsv`)
    return Glossary(out, g.source, _version(g.version, LEXICON_RULES, f"drug-filter-{FILTER_VERSION}",
                                            BRANDS_PATH.read_text(encoding="utf-8"),
                                            SHORT_WORDS_PATH.read_text(encoding="utf-8"),
                                            VOICES_PATH.read_text(encoding="utf-8"),
                                            *(p.read_text(encoding="utf-8")
                                              for p in sorted(LANGUAGES_DIR.glob("*.tsv")))))


@functools.lru_cache(maxsize=1)
def load_voices() -> Glossary:
    """The voices layer (`voices.tsv`: non-standard spellings of common words, kinds `VOICE_KINDS`), parsed once."""
    return parse_glossary(VOICES_PATH.read_text(encoding="utf-8"), str(VOICES_PATH), VOICE_KINDS)


@functools.lru_cache(maxsize=1)
def load_lexicon() -> Glossary:
    """The shipped glossary with its everyday layer (`everyday.tsv`) and British spellings, parsed once per
    process."""
    text = EVERYDAY_PATH.read_text(encoding="utf-8")
    layer = parse_glossary(text, str(EVERYDAY_PATH))
    layer.version = _version(text)
    from archehr.glossary.forms import with_form_aliases, with_test_aliases, with_vaccine_aliases

    return with_british_spellings(with_vaccine_aliases(with_test_aliases(with_form_aliases(
        merge(_default_glossary(), layer)))))


__all__ = ["Glossary", "GlossaryEntry", "load_glossary", "load_lexicon", "load_voices", "merge", "parse_glossary",
           "DEFAULT_PATH", "LANGUAGES_DIR",
           "EVERYDAY_PATH", "LEXICON_RULES", "SHORT_WORDS_PATH", "VOICES_PATH", "VOICE_KINDS",
           "with_british_spellings"]
