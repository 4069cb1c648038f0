"""Line shapes of notes pasted from an EHR export, a patient portal or a PDF copy.

`note_split` reads a pasted note line by line; this module says what kind of line it is looking at when
the line's layout, not its words, decides: a row of fields ("Name: X   DOB: Y   MRN: Z"), a table row
(tab-, space- or pipe-separated columns, or a dot-leader result line), a rule line ("-----"), a page
header or footer of a PDF copy ("Page 2 of 3"), or a line that opens a unit of its own whatever the line
above (a time or date at its start: "14:32 ...", "12/14/2026 ...", "Mon 12/14 9:30 AM ...").

Each function takes one line without its line break; offsets returned are inside that line.
"""

from __future__ import annotations

import re

# a field label: "Service", "Date of visit", "INR goal", "ED Physician", "Unit No" (a capital first, then
# words; no sentence punctuation; a time such as "3:20" is no label)
_LABEL = r"[A-Z][A-Za-z0-9 /&()'#.-]{0,38}[A-Za-z0-9)#]"
# a gap that separates columns: a tab, or three or more spaces; spaces after a label's colon only align
# its value ("Started:   semaglutide ...")
_COLUMN_GAP = re.compile(r"(?<=[^\s:])(?:[ ]*\t[ \t]*|[ ]{3,})(?=\S)")
# a field after a gap: a tab or three spaces, or two after a value that ends no sentence
# ("Arrival: 06:48  Departure: 13:05"; "... negative.  Sigmoidoscopy: ..." is prose spaced after a full stop)
_GAP_BEFORE_FIELD = re.compile(rf"(?:(?<=[^\s:])[ ]*\t[ \t]*|(?<=[^\s:])[ ]{{3,}}|(?<=[^\s:.!?;,])[ ]{{2}})"
                               rf"(?={_LABEL}:(?:\s|$))")
# after a first field, one space is enough before an identity label ("Name: Ann Lee DOB: 3/4/1950 MRN: 123")
# or, in a line that starts with an upper-case label, before one upper-case word after a value with a digit
# ("ADMITTED: 11/15/2026 DISCHARGED: 11/18/2026");
# other labels need a gap, since a value may hold capitalised words and abbreviations with a colon
# ("Discharge Date: ___ Service: MEDICINE" is how the releases join their header, "# Paroxysmal AF: ...")
_ID_FIELD = re.compile(r"(?<=\S) (?=(?:DOB|D\.O\.B\.|MRN|Sex|SEX|Age|AGE|Gender|GENDER|CSN|FIN|Acct|ACCT|"
                       r"Room|ROOM|Bed|BED|Phone|PHONE|Tel|TEL):(?:\s|$))")
_CAPS_FIELD = re.compile(r"(?:(?<=\d)|(?<=\d[%)A-Za-z])) (?=[A-Z][A-Z/-]+#?:(?:\s|$))")
_FIELD_START = re.compile(rf"^{_LABEL}:[ \t]+\S")
# a dot leader between a test and its value: "Hemoglobin A1c ........ 9.2 %"
_DOT_LEADER = re.compile(r"\S[ ]?\.{4,}[ ]?\S")
_PIPES = re.compile(r"\S[ ]*\|[ ]*\S")
# a line of rule characters only ("------", "======", "* * * *", "______", a table's "|----|----|", "+----+")
_RULE_LINE = re.compile(r"^(?:([-=_~*#.])[ ]?)\1(?:[ ]?\1){2,}$|^[|+:]?(?:[ ]*[-=]{3,}[ ]*[|+:]*)+$")
# a PDF copy's page header or footer
_PAGE_LINE = re.compile(r"^(?:-\s*)?(?:page\s+\d+(?:\s*(?:of|/)\s*\d+)?|\d+\s*(?:of|/)\s*\d+|\(?continued\)?"
                        r"|(?<=-)\s*\d+|continued (?:on|from) (?:next|previous) page)(?:\s*-)?$", re.IGNORECASE)
_WEEKDAY = r"(?:Mon|Tues?|Wed(?:nes)?|Thu(?:rs?)?|Fri|Sat(?:ur)?|Sun)(?:day)?\.?"
# a time or date at the start of a line opens a unit: a timed entry ("14:32 Pt ambulated", "0815 Seen by")
# or a dated one ("12/14/2026 Echo ...", "Mon 12/14 9:30 AM ...", "2026-12-14 ...")
_STAMP = re.compile(rf"^(?:\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:\s?[AaPp]\.?[Mm]\.?)?(?![\d:])"
                    rf"|(?:[01]\d|2[0-3])[0-5]\d(?=\s+[A-Za-z])"
                    rf"|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?\s+\d{{1,2}}\b"
                    rf"|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}}\b|,?\s+\d{{1,2}}:\d{{2}})|\d{{4}}-\d{{2}}-\d{{2}}\b"
                    rf"|{_WEEKDAY},?\s+(?:\d|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)))")


