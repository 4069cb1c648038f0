"""A result's report going on in the next line, cited with the line that gives the result.

A report tells a test's result over a few lines: the line naming the test and its first finding ("CT head
(non-contrast): No acute intracranial abnormality.", "His EEG on 26 February showed polyspike-and-wave
discharges.") and a line after it saying what else was seen or what it means ("Mild small vessel change, in keeping
with age.", "This supports a diagnosis of juvenile myoclonic epilepsy."). The ranking finds the first by the
question's words (the test's name); the next names none of them, so it ranks low and is left out, though it is
as much the answer to "what did the scan show" or "is it a bad result".

So for a result question, the line right after the first answer line in its paragraph is cited too when it goes
on from it (`goes_on`): it says what the result means ("This means ...", "These suggest ...", `_MEANS`), or the
first is a title line holding only the test's name and when it was done ("ECG 12-LEAD (2025-05-20 08:40)") and the
next a short finding with no label, date, clock time or instruction of its own (`_OWN`). A short finding after a
line already giving one ("CT head: no acute abnormality." / "Mild small vessel change.") is left out: on writers
the rule was not written on, such lines were the answer for 3 of 14 questions (the question asks one finding of
the report, and the writer cites its line alone).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from archehr.answerability.dates import DATE
from archehr.answerability.follow_on import Sentence
from archehr.answerability.row_comment import table_cells

KINDS = frozenset({"test_result"})  # the question kinds citing the report's next line
FINDING_WORDS = 14  # a finding going on from the report's first line is short
# a line saying what the result before it means: "This means ...", "These findings suggest ...", "which is in
# keeping with ..."
_MEANS = re.compile(r"^\W*(?:this|these|which|that|both|all)\s+(?:\w+\s+){0,2}?(?:means?|suggests?|supports?|"
                    r"indicates?|confirms?|shows?|is (?:consistent|in keeping|compatible|normal|reassuring|expected)|"
                    r"are (?:consistent|in keeping|compatible|normal|reassuring|expected))\b", re.I)
# a report's title line alone: the test's name and when it was done, no finding ("ECG 12-LEAD (2025-05-20 08:40)")
TITLE_WORDS = 4
# what a finding line of the same report does not hold: a label of its own, a date, a clock time, an instruction or
# a plan (a line of its own: a follow-up, advice), a question
_OWN = re.compile(rf"^\W*[A-Za-z][^:]{{1,48}}:|\b{DATE}\b|\b\d{{1,2}}[:.]\d{{2}}\b|\b(?:please|will|should|must|"
                  r"need|needs|call|ring|return|come|take|stop|start|continue|repeat|recheck|book\w*|arrange\w*|"
                  r"refer\w*|follow[\s-]*up|plan\w*|indicated|recommended|advised|started|stopped|given|discussed)\b|\?",
                  re.I)


def goes_on(first: str, line: str) -> bool:
    """`line`, the one after `first` (a result's line), goes on from it: says what it means (`_MEANS`), or, after a
    title line holding only the test's name and time (`is_title`), is a short finding with nothing of its own
    (`_OWN`)."""
    if _MEANS.match(line):
        return len(line.split()) <= 2 * FINDING_WORDS
    if len(line.split()) > FINDING_WORDS or _OWN.search(line) or not re.search(r"[A-Za-z]{3}", line):
        return False
    return is_title(first)


def is_title(text: str) -> bool:
    """A report's title line alone: at most `TITLE_WORDS` words once its dates, clock times and brackets are left out,
    no value, no table cells and no colon giving a finding ("ECG 12-LEAD (2025-05-20 08:40)", "CT HEAD WITHOUT
    CONTRAST"; not "Na 133 mmol/L (L)")."""
    bare = re.sub(r"\([^)]*\)|\b\d{1,2}[:.]\d{2}\b", " ", text)
    bare = re.sub(rf"\b{DATE}\b", " ", bare, flags=re.I)
    if table_cells(text) is not None or re.search(r"(?<![\w.-])\d+(?:\.\d+)?(?![\w-])", bare):
        return False  # a table's row, or a line giving a value: a result itself
    words = [w for w in re.split(r"[\s:]+", bare) if re.search(r"[A-Za-z]", w)]
    if not 0 < len(words) <= TITLE_WORDS or re.search(r":\s*[A-Za-z]", bare):
        return False
    # a title is set in capitals or stamped with when the test was done ("Counts adequate to treat" is a finding)
    letters = re.sub(r"[^A-Za-z]", "", bare)
    return sum(c.isupper() for c in letters) >= 0.6 * len(letters) or bool(re.search(rf"\b{DATE}\b", text, re.I))


def report_goes_on(chosen: Sequence[int], sentences: Sequence[Sentence], kind: str) -> list[int]:
    """The line after the first chosen one in its paragraph when it goes on from it (`goes_on`), for a question of
    one of `KINDS`, not chosen already; else none."""
    from archehr.relevance.text import is_header

    if kind not in KINDS or not chosen:
        return []
    i = chosen[0]
    j = i + 1
    if j >= len(sentences) or j in chosen or sentences[j].paragraph_id != sentences[i].paragraph_id:
        return []
    if is_header(sentences[j].text) or not goes_on(sentences[i].text, sentences[j].text):
        return []
    return [j]
