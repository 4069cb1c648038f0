"""Blocks of short lines that make one unit of a pasted note: an appointment of a portal export (a date or time
line with the time, who and where under it, and the one label line above it) and a result stacked on short lines
("Potassium" / "5.3 mmol/L High" / "Normal range: ...").

Each function reads a paragraph's lines (without their line breaks) and says which of them form a block.
"""

from __future__ import annotations

import re

from archehr.data.note_layout import (
    COLUMN_GAP,
    DATA_CELL,
    FIELD,
    ITEM,
    MONTH_NAME,
    OPEN_END,
    ORDER,
    STAMP,
    WEEKDAY,
    field_cells,
    is_page_line,
    is_rule_line,
    laid_out,
)

# --- appointment blocks of a portal export ---------------------------------------------------------------

_MONTH = MONTH_NAME
# a line that opens an appointment block of a portal export: "Tuesday, February 1, 2032", "03/02/2031 9:15 AM"
_WHEN_LINE = re.compile(rf"^(?:{WEEKDAY},?\s|{MONTH_NAME}\s+\d{{1,2}}\b|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?\b"
                        r"|\d{1,2}:\d{2}\s*[AaPp]\.?[Mm]\b)")
# a date not yet set, heading an appointment's lines as a date does ("Date to be confirmed (about 3 months after
# surgery)" over "    Glasses check" and "    Optometry, Lakeshore Eye Clinic"): a block when its lines are set in
_PENDING_WHEN = re.compile(r"^(?:Date|Time|Day|Appointment)s?(?: and time)?:?\s+(?:to be (?:confirmed|arranged|booked"
                           r"|scheduled|agreed|decided)|TBC|TBA|TBD|not yet (?:booked|scheduled|set|known))\b",
                           re.IGNORECASE)
# the heading above the blocks ("Your upcoming appointments") is not part of the first one
_BLOCK_HEADING = re.compile(r"\b(?:appointments|upcoming|scheduled|visits)\b", re.IGNORECASE)
# an address ends in a full stop that ends no sentence ("Riverbend Eye Center, 44 Mill St.")
ADDRESS_END = re.compile(r"\b(?:St|Ave|Rd|Blvd|Dr|Ln|Fl|Ste|Bldg|Hwy|Pkwy|Ct|Pl|Sq|Rm)\.$")


def _when_columns(line: str) -> bool:
    """A date and a time set apart in columns ("Tue Dec 1, 2026    9:30 AM"): the head of an appointment block."""
    cells = [c for c in COLUMN_GAP.split(line.strip()) if c]
    return len(cells) > 1 and bool(_WHEN_LINE.match(cells[0])) \
        and all(STAMP.match(c) and DATA_CELL.match(c) for c in cells[1:])


# a sentence ended inside the line ("10:12 Day 1 call. Patient at home, ..."): wrapped prose, not a block's line
_SENTENCE_INSIDE = re.compile(r"(?<=[a-z)])(?<!\b(?:Dr|Mr|Ms|St|Rd|Ln|Fl|Ct|Pl|Sq|Rm))(?<!\b(?:Mrs|Ave|Ste))(?<!\bBlvd|\bBldg|\bProf)"
                              r"[.!?]\s+[A-Z][a-z]")


def _block_line(line: str) -> bool:
    """A line an appointment block is made of: short, no full stop, no field, list item or order."""
    return (0 < len(line) <= 80 and not line.endswith(":") and (not line.endswith(".") or ADDRESS_END.search(line))
            and not _SENTENCE_INSIDE.search(line)
            and not ITEM.match(line)
            and not FIELD.match(line) and not ORDER.match(line) and (not laid_out(line) or _when_columns(line))
            and not is_rule_line(line) and not is_page_line(line))


def _opens_block(lines: list[str], i: int) -> bool:
    """Is line i the date line of the next block (a time alone carries on the block above)?"""
    return i < len(lines) and bool(_WHEN_LINE.match(lines[i])) and not re.match(r"^\d{1,2}:\d{2}", lines[i])


def _label_line(lines: list[str], i: int) -> bool:
    """Can line i be the label of the block under it? A short line, or a header ("Next clinic visit:")
    over a single block; a header over several blocks is theirs, not the first one's."""
    if _block_line(lines[i]):
        return True
    single = not any(_opens_block(lines, j) and _block_line(lines[j]) for j in range(i + 2, len(lines)))
    return single and _block_line(lines[i][:-1]) and lines[i].endswith(":")


def appointment_blocks(lines: list[str], leads: list[int] | None = None) -> dict[int, int]:
    """{first line: last line} of each appointment block in a paragraph: a date or time line with the
    short lines that follow it (time, who, where) and the one label line before it ("Follow-up visit").
    `leads` (the lines' indentation): lines set in under the date line are its block, and no label of the next."""
    def deeper(k: int, than: int) -> bool:  # is line k set in deeper than line `than`?
        return leads is not None and leads[k] > leads[than]

    blocks: dict[int, int] = {}
    i = 0
    while i < len(lines):
        # (a date that carries on a wrapped sentence, "... echocardiogram on" + "10/14 showed ...", opens none)
        pending = bool(_PENDING_WHEN.match(lines[i])) and i + 1 < len(lines) and deeper(i + 1, i)
        if not ((_WHEN_LINE.match(lines[i]) or pending) and _block_line(lines[i])) \
                or (i > 0 and OPEN_END.search(lines[i - 1])):
            i += 1
            continue
        first = i
        if i > 0 and i - 1 not in blocks.values() and _label_line(lines, i - 1) and not deeper(i - 1, i) \
                and not _BLOCK_HEADING.search(lines[i - 1]) and not _WHEN_LINE.match(lines[i - 1]) \
                and not re.search(r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)[.!?]\s", lines[i - 1]) \
                and not _opens_block(lines, i + 1):
            # (above a list of one-line appointments, that line is the list's heading)
            first = i - 1
        last = i
        while last + 1 < len(lines) and last - first < 5 and _block_line(lines[last + 1]) \
                and not _opens_block(lines, last + 1) and (not pending or deeper(last + 1, i)) \
                and (not _opens_block(lines, last + 2) or deeper(last + 1, i)):
            last += 1
        if last > first:  # a date line alone is an ordinary line
            blocks[first] = last
        i = last + 1
    return blocks


# --- stacked results of a portal -------------------------------------------------------------------------

# a value, a unit and a flag at most ("1.62 mg/dL   High"), not an address ("14 Mill Lane, Eastham")
_VALUE_LINE = re.compile(r"^[<>]?\d[\d.,]*(?:\s+[^\s,]+){0,2}$")


def is_result_block(lines: list[str]) -> bool:
    """Is a paragraph one result stacked on short lines, as a portal shows it ("Potassium" / "5.3 mmol/L
    High" / "Normal range: 3.5 - 5.1 mmol/L")? A name, a value line under it, then at most three short
    fields; no line ends a sentence. It is one unit, like an appointment block."""
    if not 2 <= len(lines) <= 5 or not _VALUE_LINE.match(lines[1]):
        return False
    name = lines[0]
    if len(name) > 60 or name.endswith(":") or ITEM.match(name) or FIELD.match(name) or not re.search("[A-Za-z]", name):
        return False
    return all(len(x) <= 80 and not x.endswith((".", "!", "?")) for x in lines) \
        and all(FIELD.match(x) and len(field_cells(x)) < 2 for x in lines[2:])
