"""Both sides of a medicine switch, cited together for a question on what changed.

A note saying one medicine was switched for another says it twice over: a line or list row stopping the old one
("STOP Beclometasone ... Replaced by combination inhaler", "labetalol, which was switched to enalapril 5 mg") and
the row starting the new one ("START Fluticasone/salmeterol ...", "Enalapril 5 mg tablet, ONE daily (new)"). A
question on what changed asks for both: cited alone, the old side leaves out the new medicine's name and dose, the
new side why the old one went.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from archehr.answerability.doses import STRENGTH
from archehr.answerability.follow_on import Sentence
from archehr.answerability.order_rows import BEGUN, ENDED, row_opening

# the medicine a line switches to or from: "switched to enalapril", "replaces metformin", "instead of ramipril"
_SWITCH_NAME = re.compile(r"\b(?:switched to|changed to|replaced (?:by|with)|replaces|instead of|in place of)\s+"
                          r"(?P<name>[A-Za-z][A-Za-z-]{3,})", re.I)
# a list row starting a medicine, or one marked new; a row stopping one
_NEW_ROW = re.compile(row_opening(BEGUN) + r"|\(new\)")
_STOP_ROW = re.compile(row_opening(ENDED))
_SWITCH = re.compile(r"\b(?:replac\w*|instead|switch\w*|changed to|in place of)\b", re.I)
# question kinds citing both sides: what changed, and the questions asking it in words the kind rules do not know
# ("was her pill changed"); a why question asks the reason alone (why was ramipril stopped: not what came instead)
SWITCH_KINDS = ("med_change", "other")
NAME_AT = 60  # a row names its medicine near its start
_WORD = re.compile(r"[a-z][a-z-]{3,}")
# words a question and a line share without naming the same thing
_COMMON = frozenset({"with", "from", "that", "this", "what", "when", "then", "them", "they", "will", "have", "each",
                     "daily", "twice", "once", "tablet", "tablets", "dose", "doses", "take", "taking", "stop",
                     "stopped", "start", "started", "change", "changed", "medicine", "medicines", "instead"})


def _asked_in(part: str, question: str) -> bool:
    """The part of a line holding a switch names something the question names (a word of four letters or more
    beyond `_COMMON`): a stop line listing several medicines ("STOPPED: Labetalol (changed to enalapril);
    metformin (not needed ...)") answers a question on metformin, not on the switch."""
    asked = set(_WORD.findall(question.lower())) - _COMMON
    return bool(asked & set(_WORD.findall(part.lower())))


def _part_with(text: str, at: int) -> str:
    """The clause of `text` (between semicolons) holding position `at`."""
    start = text.rfind(";", 0, at) + 1
    end = text.find(";", at)
    return text[start:end if end >= 0 else len(text)]


def _names(row: str, name: str) -> bool:
    """`row` gives a dose and names `name` near its start (after its action word)."""
    return bool(STRENGTH.search(row)) and name.lower() in row[:NAME_AT + 20].lower()


def switch_partners(chosen: Sequence[int], sentences: Sequence[Sentence], question: str,
                    kind: str = "med_change") -> list[int]:
    """The other side of each switch a chosen sentence states, when not chosen already: the row with a dose naming
    the medicine it switches to or from (`_SWITCH_NAME`); for a stop row saying it was replaced, the start row next
    to it; for a start row saying it replaces another, the stop row next to it. Only for a switch in a part of the
    line naming something `question` names (`_asked_in`), for the kinds asking what changed (`SWITCH_KINDS`)."""
    out: list[int] = []
    if kind not in SWITCH_KINDS:
        return out

    def add(j: int) -> None:
        if 0 <= j < len(sentences) and j not in chosen and j not in out:
            out.append(j)

    for i in chosen:
        text = sentences[i].text
        for m in _SWITCH_NAME.finditer(text):
            if not _asked_in(_part_with(text, m.start()), question):
                continue
            rows = [j for j in range(len(sentences)) if j != i and (_NEW_ROW.search(sentences[j].text)
                                                                  or _STOP_ROW.search(sentences[j].text))
                    and _names(sentences[j].text, m.group("name"))]
            if rows:
                add(min(rows, key=lambda j: abs(j - i)))
        said = _SWITCH.search(text)
        if said is None or not _asked_in(_part_with(text, said.start()), question):
            continue
        mine, other = (_STOP_ROW, _NEW_ROW) if _STOP_ROW.search(text) else (_NEW_ROW, _STOP_ROW)
        if not mine.search(text):
            continue
        for j in (i + 1, i - 1):
            if 0 <= j < len(sentences) and other.search(sentences[j].text) and STRENGTH.search(sentences[j].text):
                add(j)
                break
    return out
