"""Lines whose fields are set apart by a separator (a pipe, a middle dot, a spaced slash, two spaces) and the lines of a
table: which of them are a header's fields (each a unit), a title line (one unit), or a table's rows.

Each function takes one line without its line break (offsets returned are inside that line); `note_layout` holds the
line shapes these build on.
"""

from __future__ import annotations

import re

from archehr.data.note_layout import (
    _LABEL,
    _MEASUREMENT,
    COLUMN_GAP,
    FIELD_START,
    READING,
    STAMP,
    field_cells,
    has_column_gap,
    is_table_row,
    same_table,
)
from archehr.data.note_page import is_rule_line
from archehr.data.note_signatures import is_signature_line, side_by_side_signatures
from archehr.data.note_stamps import is_stamp_only

# a separator between the fields of one line: a pipe, a lone full stop, or a middle dot or a slash with two
# spaces each side ("Clinic | 3rd floor", "HR 74 . RR 16", "Video visit  \u00b7  Mon, Apr 3", "Ward  /  Team:
# Blue"); with single spaces a dot or slash joins the parts of one item ("Video visit \u00b7 Neurology \u00b7 Mon")
# (a single-spaced dot before a labelled value parts two fields: "Tel. : 555-0187 \u00b7 Fax : 555-0188", the
# label's colon set a space off, as French typography writes it, or not)
_PIPE_GAP = re.compile(r"\s+\|\s+|\s{2,}[\u00b7\u2022/]\s{2,}|(?<=[\w%)]) \. (?=\w)"
                       r"|(?<=[\w)]) [\u00b7\u2022] (?=[^\W\d_][\w.'-]*(?: [\w.'-]+){0,2} ?: ?\S)"
                       # (and a lone slash between a dictation's dates, dictated and transcribed: "dict 2024-11-06 /
                       # tr 2024-11-07", "D: 03/02/2025 / T: 03/04/2025")
                       r"|(?<=\d) / (?=(?i:t|tr|trans|transcribed|typed)\.?:? ?\d)")


# two spaces before a capital or a number, twice or more in a line, set its items apart too ("Dictated 3/4/31
# Typed 5/4/31  Not checked", "Pt: Ann Lee  32F  DOB 05/05/2003"); once, after no full stop, they are a typing
# slip as often as a layout
_TWO_SPACES = re.compile(r"(?<=[^\s.!?;,:])  (?=[A-Z(\d])")


# (with no label before them, two words may follow: "SpO2 95% 4L NC")
_BARE_READING = re.compile(r"^[A-Za-z][\w/%.-]{0,7} [<>]?\d[\d.,/:-]*%?(?: \S+){0,2}$")



# a cell that names the kind of document: "DISCHARGE SUMMARY", "Monthly Nephrology Progress Note", "Messages"
_DOCUMENT_KIND = re.compile(r"\b(?:summary|note|notes|instructions|page|messages|report|letter|record|sheet)$",
                            re.IGNORECASE)


def _title_bar(body: str) -> bool:
    """A document's title bar: two to four cells apart by single-spaced pipes, one naming the kind of document
    ("DISCHARGE SUMMARY | General Medicine | Ward 7B", "MICU PROGRESS NOTE | Hosp Day 6 | Bed 14"): one unit,
    as a heading is. A clinic's address line names no document ("Harwick Laboratory | 200 Orchard Row | 555-0177")."""
    cells = body.split(" | ")
    # (a sign-off opens no title bar, whatever its cells name: "Report authorised by: ... | END OF REPORT")
    return 2 <= len(cells) <= 4 and "|" not in "".join(cells) \
        and any(_DOCUMENT_KIND.search(c.strip()) for c in cells) and not _SIGNED_BY.match(cells[0].strip())


# a header field named without its colon: "DOB 1966-04-19", "MRN 003318842", "NHS no. 943 118 2056" (a clinic's
# phone, room or bed belongs to its title line: "Lakemoor Clinic | Suite 200 | Tel 555-0101")
_ID_NAME = re.compile(r"^(?:DOB|D\.O\.B\.|MRN|NHS(?: no\.?| number)?|CHI|NHI|Hosp(?:ital)? no\.?|Unit no\.?|CSN|FIN"
                      r"|Acct|Age|Sex|DOS)\b:? ?\S", re.IGNORECASE)


