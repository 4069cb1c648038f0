"""A why answer from the note's labelled reason field, for the first line of `archehr answer`.

Notes export the reason for what was done as a field of its own ("Reason for procedure: enlarged lymph nodes on CT",
"Reason for referral: ...", "Indication: ...", `archehr.data.reason_fields`), often in no word of the lay question
("why did I need the camera down into my lungs") and so ranked low. For a why question (not one asking why something
was stopped, changed, called off or not done, in the why clause or, for a bare "Why?", before it: that reason is
told beside the change) `field_first` puts such a field first when it gives the reason for the asked thing: the
question names the field's subject ("what was the referral for": "Reason for referral: ..."), the field itself names
the asked thing, or, for a label of no fixed subject ("Indication:", "Reason for procedure:"), a line within `NEAR`
of it does ("Procedure: Flexible bronchoscopy" over "Reason for procedure: ..."). A first line that already says a
cause (`why_causes.has_cause`) gives way only to a field of a fixed subject (a referral's, an admission's): an
indication beside a mention is often the reason for another step of the note. A visit's complaint ("Presenting
complaint:", "Reason for visit:") is the complaint restated, never put first (on the 45 earlier writers it lost 5
first lines and won none).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability import why_answers as why
from archehr.answerability.why_causes import has_cause
from archehr.data.reason_fields import ReasonField, reason_field
from archehr.relevance.text import tokens

NEAR = 3  # the lines either side of a field of no fixed subject that may name what it gives the reason for
MENTION_SHARE = 0.75  # a line scoring this share of the note's best topic score names the asked thing


def field_first(question: str, order: Sequence[int], texts: Sequence[str], topic: np.ndarray) -> int | None:
    """The reason field (an index of `texts`) to put first in `order` for a why question, or None: the best ranked
    field of `order` tied to the asked thing (`tied`), no visit's complaint, and of a fixed subject when the first
    line already says a cause; None when the question asks why something was changed or not done
    (`why_answers.asks_change` of its why clause) or the first line is already a reason field."""
    clause = why_clause(question)
    if not order or why.asks_change(clause) or _CALLED_OFF.search(clause):
        return None
    fields = {i: f for i in order if (f := reason_field(texts[i])) is not None and f.subject != "visit"}
    if order[0] in fields:
        return None
    # a first line saying a cause answers where it stands, unless a field of the asked referral or admission does
    caused = has_cause(texts[order[0]])
    asked = set(tokens(question))
    for i in order:
        if i in fields and (fields[i].subject or not caused) and tied(fields[i], i, asked, topic):
            return int(i)
    return None


BARE = 2  # the words of a why clause asking of nothing by itself ("why?", "but why", "how come")
# a thing called off: its reason is told beside the cancelling, not in the field of why it was booked
_CALLED_OFF = re.compile(r"\b(?:cancel\w*|postpon\w*|called off|put off)\b", re.I)
# the clause that asks why: "sorry if this is silly but why exactly did I need the camera down into my lungs" of
# "... ? i dont even have a cough" (a "dont" told beside it asks no why-not)
_WHY_CLAUSE = re.compile(r"[^.?!]*\b(?:why|how come|what (?:\w+ ){0,6}for|reason)\b[^.?!]*", re.I)


def why_clause(question: str) -> str:
    """The question's first clause asking why (`_WHY_CLAUSE`), or the whole question when none does; a bare "Why?"
    with what went before it, which tells the asked thing ("I must change the antibiotic from my GP. Why?")."""
    m = _WHY_CLAUSE.search(question)
    if m is None:
        return question
    return question[:m.end()] if len(tokens(m.group(0))) <= BARE else m.group(0)


def tied(field: ReasonField, i: int, asked: set[str], topic: np.ndarray) -> bool:
    """The field at line `i` gives the reason for the asked thing: the question names its subject (`asked`, the
    question's word stems), the field names the asked thing (a topic score at least `MENTION_SHARE` of the note's
    best), or, for a field of no fixed subject, a line within `NEAR` of it does."""
    if asked & set(field.stems):
        return True
    best = float(topic.max()) if topic.size else 0.0
    if best <= 0:
        return False
    if topic[i] >= MENTION_SHARE * best:
        return True
    if field.subject:
        return False
    near = topic[max(i - NEAR, 0):i + NEAR + 1]
    return bool((near >= MENTION_SHARE * best).any())
