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
    OPEN_END,
    ORDER,
    field_cells,
    laid_out,
)
from archehr.data.note_page import is_page_line, is_rule_line
from archehr.data.note_signatures import is_signature_line
from archehr.data.note_stamps import MONTH_NAME, STAMP, WEEKDAY, is_stamp_only

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
# or, under the visit's name, when it will be set ("Scar check with Dr. Lee" + "To be scheduled in about 3 months -
# the clinic will call you"): that line stands for the date line, the name above it is the block's label
# (or when it falls after an event, its date not set: "Liver scan" + "6 months after your last injection - date to be
# confirmed")
# (the date named so: "Newborn hearing check" + "Date to be confirmed - the team will call you")
_TO_BE_SET = re.compile(r"^(?:(?:(?:date|appointment)s? )?to be (?:confirmed|arranged|booked|scheduled|agreed)|TBC|TBA"
                        r"|not yet (?:booked|scheduled)"
                        r"|(?:about |around )?\d{1,2} (?:days?|weeks?|months?) (?:after|before|from)\b.*\b(?:to be"
                        r" (?:confirmed|arranged|booked|scheduled|agreed)|TBC|TBA)\b)", re.IGNORECASE)
# the heading above the blocks ("Your upcoming appointments") is not part of the first one
_BLOCK_HEADING = re.compile(r"\b(?:appointments|upcoming|scheduled|visits)\b", re.IGNORECASE)
# nor is a numbered appointment's heading over its lines set in under it ("Appointment 1" + "  Wed 11 June, 08:45"):
# a unit of its own (flush with its lines it is the block's label: "Appointment 2" + "Monday 09/06/2025, 14:20")
_NUMBERED_HEADING = re.compile(r"^(?:appointment|visit|booking) (?:\d{1,2}|[A-Z])(?: of \d{1,2})?:?$", re.IGNORECASE)
# nor is a label that names no clinic, only that an appointment follows ("Your follow-up appointment:"), over the
# block's lines set in under it: a unit of its own ("Heart failure nurse clinic:" names the appointment, its label)
# (or a sentence saying so: "You have an appointment coming up:", "Here are your upcoming visits:")
# (a visit after surgery named so is no clinic either: "Post-operative visit:", "Post-op review appointment:")
_GENERIC_LABEL = re.compile(r"^(?:(?:your|next|follow[- ]?up|upcoming|new|first|post[- ]?op(?:erative)?|review)\s+)*"
                            r"(?:appointment|visit|booking)s?:$"
                            r"|^(?:you have|here (?:is|are))(?: (?:an?|your|\d+|upcoming|new|next))* (?:appointment"
                            r"|visit|booking)s?(?: [a-z ]{1,20})?:$",
                            re.IGNORECASE)
# (a portal's caption saying the patient has one, "Your next appointment", is a heading over it, flush or set in; a
# label naming the visit stays with its block: "Follow-up visit" + "Thursday, May 6, 2032 at 3:30 PM")
_YOUR_APPOINTMENT = re.compile(r"^your\s+(?:(?:next|follow[- ]?up|upcoming|new|first)\s+)*(?:appointment|visit|booking)"
                               r"s?:?$", re.IGNORECASE)
# an address ends in a full stop that ends no sentence ("Riverbend Eye Center, 44 Mill St.")
ADDRESS_END = re.compile(r"\b(?:St|Ave|Rd|Blvd|Dr|Ln|Fl|Ste|Bldg|Hwy|Pkwy|Ct|Pl|Sq|Rm)\.$")


# a week's schedule of doses by day ("Mon 5 mg, Tue 4 mg, ...", "Sat 2 tablets"): no appointment's date line
_DAY_DOSE = re.compile(rf"^{WEEKDAY},?\s+\d[\d.,/]*\s?(?:mg|mcg|micrograms?|g|units?|tablets?|tabs?|puffs?|mL|ml)\b")


