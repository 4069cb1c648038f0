"""A medicine's list row cited with the line of prose that tells what became of it.

A discharge letter or a clinic note tells a medicine's change twice: once in prose, where the ranking finds it by the
question's words ("Metformin reduced to 500 mg twice daily because of the kidney function", "She was started on
apixaban 5 mg twice daily"), and once as a row of the medication list further down, often far from the prose
("2. Metformin 500 mg by mouth twice daily", "1. Apixaban 5 mg by mouth twice daily (NEW)"). A patient asking what
was changed, how long to take it or when to take it again is answered by both: the row gives the dose and how to
take it as it stands now, and a reader checking the answer looks for it. So when the first answer line names a
medicine the question names too (in prose, or in a row of its own: "START Enoxaparin 80 mg ..." and "CONTINUE
Enoxaparin 80 mg until ..."), the list rows naming that medicine first and telling the same change (marked as
changed, or giving a dose the line gives; for a how-long question a length or an end too) are cited with it.

Only for questions about a medicine's course (`KINDS`): why questions ask the reason the prose gives and a result
question no medicine at all. Only for a medicine the question names by any of its names (`drugs.drugs_in`): a
line naming several medicines brings the rows of the one asked about; a question naming none ("what new tablet did
they give me") brings the rows of the first line's medicine only when it names one alone (naming several, any of
them may be what it mentions in passing).
Only rows (`med_listed.list_entry`: a short line naming a medicine and its dose or how often it is taken), at most
`MOST`: a medicine listed more often than that is listed in a table of days or doses, not once as it stands.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from archehr.answerability.doses import DOSE
from archehr.answerability.follow_on import LIST_MARK
from archehr.answerability.order_rows import BEGUN, DOSE_CHANGED, ENDED, HELD, row_opening

KINDS = frozenset({"med_change", "how_long"})  # the question kinds citing the rows
MOST = 2  # rows of one medicine cited at most
# a row marked as changed, in capitals or in brackets: "STOP: Aspirin 81 mg", "1. NEW Apixaban 5 mg", "Ramipril 5 mg
# (changed)" (not "Started sertraline 50 mg 6 weeks ago", a line of history)
_MARKED = re.compile(row_opening(ENDED, BEGUN, HELD, DOSE_CHANGED, ("CONTINUE",))
                     + r"|\((?i:new|changed|stopped|increased|reduced|decreased)\b")
# a course's length or its end in a row: "for 35 days", "x 5 days", "until the INR is 2.5", "then stop", "long term"
_END = re.compile(r"\buntil\b|\bthen stop\b|\bfor (?:\d+|one|two|three|four|five|six|seven|ten|twelve) (?:more )?"
                  r"(?:days?|weeks?|months?|years?)\b|\bx\s*\d+\s*(?:d|days?|wks?|weeks?|months?)\b|\blong[- ]term\b|"
                  r"\blifelong\b|\bfor life\b|\bcourse\b", re.I)
# a row asking a test of the medicine, no row of it: "3. Repeat lamotrigine level 4 weeks after reaching 100 mg"
_TESTED = re.compile(r"\b(?:levels?|repeat|re-?check|monitor\w*|blood tests?)\b", re.I)


class Sentence(Protocol):
    """What the rule reads of a note sentence (`archehr.data.note_split.SplitSentence` has it)."""

    text: str


def asked_medicines(question: str, line: str) -> set[str]:
    """The generic names of the medicines both `question` and `line` name (by any of their names)."""
    from archehr.glossary.drugs import drugs_in

    return set(drugs_in(question)) & set(drugs_in(line))


def list_rows(chosen: Sequence[int], sentences: Sequence[Sentence], question: str, kind: str) -> list[int]:
    """The medication list rows naming first a medicine that the first chosen line and `question` both name (the
    line's one medicine when the question names none) and telling the line's change (`_repeats`), not chosen
    already; none when such a medicine has more than `MOST` such rows, or the question's `kind` is not one of
    `KINDS`."""
    from archehr.answerability.med_listed import list_entry
    from archehr.glossary.drugs import drugs_in

    if kind not in KINDS or not chosen:
        return []
    first = sentences[chosen[0]].text
    named = set(drugs_in(first))
    asked = asked_medicines(question, first) if drugs_in(question) else named if len(named) == 1 else set()
    out: list[int] = []
    doses = _doses(first, last=True)
    for drug in sorted(asked):
        rows = [j for j, s in enumerate(sentences)
                if j not in chosen and j not in out and list_entry(s.text) and drug in drugs_in(s.text)[:1]
                and _repeats(s.text, doses, kind)]
        if len(rows) <= MOST:
            out.extend(rows)
    return out


def _dose(text: str) -> str:
    """A dose as compared: lower case, no spaces ("81 mg", "81mg": "81mg")."""
    return re.sub(r"\s+", "", text.lower())


def _doses(text: str, last: bool = False) -> set[str]:
    """The doses `text` gives (`doses.DOSE`, which reads no share in per cent: "90%" is as often a target value as a
    strength), as compared; with `last`, the last one alone (a change "from 20 mg to 30 mg" ends on the dose
    it leaves, and a row giving the one before is the old prescription)."""
    doses = [_dose(m.group(0)) for m in DOSE.finditer(text)]
    return set(doses[-1:] if last else doses)


def _repeats(row: str, doses: set[str], kind: str) -> bool:
    """The row tells the change the prose line tells: it is marked changed (`_MARKED`) or gives a dose the line gives;
    for a how-long question it gives a course's length or its end too (`_END`): a row giving the same dose for another
    use ("Hydrocortisone 10 mg on waking" beside a sick-day rule) or only when to take it ("30 minutes before
    breakfast", "begin 2 weeks after discharge") is no answer to how long."""
    if not _listed(row) or _TESTED.search(row) or not (_MARKED.search(row) or doses & _doses(row)):
        return False
    return kind != "how_long" or bool(_END.search(row))


def _listed(row: str) -> bool:
    """The line is set out as a list's row: a number or a bullet first (`follow_on.LIST_MARK`), an action word in
    capitals ("STOP", "CONTINUE"), or the medicine's own name (not a line of history: "Takes aspirin 81 mg daily",
    "Started sertraline 50 mg 6 weeks ago")."""
    from archehr.glossary.drugs import drugs_in

    if LIST_MARK.match(row):
        return True
    words = re.findall(r"[A-Za-z][A-Za-z-]*", row)
    return bool(words) and (bool(re.fullmatch(r"[A-Z]{3,}", words[0])) or bool(drugs_in(words[0])))
