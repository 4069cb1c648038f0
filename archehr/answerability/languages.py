"""A patient's question written in English mixed with another language, read in English before it is read:
"bakit po kailangan itigil ang gamot?" (Taglish) is read as "why need stop the medicine?", "¿cuánto tiempo tengo
que usar la faja?" as "¿how long do i have to use the binder?", "kitne din tak dawai leni hai" as "how many days
until medicine take".

The words are data (`archehr/glossary/languages/<code>.tsv`, the glossary format, one file per language, its kinds
in that folder's README): question words, the cues of a question's kind, the commonest lay nouns and verbs of a clinic
and their common misspellings. Accents are folded before matching ("cuándo" is "cuando"), and a word written with
an accent shows its language even where its folded spelling is also English. A language is read only where the
question shows it (two of its words that are no English words, or one of five letters or more); a word that is
also English ("come", "dice", "may", "ano", "para") is read only beside a word of that language or a word that is no
English word, never before an English subject ("may I ask"), never in capitals ("ANO") and never as a name inside a
sentence (where a language that writes every noun with a capital, German, shows its noun: "my Mutter"). An English
question is returned unchanged. Only the words listed are read; the others stay as written.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from archehr.glossary import LANGUAGES_DIR, Glossary, parse_glossary

LANGUAGE_KINDS = ("word", "shared", "drop", "shared-drop", "prefix")
_WORD = re.compile(r"[a-z0-9]+")
_SHOWS = ("word", "drop")  # the kinds that show a language
_DROPPED = ("drop", "shared-drop")
# an English subject or object, or the particle of an English phrasal verb, after a shared word: the word is
# English there ("may I", "come he", "come out")
_ENGLISH_NEXT = frozenset("i he she we they you me him her us them it my his our their your out back up off".split())
_SENTENCE_END = ".!?¿¡\n"
_TERM_BREAKS = re.compile(r"[-']")
_CAPITALISED_NOUNS = "#! nouns capitalised"  # a language file's header line
_GAP = re.compile(r"[ \t]{1,2}|-|[ \t]?'[ \t]?")
# letters Unicode gives no decomposition to, folded by hand to the letter without its mark (Turkish "ilacı",
# Polish "długo", Vietnamese "đau")
_UNDECOMPOSED = str.maketrans("ıłŁđĐøØ", "illddoo")


@dataclass(frozen=True)
class _Token:
    start: int
    end: int
    word: str  # folded, lower case
    accented: bool
    surface: str
    joined: bool  # the next word follows with only a space or a hyphen between


@dataclass(frozen=True)
class _Match:
    start: int  # first token
    end: int  # past the last token
    lang: str
    kind: str
    reading: str


def fold(text: str) -> str:
    """`text` in lower case with its accents taken off, one character for each of `text`'s ("Cuándo" -> "cuando",
    "Długo" -> "dlugo")."""
    out = []
    for c in text.translate(_UNDECOMPOSED):
        f = "".join(x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x))
        out.append(f.lower() if len(f) == 1 else c.lower())
    return "".join(out) if len("".join(out)) == len(text) else text.lower()


def in_english(text: str) -> str:
    """`text` (a patient's question or message) with the words of the languages it shows read in English (the
    `languages/*.tsv` files); unchanged when it shows none."""
    if not text or text.isascii() and not _maybe_foreign(text):
        return text
    folded = fold(text)
    spans = [(m.start(), m.end()) for m in _WORD.finditer(folded)]
    tokens = [_Token(a, b, folded[a:b], not text[a:b].isascii(), text[a:b],
                     k + 1 < len(spans) and _GAP.fullmatch(folded[b:spans[k + 1][0]]) is not None)
              for k, (a, b) in enumerate(spans)]
    shown = _shown(tokens)
    if not shown:
        return text
    out, last, i = [], 0, 0
    while i < len(tokens):
        m = _match_at(tokens, i, shown, text)
        if m is None or not _read(m, tokens, shown, text):
            i += 1
            continue
        a, b = tokens[m.start].start, tokens[m.end - 1].end
        out.append(text[last:a])
        if m.kind in _DROPPED or m.kind == "prefix" or m.reading == "":
            b = _after_drop(text, b)
            if b >= len(text) or not text[b].isalnum() and not text[b].isspace():
                out[-1] = out[-1].rstrip(" \t")  # "ok ba?" -> "ok?", not "ok ?"
                if out[-1].endswith(","):
                    out[-1] = out[-1][:-1]  # a word of address dropped: "the results, cariad?" -> "the results?"
            if text[b:b + 1] in (",", ".", "!") and not "".join(out).strip():
                b += 1  # a greeting dropped opening the question: "Duw duw, when" -> "when"
        else:
            out.append(m.reading)
        last, i = b, m.end
    out.append(text[last:])
    read = re.sub(r"[ \t]{2,}", " ", "".join(out))
    return read.lstrip() if not text[:1].isspace() else read


def _after_drop(text: str, b: int) -> int:
    """Where the text goes on after a dropped word ending at `b`: past a hyphen joining it to the next word."""
    return b + 1 if b < len(text) and text[b] == "-" else b


def _maybe_foreign(text: str) -> bool:
    """Any word of `text` is a word of a listed language (a cheap test before the full reading)."""
    words = set(_WORD.findall(text.lower()))
    return any(w in _first_words() for w in words)


def _shown(tokens: list[_Token]) -> dict[str, int]:
    """The languages the question shows, with their evidence: distinct words of the kinds `word`/`drop` (a shared
    word written with an accent counts); shown with two, or one of five letters or more."""
    found: dict[str, set[str]] = {}
    for lang, g in _layers().items():
        for i in range(len(tokens)):
            for n in range(min(4, len(tokens) - i), 0, -1):
                e = g.get(" ".join(t.word for t in tokens[i:i + n]))
                if e is None or not _joined(tokens[i:i + n]):
                    continue
                if e.kind in _SHOWS or (e.kind != "prefix" and any(t.accented for t in tokens[i:i + n])):
                    found.setdefault(lang, set()).add(e.term)
                break
    return {lang: len(ws) for lang, ws in found.items()
            if len(ws) >= 2 or any(len(w.replace(" ", "")) >= 5 for w in ws)}


def _joined(tokens: list[_Token]) -> bool:
    return all(t.joined for t in tokens[:-1])


def _match_at(tokens: list[_Token], i: int, shown: dict[str, int], text: str) -> _Match | None:
    """The longest term of a shown language starting at token i (the language with more evidence on a tie); the
    particles of the language (kinds `drop`, `shared-drop`) are skipped inside a phrase ("gaano po katagal")."""
    best: _Match | None = None
    for lang in sorted(shown, key=lambda k: -shown[k]):
        g, heads = _layers()[lang], _heads()[lang]
        words, j = [], i
        while j < len(tokens) and len(words) < 6:
            if words and not tokens[j - 1].joined:
                break
            words.append(tokens[j].word)
            j += 1
            key = " ".join(words)
            e = g.get(key)
            # longer wins; on a tie a word of its language over another's shared one ("quando": Portuguese's
            # word, Italian's shared word)
            if e is not None and e.kind != "prefix" and (best is None or j > best.end or j == best.end
                                                         and best.kind not in _SHOWS and e.kind in _SHOWS):
                best = _Match(i, j, lang, e.kind, e.expansions[0])
            if key in heads:
                continue
            p = g.get(words[-1])
            if len(words) > 1 and p is not None and p.kind in _DROPPED:
                words.pop()  # a particle inside a phrase ("gaano po katagal"): read past it
                continue
            break
        e = g.get(tokens[i].word)
        if (best is None or best.end == i + 1) and e is not None and e.kind in ("prefix", *_DROPPED) \
                and tokens[i].joined and text[tokens[i].end:tokens[i].end + 1] == "-":
            return _Match(i, i + 1, lang, "prefix", "")  # "mag-drive": the prefix read off with its hyphen
    return best


def _read(m: _Match, tokens: list[_Token], shown: dict[str, int], text: str) -> bool:
    """Whether the match is read in its place: a word of the language always; a shared one (or a prefix) only
    beside the language, not before an English subject, not in capitals and not as a name inside a sentence (a
    capital there shows a noun in a language that writes every noun so)."""
    if m.kind == "prefix":
        return True
    first = tokens[m.start]
    if m.kind in _SHOWS or any(t.accented for t in tokens[m.start:m.end]):
        return not (len(first.surface) >= 2 and first.surface.isupper() and m.end - m.start == 1 and
                    len(first.surface) <= 3)
    surface = text[first.start:tokens[m.end - 1].end]
    if len(surface) >= 2 and surface.isupper():
        return False  # "ANO", "MI", "PO": abbreviations
    before = text[:first.start].rstrip()
    if surface[:1].isupper() and before and before[-1] not in _SENTENCE_END:
        # a name inside a sentence; in a language that writes every noun with a capital its noun ("my Mutter")
        return m.lang in _capitalising()
    nxt = tokens[m.end].word if m.end < len(tokens) else ""
    if nxt in _ENGLISH_NEXT and m.kind == "shared":
        return False
    return _beside_language(m, tokens, m.lang)


def _beside_language(m: _Match, tokens: list[_Token], lang: str) -> bool:
    """A word within two words of the match is a term of `lang`, or no English word (and no number)."""
    from archehr.answerability.voices import english_vocabulary

    g = _layers()[lang]
    english = english_vocabulary()
    near = tokens[max(0, m.start - 2):m.start] + tokens[m.end:m.end + 2]
    for t in near:
        e = g.get(t.word)
        if e is not None and e.kind != "prefix":
            return True
        if t.word.isalpha() and len(t.word) >= 3 and t.word not in english and not _is_drug(t.word):
            return True
    return False


@functools.lru_cache(maxsize=4096)
def _is_drug(word: str) -> bool:
    from archehr.glossary.drugs import generic_of

    return generic_of(word) is not None


@functools.lru_cache(maxsize=1)
def _layers() -> dict[str, Glossary]:
    """Each language's file, parsed once: code -> glossary (terms folded)."""
    out = {}
    for p in sorted(LANGUAGES_DIR.glob("*.tsv")):
        # a term's hyphens and apostrophes are word breaks, as in the question ("est-ce", "c'est")
        lines = [_TERM_BREAKS.sub(" ", ln.split("\t", 1)[0]) + ln[ln.index("\t"):] if "\t" in ln else ln
                 for ln in fold(p.read_text(encoding="utf-8")).splitlines()]
        out[p.stem] = parse_glossary("\n".join(lines), str(p), LANGUAGE_KINDS)
    return out


@functools.lru_cache(maxsize=1)
def _capitalising() -> frozenset[str]:
    """The languages that write every noun with a capital (their file's header says `#! nouns capitalised`): a
    capital inside their sentence shows no name."""
    return frozenset(p.stem for p in LANGUAGES_DIR.glob("*.tsv")
                     if _CAPITALISED_NOUNS in p.read_text(encoding="utf-8").splitlines()[:5])


@functools.lru_cache(maxsize=1)
def _heads() -> dict[str, frozenset[str]]:
    """Each language's openings of its phrases ("gaano" of "gaano katagal"): a phrase is read on past them."""
    return {lang: frozenset(" ".join(e.term.split()[:k]) for e in g.entries for k in range(1, len(e.term.split())))
            for lang, g in _layers().items()}


@functools.lru_cache(maxsize=1)
def _first_words() -> frozenset[str]:
    """Every word that opens or stands in a term of any language (the cheap test of `_maybe_foreign`)."""
    return frozenset(w for g in _layers().values() for e in g.entries for w in e.term.split())


__all__ = ["LANGUAGE_KINDS", "fold", "in_english"]