def _when_columns(line: str) -> bool:
    """A date and a time set apart in columns ("Tue Dec 1, 2026    9:30 AM"): the head of an appointment block."""
    cells = [c for c in COLUMN_GAP.split(line.strip()) if c]
    return len(cells) > 1 and bool(_WHEN_LINE.match(cells[0])) \
        and all(STAMP.match(c) and DATA_CELL.match(c) for c in cells[1:])


# a sentence ended inside the line ("10:12 Day 1 call. Patient at home, ..."): wrapped prose, not a block's line
_SENTENCE_INSIDE = re.compile(r"(?<=[a-z)])(?<!\b(?:Dr|Mr|Ms|St|Rd|Ln|Fl|Ct|Pl|Sq|Rm))(?<!\b(?:Mrs|Ave|Ste))"
                              r"(?<!\bBlvd|\bBldg|\bProf)[.!?]\s+[A-Z][a-z]")


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


# who did what to the form, as a sign-off says it ("Completed by:", "Signed by Dr ...")
_WHO_DID = re.compile(r"^(?:Completed|Signed|Reviewed|Checked|Verified|Entered|Recorded|Authori[sz]ed|Reconciled)"
                      r" by\b", re.IGNORECASE)


def _visit_sentence(line: str, set_in: bool = False) -> bool:
    """One short sentence, no list item, or a field: the instruction or the note that closes an appointment's
    lines ("Fasting is not required.", "Due: Hepatitis B dose 2; Rabies dose 2"). Set in with the block's lines
    under its date, two short sentences too: a portal prints the visit's instructions there ("Arrive 15 minutes
    early. Nothing to eat after midnight.")."""
    two = set_in and len(line) <= 100 and len(_SENTENCE_INSIDE.findall(line)) == 1
    return not ITEM.match(line) and ((len(line) <= 80 + 20 * two and line.endswith(".")
                                      and (two or not _SENTENCE_INSIDE.search(line))
                                      and not FIELD.match(line)) or bool(FIELD.match(line) and len(line) <= 160))


def appointment_blocks(lines: list[str], leads: list[int] | None = None) -> dict[int, int]:
    """{first line: last line} of each appointment block in a paragraph: a date or time line with the
    short lines that follow it (time, who, where) and the one label line before it ("Follow-up visit").
    `leads` (the lines' indentation): lines set in under the date line are its block, and no label of the next."""
    def deeper(k: int, than: int) -> bool:  # is line k set in deeper than line `than`?
        return leads is not None and leads[k] > leads[than]

    blocks: dict[int, int] = {}
    stacks = set_in_appointments(lines, leads) if leads is not None else {}
    i = 0
    while i < len(lines):
        if i in stacks:  # (an appointment's lines set in under its name, or set in under a heading)
            blocks[i] = stacks[i]
            i = stacks[i] + 1
            continue
        # (a date that carries on a wrapped sentence, "... echocardiogram on" + "10/14 showed ...", opens none)
        pending = bool(_PENDING_WHEN.match(lines[i])) and i + 1 < len(lines) and deeper(i + 1, i)
        to_be_set = i > 0 and bool(_TO_BE_SET.match(lines[i]))
        if not ((_WHEN_LINE.match(lines[i]) or pending or to_be_set) and _block_line(lines[i])) \
                or _DAY_DOSE.match(lines[i]) \
                or (i > 0 and OPEN_END.search(lines[i - 1])):
            i += 1
            continue
        first = i
        if i > 0 and i - 1 not in blocks.values() and _label_line(lines, i - 1) and not deeper(i - 1, i) \
                and not _BLOCK_HEADING.search(lines[i - 1]) and not _WHEN_LINE.match(lines[i - 1]) \
                and not _YOUR_APPOINTMENT.match(lines[i - 1]) \
                and not ((_NUMBERED_HEADING.match(lines[i - 1]) or _GENERIC_LABEL.match(lines[i - 1]))
                         and deeper(i, i - 1)) \
                and not re.search(r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\b[A-Z])[.!?]\s", lines[i - 1]) \
                and not _opens_block(lines, i + 1):
            # (above a list of one-line appointments, that line is the list's heading)
            first = i - 1
        last = i
        # (a block headed by its own date line, no label above it, keeps its last line before the next date: blocks
        # of one export are laid out alike, so "Ground floor, Outpatients B" + "Wed 2 Apr 2025   2:15 PM" is this
        # block's place, not the next one's label)
        while last + 1 < len(lines) and last - first < 5 and _block_line(lines[last + 1]) \
                and not _opens_block(lines, last + 1) and (not pending or deeper(last + 1, i)) \
                and (not _opens_block(lines, last + 2) or deeper(last + 1, i) or first == i):
            last += 1
        # (the paragraph's last line may be one short sentence for the visit: "Fasting is not required.")
        # (a sign-off under the block is none of its lines: "Completed by: A. Lee, Nurse      24/01/2026 16:05")
        if last > first and last + 2 == len(lines) and not _WHO_DID.match(lines[last + 1]) \
                and _visit_sentence(lines[last + 1], leads is not None and leads[last] > 0) \
                and (leads is None or leads[last + 1] == leads[last]):
            last += 1
        # (a date or a time alone under a signature's role line is the signature's date, no visit's: "Signed: Dr.
        # A. Bell" + "Consultant Cardiologist" + "12/02/2025 16:05" are three units)
        signed = is_stamp_only(lines[i]) and any(is_signature_line(lines[k]) for k in (first - 1, first) if k >= 0)
        # (nor are lines of which a long one is carried on by a line in lower case: a log's entry wrapped at the
        # margin, "10:40 RN A. Lee" + "Call from his daughter, who is a registered" + "nurse. ...")
        wrapped = any(k < len(lines) and len(lines[k - 1]) >= 60 and lines[k][:1].islower()
                      for k in range(i + 1, last + 2))
        if last > first and not signed and not wrapped:  # a date line alone is an ordinary line
            blocks[first] = last
        i = last + 1
    return blocks


