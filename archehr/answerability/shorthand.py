"""A patient's shorthand for the note's drugs and tests: "fludro", "levo", "amox", "methyl pred", "tac levels",
"tsh hi".

- A drug named by the start of its name: a question word (letters only, at least `SHORTEST` = 3) that begins the
  name, generic or brand, of exactly one drug the note names (`misspelt.note_drug_names`) stands for that drug;
  two consecutive words joined may too ("methyl pred": methylprednisolone). The note's own drugs are the only
  candidates, so "levo" is levothyroxine in a thyroid letter and levofloxacin in a pneumonia one, and nothing
  where the note names both. Guards against an ordinary word turning into a drug: the word is not English
  (`english_words`: the tokenizer's stop words, the question filler, the everyday lexicon's words and
  `short_words.txt`, so "pre", "met", "car", "form" match nothing), the note does not use it, and it begins no
  other word of the note ("pred" in a note saying "predicted" is not read as prednisolone).
- Words that name a measured value rather than what is measured ("levels", "numbers", "reading", "hi" for high):
  the test or analyte beside them is the topic ("tac levels", "kidney numbers", "tsh hi"), so such a word the
  note never uses is no concept of its own.

`widen` applies these with the other readings of a question's words (`sounds_alike.with_heard`, the misspelt
drug and word of `misspelt`) in one place, for `kinds.answer_types`.
"""

from __future__ import annotations

import functools
import re

from archehr.answerability.features import QUESTION_FILLER, Concept
from archehr.glossary import SHORT_WORDS_PATH, Glossary
from archehr.relevance.text import STOPWORDS, stem_word, tokens

SHORTEST = 3  # the fewest letters of a drug's name shortened ("oxy", "tac", "epo")
# a measured value's words, not what is measured: "tac levels", "his kidney numbers", "was my tsh hi"
MEASURE_WORDS = frozenset(tokens("level levels number numbers reading readings value values hi lo"))
_LETTERS = re.compile(r"[A-Za-z]+")


@functools.lru_cache(maxsize=1)
def _short_words() -> frozenset[str]:
    lines = SHORT_WORDS_PATH.read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip().lower() for w in lines if w.strip() and not w.startswith("#"))


@functools.lru_cache(maxsize=4)
def english_words(lexicon: Glossary) -> frozenset[str]:
    """Words that are English, never a drug's name shortened: stop words, the question filler and the answer-kind
    words, every word of the lexicon's expansions and of its terms (but a term beginning one of its expansions, the
    lexicon's own shorthand: "oxy", "amox"), and `short_words.txt`."""
    from archehr.answerability.kinds import KIND_WORDS

    out = set(STOPWORDS) | set(QUESTION_FILLER) | set(KIND_WORDS) | _short_words()
    for e in lexicon.entries:
        expanded = {w.lower() for x in e.expansions for w in _LETTERS.findall(x)}
        out |= expanded
        # a term's word beginning a word of its own expansions is the lexicon's shorthand ("oxy": oxycodone; "amox"
        # of "amox-clav"), not English
        out.update(w for w in _LETTERS.findall(e.term) if not any(x.startswith(w) and x != w for x in expanded))
    return frozenset(out)


def _targets(word: str, note_drugs: dict[str, str]) -> set[str]:
    """The drugs (generic names) a word begins a name of: for a combination ("amoxicillin-clavulanate") the part it
    begins, so "amox" is amoxicillin whether the note writes it alone or combined."""
    out = set()
    for name, generic in note_drugs.items():
        if name == word:
            return set()  # the word is a name itself: nothing shortened
        if name.startswith(word):
            parts = [p for p in generic.split("-") if p.startswith(word)]
            out.add(parts[0] if name == generic and parts else generic)
    return out


def shortened_drug(word: str, note_drugs: dict[str, str], note_words: frozenset[str] = frozenset(),
                   english: frozenset[str] = frozenset()) -> str | None:
    """The generic name of the one note drug `word` (a question's word, lower case) begins a name of, or None:
    too short, English, a word of the note, ambiguous between drugs, or the start of another note word."""
    if len(word) < SHORTEST or not word.isalpha() or word in english or stem_word(word) in english:
        return None
    if word in note_words or stem_word(word) in note_words:
        return None
    targets = _targets(word, note_drugs)
    if len(targets) != 1:
        return None
    (target,) = targets
    own = {t for n, g in note_drugs.items() if g == target or target in g.split("-") for t in (n, *tokens(n))}
    own |= set(tokens(target))
    if any(w.startswith(word) and w not in own and not any(o.startswith(w) for o in own) for w in note_words):
        return None  # "pred" in a note that also says "predicted"
    return target


def words_of_note(words: list[set[str]] | list[frozenset[str]]) -> frozenset[str]:
    """The words of a note's sentences (`words`: each sentence's), letters only."""
    return frozenset(w for ws in words for w in ws if w.isalpha())


def with_shorthand(concepts: list[Concept], question: str, texts: list[str], words: list[set[str]],
                   lexicon: Glossary) -> list[Concept]:
    """`concepts` with two words joined read as the note's drug they shorten ("methyl pred": one concept), and the
    words naming a measured value that no sentence uses dropped (when another concept is left); a single word
    shortening a drug is read by `misspelt.with_note_drug`, through `shortened_drug`."""
    from archehr.answerability.misspelt import note_drug_names

    drugs = note_drug_names(texts)
    own_words = words_of_note(words)
    english = english_words(lexicon)
    covered = {c.surface for c in concepts if any(c.covered_by(w) for w in words)}
    out = list(concepts)
    if drugs:
        low = [w.lower() for w in _LETTERS.findall(question)]
        for i in range(len(low) - 1):  # two words joined: each alone may be English or nothing
            if low[i] in STOPWORDS or low[i + 1] in STOPWORDS:
                continue
            target = next((t for j in ("", "-") if (t := shortened_drug(low[i] + j + low[i + 1], drugs, own_words,
                                                                        english)) is not None), None)
            if target is None:
                continue
            surface = tuple(tokens(low[i])) + tuple(tokens(low[i + 1]))
            own = [c for c in out if set(c.surface) <= set(surface) and c.surface not in covered]
            out = [c for c in out if c not in own]
            out.append(Concept(surface, frozenset({surface, tuple(tokens(target))})))
    kept = [c for c in out if not (len(c.surface) == 1 and c.surface[0] in MEASURE_WORDS and c.surface not in covered)]
    return kept if kept else out


def widen(concepts: list[Concept], question: str, texts: list[str], words: list[set[str]],
          lexicon: Glossary) -> list[Concept]:
    """A question's concepts read as the note's names they stand for: heard ("by so pro lol": bisoprolol),
    shortened ("fludro": fludrocortisone; "tac levels": tacrolimus), misspelt ("predisone", "stiches")."""
    from archehr.answerability.misspelt import misspelt_concept, note_drug_names, with_note_drug
    from archehr.answerability.sounds_alike import with_heard

    concepts = with_heard(concepts, question, texts, words, lexicon)
    concepts = with_shorthand(concepts, question, texts, words, lexicon)
    drugs = note_drug_names(texts)
    english, own_words = english_words(lexicon), words_of_note(words)
    concepts = [with_note_drug(c, question, words, drugs, english, own_words) for c in concepts]
    return [misspelt_concept(c, question, words, lexicon) for c in concepts]


__all__ = ["MEASURE_WORDS", "SHORTEST", "english_words", "shortened_drug", "widen", "with_shorthand", "words_of_note"]
