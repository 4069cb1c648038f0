"""Whether a note sentence gives the asked fact of the very thing asked about, in the same clause.

A sentence may name the asked thing and hold the asked kind of fact, yet the fact belongs to another thing named
in another clause: "Start aspirin until the stress test is done; primary care visit in 1 week" gives no date of the
stress test, "Keep the shield on at night for 1 week" beside "Lace-up brace for 4-6 weeks" gives no course of the
brace, "CRP 86 (H). Needs GP review to recheck CRP" gives one CRP, not the repeat. `linked` gives each sentence 1
when one of its clauses (cut at ";", "then", "but", a full stop, a comma before "and", "with" or "or") names at least
`LINK_SHARE` of what the sentence names of the question's topic and holds the fact the kind asks:

- how_long: a course's length or end (`course_link.COURSE_END`, a dose's spacing and schedule steps read out);
- when: a firm date (`date_unset.FIRM`: a calendar date, a weekday, a clock time, "in 2 weeks"), not in a clause
  saying the date is yet to be set (`date_unset.UNSET`);
- test_result: a result of a test done (`firm_answers.result_strength`: a value with its unit, flag or range, a
  finding), not in a clause saying it is awaited; a question asking a repeat or a trend ("did they redo it", "is it
  going down") needs a trend word in the clause ("85 from 310", "improving", "repeat");
- med_change: a decision on a medicine (`med_decisions.DECISION`: started, stopped, continued, changed);
- why: a cause (`why_causes.has_cause`), read in the whole sentence naming the asked thing (a reason often sits in
  the clause after the one naming it: "STOP aspirin; clopidogrel replaces it"): a note naming the asked change but
  giving no reason for it ("CONTINUE folic acid 5 mg once daily.") links none.

A sentence naming none of the topic keeps 0. The typed confidence reads the best topic score among linked sentences
(`typed.typed_row`), weighed per kind: what a linked fact tells is not the same for each kind.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from archehr.answerability.clause_marks import CLAUSE_STOP
from archehr.answerability.course_link import COURSE_END, course_out
from archehr.answerability.date_unset import FIRM, UNSET, unstamped
from archehr.answerability.firm_answers import result_strength
from archehr.answerability.med_decisions import DECISION
from archehr.answerability.spaces import fold
from archehr.answerability.test_words import PENDING
from archehr.answerability.why_causes import has_cause

LINK_KINDS = ("how_long", "when", "test_result", "med_change", "why")
LINK_SHARE = 0.5  # a clause naming this share of what the sentence names of the topic names the asked thing
# where one clause ends and another begins: a semicolon, "then", "but", a full stop inside a line, a blank line, a
# table's cell, or a comma before "and"/"with" (a second thing of a list with its own fact)
# (not the full stop of a title: "with Dr. Lee" is one clause, the clinician and the date said with them)
_BOUNDARY = re.compile(r";|\s\|\s|,?\s*\bthen\b|,?\s*\bfollowed by\b|" + CLAUSE_STOP + r"|\bbut\b|\n\s*\n|"
                       r",\s+(?:and|with|plus|or)\b", re.I)
# a repeat or a trend asked ("did they redo the crp", "is it going down", "the second test", "better than last time")
_TREND_Q = re.compile(r"\b(?:redo|redone|re-?did|again|repeat\w*|recheck\w*|re-?test\w*|second|latest|going|coming|"
                      r"gone|went|come|came) (?:\w+ )?(?:down|up)\b|\b(?:redo|redone|repeat\w*|recheck\w*|re-?test\w*|"
                      r"second|again|trend\w*|than (?:last|before)|compared)\b", re.I)
# a trend said or two values given ("CRP 85 from 310", "fell to", "improving", "down from")
_TREND = re.compile(r"\b(?:from|down|up|fell|rose|drop\w*|improv\w+|worsen\w*|trend\w*|decreas\w+|increas\w+|"
                    r"normalis\w+|normaliz\w+|resolv\w+|rising|falling|since|then|now|repeat\w*|recheck\w*)\b", re.I)


def _fact(kind: str, clause: str, question: str) -> bool:
    """The clause holds the fact the kind asks (the module's docstring)."""
    if kind == "how_long":
        return bool(COURSE_END.search(course_out(clause, question)))
    if kind == "when":
        return bool(FIRM.search(unstamped(clause))) and not UNSET.search(clause)
    if kind == "test_result":
        if PENDING.search(clause) or not result_strength([clause], np.ones(1, dtype=bool))[0] >= 1.0:
            return False
        return not _TREND_Q.search(question) or bool(_TREND.search(clause))
    if kind == "med_change":
        return bool(DECISION.search(clause))
    return False


def clauses(text: str) -> list[str]:
    """The sentence's clauses (`_BOUNDARY`), spaces made single."""
    return [c for c in _BOUNDARY.split(fold(text)) if c and c.strip()]


def linked(kind: str, texts: Sequence[str], topic: np.ndarray, question: str,
           names: Callable[[str], float]) -> np.ndarray:
    """Each sentence: 1 when a clause naming the asked thing (at least `LINK_SHARE` of what the sentence names of the
    topic, `names` giving a piece of text's topic share) holds the kind's fact, else 0; all 0 for another kind."""
    out = np.zeros(len(texts))
    if kind not in LINK_KINDS:
        return out
    for i, t in enumerate(texts):
        if topic[i] <= 0:
            continue
        plain = fold(t)
        if kind == "why":
            # a reason is told across a sentence's clauses ("STOP aspirin; clopidogrel replaces it"): the whole
            # sentence naming the asked thing says a cause (`why_causes.has_cause`)
            out[i] = float(has_cause(plain))
            continue
        whole = names(plain)
        if whole <= 0:
            continue
        out[i] = float(any(_fact(kind, c, question) and names(c) >= LINK_SHARE * whole - 1e-9 for c in clauses(plain)))
    return out