# when an appointment is to be, set in under its name: a date, a week ("Week of 21 October 2024"), a date not yet set
_WEEK_OF = re.compile(r"^(?:(?:the )?week (?:of|commencing|beginning)|w/c)\b", re.IGNORECASE)
# an appointment the clinic will book ("The eye clinic will call you to set up a time", "... will phone you to book")
# (or books it itself: "Not yet scheduled - your PD nurse will book this after your first month")
_TO_BE_BOOKED = re.compile(r"\bwill (?:call|contact|phone|ring|text|write to) you\b.{0,40}"
                           r"\b(?:schedule|book|arrange|set up|make)\b|\bnot yet (?:scheduled|booked)\b.{0,40}"
                           r"\bwill (?:schedule|book|arrange)\b"
                           # (or will send its letter: "Appointment letter to follow", "Appointment will be posted")
                           r"|\bappointment (?:letter )?(?:to follow|will be (?:sent|posted))\b", re.IGNORECASE)
# a heading over appointments, not one's name: "Upcoming Appointments", "Follow-up", "Scheduled visits"
_GROUP_HEADING = re.compile(rf"{_BLOCK_HEADING.pattern}|^(?:follow[- ]?ups?|next steps)$", re.IGNORECASE)
_TIME_OF_DAY = re.compile(r"\b\d{1,2}(?::\d{2})?\s?[AaPp]\.?[Mm]\b")
_SET_IN_LINES = 5  # lines an appointment sets in under its name, at most


def _title_line(line: str) -> bool:
    """A line that can name an appointment: short, ending no sentence, no field, list item or order."""
    return 0 < len(line) <= 80 and not line.endswith((".", "!", "?", ":", ";", ",")) and not ITEM.match(line) \
        and not FIELD.match(line) and not ORDER.match(line) and not laid_out(line) and not _WHEN_LINE.match(line)


# (set in under an appointment's name, a weekday that recurs or a month of a year says when too: "Tuesdays
# 10:00-11:00 for 12 weeks", "October 2026 - your GP surgery will send you a reminder")
_RECURRING_WHEN = re.compile(rf"^(?:{WEEKDAY}s,?\s|{MONTH_NAME}\s+\d{{4}}\b)")


