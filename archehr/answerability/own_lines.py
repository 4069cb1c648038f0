"""The asked fact missing from the lines about the asked thing, for `archehr answer`'s review flag.

A question about one medicine of a list ("why was she started on gliclazide", "why have they stopped the
spironolactone") often meets a note whose rows give a reason for another medicine and none for the asked one
("Amlodipine 5 mg daily - NEW, for blood pressure while ramipril is held" above "Gliclazide 40 mg twice daily -
NEW."). The row with the other medicine's reason shares the question's words ("new", "tablet", "stopped") and comes
first; the asked medicine's own rows say no reason. `other_medicine_cause` tells such an answer: a why question
naming a medicine the note names (`asked_detail.medicine_rows`), a first line that names another medicine and not the
asked one, and no sentence naming the asked medicine holding a cause (`why_causes.says_no_cause` false for none).

A line that reports the question put to the clinician ("Patient asked whether she can fly in May", "He wants to know
if he can drive") names everything the question names and answers none of it; `reports_question` tells such a
first line, unless it goes on to give the answer ("...; advised not to for 6 months").

A result question ("did the urine test show an infection") whose test only a few lines name ("Urinalysis | Sent,
not yet reported") is unanswered when one of them awaits the result and none gives one, however much of the
question's other words a first line with another test's value names (`own_result_awaited`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from archehr.answerability.spaces import fold
from archehr.data.note_split import SplitNote

# the note reporting a question put to it: "asked whether", "asks if", "wants to know", "enquired about"
_REPORTED = re.compile(
    r"\b(?:asked|asks|asking|enquired|enquires|inquired|inquires|queried|queries|wondered|wonders|"
    r"wanted to know|wants to know|would like to know|keen to know)\s+(?:\w+\s+){0,3}?(?:whether|if|about|when|"
    r"why|how)\b", re.I)
# a reason said to be unknown: "Reason for quetiapine not documented", "indication unclear"
_REASON_UNKNOWN = re.compile(r"\b(?:reason|indication|why)\b[^.;]{0,40}?\b(?:not (?:documented|recorded|known|"
                             r"stated|given|clear)|unknown|unclear|undocumented)\b", re.I)
# where the reported question's clause ends: a stop, a colon, a semicolon, a comma, a dash
_CLAUSE_END = re.compile(r"[.;:,]\s|[.;:,]$|\s[-–—]\s")


def reports_question(first: str | None) -> bool:
    """The first line reports a question put to the clinician (`_REPORTED`) and says nothing after the reported
    question's clause (`_CLAUSE_END`): no answer, no plan, no date ("..., and I am happy for him to travel", "...;
    will be discussed at clinic on 14/04" say more and are left to the other rules)."""
    if first is None:
        return False
    plain = fold(first)
    m = _REPORTED.search(plain)
    if m is None:
        return False
    end = _CLAUSE_END.search(plain, m.end())
    return end is None or not re.search(r"\w", plain[end.end():])


def asked_drugs(question: str, texts: Sequence[str]) -> set[str]:
    """The generic names of the drugs the question names, by any of their names, or misspelt within about a letter
    of a drug the note names ("gliclazid", "quetapine": `misspelt.spelt_alike`); never a class ("water tablet",
    "chemo"), whose members the note may give reasons for one by one."""
    from archehr.answerability.misspelt import DRUG_SIMILARITY, note_drug_names, spelt_alike
    from archehr.glossary.drugs import drugs_in

    found = set(drugs_in(question))
    names = note_drug_names(list(texts))
    for w in {w.lower() for w in re.findall(r"[A-Za-z]{5,}", question)}:
        found.update(g for n, g in names.items() if n == w or spelt_alike(w, n, DRUG_SIMILARITY))
    return found


