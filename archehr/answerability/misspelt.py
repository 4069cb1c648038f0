"""A question's words read as the note's drugs and words they stand for in short or misspelt ("urso" for
ursodiol, "predisone", "thyroxine" for levothyroxine, "stiches" for stitches); `archehr.answerability.kinds`
widens a question's concepts with them."""

from __future__ import annotations

import functools
import re

from archehr.answerability.features import Concept
from archehr.glossary import Glossary
from archehr.relevance.text import stem_word, tokens

# a drug and its single-isomer form are named alike ("thyroxine": levothyroxine, "omeprazole": esomeprazole)
CHIRAL_PREFIXES = ("levo", "dex", "es", "ar")
DRUG_SIMILARITY = 0.85  # a question word this close to a note drug's name (5+ letters) stands for it
MISSPELT_SIMILARITY = 0.93  # a question word this close to a lexicon term or a note word misspells it

def note_drug_names(texts: list[str]) -> dict[str, str]:
    """Every name (brand or generic, lower case) of the drugs a note names, with its generic name; a hyphenated
    combination ("carbidopa-levodopa") names each of its parts. Computed once per note (cached)."""
    return dict(_note_drug_names(tuple(texts)))


@functools.lru_cache(maxsize=64)
def _note_drug_names(texts: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    from archehr.glossary.drugs import drugs_in

    found = {g for t in texts for g in drugs_in(t)}
    brands = _brands()
    return tuple({n: g for g in sorted(found) for n in (g, *brands.get(g, ()))}.items())


@functools.lru_cache(maxsize=1)
def _brands() -> dict[str, tuple[str, ...]]:
    """Generic name -> its brand and variant names (from `archehr.glossary.drugs`)."""
    from archehr.glossary.drugs import drug_names

    out: dict[str, list[str]] = {}
    for name, generic in drug_names().items():
        out.setdefault(generic, []).append(name)
    return {g: tuple(v) for g, v in out.items()}


def spelt_alike(word: str, other: str, similarity: float) -> bool:
    """`word` (a question's) within about one letter of `other`: the same first letter, lengths within 2 and
    difflib's similarity at least `similarity`; or the same letters in another order past the first
    ("dialisys" for dialysis: difflib counts a swapped pair of letters as two misses)."""
    from difflib import SequenceMatcher

    if word[:1] != other[:1] or abs(len(word) - len(other)) > 2:
        return False
    return sorted(word) == sorted(other) or SequenceMatcher(None, word, other).ratio() >= similarity


def other_drug(word: str, name: str) -> bool:
    """`word` (a question's, lower case) is a drug's own name (generic, brand or variant: `glossary.drugs`) and `name`,
    which it is spelt like, another drug's: "hydroxyzine" is not the note's hydralazine, nor "quinine" its quinidine,
    however close their letters. Two names of one drug, or one naming the other in part (calcium, calcium carbonate),
    are one drug."""
    own, other = _generic(word), _generic(name)
    if own is None or other is None:
        return False
    a, b = set(tokens(own)), set(tokens(other))
    return not (a <= b or b <= a)


def _generic(name: str) -> str | None:
    """The generic name of a drug's name (itself when generic), None for a word no drug is named by."""
    from archehr.glossary.drugs import generic_names, generic_of

    return name if name in generic_names() else generic_of(name)


def misspelt_drug(word: str, question: str, note_drugs: dict[str, str], note_words: frozenset[str] = frozenset(),
                  english: frozenset[str] = frozenset()) -> list[str]:
    """The generic names of the note's drugs that a question's word stands for in short or misspelt
    ("urso" for ursodiol, "predisone", "trazadone", "abilfy" for Abilify): the word (stemmed as `word`) begins
    the name of exactly one of them (`shorthand.shortened_drug`, with the note's words and the English words
    it must not be), or (at least 5 letters) is within about one letter of one (similarity >= 0.85, lengths
    within 2, the same first letter), or is its name without a single-isomer prefix ("thyroxine" for
    levothyroxine, `CHIRAL_PREFIXES`); never a drug other than the one the word names itself (`other_drug`)."""
    from archehr.answerability.shorthand import shortened_drug

    found = []
    for w in re.findall(r"[A-Za-z]{3,}", question):
        lw = w.lower()
        if stem_word(lw) != word:
            continue
        short = shortened_drug(lw, note_drugs, note_words, english)
        found.extend([short] if short is not None else [])
        for name, generic in note_drugs.items():
            if (len(lw) >= 5 and spelt_alike(lw, name, DRUG_SIMILARITY)) or (
                    len(lw) >= 6 and name.endswith(lw) and name[:-len(lw)] in CHIRAL_PREFIXES):
                found.append(generic)
        found = [g for g in found if not other_drug(lw, g)]
    return list(dict.fromkeys(found))


def with_note_drug(c: Concept, question: str, words: list[set[str]], note_drugs: dict[str, str],
               english: frozenset[str], note_words: frozenset[str]) -> Concept:
    """A one-word concept no sentence names, widened by the note's drug it stands for in short or misspelt
    (`note_words`: the note's words, `shorthand.words_of_note`)."""
    if len(c.surface) != 1 or not note_drugs or any(c.covered_by(w) for w in words):
        return c
    extra = {tuple(tokens(g)) for g in misspelt_drug(c.surface[0], question, note_drugs, note_words, english)} - {()}
    return Concept(c.surface, frozenset(set(c.phrases) | extra)) if extra else c


def misspelt_concept(c: Concept, question: str, words: list[set[str]], lexicon: Glossary) -> Concept:
    """A one-word concept the lexicon does not know and no sentence names, read as the lexicon term or the
    note word it misspells ("stiches": stitches, hence sutures; "defibrilator": the note's defibrillator): a
    question word of at least 6 letters within about one letter of a word of at least 6 letters (the same
    first letter, lengths within 2, similarity >= 0.93), never one drug's name read as another's (`other_drug`)."""
    if len(c.surface) != 1 or len(c.phrases) > 1 or any(c.covered_by(w) for w in words):
        return c
    spelt = [w.lower() for w in re.findall(r"[A-Za-z]{6,}", question) if stem_word(w.lower()) == c.surface[0]]
    if not spelt:
        return c
    w = spelt[0]

    def near(x: str) -> bool:
        return x != w and len(x) >= 6 and spelt_alike(w, x, MISSPELT_SIMILARITY) and not other_drug(w, x)

    for term in _single_word_terms(lexicon):
        if near(term):
            e = lexicon.get(term)
            phrases = {tuple(tokens(x)) for x in (e.term, *e.expansions)} if e is not None else set()
            return Concept(c.surface, frozenset((set(c.phrases) | phrases) - {()}))
    note_words = {x for ws in words for x in ws if len(x) >= 5}
    close = {(x,) for x in note_words if near(x) or near(stem_word(x))}
    return Concept(c.surface, frozenset(set(c.phrases) | close)) if close else c


@functools.lru_cache(maxsize=4)
def _single_word_terms(lexicon: Glossary) -> tuple[str, ...]:
    return tuple(e.term for e in lexicon.entries if re.fullmatch(r"[a-z]{6,}", e.term))