def field_cells(line: str) -> list[tuple[int, int]]:
    """The fields of a line that holds two or more ("Name: X   DOB: Y", "ADMITTED: 11/15 DISCHARGED: 11/18",
    "VISIT NOTE      Date of visit: 11/18"), as (start, end) in `line`; [] for any other line. In a line of
    fields every column is one ("Pages: 2    03/30/2034 16:42" is two)."""
    cuts = [(m.start(), m.end()) for m in _GAP_BEFORE_FIELD.finditer(line)]
    if cuts:
        cuts += [(m.start(), m.end()) for m in _COLUMN_GAP.finditer(line)]
    if _FIELD_START.match(line):
        first_colon = line.index(":")
        # (upper-case labels only in a line that starts with one: "Results: ... ALT-29 TTE: normal" is prose)
        patterns = (_ID_FIELD, _CAPS_FIELD) if line[:first_colon].isupper() else (_ID_FIELD,)
        cuts += [(m.start(), m.end()) for pattern in patterns for m in pattern.finditer(line)
                 if m.start() > first_colon]
    if not cuts:
        return []
    cells, pos = [], 0
    for a, b in sorted(set(cuts)):
        if a < pos:
            continue
        cells.append((pos, a))
        pos = b
    cells.append((pos, len(line)))
    return [(a, b) for a, b in cells if line[a:b].strip()]


# a cell that reads as a result or a time, not as a title or an item: one word ("Neg", "HIGH", "Creatinine"),
# a number, a time or a date
_DATA_CELL = re.compile(rf"^(?:\S+|[\d\s.,:/%<>=+-]+(?:[AaPp]\.?[Mm]\.?)?)$|{_STAMP.pattern[1:]}")
_LABEL_GAP = re.compile(rf"^{_LABEL}:[ \t]{{2,}}(?=\S)")


def line_cells(line: str) -> list[tuple[int, int]]:
    """The columns of a laid-out line that stands alone, when each reads as a unit of its own: a title and
    a clinic name and a page ("RADIOLOGY REPORT      Northmoor Imaging Center"), a label over values
    ("Vitals:   BP 136/84    Pulse 78"); [] when a column is a value, a flag, a time or a date ("Wed 4/27
    8:00 AM   Lab draw", "Creatinine   1.9   H"), which makes the line one row. (start, end) in `line`."""
    gaps = [(m.start(), m.end()) for m in _COLUMN_GAP.finditer(line)]
    if not gaps or _DOT_LEADER.search(line):
        return []
    label = _LABEL_GAP.match(line)
    if label:  # "Vitals:   BP ...": the label is a cell of its own only above two or more values
        gaps.insert(0, (line.index(":") + 1, label.end()))
    cells, pos = [], 0
    for a, b in gaps:
        cells.append((pos, a))
        pos = b
    cells.append((pos, len(line)))
    if label and len(cells) < 3:
        return []
    texts = [line[a:b].strip() for a, b in cells]
    if any(_DATA_CELL.match(t) and not t.endswith(":") for t in texts):
        return []
    return cells


def is_table_row(line: str) -> bool:
    """A row of a table: columns apart by tabs, three or more spaces or pipes, or a dot leader. It is one
    unit, header rows ("Test  Result  Flag  Reference") included, and nothing inside it ends a sentence.

    Wide spaces are no columns after a sentence's end ("He is well.   Plan: home.") nor between the words
    of justified text copied from a PDF ("The   patient   was   seen   in   clinic")."""
    body = line.strip()
    if _DOT_LEADER.search(body) or _PIPES.search(body):
        return True
    gaps = [m for m in _COLUMN_GAP.finditer(body) if body[m.start() - 1] not in ".!?;,"]
    if not gaps:
        return False
    cells = _COLUMN_GAP.split(body)
    words = sum(1 for c in cells if re.fullmatch(r"[a-z]+[.,;:!?]?", c))
    return not (len(cells) >= 3 and words >= 0.6 * len(cells))


def is_rule_line(line: str) -> bool:
    """A line drawn with one rule character ("-----", "=====", "* * * *"): layout, no sentence."""
    return bool(_RULE_LINE.match(line.strip()))


def is_page_line(line: str) -> bool:
    """A PDF copy's page header or footer ("Page 2 of 3", "2/3", "- continued -")."""
    return bool(_PAGE_LINE.match(line.strip()))


def starts_with_stamp(line: str) -> bool:
    """Does the line open with a time or date, as a timed or dated entry does ("14:32 ...", "Mon 12/14 ...")?"""
    return bool(_STAMP.match(line.strip()))