def _when_first(line: str) -> bool:
    return bool((_WHEN_LINE.match(line) or _WEEK_OF.match(line) or _RECURRING_WHEN.match(line)) and _block_line(line)) \
        or bool(_PENDING_WHEN.match(line))


def _place_then_when(lines: list[str], under: list[int]) -> bool:
    """Do the lines set in under an appointment's name say where first, then when ("Repeat blood test" + "  Jaundice
    Clinic, Kingsway Hospital" + "  Friday 11/04/2025 at 09:30")? A short line naming a place, then the date's; a
    line that names no place is the appointment's own name under a heading ("What's next" + "  Incision check" +
    "  Tuesday July 23, 2024  10:00 AM")."""
    return len(under) >= 2 and _block_line(lines[under[0]]) and not _WHEN_LINE.match(lines[under[0]]) \
        and bool(_PLACE.search(lines[under[0]])) and _when_first(lines[under[1]])


# a line that names where: a place's word, or a comma between its parts ("Eye Clinic, Kingsway Hospital")
_PLACE = re.compile(r"\b(?:Clinic|Hospital|Centre|Center|Surgery|Unit|Suite|Ward|Room|Floor|Department|Practice"
                    r"|Building|Wing|Pharmacy|Lab|Laboratory)\b|,")


def set_in_appointments(lines: list[str], leads: list[int]) -> dict[int, int]:
    """{first line: last line} of appointments written as lines set in: an appointment's name with its lines set in
    under it, the first of them saying when ("Alcohol clinic - telephone appointment" + "   Friday 18 October 2025,
    2:30 PM" + "   With: J. Moss, Specialist Nurse" + "   We will call your mobile."), its fields and sentences
    included; or a stack of short lines set in at one depth, under a heading or opening the paragraph, that says
    when once or that the clinic will book it ("    Eye Exam" + "    The eye clinic will call you to set up a time")."""
    blocks: dict[int, int] = {}
    i = 0
    while i < len(lines):
        depth = [j for j in range(i + 1, min(len(lines), i + 1 + _SET_IN_LINES)) if leads[j] > leads[i]]
        run = next((k for k, j in enumerate(depth) if j != i + 1 + k), len(depth))
        under = depth[:run]
        end = i + 1 + len(under)  # (the line after them is back at the name's depth, or there is none)
        if under and (end == len(lines) or leads[end] <= leads[i]) \
                and _title_line(lines[i]) and not _GROUP_HEADING.search(lines[i]) \
                and (_when_first(lines[i + 1]) or _place_then_when(lines, under)) \
                and not _NUMBERED_HEADING.match(lines[i]) \
                and all(len(lines[j]) <= 120 and not ITEM.match(lines[j]) for j in under):
            blocks[i] = under[-1]
            i = under[-1] + 1
            continue
        # (its date alone on the line above at its depth too: "  MON Dec 16, 2024" + "  9:00 AM     Return visit with
        # Dr A. Lee" + "              Cedar Hill Neurology")
        if _WHEN_LINE.match(lines[i]) and _block_line(lines[i]) and i + 2 < len(lines) and leads[i + 1] == leads[i] \
                and re.match(r"\d{1,2}:\d{2}", lines[i + 1]) and leads[i + 2] > leads[i]:
            following = set_in_appointments(lines[i + 1:], leads[i + 1:]).get(0)
            if following is not None:
                blocks[i] = i + 1 + following
                i += 2 + following
                continue
        # (a date line with the clinic in its columns, its who and where set in under it: "Thu Oct 8, 2026 10:30 AM
        # Anticoagulation Clinic" + "    D. Marsh, PharmD   Lakemoor Medical Building")
        if under and (end == len(lines) or leads[end] <= leads[i]) and _WHEN_LINE.match(lines[i]) \
                and laid_out(lines[i]) and not _SENTENCE_INSIDE.search(lines[i]) \
                and all(_block_line(lines[j]) or laid_out(lines[j]) and not lines[j].endswith(".") for j in under):
            blocks[i] = under[-1]
            i = under[-1] + 1
            continue
        # (where, then when, on the name's line, what for set in under it: "Day Unit, 21 October 2025, 10:30" +
        # "  Chemotherapy, cycle 2")
        where, _, when = lines[i].partition(", ")
        if under and (end == len(lines) or leads[end] <= leads[i]) and _PLACE.search(where) and _block_line(lines[i]) \
                and (_WHEN_LINE.match(when) or re.match(rf"\d{{1,2}} {MONTH_NAME} \d{{4}}\b", when)) \
                and all(_block_line(lines[j]) for j in under):
            blocks[i] = under[-1]
            i = under[-1] + 1
            continue
        stack = _stack_at(lines, leads, i)
        if stack > i:
            blocks[i] = stack
            i = stack + 1
            continue
        i += 1
    return blocks