# a field whose value is a date ("Reported: 10/04/2025", "Collected: 2025-04-08 08:52")
_DATE_FIELD = re.compile(rf"^{_LABEL}:[ \t]+(?:\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}})\b")


# who did what to the document: "Reviewed by:", "Checked by Dr ...", "Electronically signed by ..."
# (the document named first too: "Report authorised by: J. Lee, Biomedical Scientist")
_SIGNED_BY = re.compile(r"^(?:(?:Report|Results?|Letter|Document) (?=[a-z]))?(?i:(?:electronically )?(?:reconciled"
                        r"|checked|reviewed|signed|verified|approved|dictated|transcribed|typed|authori[sz]ed"
                        r"|countersigned|completed|entered) by):? \S")
# a report's closing mark: "END OF REPORT", "*** End of report ***"
_END_OF = re.compile(r"^\W*end of (?:report|letter|document|results?)\W*$", re.IGNORECASE)


def _holds_field(line: str, gaps: list[tuple[int, int]]) -> bool:
    """Do a pipe line's cells after its first hold a header field ("Name: Ann Lee | DOB: 3/4/1950", "Kessler,
    Orlando J | DOB 1966-04-19 | MRN 003318842"), rather than a title's parts ("Riverside Surgery | Consultation |
    Dr A. Okonkwo") or readings ("BP 148/80 | HR 76 | SpO2 97%")?"""
    later = [line[b:a].strip() for (_, b), (a, _) in zip(gaps, [*gaps[1:], (len(line), 0)], strict=False)]
    # (after a first cell that is a field in words, a labelled value is a field too: "Indication: Atrial
    # fibrillation | Target INR: 2.5 (range 2.0-3.0)")
    first = line[:gaps[0][0]].strip()
    worded = bool(re.match(rf"^{_LABEL}:\s+[A-Za-z]", first)) and not _MEASUREMENT.match(first)
    # (a sign-off's parts: who did what, "Reconciled by A. Lee (Pharmacist) 26/02/2025 | Checked by Dr B. Ray", and
    # when, "Reviewed by: Dr A. Lee, Anaesthesia | 2025-05-21 09:05": each a unit, as on lines of their own)
    # (or the report's end: "Report authorised by: J. Lee, Biomedical Scientist | END OF REPORT")
    if _SIGNED_BY.match(first) and all(_SIGNED_BY.match(c) or is_stamp_only(c) or _END_OF.match(c) for c in later):
        return True
    # (signers side by side, each a titled name and a role: "Dr. A. Lee, Neurologist | Mr B. Ray, Neurosurgeon")
    if all(is_signature_line(c) for c in (first, *later)):
        return True
    # (a date is no reading: "Sample collected: 08/04/2025 08:52 | Reported: 10/04/2025")
    # (after a field in words, the time the copy was printed is one more: "Report status: FINAL | Printed 29/10/2025")
    return any(_ID_NAME.match(c) or (re.match(rf"^{_LABEL}:(?:\s|$)", c) and (worded or not _MEASUREMENT.match(c)))
               or _DATE_FIELD.match(c) or (worded and _PRINTED_AT.match(c)) for c in later)


# the time a copy was printed: "Printed 29/10/2025 08:12", "Printed on: 2025-10-29"
_PRINTED_AT = re.compile(r"^(?:Printed|Generated|Exported)(?: on)?:? \d")


def _titled(line: str, gaps: list[tuple[int, int]]) -> bool:
    """Does a pipe line open with two title cells, no field among them ("Riverside Dermatology Portal | Message
    thread | Patient: Ann Lee")? Then it is a title bar that carries a field at its end, one unit, as most writers
    of gold splits keep it; a name before fields ("Lee, Ann | DOB 1966-04-19") opens a line of header fields."""
    if len(gaps) < 2:
        return False
    first, second = line[:gaps[0][0]].strip(), line[gaps[0][1]:gaps[1][0]].strip()
    return not any(_ID_NAME.match(c) or re.match(rf"^{_LABEL}:", c) or _DATE_FIELD.match(c) for c in (first, second)) \
        and "," not in first


