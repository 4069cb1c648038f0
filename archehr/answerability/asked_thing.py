"""The sentences naming what a question asks about: the question's concepts the asked-fact rules read
(`kept_concepts`), the sentences naming each (`concept_rows`), those naming the most of them (`asked_rows`), and the
patterns those rules share (a month's name, a date or clock time; a dose is `doses.DOSE`).

The rules reading them: `asked_result` (a result asked), `asked_time` (a course's length or a date asked),
`date_unset` (a date said to be yet to be set), `asked_detail` and `asked_service`; `asked_fact.any_unsaid`
gathers them.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from archehr.answerability.counts import NUMBER as NUMBER  # re-exported: rules read it here (`counts.NUMBER`)
from archehr.answerability.dates import DAY_MONTH, HOUR_MINUTE, NUMERIC_DATE, WORD_DATE

if TYPE_CHECKING:
    from archehr.glossary import Glossary

TEST_SHARE = 0.75  # a sentence naming this share of the best one's topic names the asked test too
# verbs asking for a result ("what did it show"): no concept of what was tested (`kept_concepts`)
_ASKING_VERBS = ("find", "found", "show", "shows", "say", "said", "wrong", "fail", "failed", "pass", "passed",
                 "better", "worse", "mean", "anything")
# a date or a clock time, read out before looking for a result (a date "12/08/2026" or "Monday 14 April" is no value
# "12/08" or "Monday 14"), and any bare "12/08" too, a score's "26/30" with it; `result_first` reads a bare day and
# month as a date only after a word dating it, keeping a score (reading it so here too was not measured)
DATE_TIME = re.compile(rf"\b{NUMERIC_DATE}\b|\b{HOUR_MINUTE}\b|\b{DAY_MONTH}\b|\b{WORD_DATE}", re.I)


def concept_rows(question: str, texts: Sequence[str], lexicon: Glossary,
                 note: Sequence[str] | None = None) -> np.ndarray:
    """Which sentences name each of the question's concepts (`kept_concepts`, read against the note's own names:
    `note`, the whole note's sentences when `texts` are parts of them, else `texts`; one row a concept, one column a
    sentence): in its words, the lexicon's, or a longer word it begins ("physio" in "physiotherapist"). A
    generic test word ("the blood test") or a verb asking for a result ("find", "show") beside other concepts
    says where or how the result was asked, not what: left out."""
    from archehr.answerability.kinds import sentence_words
    from archehr.relevance.text import tokens

    concepts = kept_concepts(question, lexicon, texts if note is None else note)
    words = [sentence_words(t, lexicon) for t in texts]
    raw = [tokens(t) for t in texts]
    # a test asked by its abbreviation ("MRI") is not named by another one the lexicon expands to the same class
    # ("CT" -> "imaging", "mri"): a CT's result is not the MRI's
    abbrs = {tuple(tokens(e.term)) for e in lexicon.matches(question) if e.kind == "abbr"}
    out = np.zeros((len(concepts), len(texts)), dtype=bool)
    for k, c in enumerate(concepts):
        own = c.surface in abbrs
        for i, w in enumerate(words):
            named = c.covered_by(set(raw[i]) | _own_expansions(texts[i], c.surface, lexicon) if own else w)
            out[k, i] = named or (len(c.surface) == 1 and len(c.surface[0]) >= 5
                                  and any(t.startswith(c.surface[0]) for t in raw[i]))
    return out


def kept_concepts(question: str, lexicon: Glossary, note: Sequence[str] | None = None) -> list:
    """The question's concepts `concept_rows` reads, in its row order (`kinds.asked_concepts` less a generic test word
    or a verb asking for a result when others remain); with the note's sentences (`note`), each read as the note's
    name it stands for misspelt, shortened or heard (`shorthand.widen`, as `kinds.answer_types` reads them:
    "trimethoprin" is named by the note's trimethoprim), so the rules reading the asked thing's sentences find them."""
    concepts = _kept(question, lexicon)
    return list(concepts if note is None else _widened(question, lexicon, tuple(note)))


@functools.lru_cache(maxsize=256)
def _kept(question: str, lexicon: Glossary) -> tuple:
    from archehr.answerability.holds import GENERIC_TESTS
    from archehr.answerability.kinds import asked_concepts
    from archehr.relevance.text import tokens

    concepts = asked_concepts(question, lexicon)
    aside = {tuple(tokens(w)) for w in GENERIC_TESTS + _ASKING_VERBS}
    kept = [c for c in concepts if c.surface not in aside]
    return tuple(kept if kept else concepts)


@functools.lru_cache(maxsize=256)  # the review rules read one answer's concepts several times
def _widened(question: str, lexicon: Glossary, note: tuple[str, ...]) -> tuple:
    from archehr.answerability.kinds import sentence_words
    from archehr.answerability.shorthand import widen

    words = [sentence_words(t, lexicon) for t in note]
    return tuple(widen(list(_kept(question, lexicon)), question, list(note), words, lexicon))


def misspelt_drugs(question: str, lexicon: Glossary, note: Sequence[str]) -> set[tuple[str, ...]]:
    """The surfaces of the question's concepts that reading them against the note (`kept_concepts`) turned into one of
    its drugs ("trimethoprin", "bic tarvy"): medicines asked about, though no drug list knows their spelling."""
    from archehr.answerability.kinds import generic_tokens

    generics = generic_tokens()
    plain = {c.surface: c.phrases for c in _kept(question, lexicon)}
    return {c.surface for c in kept_concepts(question, lexicon, note)
            if (c.phrases - plain.get(c.surface, frozenset())) & generics}


def _own_expansions(text: str, surface: tuple[str, ...], lexicon: Glossary) -> set[str]:
    """The words of the sentence's abbreviations that are the asked one (`surface`), expanded."""
    from archehr.relevance.text import tokens

    return {x for e in lexicon.matches(text) if e.kind == "abbr" and tuple(tokens(e.term)) == surface
            for x in tokens(" ".join(e.expansions))}


def asked_rows(named: np.ndarray, share: float = 1.0) -> np.ndarray:
    """The sentences naming the asked thing: those naming the most of the question's concepts (rows of `named`, one
    column a sentence; at least `share` of the best sentence's score), each concept weighed by how rare it is in
    the note (as `kinds.answer_types` weighs its topic). Empty when the note names none."""
    if named.ndim != 2 or not named.size:
        return np.zeros(named.shape[-1] if named.ndim else 0, dtype=bool)
    n = named.shape[1]
    df = named.sum(axis=1)
    weight = np.array([0.0 if d == 0 else 0.3 + 0.7 * math.log((n + 1) / d) / math.log(n + 1) for d in df])
    score = weight @ named
    if score.max() <= 0:
        return np.zeros(n, dtype=bool)
    return score >= share * score.max() - 1e-9


def with_next(rows: np.ndarray, paragraphs: Sequence[str]) -> np.ndarray:
    """The rows and each one's next sentence in the same paragraph ("2. Continue for at least 6 months")."""
    out = rows.copy()
    for i in np.flatnonzero(rows):
        if i + 1 < len(rows) and paragraphs[i + 1] == paragraphs[i]:
            out[i + 1] = True
    return out


def topic_scores(named: np.ndarray) -> np.ndarray:
    """Each sentence's share of the question's concepts, each weighed by its rarity in the note (`asked_rows`)."""
    return concept_weights(named) @ named


def concept_weights(named: np.ndarray) -> np.ndarray:
    """Each concept's weight in `topic_scores`: its rarity among the note's sentences (0 for one none names)."""
    n = named.shape[1]
    df = named.sum(axis=1)
    return np.array([0.0 if d == 0 else 0.3 + 0.7 * math.log((n + 1) / d) / math.log(n + 1) for d in df])
