"""Drug names and clinical words a question writes as they sound: split by voice-to-text ("by so pro lol" for
bisoprolol, "a camp rosate" for acamprosate, "pants a prazole" for pantoprazole) or misspelt ("augmenten" for
Augmentin, which the note calls co-amoxiclav; "supositories" for the note's suppository).

A word or a run of two to four consecutive question words, joined, is compared with the names the note stands
behind by a sound key (`sound_key`: letters written as they sound, vowel runs as one vowel, doubled letters once)
and an edit distance on those keys scaled by the name's length. The names compared, gathered once per note:
- the note's drugs by every name, brand or generic (`misspelt.note_drug_names`), and a name no drug list knows
  that the note writes beside a drug's in brackets ("Biktarvy (bictegravir/...)", "... tenofovir (Biktarvy)":
  `bracketed_names`), heard as a drug's;
- the lexicon's one-word terms (a brand, a lay name) whose expansions the note names ("augmentin" when the
  note says co-amoxiclav);
- the note's own words of at least 6 letters, which a single question word must match by sound exactly.
A match stands for the name as one concept, so the words of the span no longer count as words the note never
names. Guards against common words turning into drugs: a span of several words matches only a whole name of at
least 6 letters, joined, by the same first sound and a letter-level likeness (`LETTER_LIKENESS`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from archehr.answerability.features import Concept
from archehr.glossary import Glossary
from archehr.relevance.text import tokens

MAX_SPAN = 4  # the most question words joined into one heard name
MIN_NAME = 7  # the fewest letters of a drug name a span of several words may stand for ("a chef in": acephen)
MIN_WORD = 5  # the fewest letters of a single question word read as a drug or lexicon name
MIN_NOTE_WORD = 6  # the fewest letters of a note word a question word may misspell
LETTER_LIKENESS = 0.7  # difflib's ratio of the joined span's letters and a drug name's, at least
# a word not a drug's (a lexicon term, the note's own word) is heard only by the same sound key and letters this
# alike: "replaced" and "released", "waiting" and "weaning" are one sound edit apart and both English
WORD_LIKENESS = 0.85
# the fewest letters of a question word heard as a word not a drug's: shorter English words sound like others
# ("wedding" and "weeding", "through" and "trough")
MIN_SPELT = 8
_WORD = re.compile(r"[A-Za-z]+")
# spellings of one sound, rewritten before keying (order matters: "ph" before "h" is dropped)
_REWRITES = (("sch", "sk"), ("ph", "f"), ("ck", "k"), ("qu", "kw"), ("q", "k"), ("x", "ks"), ("z", "s"),
             ("th", "t"), ("wh", "w"), ("gh", "g"), ("dg", "j"), ("kn", "n"))
_SOFT_C = re.compile(r"c(?=[eiy])")
# a word in brackets after a run of text ("... tenofovir AF (Biktarvy)"), or a word before a bracketed run
# ("Biktarvy (bictegravir/emtricitabine/...)"): one of the two names of a medicine when the other run names a drug
_BRACKETED = re.compile(r"([^()\n]{3,80})\(\s*([A-Za-z]+)\s*\)|\b([A-Za-z]+)\s*\(([^()\n]{3,80})\)")


@functools.lru_cache(maxsize=1 << 16)
def sound_key(word: str) -> str:
    """`word` as it sounds, roughly: lower-case letters only; a silent final "e" dropped; one spelling per sound
    (ph: f, ck and hard c: k, soft c and z: s, x: ks, th: t ...); an "h" after the first letter dropped; every
    run of vowels (y after the first letter counting) one "a"; a doubled letter once. "bisoprolol" and "by so
    pro lol" both key "basapralal"."""
    w = re.sub(r"[^a-z]", "", word.lower())
    if len(w) > 3 and w.endswith("e") and w[-2] not in "aeiouy":
        w = w[:-1]
    for a, b in _REWRITES:
        w = w.replace(a, b)
    w = _SOFT_C.sub("s", w).replace("c", "k")
    out: list[str] = []
    for i, ch in enumerate(w):
        if i > 0 and ch == "h":
            continue
        code = "a" if ch in "aeiou" or (ch == "y" and i > 0) else ch
        if not out or out[-1] != code:
            out.append(code)
    return "".join(out)