# a cell that gives a way to reach the clinic: a phone or fax number, labelled or bare, an e-mail or a web address
# ("Tel: 020 555 0142", "Fax 555-0188", "(555) 013-6650", "clinic@example.org", "www.example.org")
_CONTACT = re.compile(r"^(?:(?:Tel(?:ephone)?|Ph(?:one)?|Fax|Mob(?:ile)?|Helpline|E-?mail|Web)\.?:? ?)?"
                      r"(?:\+?\(?\d[\d ()-]{5,}\d(?: ext\.? ?\d+)?|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
                      r"|(?:https?://|www\.)\S+)$", re.IGNORECASE)


def _contacts(line: str, gaps: list[tuple[int, int]]) -> bool:
    """Is a pipe line a letterhead's ways to reach the clinic alone ("Tel: 020 555 0142 | clinic@example.org")? Each
    is a unit, as a letterhead's lines are; beside the clinic's name the line is its title ("Clinic | 555-0100")."""
    return all(_CONTACT.match(c) for c in _cells(line, gaps))


def _measurements(line: str, gaps: list[tuple[int, int]]) -> bool:
    """Is a pipe line measurements alone, each a name and its value ("Weight 27.4 kg (25th centile) | Height 134 cm |
    Pulse 92")? Each is a unit, as the writer brief keeps measurements parted by pipes; a label before them stays with
    the first ("Your vitals today: BP 136/84" + "Pulse 92")."""
    cells = _cells(line, gaps)
    label = _RESULTS_LABEL.match(cells[0])
    if label:
        cells[0] = cells[0][label.end():]
        # (under a label, a reading may carry a side or a note: "Obs today: IOP R 21 mmHg, L 19 mmHg (goal 16) |
        # Pulse 61 bpm | BP 128/74" is three readings, the label with the first)
        if all(_NAMED_NUMBER.match(c) for c in cells):
            return True
    return all((_MEASUREMENT.match(c) or READING.match(c)) and not c.split()[0].endswith(":") for c in cells)


def _cells(line: str, gaps: list[tuple[int, int]]) -> list[str]:
    bounds = [0, *(x for gap in gaps for x in gap), len(line)]
    return [line[a:b].strip() for a, b in zip(bounds[::2], bounds[1::2], strict=True)]


def _each_labelled(line: str, gaps: list[tuple[int, int]]) -> bool:
    """Is every cell of a pipe line a label and its value ("Weight: 82 kg | eGFR: 74 mL/min", "Admitted: 09/01/2025
    (from Ward 7) | Day: 6")? Then each is a field of its own, measurements as they may be."""
    # (a test's name may open in lower case: "eGFR: 74")
    return all(re.match(r"^[A-Za-z][A-Za-z0-9 /&()'#.-]{0,38}[A-Za-z0-9)#]:[ \t]+\S", c) for c in _cells(line, gaps))


# a reading's name in a word or three, then its number: "IOP R 21 mmHg", "Pulse 61 bpm", "BP 128/74"
_NAMED_NUMBER = re.compile(r"^[A-Za-z][\w/-]*(?: [A-Za-z][\w/-]*){0,2} \d")
# a label alone before the results it heads: "Screening labs (drawn 09/02/2025): ", "Bloods today: "
_RESULTS_LABEL = re.compile(r"^\s*[A-Z][A-Za-z0-9 /&'#.-]{0,38}(?: \([^()]{1,40}\))?:[ \t]+(?=\S)")


