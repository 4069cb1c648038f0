"""A how-long question's first answer line that gives a length of time, for `archehr answer`.

The hand ranking may lead a how-long answer with a line naming the asked thing but giving no length at all: the
medicine's own entry without its course ("Take it with food.", "Current meds: ramipril 5mg once daily"), the
thing's start ("Quetiapine was started on day 1"), a header or a form's caption, a line of the story ("Works as a
chef"), while a line just below gives the length ("Nitrofurantoin 100 mg twice a day for 5 days", "Fit note given
for 2 weeks"). For a how-long question whose first line holds no length or end in any form a how-long answer takes
(`length_forms.any_length`) nor tells the end in words (`_ENDED`: "throughout the pregnancy", "no further scans",
"may stop checking now", "six weekly sessions"), `length_first` puts first the best of the next `first_fact.REACH`
sentences that names as much of the topic as the first (and some; or goes on about the first, naming it by a pronoun
just after it: `first_fact.goes_on`), ranks at least `SHARE` of the first and gives
a duration of its own (`length_forms.course_length`, not one running only before the asked event,
`length_forms.before_only`). A first line with any length, even of another thing, keeps its place: which of two
lengths is asked is the ranking's call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.counts import NUMBER
from archehr.answerability.first_fact import SHARE, goes_on, next_with  # (each ranking at least SHARE of the first)
from archehr.answerability.length_forms import any_length, before_only, course_length

# an end or a length told in words, not a count of time: the whole of a span ("throughout the pregnancy"), nothing
# more to come ("no further scans", "no longer needed"), a stop now or at an event ("may stop checking now", "stop
# once the baby is born"), a course counted in sessions or cycles ("six weekly sessions")
_ENDED = re.compile(
    rf"\bthroughout\b|\bno (?:further|longer|more)\b|\b(?:stop|finish|end|come off)\w*\b[^.;]{{0,60}}?"
    rf"\b(?:now|today|once|when|after)\b|\b{NUMBER}\s+(?:\w+\s+)?(?:sessions?|cycles?|visits?|treatments?)\b", re.I)


def gives_no_length(text: str) -> bool:
    """The line holds no length of time or end in any form (`length_forms.any_length`, `_ENDED`)."""
    return not any_length(text) and not _ENDED.search(text)


def length_first(question: str, order: Sequence[int], rank: np.ndarray, texts: Sequence[str],
                 topic: np.ndarray) -> int | None:
    """The sentence (an index of `texts`) to put first in `order` in place of its first, or None to keep it: for a
    how-long question whose first sentence gives no length (`gives_no_length`), the first of the next
    `first_fact.REACH` sentences of `order` that names as much of the topic as the first (and some: `topic` above 0),
    ranks at least `SHARE` of the first and gives a duration of its own not only running before the asked event."""
    if not order or not gives_no_length(texts[order[0]]):
        return None
    # naming at least as much of the topic as the first: a length of a nearby thing (another medicine's course, the
    # monitor's wear) is no answer, and leading with it would hide that the note gives none (the answer's review)
    # (a sentence going on about the first by a pronoun, "It is planned for 12 months", names what the first names)
    least = max(float(topic[order[0]]), 1e-9)
    return next_with(order, rank, SHARE, lambda i: (topic[i] >= least or goes_on(i, order[0], texts))
                     and course_length(texts[i], question) and not before_only(question, texts[i]))
