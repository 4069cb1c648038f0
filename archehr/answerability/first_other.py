"""First lines that speak of something near the asked fact but not of it, for the review flag of `archehr answer`.

- another medicine: the question names a medicine the note names too, the first line names other medicines and not
  it ("Why was her spironolactone stopped": "HOLD Furosemide ... held because of kidney injury"); its course, change
  or cause is another medicine's (`other_medicine_first`);
- a restart asked, a past stop told: "do I start it again now": "Your aspirin was stopped 5 days before surgery"
  (`restart_unsaid`);
- how to stop asked (at once or step by step), a stop told with no pace (`stop_pace_unsaid`);
- a when question about what is to come answered by a date of a log's entry stamp or of a thing done ("referral sent
  02/03", "started 15/01") (`past_dated_only`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from archehr.answerability.spaces import fold

# a line that replaces a medicine names the new one only: "switched to torsemide" answers "should I keep my Lasix"
_REPLACES = re.compile(r"\b(?:instead|replac\w*|switch\w*|swap\w*|in place of|change[ds]? to|convert\w* to)\b", re.I)
OTHER_KINDS = ("med_change", "how_long", "why")


def other_medicine_first(kind: str, question: str, texts: Sequence[str], at: int | None) -> bool:
    """The question (of `OTHER_KINDS`) names a medicine that a note sentence names too, and the first line
    (`texts[at]`) names other medicines only, replacing none (`_REPLACES`)."""
    from archehr.glossary.drugs import drugs_in

    if kind not in OTHER_KINDS or at is None:
        return False
    named = [set(drugs_in(t)) for t in texts]
    asked = set(drugs_in(question)) | _misspelt(question, set().union(*named))
    if not asked:
        return False
    said = named[at]
    if (not said and not _ORDER_ROW.match(texts[at])) or said & asked or _REPLACES.search(texts[at]):
        return False
    return any(asked & n for n in named)


# an order row of a medicines list, naming its own medicine after the order: "START Vitamin B compound ...",
# "HOLD ..." (upper case: the list's column, not a sentence's verb)
_ORDER_ROW = re.compile(r"^\W*(?:START|STOP|STOPPED|CONTINUE|HOLD|CHANGED|NEW|INCREASE|REDUCE)\b")


def _misspelt(question: str, note_drugs: set[str]) -> set[str]:
    """The note's medicines a question word of six letters or more misspells by its ending ("gliclazid")."""
    words = {w for w in re.findall(r"[a-z]{6,}", question.lower())}
    return {g for g in note_drugs for w in words if g.startswith(w[:6]) and abs(len(g) - len(w)) <= 2}


# a question asking whether to start a stopped medicine again
_ASKS_RESTART = re.compile(r"\b(?:re-?start\w*|start\w*\s+(?:\w+\s+)?again|back on|go(?:ing)? back to|resum\w+|"
                           r"take\s+(?:\w+\s+)?again)\b", re.I)
# a stop told in the past ("was stopped", "has been held") and what would decide on after it
_PAST_STOP = re.compile(r"\b(?:was|were|has been|had been|have been)\s+(?:\w+\s+)?(?:stopped|held|withheld|paused|"
                        r"suspended|omitted)\b", re.I)
_RESTART_SAID = re.compile(r"\b(?:re-?start\w*|resum\w+|start\w*|continu\w*|again|back on|until|till|after\s+\w+\s+"
                           r"(?:days?|weeks?)|from (?:today|tomorrow|now)|do not|don't)\b", re.I)


def restart_unsaid(question: str, text: str) -> bool:
    """A restart asked, and the line tells only that the medicine was stopped: when or whether to start again is
    not in it."""
    plain = fold(text)
    return bool(_ASKS_RESTART.search(question)) and bool(_PAST_STOP.search(plain)) \
        and not _RESTART_SAID.search(_PAST_STOP.sub(" ", plain))


# how to stop: at once or slowly
_ASKS_PACE = re.compile(r"\b(?:all at once|at once|straight away|cold turkey|slowly|gradual\w*|step by step|"
                        r"bit by bit|little by little|taper\w*|wean\w*)\b", re.I)
_PACE_SAID = re.compile(r"\b(?:taper\w*|wean\w*|gradual\w*|slowly|reduc\w+|decreas\w+|lower\w*|cut\w*|every|each|"
                        r"over\s+\w+\s+(?:days?|weeks?)|then|at once|abrupt\w*|straight away|immediately|suddenly)\b",
                        re.I)


def stop_pace_unsaid(question: str, text: str) -> bool:
    """The question asks how to stop (at once or slowly: `_ASKS_PACE`) and the line gives no pace (`_PACE_SAID`)."""
    return bool(_ASKS_PACE.search(question)) and not _PACE_SAID.search(fold(text))


# a date told of a thing done: "referral sent 09/02", "started 15/01/2025", "seen on 3 March"
_DONE = re.compile(r"\b(?:sent|started|began|commenced|referred|received|done|performed|seen|admitted|discharged|"
                   r"taken|given|reported|issued|signed|dated|written)\b[^.;]{0,12}$", re.I)
_DATE = re.compile(r"\b\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?\b|\b\d{4}-\d{2}-\d{2}\b|"
                   r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*(?:\s+\d{4})?\b",
                   re.I)


def past_dated_only(question: str, text: str) -> bool:
    """A when question asking what is to come, whose first line holds dates and each is a log entry's stamp at the
    line's start (`med_decisions.stamp`) or follows a thing done (`_DONE`): the line dates another event."""
    from archehr.answerability.med_decisions import stamp
    from archehr.answerability.when_answers import asks_past

    if asks_past(question):
        return False
    plain = fold(text)
    head = stamp(plain)
    rest = plain[len(head):] if head else plain
    dates = list(_DATE.finditer(rest))
    if not dates and not head:
        return False
    from archehr.answerability.review import WHEN_GIVEN

    undone = _DATE.sub(" ", rest)
    if WHEN_GIVEN.search(undone):
        return False  # an interval or a weekday of its own ("in 2 weeks")
    return all(_DONE.search(rest[:m.start()]) for m in dates)