def _stack_at(lines: list[str], leads: list[int], i: int) -> int:
    """The last line of a stack of short lines set in at one depth from line i (i when there is none that names an
    appointment): it opens the paragraph or sits under a shallower line, says when once (under a heading over
    appointments, or with a time of day), or says the clinic will book it."""
    if leads[i] == 0 or (i > 0 and leads[i - 1] >= leads[i]) or not _title_line(lines[i]):
        return i
    if _booked_later(lines, leads, i + 1, leads[i]):
        return i + 1
    last = i
    while last + 1 < len(lines) and last - i < _SET_IN_LINES - 1 and leads[last + 1] == leads[i] \
            and _block_line(lines[last + 1]):
        last += 1
    # (its last line may be one short sentence for the visit: "Please arrive 10 minutes early.")
    if last > i and _closing_sentence(lines, leads, last + 1, leads[i]):
        last += 1
    if last + 1 < len(lines) and leads[last + 1] >= leads[i]:
        return i  # (the stack is no whole: its next line is as deep)
    stack = lines[i:last + 1]
    whens = sum(1 for x in stack if _WHEN_LINE.match(x) or _WEEK_OF.match(x))
    # (a date alone names an appointment under a heading over appointments, or with its time of day: a signature's
    # name set in over its date is none)
    dated = whens == 1 and ((i > 0 and bool(_GROUP_HEADING.search(lines[i - 1])))
                            or any(_TIME_OF_DAY.search(x) for x in stack))
    if last > i and (dated or (whens == 0 and any(_TO_BE_BOOKED.search(x) for x in stack))):
        return last
    return i


# an appointment not yet booked, said in the line under its name: "To be scheduled after the pollen season."
_NOT_YET_BOOKED = re.compile(r"^(?:To be|Will be|Not yet|Yet to be) (?:booked|scheduled|arranged|confirmed|made)\b",
                             re.IGNORECASE)


def _booked_later(lines: list[str], leads: list[int], k: int, depth: int) -> bool:
    """Is line k, at `depth` and the last at it, the note that an appointment named on the line above is yet to be
    booked, in a sentence or two ("Burns review (Dr Faulkner)" + "To be booked if not healed by day 14. We will phone
    you.")? The name and that line are one appointment block."""
    return k < len(lines) and leads[k] == depth and (k + 1 == len(lines) or leads[k + 1] < depth) \
        and len(lines[k]) <= 160 and lines[k].endswith(".") and not ITEM.match(lines[k]) \
        and not FIELD.match(lines[k]) and bool(_NOT_YET_BOOKED.match(lines[k]) or _TO_BE_BOOKED.search(lines[k]))


def _closing_sentence(lines: list[str], leads: list[int], k: int, depth: int) -> bool:
    """Is line k, at `depth`, a stack's last line (the next line is shallower, or there is none) and one short
    sentence?"""
    return k < len(lines) and leads[k] == depth and (k + 1 == len(lines) or leads[k + 1] < depth) \
        and len(lines[k]) <= 80 and lines[k].endswith(".") and not _SENTENCE_INSIDE.search(lines[k]) \
        and not ITEM.match(lines[k]) and not FIELD.match(lines[k])


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