def _no_cause(i: int, texts: Sequence[str], named: np.ndarray, question: str) -> bool:
    """Sentence `i` holds no cause (`why_causes.says_no_cause`), or says the reason is not known
    (`_REASON_UNKNOWN`: "Reason for quetiapine not documented")."""
    from archehr.answerability.why_causes import says_no_cause

    return bool(_REASON_UNKNOWN.search(fold(texts[i]))) or says_no_cause(i, texts, named, question)


def other_medicine_cause(kind: str, question: str, texts: Sequence[str], named: np.ndarray, at: int | None) -> bool:
    """A why question (`kind`) naming a drug the note names (`asked_drugs`), whose first line (`at`) is a row of
    another drug (its name and a dose or how often: `med_listed.DOSING`) not naming the asked one, while no sentence
    naming the asked one holds a cause (`_no_cause`)."""
    from archehr.answerability.med_listed import DOSING
    from archehr.glossary.drugs import drugs_in

    if kind != "why" or at is None:
        return False
    asked = asked_drugs(question, texts)
    first = set(drugs_in(texts[at]))
    # (the first line a row of another medicine, with its dose: a line of advice naming another medicine, "use
    # paracetamol for pain instead", often answers for the asked one unnamed)
    if not asked or not first or first & asked or not DOSING.search(fold(texts[at])):
        return False
    rows = [i for i, t in enumerate(texts) if set(drugs_in(t)) & asked]
    return bool(rows) and all(_no_cause(i, texts, named, question) for i in rows)


# a test named in this many sentences or fewer is named by its own lines, not by every line of the note
OWN_LINES = 5
# question words that name no test of their own ("the test today", "the result last week")
_NO_TEST = frozenset({"today", "yesterday", "tomorrow", "week", "month", "time", "day", "last", "recent", "again",
                      "still", "back", "now", "result", "test"})


def own_result_awaited(kind: str, question: str, texts: Sequence[str], named: np.ndarray) -> bool:
    """A result question one of whose concepts (a row of `named`, `asked_thing.kept_concepts` order) few sentences
    name (`OWN_LINES`), one of them saying the result is awaited (`awaited_results.awaited`, or a result phrasing of
    `undetermined.tsv` with no result beside it) and none of the others giving a result: the asked test's own lines
    ("Urinalysis | Sent, not yet reported", "Vitamin D - results not yet available") leave its result unknown,
    whatever the first line, naming more of the question's other words, gives."""
    from archehr.answerability.asked_thing import kept_concepts
    from archehr.answerability.awaited_results import awaited
    from archehr.answerability.test_words import RESULT_GIVEN
    from archehr.answerability.undetermined import asked_undetermined
    from archehr.glossary import load_lexicon

    if kind != "test_result" or named.ndim != 2:
        return False
    concepts = kept_concepts(question, load_lexicon(), texts)
    for k in range(min(named.shape[0], len(concepts))):
        lines = np.flatnonzero(named[k])
        if not 0 < len(lines) <= OWN_LINES or set(concepts[k].surface) <= _NO_TEST:
            continue
        given = [bool(RESULT_GIVEN.search(fold(texts[i]))) for i in lines]
        wait = [awaited(texts[i], question) or (bool(asked_undetermined(kind, texts[i])) and not g)
                for i, g in zip(lines, given, strict=True)]
        if any(wait) and not any(g and not w for g, w in zip(given, wait, strict=True)):
            return True
    return False


def own_lines_unsaid(kind: str, question: str, split: SplitNote, best: tuple[str, float] | None, named: Any) -> bool:
    """For `review.review_flags`: the first line (`best`, its text and topic) reports the question put
    (`reports_question`) or gives another medicine's reason to a why question (`other_medicine_cause`), or the asked
    test's own lines await its result (`own_result_awaited`; `named`: the question's concepts as the note names them,
    `review.NamedConcepts`)."""
    texts = [s.text for s in split.sentences]
    first = best[0] if best else None
    at = texts.index(first) if first is not None and first in texts else None
    return reports_question(first) or other_medicine_cause(kind, question, texts, named.rows, at) \
        or own_result_awaited(kind, question, texts, named.rows)
