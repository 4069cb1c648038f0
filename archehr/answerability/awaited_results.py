"""A result question's test whose result the note says is still awaited, for `review`'s flags.

A note often names the test asked about where it says the result is not back yet ("Urine culture  Pending", "We will
call you with the culture result", "Sputum result not yet back"): what the test found is not in the note, whichever
sentence the ranking puts first. `result_awaited` reads the sentences naming the most of the question's topic,
`awaited_near` those naming nearly as much of it (`NEAR_SHARE`) when the first line gives no result; a later sentence
giving a result tells the awaited one came back. `awaited` reads one line: a result awaited and none given so far,
or a result so far when the question asks for the final one.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from archehr.answerability.spaces import fold
from archehr.answerability.test_words import PENDING, PRELIMINARY, RESULT_GIVEN
from archehr.data.note_split import SplitNote

# a result question: a sentence naming this share of the most any names of the topic, saying the result is awaited,
# leaves it unknown when the first line gives none (`awaited_near`)
NEAR_SHARE = 0.66
EDGE = 1e-9  # a share read as a float sum (0.19999999) is not below a level it equals (as `review.EDGE`)
# a question asking for the final result, not one so far ("is the full report back")
_ASKS_FINAL = re.compile(r"\b(?:final|full|complete)\s+(?:[\w-]+\s+)?(?:reports?|results?|reading|cultures?)\b", re.I)


def top_topic(types: Any) -> np.ndarray:
    """The sentences naming the most of the question's topic (none when no sentence names any of it)."""
    if not types.topic.size or types.topic.max() <= 0:
        return np.zeros(0, dtype=int)
    return np.flatnonzero(types.topic >= types.topic.max() - 1e-9)


def result_awaited(types: Any, split: SplitNote, question: str | None = None) -> bool:
    """A result question whose test the note names most fully (the sentences naming the most of the question's
    topic) in a sentence saying its result is awaited ("Urine culture  Pending", "We will call you with the
    culture result"): what the test found is not in the note, whichever sentence comes first; not a result given so
    far with the final report to follow (`awaited`), unless the `question` asks for the final one."""
    if types.kind != "test_result":
        return False
    # a later sentence naming half the topic or more and giving a result ("results to follow", then a later entry
    # "U&E back, sodium 129") tells the awaited result came back
    half = np.flatnonzero(types.topic >= 0.5 * types.topic.max() - EDGE)
    return _still_awaited([s.text for s in split.sentences], top_topic(types), half, question)


def awaited_near(types: Any, best: tuple[str, float] | None, split: SplitNote, question: str | None = None) -> bool:
    """A result question whose first line (`best`) gives no result while a sentence naming nearly as much of the topic
    as the one naming most (`NEAR_SHARE` of it) says the result is awaited ("Sputum result not yet back", the most
    of the topic named by the keyworker's title "Respiratory Nurse Specialist"): the asked result is not in the note,
    unless a later sentence naming as much gives one (`result_awaited`'s reading of a stale entry)."""
    if types.kind != "test_result" or best is None or not types.topic.size or types.topic.max() <= 0 \
            or RESULT_GIVEN.search(fold(best[0])):
        return False
    near = np.flatnonzero(types.topic >= NEAR_SHARE * types.topic.max() - EDGE)
    return _still_awaited([s.text for s in split.sentences], near, near, question)


def _still_awaited(texts: list[str], saying: Any, giving: Any, question: str | None) -> bool:
    """A sentence of `saying` says the result is awaited, and no later sentence of `giving` gives one."""
    later = [i for i in giving if RESULT_GIVEN.search(fold(texts[i])) and not awaited(texts[i], question)]
    return any(awaited(texts[i], question) and not any(j > i for j in later) for i in saying)


def awaited(text: str, question: str | None = None) -> bool:
    """The line says a result is awaited (`PENDING`) and gives none found so far (`PRELIMINARY`), or the question
    asks for the final one ("they said the final result comes later, is it clear?"): a result so far is no answer."""
    from archehr.answerability.test_words import awaited_other

    text = fold(text)  # a raw note's line breaks inside a phrase ("not yet\nback")
    if not PENDING.search(text) or awaited_other(text, question):  # (another test awaited: `awaited_other`)
        return False
    return not PRELIMINARY.search(text) or bool(question and _ASKS_FINAL.search(question))
