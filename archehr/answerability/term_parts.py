"""A lexicon term of two or more words ("iron drip", "heart surgeon", "keyhole surgery", "sore throat") is one concept
of the question, covered by any of its expansions (`features.question_concepts`). A note that names none of them
may still name the thing by one of the term's own words: "iron" for an iron drip, "surgery" for keyhole surgery,
"throat" for a sore throat. So when no sentence of the note names the term or an expansion, the concept is also
covered by each of the term's specific words (and by that word's own lexicon expansions): the words it would have
made as concepts of its own without the term. Generic words never stand for the term alone: a medicine's form or a
test word (`glossary/forms.py`), question filler and the words that only say which kind of answer is asked, and
`glossary/generic_words.txt` ("shot", "drip", "doctor", "clinic", "blood", "scan" ...). Activities are left as
they are: "lift heavy" is not "heavy".
"""

from __future__ import annotations

import functools
import os

from archehr.answerability.features import QUESTION_FILLER, Concept
from archehr.glossary import GENERIC_WORDS_PATH, Glossary
from archehr.glossary.forms import FORMS, TEST_WORDS
from archehr.relevance.text import tokens

_MODE = os.environ.get("ARCHEHR_PARTS", "absent")  # TEMP experiment switch


@functools.lru_cache(maxsize=1)
def generic_words() -> frozenset[str]:
    """The (stemmed) words that never stand for a term alone (see the module doc)."""
    from archehr.answerability.asked_for import KIND_WORDS

    lines = GENERIC_WORDS_PATH.read_text(encoding="utf-8").splitlines()
    listed = " ".join(w.strip() for w in lines if w.strip() and not w.startswith("#"))
    return frozenset(tokens(" ".join((listed, *FORMS, *TEST_WORDS)))) | QUESTION_FILLER | KIND_WORDS


@functools.lru_cache(maxsize=1)
def _listed() -> frozenset[str]:
    lines = GENERIC_WORDS_PATH.read_text(encoding="utf-8").splitlines()
    listed = " ".join(w.strip() for w in lines if w.strip() and not w.startswith("#"))
    return frozenset(tokens(" ".join((listed, *FORMS, *TEST_WORDS))))


def term_parts(term: str, lexicon: Glossary) -> frozenset[tuple[str, ...]]:
    """The phrases a term's specific words cover on their own: each word, and its own lexicon expansions
    ("keyhole surgery": surgery; keyhole, laparoscopic, laparoscopy ...)."""
    generic = generic_words()
    out: set[tuple[str, ...]] = set()
    for raw in tokens(term, stem=False):
        word = tokens(raw)
        if not word or word[0] in generic:
            continue
        out.add((word[0],))
        e = lexicon.get(raw)
        if e is not None and e.kind != "activity" and _MODE != "noexp":
            out.update(p for x in e.expansions if (p := tuple(t for t in tokens(x) if t not in QUESTION_FILLER)))
    return frozenset(out)


def with_parts(concepts: list[Concept], question: str, words: list[set[str]] | list[frozenset[str]],
               lexicon: Glossary) -> list[Concept]:
    """Each concept of a multi-word lexicon term that no sentence (`words`: each sentence's words) names, also
    covered by the term's specific words (`term_parts`)."""
    if _MODE == "off":
        return concepts
    parts: dict[tuple[str, ...], frozenset[tuple[str, ...]]] = {}
    for e in lexicon.matches(question):
        if len(tokens(e.term)) < 2 or e.kind == "activity" or (e.kind == "class" and _MODE == "noclass"):
            continue
        surface = tuple(t for t in tokens(e.term) if t not in QUESTION_FILLER)
        if _MODE == "pure" and (e.kind == "class" or any(t in _listed() for t in tokens(e.term))):
            continue
        found = term_parts(e.term, lexicon)
        if surface and found:
            parts.setdefault(surface, found)
    out = []
    for c in concepts:
        extra = parts.get(c.surface)
        if extra and (_MODE == "always" or not any(c.covered_by(set(w)) for w in words)):
            c = Concept(c.surface, frozenset(c.phrases | extra))
        out.append(c)
    return out


__all__ = ["generic_words", "term_parts", "with_parts"]