def drug_key(word: str) -> str:
    """`sound_key` for a drug's name, with a first c, ch or k one sound ("k"): patients spell a drug as they hear
    it or as a brand writes it, so "kefalexin", "cefalexin" and "cephalexin" share a key; a word's soft "c"
    keeps its "s" elsewhere. A first x sounds as z ("zanax" for Xanax, "zarelto" for Xarelto)."""
    letters = re.sub(r"[^a-z]", "", word.lower())
    if letters[:1] == "x":
        return sound_key("z" + letters[1:])
    key = sound_key(word)
    return "k" + key[1:] if key[:1] == "s" and letters[:1] == "c" else key


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance of `a` and `b`, or `limit + 1` once it is sure to exceed `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def allowed_distance(key: str, words: int = 1) -> int:
    """The sound-key edits a drug name's key of this length allows a single question word: none below 6 sounds,
    one below 11, else two; several words joined (`words` > 1), whose joins blur more: none below 9 sounds, one
    below 12, else two ("the cabin" is one edit from theocodin, "rest of his" from restasis)."""
    if words > 1:
        return 0 if len(key) < 9 else 1 if len(key) < 12 else 2
    return 0 if len(key) < 6 else 1 if len(key) < 11 else 2


@dataclass(frozen=True)
class Name:
    """A name the note stands behind, with the phrases (word tuples, as `tokens` gives) a match stands for."""

    name: str
    key: str
    phrases: frozenset[tuple[str, ...]]
    exact: bool = False  # a note's ordinary word: matched by sound exactly, by one question word only
    drug: bool = False  # a drug's name (brand or generic), which several words may stand for


@dataclass(frozen=True)
class Heard:
    """Question words read as a name: the words (indices `start`..`end` - 1 of the question's words)."""

    start: int
    end: int
    span: str
    name: Name


@dataclass(frozen=True)
class NoteNames:
    """What a note names: the names a question's words may be heard as, and the note's words (as `tokens` gives
    them, abbreviations expanded and brands' generic names added: `kinds.sentence_words`)."""

    names: tuple[Name, ...]
    words: frozenset[str]

    @functools.cached_property
    def drugs_by_first(self) -> dict[str, tuple[Name, ...]]:
        """The drug names by their key's first sound (a heard name keeps its first sound)."""
        out: dict[str, list[Name]] = {}
        for n in self.names:
            if n.drug:
                out.setdefault(n.key[:1], []).append(n)
        return {k: tuple(v) for k, v in out.items()}

    @functools.cached_property
    def others_by_key(self) -> dict[str, tuple[Name, ...]]:
        """The names not a drug's by their whole key (heard only by the same key)."""
        out: dict[str, list[Name]] = {}
        for n in self.names:
            if not n.drug:
                out.setdefault(n.key, []).append(n)
        return {k: tuple(v) for k, v in out.items()}


_NOTES: dict[tuple[tuple[str, ...], int], NoteNames] = {}
NOTES_CACHED = 64  # notes whose names are kept (a benchmark asks many questions of each note in turn)


def note_names(texts: tuple[str, ...], lexicon: Glossary, words: frozenset[str] | None = None) -> NoteNames:
    """The names a note stands behind (see the module doc), computed once per note (the last `NOTES_CACHED`
    notes kept). `words`: the note's words as `kinds.sentence_words` gives them, if the caller has them."""
    key = (texts, id(lexicon))
    got = _NOTES.get(key)
    if got is None:
        got = _note_names(texts, lexicon, words)
        if len(_NOTES) >= NOTES_CACHED:
            _NOTES.pop(next(iter(_NOTES)))
        _NOTES[key] = got
    return got


def _note_names(texts: tuple[str, ...], lexicon: Glossary, words: frozenset[str] | None) -> NoteNames:
    from archehr.answerability.kinds import sentence_words
    from archehr.answerability.misspelt import note_drug_names

    if words is None:
        words = frozenset(set().union(*(sentence_words(t, lexicon) for t in texts)) if texts else set())
    out: dict[tuple[str, bool], Name] = {}
    for name, generic in note_drug_names(list(texts)).items():
        ph = tuple(tokens(generic))
        if ph and len(name) >= MIN_WORD and name.isalpha():
            out[(name, False)] = Name(name, drug_key(name), frozenset({ph}), drug=True)
    for name in bracketed_names(texts, lexicon):
        if (name, False) not in out and (ph := tuple(tokens(name))):
            out[(name, False)] = Name(name, drug_key(name), frozenset({ph}), drug=True)
    terms, by_token = _lexicon_terms(lexicon)
    named: dict[int, set[tuple[str, ...]]] = {}
    for w in words:
        for k, ph in by_token.get(w, ()):
            if words.issuperset(ph):
                named.setdefault(k, set()).add(ph)
    for k in sorted(named):
        term, drug = terms[k]
        if (term, False) not in out:
            out[(term, False)] = Name(term, drug_key(term) if drug else sound_key(term), frozenset(named[k]), drug=drug)
    for w in words:
        if len(w) >= MIN_NOTE_WORD and w.isalpha() and (w, False) not in out:
            out[(w, True)] = Name(w, sound_key(w), frozenset({(w,)}), exact=True)
    return NoteNames(tuple(out.values()), words)


def bracketed_names(texts: tuple[str, ...], lexicon: Glossary) -> list[str]:
    """Names (lower case) the note gives a medicine that no drug list knows: a word of at least `MIN_WORD` letters
    written with a capital, as a brand is, in brackets after a run of text naming a drug or before a bracketed run
    naming one ("Biktarvy (bictegravir/emtricitabine/tenofovir alafenamide)"); not an English word
    (`shorthand.english_words`: "(Daily)", "(Oral)") unless the lexicon lists it among a medicine class's members, and
    no drug's known name. (Without the capital, the note's ordinary words in brackets were read: "(breakfast)",
    "(possible)", "(unchanged)".)"""
    from archehr.answerability.shorthand import english_words
    from archehr.glossary.drugs import drugs_in, generic_names, generic_of

    english = english_words(lexicon)
    found: dict[str, None] = {}
    for t in texts:
        for m in _BRACKETED.finditer(t):
            name, other = (m.group(2), m.group(1)) if m.group(2) else (m.group(3), m.group(4))
            w = name.lower()
            if (len(w) >= MIN_WORD and w.isalpha() and name[0].isupper() and (w not in english or lexicon.classes_in(w))
                    and generic_of(w) is None and w not in generic_names() and drugs_in(other.split(",")[-1])):
                found.setdefault(w, None)
    return list(found)


@functools.lru_cache(maxsize=4)
def _lexicon_terms(lexicon: Glossary) -> tuple[tuple[tuple[str, bool], ...],
                                               dict[str, tuple[tuple[int, tuple[str, ...]], ...]]]:
    """The lexicon's one-word terms (letters only, at least `MIN_WORD`) but abbreviations, each with whether it
    names a drug (a lay entry, not a class, one of whose expansions is a generic drug name: "augmentin" ->
    amoxicillin); and their expansions as word tuples by the first word (term index, expansion)."""
    from archehr.answerability.kinds import generic_tokens

    generics = generic_tokens()
    terms: list[tuple[str, bool]] = []
    by_token: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for e in lexicon.entries:
        if e.kind == "abbr" or not re.fullmatch(rf"[a-z]{{{MIN_WORD},}}", e.term):
            continue
        phrases = frozenset(tuple(tokens(x)) for x in e.expansions) - {()}
        if not phrases:
            continue
        for ph in phrases:
            by_token.setdefault(ph[0], []).append((len(terms), ph))
        terms.append((e.term, e.kind == "lay" and bool(phrases & generics)))
    return tuple(terms), {k: tuple(v) for k, v in by_token.items()}


@functools.lru_cache(maxsize=4)
def _known_words(lexicon: Glossary) -> frozenset[str]:
    """Words that are names already (a lexicon term, a drug name): a question word spelling one is not misspelt."""
    from archehr.glossary.drugs import drug_names

    names = drug_names()
    return frozenset({e.term for e in lexicon.entries} | set(names) | set(names.values()))


def heard_names(question: str, note: NoteNames, lexicon: Glossary) -> list[Heard]:
    """The question's words (one, or two to `MAX_SPAN` consecutive ones joined) that sound like one of the note's
    names, left to right; where spans overlap, the closer match (fewer key edits, then letters more alike) wins.
    A word the note uses, a known name (a lexicon term, a drug name) and a span of words the note all uses are
    not heard as another name."""
    qwords = [m.group(0) for m in _WORD.finditer(question)]
    low = [w.lower() for w in qwords]
    stems = [tokens(w) for w in low]
    known = _known_words(lexicon)
    found: list[tuple[int, float, int, Name]] = []  # (key edits, -likeness, start, name) per span
    sizes: dict[int, int] = {}
    for size in range(1, MAX_SPAN + 1):
        for i in range(len(low) - size + 1):
            joined = "".join(low[i:i + size])
            words = [t for ts in stems[i:i + size] for t in ts]
            if words and all(t in note.words for t in words):
                continue
            if size == 1 and (len(joined) < MIN_WORD or joined in known or not words):  # "through": a stopword
                continue
            if size > 1 and (len(joined) < MIN_NAME or " ".join(low[i:i + size]) in known
                             or any(len(w) >= 4 and w in known for w in low[i:i + size])):
                continue
            forms = (joined, *(tokens(joined)[:1] if size == 1 else ()))  # a plural heard as the note's singular
            for form in dict.fromkeys(forms):
                near = note.drugs_by_first.get(drug_key(form)[:1], ())
                if size == 1 and len(form) >= MIN_SPELT:
                    near += note.others_by_key.get(sound_key(form), ())
                got = _best_name(form, size, near)
                if got is not None:
                    found.append((got[0], -got[1], i, got[2]))
                    sizes[len(found) - 1] = size
                    break
    out: list[Heard] = []
    taken: set[int] = set()
    for k in sorted(range(len(found)), key=lambda k: found[k][:3]):
        d, _, i, name = found[k]
        span = set(range(i, i + sizes[k]))
        if not taken & span:
            out.append(Heard(i, i + sizes[k], " ".join(qwords[i:i + sizes[k]]), name))
            taken |= span
    return sorted(out, key=lambda h: h.start)


def _best_name(joined: str, size: int, names: tuple[Name, ...]) -> tuple[int, float, Name] | None:
    """(key edits, letter likeness, name) of the name `joined` (a question word, or `size` words joined) sounds
    most like, within the allowed distance and likeness; None when none does or one question word spells the
    name exactly (nothing to hear). Several words are heard as a drug's name only, not as a note's word."""
    keys = {True: drug_key(joined), False: sound_key(joined)}  # a drug's name keyed as `drug_key` keys it
    best: tuple[int, float, Name] | None = None
    for n in names:
        key = keys[n.drug]
        if (size == 1 and n.name == joined) or (size > 1 and (not n.drug or len(n.name) < MIN_NAME)):
            continue
        if not n.drug and len(joined) < MIN_SPELT:
            continue
        limit = allowed_distance(n.key, size) if n.drug else 0
        if abs(len(key) - len(n.key)) > limit:
            continue
        d = edit_distance(key, n.key, limit)
        if d > limit:
            continue
        like = SequenceMatcher(None, joined, n.name).ratio()
        if like < (LETTER_LIKENESS if n.drug else WORD_LIKENESS):
            continue
        if best is None or (d, -like) < (best[0], -best[1]):
            best = (d, like, n)
    return best


def with_heard(concepts: list[Concept], question: str, texts: list[str], words: list[set[str]],
               lexicon: Glossary) -> list[Concept]:
    """`concepts` with each heard name (`heard_names`) one concept standing for the name's phrases, in place of
    the concepts of its words; a single question word the note already names is left as it is."""
    heard = heard_names(question, note_names(tuple(texts), lexicon, frozenset().union(*words)), lexicon)
    if not heard:
        return concepts
    out = list(concepts)
    for h in heard:
        span_tokens = set(tokens(h.span))
        surface = tuple(tokens(h.span)) or tuple(tokens(h.span.replace(" ", "")))
        if not surface:
            continue
        own = [c for c in out if set(c.surface) <= span_tokens and span_tokens]
        if h.end - h.start == 1 and own and any(c.covered_by(w) for c in own for w in words):
            continue  # a real word of the note after all
        if h.end - h.start == 1 and own and len(own[0].phrases) > 1:
            continue  # the lexicon reads the word already
        out = [c for c in out if c not in own]
        out.append(Concept(surface, frozenset(h.name.phrases | {surface})))
    return out