def _labelled_results(line: str, gaps: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The gap after a label heading three results or more set apart by pipes, stated in words rather than as
    readings ("Screening labs (drawn 09/02/2025): QuantiFERON negative | Hepatitis B surface antigen negative | CBC
    within normal limits"): the label is a unit and each result another, as results one a line are; None else
    (readings under a label are one record: "Your vitals today: BP 136/84 | Pulse 92 | Temp 100.2 F")."""
    label = _RESULTS_LABEL.match(line)
    if label is None or len(gaps) < 2:
        return None
    cells = _cells(line[label.end():], [(a - label.end(), b - label.end()) for a, b in gaps])
    # (a patient's line names who before the ids: "Pt: Ann Lee | DOB 19/09/1966 | MRN 2281")
    if any(re.match(rf"^{_LABEL}:", c) or _ID_NAME.match(c) or re.search(r"\d[/.-]\d{1,2}[/.-]\d", c) for c in cells) \
            or re.match(r"\s*(?:Pt|Patient|Name)\b", line) \
            or all(READING.match(c) or _MEASUREMENT.match(c) for c in cells):
        return None
    if all(_NAMED_NUMBER.match(c) for c in cells):  # (readings, each a name and its number: `_measurements`)
        return None
    return len(line[:label.end()].rstrip()), label.end()  # (the label's text, then the space after it)


def pipe_cells(line: str) -> list[tuple[int, int]]:
    """The cells of a line whose fields are set apart by " | " ("Name: Ann Lee | DOB: 3/4/1950"), a middle
    dot, a spaced slash or a lone full stop, when it is no table row drawn with outer pipes ("| WBC | 6.1 |")
    nor a line laid out in columns, whose columns are its cells ("Name: X     Print | Share"); [] else. A pipe
    line holding no field is a title line, one unit ("Clinic | 3rd floor | 555-0100"), unless each cell is a
    measurement ("BP 148/80 | HR 76"): each is a unit, as measurements one a line are."""
    body = line.strip()
    # (spaces that only pad the pipes set no columns apart: "Ann LEE   |   DOB 03/04/1950   |   MRN 5501")
    if body.startswith("|") or body.endswith("|") or COLUMN_GAP.search(re.sub(r"[ \t]*\|[ \t]*", " | ", body)) \
            or _title_bar(body):
        return []
    gaps = [m.span() for m in _PIPE_GAP.finditer(line)]
    piped = bool(gaps) and all("|" in line[a:b] for a, b in gaps)
    if piped and (label_gap := _labelled_results(line, gaps)):
        gaps.insert(0, label_gap)
    elif piped and (not _holds_field(line, gaps) or _titled(line, gaps)) and not _measurements(line, gaps) \
            and not _each_labelled(line, gaps) and not _contacts(line, gaps):
        return []  # a title line set apart by pipes is one unit
    # (one lone full stop before a one-word result is a dot leader: "Pregnancy test (urine) . Negative")
    if len(gaps) == 1 and line[gaps[0][0]:gaps[0][1]].strip() == "." \
            and re.fullmatch(r"[A-Za-z]+", line[gaps[0][1]:].strip()):
        return []
    if not gaps:
        # (a dash set apart by two spaces joins the parts of one title line, as a pipe does: "Tallis, Beatrix M
        # (MRN 55310927)  -  Discharged 02/20/2036 from Norwood Regional")
        if re.search(r"\S  +- +\S", line):
            return []
        gaps = [m.span() for m in _TWO_SPACES.finditer(line)]
        label = re.match(rf"^\s*{_LABEL}:(  )(?=\S)", line)
        if label and gaps:  # "VITALS:  BP 132/78  P 74  R 18": a bare label before two-space-apart items
            gaps.insert(0, label.span(1))
        # (a label one space before its readings holds them all: "Vitals: T 37.1  HR 88  SpO2 97% RA")
        value = re.match(rf"^\s*{_LABEL}: (?=\S)", line)
        if value and all(READING.match(c) for c in _TWO_SPACES.split(line[value.end():])):
            return []
        # (readings alone are one line of results: "Tmax 37.9  HR 92  BP 118/64  SpO2 95% 4L NC")
        if not label and not value and all(_BARE_READING.match(c.strip()) for c in _TWO_SPACES.split(line)):
            return []
        # (an item starting with a date or time makes the line one entry: "Lab visit  Tue 1/16  7:30 AM  Suite 1",
        # unless the line opens with a title in capitals: "CLINIC NOTE ADDENDUM  Sports Medicine  11/06/2026")
        # (the first item too: "Tue 09/03/2024 9:40 AM  Dr. Lee, Primary Care  Oakmont Clinic, Suite 210")
        starts = [len(line) - len(line.lstrip()), *(b for _, b in gaps),
                  *(m.end() for m in re.finditer(rf"^\s*{_LABEL}:\s+", line))]
        title = re.match(r"^\s*[A-Z][A-Z&/-]+(?: [A-Z][A-Z&/-]+)+(?=  )", line)
        if len(gaps) < 2 or (not title and any(STAMP.match(line[x:]) for x in starts)):
            return []
    cells, pos = [], 0
    for a, b in gaps:
        cells.append((pos, a))
        pos = b
    cells.append((pos, len(line)))
    return [(a, b) for a, b in cells if line[a:b].strip()]


def is_pipe_fields(line: str) -> bool:
    """A line of labelled fields set apart by pipes, every cell a label and its value ("Requested by: Dr Ann Lee |
    Reason: cough"): a header's line, whose fields are units of their own, not a row of the table under it."""
    cells = pipe_cells(line)
    return len(cells) > 1 and all(FIELD_START.match(line[a:b].strip()) for a, b in cells)


def _id_fields(line: str) -> bool:
    """A patient's header line set apart by pipes or columns, a name and then identifiers named without colons ("LEE,
    Ann | DOB 01/02/1960 | MRN AB-1234"): its fields are units of their own, not a row of a table beside it."""
    cells = [line[a:b].strip() for a, b in pipe_cells(line)]
    if len(cells) > 1 and any(_ID_NAME.match(c) for c in cells[1:]):
        return True
    # (or set apart in columns, the person first as a field: "Mother: LEE, Ann   MRN 5501   DOB 03/04/1990" over
    # "Baby: LEE, Baby Girl   MRN 5502   DOB 28/07/2025" is two header lines, their columns aligned by chance)
    columns = COLUMN_GAP.split(line.strip())
    return len(columns) > 1 and bool(FIELD_START.match(columns[0])) and any(_ID_NAME.match(c) for c in columns[1:])


# the depth a wrapped cell's rest is set in to at least: past a table's first column
_CELL_WRAP_LEAD = 16
_BOX_ROW = re.compile(r"^\s*[A-Z][^:]{0,40}:\s{2,}\[[ xX]?\]")


def _cell_wrap(line: str) -> bool:
    """A line set in as far as a table's later column, holding one cell's words: a wrapped cell's rest."""
    return len(line) - len(line.lstrip()) >= _CELL_WRAP_LEAD and bool(line.strip()) and not has_column_gap(line.strip())


def table_lines(raw: list[str]) -> list[bool]:
    """Which lines of a paragraph (indentation kept) sit in a table: a laid-out line (not a line of
    fields) with a row of the same table directly above or below it."""
    # (a label over checkboxes is no row of a table, however its boxes align with the next line's:
    # "Cardiac:    [x] Edema   [ ] Chest pain" over "Resp:       [ ] Cough" is two labels and their boxes)
    # (nor are two signatures set side by side, their names, roles and dates in two columns: a column each line)
    signatures = side_by_side_signatures(raw)
    rows = [is_table_row(line) and len(field_cells(line.strip())) < 2 and not _BOX_ROW.match(line)
            and not is_pipe_fields(line) and not _id_fields(line) and i not in signatures for i, line in enumerate(raw)]
    # (a rule drawn under a table's header row parts no rows: "Test    | 01/02/25 | Units" over "-----+-----+---" over
    # "Sodium  | 139      | mmol/L" is one table, its header row one unit as its rows are)
    # (nor does a cell's text wrapped onto a line of its own under its column: "Ramipril 5 mg   Held   AKI - GP to
    # restart" over "                               when creatinine is back" over "Bisoprolol 2.5 mg   Yes   No change")
    def near(i: int) -> list[int]:
        out = []
        for d in (-1, 1):
            j = i + d
            while 0 <= j < len(raw) and (is_rule_line(raw[j]) and j == i + d or _cell_wrap(raw[j])):
                j += d
            out += [k for k in {i + d, j} if 0 <= k < len(raw)]
        return out
    return [any(rows[i] and rows[j] and same_table(raw[min(i, j)], raw[max(i, j)]) for j in near(i))
            for i in range(len(raw))]


def pipe_row_wraps(row: str, below: str) -> bool:
    """Is `below` a pipe table's row (`row`) wrapped onto a line of its own: its first cell empty and fewer than half
    its cells holding words, or its words all in lower case ("| Sodium | 131 | Low; repeat with the |" over "|  |  |
    next bloods |")? A row of a grouped table, its group's cell left empty but its own cells filled ("|  | Potassium |
    4.1 |"), is a row of its own."""
    if not (row.lstrip().startswith("|") and re.match(r"^\s*\|[ \t]*\|", below)):
        return False
    cells = [c.strip() for c in below.strip().strip("|").split("|")]
    held = [c for c in cells if c]
    # (or every cell it fills goes on in lower case: "|  | daily | operation, for 6 weeks |")
    return len(cells) >= 2 and bool(held) and not is_rule_line(below) \
        and (len(held) <= len(cells) / 2 or all(c[:1].islower() for c in held))
