"""The confidence and the review flag of an answer `archehr.ask` gives.

The review rules (`answerability.review`) judge the answer's first line, the sentence the ranking puts first: a rule
sees the asked fact missing (`ruled`), or the line gives it (`given`). Both are read once for each question, before the
typed confidence (`answerability.typed`), which reads them as features, so its P ranks the answers the rules doubt
below the others; the review flag reuses the same verdicts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from archehr.answerability.review import Verdicts, review_flags, shown_confidence, verdicts
from archehr.data.note_split import SplitNote, note_case
from archehr.relevance.base import Selection


def first_line(split: SplitNote, types: Any, order: list[int]) -> tuple[str, float] | None:
    """The answer's first line as the rules read it: the text of the sentence ranked first and its topic score."""
    return (split.sentences[order[0]].text, float(types.topic[order[0]])) if order else None


def read_verdicts(model: Any, types: Any, direct: bool, order: list[int], question: str,
                  split: SplitNote) -> Verdicts:
    """The rules' verdicts on the first line of `order`; both False without a confidence model or without `direct`
    (no answer types: the selector's ranking alone)."""
    if model is None or not direct:
        return Verdicts()
    return verdicts(types, first_line(split, types, order), question, split)


def judge(model: Any, typed: Any, p: float | None, types: Any, read: Verdicts | None = None,
          story: tuple[str, SplitNote, Any] | None = None) -> tuple[Any, float | None, str]:
    """The model that decides (the typed confidence over the lexical model, else the model given), its P, and a
    reason to decline outright ("" if none). `read`: the rules' verdicts on the first line, which the typed confidence
    reads (none said when not given). With `story` (the question, the split note, the lexicon), a question telling a
    story around its ask has its P weighed with that of the question without the story's words the note never names
    (`story_row`)."""
    from archehr.answerability.typed import declines_outright, names_nothing, typed_row

    read = read or Verdicts()
    # the typed model was fitted over the lexical P: other answerability models keep their own decision
    lexical = model is not None and getattr(model, "feature_set", "") == "lexical"
    confidence = typed_model(typed) if p is not None and lexical else None
    if confidence is None or p is None:
        return model, p, ""
    if names_nothing(types) and model.abstains(p) and declines_outright(p, types.kind):
        # the note never names the thing asked about, and the lexical model declines too: firmly, or of a test
        return model, p, f"the note does not name what the question asks about (P(answerable) {p:.2f})"
    pruned = story_row(model, types, read, *story) if story is not None else None
    return confidence, confidence.probability(typed_row(p, types, read.ruled, read.given), pruned), ""


def story_row(model: Any, types: Any, read: Verdicts, question: str, split: SplitNote,
              lexicon: Any) -> np.ndarray | None:
    """The typed feature row of the question with its story's words that name nothing in the note left out
    (`asking.story_pruned`; the kind and the rules' verdicts `read` stay the whole question's), or None when it tells
    no such story or what is left names nothing."""
    from dataclasses import replace

    from archehr.answerability.asking import story_pruned
    from archehr.answerability.kinds import answer_types, sentence_words
    from archehr.answerability.typed import typed_row
    from archehr.relevance.text import sentence_texts

    texts = sentence_texts(split.sentences)
    each = [set(sentence_words(t, lexicon)) for t in texts]
    words: set[str] = set().union(*each)
    text = story_pruned(question, words, lexicon, (texts, each))
    if text is None:
        return None
    case, _ = note_case(split, text)
    pruned = answer_types(case, lexicon)
    if not pruned.concepts:
        return None
    return typed_row(model.probability(case), replace(pruned, kind=types.kind), read.ruled, read.given)


def typed_model(typed: Any) -> Any:
    """The typed confidence `typed` names: None, a loaded one, "shipped" or a model file."""
    from archehr.answerability.typed import TypedConfidence, load_typed

    if typed is None or isinstance(typed, TypedConfidence):
        return typed
    return load_typed(None if typed == "shipped" else typed)


def review(model: Any, p: float | None, selection: Selection, types: Any, direct: bool, order: list[int],
           question: str, split: SplitNote, read: Verdicts) -> tuple[bool, float]:
    """(flagged, confidence shown) of an answer given, whose first line is `order`'s first sentence
    (`review.review_flags` with the verdicts `read` already, `review.shown_confidence`; by the selector's flag alone
    when not `direct`)."""
    best = first_line(split, types, order)
    flagged, ruled = review_flags(model, p, bool(selection.flagged), types if direct else None, best, question, split,
                                  read)
    confidence = shown_confidence(model, p, flagged, float(p) if p is not None else float(selection.confidence),
                                  ruled)
    return flagged, confidence
