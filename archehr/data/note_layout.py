"""Line shapes of notes pasted from an EHR export, a patient portal or a PDF copy.

`note_split` reads a pasted note line by line; this module says what kind of line it is looking at when
the line's layout, not its words, decides: a row of fields ("Name: X   DOB: Y   MRN: Z"), a table row
(tab-, space- or pipe-separated columns, or a dot-leader result line), or a line that opens a unit of its own
whatever the line above (a time or date at its start: "14:32 ...", "12/14/2026 ...", "Mon 12/14 9:30 AM ...").
The lines of a copied page rather than of the note (rules, page marks, running headers) are `note_page`'s.

Each function takes one line without its line break (offsets returned are inside that line); blocks of several
short lines (an appointment, a result stacked on short lines) are `note_blocks`'.
"""

from __future__ import annotations

import re

from archehr.data.note_column_sentences import sentence_after_value
from archehr.data.note_page import is_page_line
from archehr.data.note_signatures import is_signature_line
from archehr.data.note_stamps import MONTH_NAME, STAMP, WEEKDAY, is_entry_head, is_stamp_only, starts_with_stamp

# a field label: "Service", "Date of visit", "INR goal", "ED Physician", "Unit No" (a capital first, then
# words; no sentence punctuation; a time such as "3:20" is no label)
# (the hyphen goes last in each class built from these: anywhere else it would read as a range)
_LABEL_CHARS = r"A-Za-z0-9 /&()'#"
# (a lab's name may open on a lower-case letter before capitals: "eGFR", "iPTH", "pCO2")
_LABEL = rf"(?:[A-Z]|[a-z](?=[A-Z]{{2}}))[{_LABEL_CHARS}.-]{{0,38}}[A-Za-z0-9)#]"
# a plain label, as `FIELD` reads a line's own field: no full stop inside ("Dr. Patel: seen" is a line of prose
# with a title) and ending in a letter or ")" (no "Grade 2:", "Step #:")
_PLAIN_LABEL = rf"[A-Z][{_LABEL_CHARS}-]{{0,38}}[A-Za-z)]"
# a gap that separates columns: a tab, or three or more spaces; spaces after a label's colon only align
# its value ("Started:   semaglutide ...")
COLUMN_GAP = re.compile(r"(?<=[^\s:])(?:[ ]*\t[ \t]*|[ ]{3,})(?=\S)")
# a field after a gap: a tab or three spaces, or two after a value that ends no sentence
# ("Arrival: 06:48  Departure: 13:05"; "... negative.  Sigmoidoscopy: ..." is prose spaced after a full stop)
# (an empty field's colon too: "URGENCY:          STATUS: COMPLETED")
_GAP_BEFORE_FIELD = re.compile(rf"(?:(?<=\S)[ ]*\t[ \t]*|(?<=\S)[ ]{{3,}}|(?<=[^\s:.!?;,])[ ]{{2}})"
                               # (a label runs to its colon with no gap inside: in "Ordering:     Dr A. Lee     Site:"
                               # the value is padded from its label, "Dr A. Lee     Site" is no label)
                               rf"(?=(?:(?! {{2}}|\t)[^:\n])+:)(?={_LABEL}:(?:\s|$))")
# after a first field, one space is enough before an identity label ("Name: Ann Lee DOB: 3/4/1950 MRN: 123")
# or, in a line that starts with an upper-case label, before one upper-case word after a value with a digit
# ("ADMITTED: 11/15/2026 DISCHARGED: 11/18/2026");
# other labels need a gap, since a value may hold capitalised words and abbreviations with a colon
# ("Discharge Date: ___ Service: MEDICINE" is how the releases join their header, "# Paroxysmal AF: ...")
_ID_FIELD = re.compile(r"(?<=\S) (?=(?:DOB|D\.O\.B\.|MRN|Sex|SEX|Age|AGE|Gender|GENDER|CSN|FIN|Acct|ACCT|"
                       r"Room|ROOM|Bed|BED|Phone|PHONE|Tel|TEL|EDD|NHI|Ward|WARD|NHS [Nn]o\.?|NHS number"
                       r"|Hosp(?:ital)? [Nn]o\.?|Hospital number|Unit [Nn]o\.?|Admitted|Discharged):(?:\s|$))")
_CAPS_FIELD = re.compile(r"(?:(?<=\d)|(?<=\d[%)A-Za-z])) (?=[A-Z][A-Z/-]+#?:(?:\s|$))")
# or, after a value ending in a digit, a short code in capitals (a whole value) or a clinician's credential, one
# space before a label of one to three words ("MRN: 7730-4415 Date of service: 08/27/2024", "Arrived by: EMS Triage
# level: 2", "MRN: 80-441 Date of Birth: 07/21/1998", "Attending: M. Feld, MD Department: Labor and Delivery")
_TITLE_FIELD = re.compile(r"(?:(?<=\d)|(?<=: [A-Z]{2})|(?<=: [A-Z]{3})|(?<=: [A-Z]{4})|(?<=, MD)|(?<=, DO)|(?<=, RN)"
                          r"|(?<=, NP)|(?<=, PA)) (?=[A-Z][a-z]+(?: [a-z]+| [A-Z][a-z]+){0,2}:[ \t]+\S)")
# a name before the birth date or record number on a header line: "Maria Delgado-Ruiz DOB: 04/11/1992"
_NAME_THEN_ID = re.compile(r"^[A-Z][a-z'-]+(?: [A-Z][A-Za-z'-]+){1,3}(?= (?:DOB|MRN):[ \t]+\S)")
FIELD_START = re.compile(rf"^{_LABEL}:[ \t]+\S")
# fields parted by semicolons ("DOB: 12/01/2004; Record No: 5518"): the semicolon stays with the field before it
_SEMICOLON_FIELD = re.compile(r"(?<=;) (?=[A-Z][A-Za-z]*(?: [A-Za-z]+){0,2}:[ \t]+\S)")
# (only in a line that opens with the person the note is about: "Brief Hospital Course: # Pneumonia, RLL: ..." is prose)
_PERSON_LABEL = re.compile(r"^(?:Patient|Pt|Name|Caller|Re|RE|Resident|Client|Child|Baby|Member)\s*:")
# (a number's name in lower case or cut short too, or "NHS" before its digits: "hospital no. 6623019", "Hosp. No. 77",
# "NHS 704 219 5586")
_COMMA_FIELD = re.compile(r"(?<=,) (?=(?:DOB|D\.O\.B\.|MRN|NHS (?:(?i:no\.?|number)|(?=\d))|(?i:hosp(?:ital|\.)? no\.?)"
                          r"|Unit (?i:no\.?)|CHI|NHI|Bed|Room|Ward|Age)\b"
                          r"|(?:[A-Z][a-z]+|[A-Z]{2,5})(?: [A-Za-z]+){0,2}:[ \t]+\S"
                          # (or the patient's address, a house number and a street: "..., 12 Elm Crescent, Town")
                          r"|\d{1,4}[A-Za-z]? (?:[A-Z][a-z'-]+ ){1,3}(?:Road|Rd|Street|St|Avenue|Ave|Lane|Ln|Crescent"
                          r"|Close|Drive|Way|Court|Place|Row|Rise|Gardens|Terrace|Grove|Hill|Park|Square|Walk|Mews"
                          r"|View|Green)\b)")
# a dot leader between a test and its value: "Hemoglobin A1c ........ 9.2 %"
_DOT_LEADER = re.compile(r"\S[ ]?\.{4,}[ ]?\S")
# a pipe between two cells of a row: "START | Ibuprofen 400 mg | With food."
PIPES = re.compile(r"\S[ ]*\|[ ]*\S")
# the bullets of a list (an en dash too), characters for a class; `ITEM` reads them with arrows and checkboxes
BULLETS = "-*\u2022\u00b7\u25aa\u25cf\u25e6\u2023\u2043\u2013"
_LONE_BULLET = re.compile(f"[{BULLETS}]")


def field_cells(line: str) -> list[tuple[int, int]]:
    """The fields of a line that holds two or more ("Name: X   DOB: Y", "ADMITTED: 11/15 DISCHARGED: 11/18",
    "VISIT NOTE      Date of visit: 11/18"), as (start, end) in `line`; [] for any other line. In a line of
    fields every column is one ("Pages: 2    03/30/2034 16:42" is two)."""
    if ORDER_COLUMN.match(line):  # "START     Prednisolone 5 mg tablets: 30 mg ...": an order's column, no field
        return []
    cuts = [(m.start(), m.end()) for m in _GAP_BEFORE_FIELD.finditer(line)]
    if cuts:
        cuts += [(m.start(), m.end()) for m in COLUMN_GAP.finditer(line)]
    if FIELD_START.match(line):
        first_colon = line.index(":")
        # (after a comma, a header field named with or without its colon: "Patient: Tomasz Wielgosz, DOB 22/01/1994,
        # NHS no. 943 118 2056"; the comma stays with the field before it; a letter's "Re:" line too, "Re: Mr A. Lee,"
        # + "DOB 02.02.1957," + "Hosp No. A77": each header field is a unit, as on lines of their own)
        if _PERSON_LABEL.match(line):
            cuts += [(m.start(), m.end()) for m in _COMMA_FIELD.finditer(line) if m.start() > first_colon]
        # (upper-case labels only in a line that starts with one: "Results: ... ALT-29 TTE: normal" is prose)
        patterns = (_ID_FIELD, _CAPS_FIELD) if line[:first_colon].isupper() else (_ID_FIELD, _TITLE_FIELD)
        cuts += [(m.start(), m.end()) for pattern in patterns for m in pattern.finditer(line)
                 if m.start() > first_colon]
        cuts += [(m.end(), m.end() + 1) for m in [_NAME_THEN_ID.match(line)] if m]
        # (only where every semicolon parts two fields: "Plan: rest; Dr Lee: call if worse" may be prose)
        semicolons = list(_SEMICOLON_FIELD.finditer(line))
        if semicolons and len(semicolons) == line.count(";") - line.rstrip().endswith(";"):
            cuts += [(m.start(), m.end()) for m in semicolons]
    if not cuts and FIELD_START.match(line) and not _LABEL_GAP.match(line) and not _BOX_FIELD.match(line):
        cuts = _data_columns(line) or _signed_when(line)
    # (a signer's name and credentials or role, with no label, and the date set apart in a column of its own, three
    # spaces or a tab: "A. Lee, MBChB FCP Cardiology          17/03/2025 15:40", "Tom Reyes, PA-C   10/29/2026 16:20";
    # a date one or two spaces after the name is written with it)
    if not cuts and re.search(r"\S(?: {3,}|\t)", line) \
            and (_SIGNER.match(line) or is_signature_line(COLUMN_GAP.split(line.strip())[0])):
        cuts = _signed_when(line)
    if not cuts:
        cuts = _spoken_fields(line) or sentence_after_value(line)
    if not cuts:
        return []
    cells, pos = [], 0
    for a, b in sorted(set(cuts)):
        if a < pos:
            continue
        cells.append((pos, a))
        pos = b
    cells.append((pos, len(line)))
    cells = [(a, b) for a, b in cells if line[a:b].strip()]
    # (a bullet set two spaces before its item is no field: "  \u2022  Cardiac rehab: you have been referred ...")
    if len(cells) >= 2 and _LONE_BULLET.fullmatch(line[cells[0][0]:cells[0][1]].strip()):
        cells[:2] = [(cells[0][0], cells[1][1])]
        if len(cells) == 1:
            return []
    # (two measurements two spaces apart in a line of fields are two: "BSA: 1.78 m2     Height 163 cm  Weight 70 kg")
    cells = [piece for a, b in cells for piece in _measurement_pair(line, a, b)]
    # a time alone before one field of prose is that entry's time ("03:05  Urinalysis: large blood, no nitrites"),
    # not a field of a header line ("12/02/2026 16:41   FROM: CLINIC   TO: 555-0142"); so is a time with the entry's
    # kind or its writer ("10:30 VISIT  Advice given: ...", "14:20 S. Rao  Obs: BP 118/70, settled overnight")
    # (the writer set apart in a column of its own too: "14:20  S. Rao  Obs: BP 118/70, settled overnight")
    if len(cells) in (2, 3) and starts_with_stamp(line) and is_entry_head(line[cells[0][0]:cells[-2][1]]) \
            and len(re.findall(r"(?<![\w-])[a-z]{2,}\b", line[cells[-1][0]:cells[-1][1]])) >= 2:
        return []
    return cells


# a dictated header typed in lower case names its fields without colons ("patient ann lee  dob 01/02/1990  ref
# AB-123", "date of visit 3 may 2025  dr jo kent consultant"): each column a field when each opens with such a name
# (or with them: "patient: ann lee    dob: 01/02/1990"; and "dictated by dr jo kent", "transcribed 04/05/2025")
_SPOKEN_LABEL = re.compile(r"(?:patient|pt|name|dob|date of birth|mrn|nhs (?:no|number)|hosp(?:ital)? no|ref|"
                           r"date of (?:visit|clinic|dictation|letter)|dr|consultant|gp|age|sex|ward|dictated by|"
                           r"typed|transcribed|seen by|date seen) \S|[a-z][a-z .'/-]{0,24}: \S"
                           # (or any name of a few words in lower case before a value with a digit: "clinic date
                           # 02/06/2025", "bed 14", "ur 55102")
                           r"|[a-z]+(?: [a-z]+){0,2} \d")
# a dictation's title before its fields ("urology outpatient dictation   pt: ...")
_SPOKEN_TITLE = re.compile(r"[a-z][a-z '&/-]{2,50}(?=\s{2}|\t)")


def _spoken_fields(line: str) -> list[tuple[int, int]]:
    """The gaps between a dictated header's fields named in lower case (after a title of its own, when two
    fields or more follow it); [] for any other line."""
    gaps = [(m.start(), m.end()) for m in re.finditer(r"(?<=\S)(?: {2,}|\t[ \t]*)(?=\S)", line)]
    starts = [0] + [b for _, b in gaps]
    if len(starts) >= 3 and _SPOKEN_TITLE.match(line) and not _SPOKEN_LABEL.match(line):
        starts = starts[1:]
    # (an initial's or a title's full stop ends no sentence: "patient: lee, ann j.   dob: ...", "dr. jo kent")
    probe = re.sub(r"(?<![\w.])(?:[a-z]|dr|mr|mrs|ms|prof|st)\.", "", line, flags=re.IGNORECASE)
    if gaps and all(_SPOKEN_LABEL.match(line, a) for a in starts) and not re.search(r"[.!?](?:\s|$)", probe):
        return gaps
    return _spoken_commas(line)


# a dictated header's patient named in lower case, then the ids after commas, each named in words ("patient mrs ann
# lee, hospital number ab 123 4567, date of birth 12 may 1957."): a field each, as on lines of their own
_SPOKEN_PATIENT = re.compile(r"^(?:patient|pt|name|re):? [a-z]")
_SPOKEN_ID = re.compile(r"(?:dob|date of birth|mrn|nhs (?:no|number)|hosp(?:ital)? (?:no|number)|unit number|ur"
                        r"|ref(?:erence)?(?: number)?):? [^,]*\d")


def _spoken_commas(line: str) -> list[tuple[int, int]]:
    """The spaces after the commas of a dictated patient line whose every part after the first names an id or a
    birth date in lower case (`_SPOKEN_ID`); [] for any other line."""
    gaps = [(m.start(), m.end()) for m in re.finditer(r"(?<=,) +(?=[a-z])", line)]
    if gaps and _SPOKEN_PATIENT.match(line) and line == line.lower() \
            and all(_SPOKEN_ID.match(line, b) for _, b in gaps):
        return gaps
    return []


# an age and sex ("52M", "34 F", "5 mo") or a short name and one value with a digit ("Adm 10/02/2026",
# "MRN 88-301-557"), not a time alone ("06/14/2033 15:22", a signature's) nor a phrase ("Questions? Call 555-0193")
_DATA_ITEM = re.compile(r"^(?:\d{1,3} ?(?:[MF]|yo|y/o|mo|wk)|[A-Z][A-Za-z/.#]{0,11} [\w/.#-]*\d[\w/.#-]*)$")


def _data_columns(line: str) -> list[tuple[int, int]]:
    """The column gaps of a field followed by short data columns without labels ("Pt: Ann Lee   52M   Adm
    10/02   D/C 10/06"): each column a field of its own, when each after the first is at most three words
    with a digit; [] else ("Plan: rest   Follow up with Dr. Lee in 2 weeks" is no row of data)."""
    gaps = [(m.start(), m.end()) for m in COLUMN_GAP.finditer(line)]
    ends = [a for a, _ in gaps[1:]] + [len(line)]
    cells = [line[b:end].strip() for (_, b), end in zip(gaps, ends, strict=False)]
    if gaps and not _DOT_LEADER.search(line) and all(_DATA_ITEM.match(c) for c in cells):
        return gaps
    return []


# a signer named with an initial or a given name, a comma, then credentials or a role ("A. Lee, MBChB FCP Cardiology",
# "Tamsin Ebright, RPh")
_SIGNER = re.compile(r"^(?:(?:Dr|Prof|Mr|Mrs|Ms|Sr)\.?\s+)?(?:[A-Z]\.\s*)*[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,2},"
                     r"\s+[A-Z][^.!?:,]{1,50}(?:[ ]{2,}|\t)")


# a signature's mark in a column of its own: "Signature on file", "Signed electronically"
_SIGNATURE_MARK = re.compile(r"(?i:signature on file|signed(?: electronically)?)")


def _signed_when(line: str) -> list[tuple[int, int]]:
    """The gap before a sign-off's date and time set apart in a column of their own after the name ("Signed: F.
    Adeyemi    17/03/2025 21:40", "Reconciled by: Dr H. Marsh    04/03/2025"): the name and the date are two
    fields, as they are on two lines; [] for any other line (a date after a date, a weekday, a month or a time is one
    value: "Collected: 08/04/2025   08:52", "Next visit: Tuesday  12/03/2025")."""
    gaps = list(re.finditer(r"(?<=\S)(?:[ ]{2,}|[ ]*\t[ \t]*)(?=\S)", line))
    # (a mark of the signature in a column between them is a field of its own: "Pharmacist: K. Lee    Signature on
    # file    25/11/2025 12:05")
    if len(gaps) == 2 and _SIGNATURE_MARK.fullmatch(line[gaps[0].end():gaps[1].start()]) \
            and _signed_when(line[:gaps[0].start()] + line[gaps[1].start():]):
        return [gaps[0].span(), gaps[1].span()]
    if len(gaps) == 1 and is_stamp_only(line[gaps[0].end():]) and re.search(r"[A-Za-z)]$", line[:gaps[0].start()]) \
            and not _WHEN_WORD_END.search(line[:gaps[0].start()]):
        return [gaps[0].span()]
    return []


# a date written alone, its weekday before it or not ("Saturday, June 7, 2025", "7 June 2025", "06/07/2025")
_DATE_ALONE = re.compile(rf"^(?:{WEEKDAY},?\s+)?(?:{MONTH_NAME}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
                         rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTH_NAME},?\s+\d{{4}}"
                         r"|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2})$")
# a place named in words in title case, its site after a dash or a comma ("Lakeside Urgent Care - Kissimmee")
_NAMED_PLACE = re.compile(r"^[A-Z][A-Za-z'&.]*(?:(?: [-\u2013\u2014]| ?,)? [A-Z][A-Za-z'&.-]*){1,7}$")


def place_and_date_cells(line: str) -> list[tuple[int, int]]:
    """The two columns of a header's line naming where and the day ("Lakeside Urgent Care - Kissimmee    Saturday,
    June 7, 2025"): the place and the date, two fields, as they are on two lines; [] for any other line. The caller
    knows the line stands among a header's fields (an appointment's row names its time too)."""
    gaps = list(COLUMN_GAP.finditer(line))
    if len(gaps) != 1:
        return []
    first, second = line[:gaps[0].start()].strip(), line[gaps[0].end():].strip()
    # (the date first too: "10/14/2024    Greeneville Community Hospital - Emergency Dept")
    if (_NAMED_PLACE.match(first) and _DATE_ALONE.match(second)) \
            or (_DATE_ALONE.match(first) and _NAMED_PLACE.match(second)):
        return [(0, gaps[0].start()), (gaps[0].end(), len(line))]
    return []


# (a whole word: "Dr H. Marsh" ends in no month)
_WHEN_WORD_END = re.compile(rf"\b(?:{WEEKDAY}|(?:January|February|March|April|May|June|July|August|September|October"
                            r"|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?|[AaPp]\.?[Mm]\.?)$",
                            re.IGNORECASE)


def _measurement_pair(line: str, a: int, b: int) -> list[tuple[int, int]]:
    """A cell of a line of fields, cut in two where two spaces part two measurements."""
    m = re.search(r"(?<=\S)  (?=\S)", line[a:b])
    if m and _MEASUREMENT.match(line[a:a + m.start()].strip()) and _MEASUREMENT.match(line[a + m.end():b].strip()):
        return [(a, a + m.start()), (a + m.end(), b)]
    return [(a, b)]


# a cell that reads as a result or a time, not as a title or an item: one word ("Neg", "HIGH", "Creatinine"),
# a number, a time or a date
DATA_CELL = re.compile(rf"^(?:\S+|[\d\s.,:/%<>=+-]+(?:[AaPp]\.?[Mm]\.?)?)$|{STAMP.pattern[1:]}")
_LABEL_GAP = re.compile(rf"^{_LABEL}:[ \t]{{2,}}(?=\S)")
# a field whose value is its options, ticked or not, one space after the label ("Anaesthetic: [x] General   [ ] Spinal",
# "Follow-up: \u2610 Yes  \u2611 No"): a field and its value, one unit; set in a column ("Code status:   [X] Full code
# [ ] DNR"), the label stands over its options, a unit each
_BOX_FIELD = re.compile(rf"^{_LABEL}:[ \t](?:\[[ xX]?\]|[\u2610\u2611\u2612])")
_WIDE_GAP = 8  # spaces: a gap this wide sets items apart, as a page header or a toolbar does
_VALUE_START = re.compile(r"^(?:[<>]?[-+]?\d|(?:H|L|HH|LL|High|Low|Normal|Abnormal|Neg|Pos)\b)")
# a lower-case word that is no small joining word: "tablet", "metabolic", not "of", "and"
_SENTENCE_CASE = re.compile(r"(?<![\w'&-])(?!(?:and|or|of|the|for|with|to|in|on|at|by|from|per|via)\b)[a-z]{3,}\b")
# a name and its value ("Pulse 78", "BP (home cuff) 124/78", "Wt 181 lb (up 6 lb since last visit)", "SpO2 96%")
_MEASUREMENT = re.compile(r"^[A-Za-z][\w/%.-]*(?: [A-Za-z][\w/%.-]*)?(?: \([^)]*\))?:? [<>]?\d[\d.,/:-]*"
                          r"(?: ?[A-Za-z%/]+(?:/[A-Za-z0-9.]+)?)?(?: \([^)]*\))?$")


# a line ending in a result: a name, a value with its unit and a flag ("... adjusted calcium 2.01 mmol/L (low)")
_RESULT_END = re.compile(r"(?:^|\s)[A-Za-z][\w/%.-]* [<>]?\d[\d.,]*(?: ?[A-Za-z%]+/[A-Za-z0-9.]+| ?%)"
                         r"(?: \([^)]*\))?$")


def line_cells(line: str) -> list[tuple[int, int]]:
    """The columns of a laid-out line that stands alone, when each reads as a unit of its own: a title and
    a clinic name and a page ("RADIOLOGY REPORT      Northmoor Imaging Center"), a label over values
    ("Vitals:   BP 136/84    Pulse 78"); [] when a column is a value, a flag, a time or a date ("Wed 4/27
    8:00 AM   Lab draw", "Creatinine   1.9   H"), which makes the line one row. (start, end) in `line`."""
    gaps = [(m.start(), m.end()) for m in COLUMN_GAP.finditer(line)]
    if not gaps or _DOT_LEADER.search(line) or _BOX_FIELD.match(line):
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
    # (one measure read on each side, under its name, is one result: "Grip strength:   R 31 kg   L 27 kg")
    if label and all(_SIDE_READING.match(t) for t in texts[1:]):
        return []
    # columns two spaces apart on each side of the gaps make one row of a table, spaced unevenly ("Cycle  Day  Date
    # Drug  Dose  Status" over "C1  D1  03/03/2025  ...")
    if all(re.search(r"\S  \S", t) for t in texts):
        return []
    # items pushed to the line's ends by wide gaps stand apart ("9:41" ... "5G 62%", "< Back ... Share"),
    # unless a value follows its name across the gap ("Creatinine            1.9")
    if all(len(line[a:b]) >= _WIDE_GAP for a, b in gaps) and not any(_VALUE_START.match(t) for t in texts[1:]):
        return cells
    pairs = _result_pairs(texts)
    if pairs:  # "WBC   2.1 L    ANC   0.9 L": a strip of results, each a name and its value
        return [(cells[k][0], cells[k + 1][1]) for k in range(0, len(cells), 2)]
    # (measurements several on one line are one unit, whatever sets them apart: "T 100.4 F   HR 96   SpO2 99% RA",
    # "AST 148   ALT 72   plt 98")
    # (a date is no measurement: "Admit 07/06/2026   D/C 07/09/2026" are two header fields)
    if _measurement_cells(texts):
        return []
    # a result and, set apart after it, more results ("24/11 morning: calcium 2.01 mmol/L (low)   PTH 1.1 pmol/L
    # (low)"): a result line each, when the first ends in a value with its unit
    if _RESULT_END.search(texts[0]) and all(_MEASUREMENT.match(t) for t in texts[1:]):
        return cells
    if any(DATA_CELL.match(t) and not t.endswith(":") for t in texts):
        return []
    # a column that opens with a word in lower case carries on the one before it ("J. Kowalewski, PA-C
    # e-signed 11/21 19:41"), unless it is a page mark ("page 1/1"); "eGFR 22" is a name
    if any(re.match(r"[a-z][a-z'-]*(?![\w])", t) and not is_page_line(t) for t in texts[1:]):
        return []
    # a title, a clinic, a person or a place is written in capitals; a first column in sentence case
    # describes an entry ("lisinopril 10 mg tablet    Take 1 tablet daily.", "Basic metabolic panel    Due in
    # 1 week"): the line is one row, unless each column is a measurement ("BP 128/78   HR 72   Wt 196 lb")
    # (a field is no description: "Showing results for: Ann Lee     Print | Share")
    # (a bare label over values is no description either: "Code status:   [X] Full code   [ ] DNR")
    if not label and _SENTENCE_CASE.search(re.sub(r"\([^)]*\)", "", texts[0])) and not FIELD_START.match(texts[0]) \
            and not all(_MEASUREMENT.match(t) for t in texts):
        return []
    return cells


# a side's value: "R 6/9", "Left: 14 mmHg", "Both eyes 6/6", "OD 20/40"
_SIDE_READING = re.compile(r"^(?:R|L|Right|Left|Both(?: eyes| sides)?|RE|LE|OD|OS|OU):? ?\d")
_DATE_IN = re.compile(r"\b\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\b")


def _measurement_cells(texts: list[str]) -> bool:
    """Are a line's columns two or more measurements, each a name and its value ("T 100.4 F", "SpO2 99% RA")? A date
    is no measurement: "Admit 07/06/2031   D/C 07/09/2031" are two header fields."""
    return len(texts) >= 2 and all((_MEASUREMENT.match(t) or READING.match(t)) and not _DATE_IN.search(t)
                                   for t in texts)


def _result_pairs(texts: list[str]) -> bool:
    """Do the columns alternate a name and a value, twice or more ("WBC", "2.1 L", "ANC", "0.9 L")?"""
    return len(texts) >= 4 and len(texts) % 2 == 0 \
        and all(not _VALUE_START.match(t) and re.match(r"^[A-Za-z][\w/%()-]*$", t) for t in texts[::2]) \
        and all(_VALUE_START.match(t) and len(t.split()) <= 3 for t in texts[1::2])


def is_table_row(line: str) -> bool:
    """A row of a table: columns apart by tabs, three or more spaces or pipes, or a dot leader. It is one
    unit, header rows ("Test  Result  Flag  Reference") included, and nothing inside it ends a sentence.

    Wide spaces are no columns after a sentence's end ("He is well.   Plan: home.") nor between the words
    of justified text copied from a PDF ("The   patient   was   seen   in   clinic")."""
    body = line.strip()
    if _DOT_LEADER.search(body) or PIPES.search(body):
        return True
    gaps = [m for m in COLUMN_GAP.finditer(body) if body[m.start() - 1] not in ".!?;,"]
    if not gaps:
        return False
    cells = COLUMN_GAP.split(body)
    words = sum(1 for c in cells if re.fullmatch(r"[a-z]+[.,;:!?]?", c))
    return not (len(cells) >= 3 and words >= 0.6 * len(cells))


def _column_starts(line: str) -> set[int]:
    return {m.end() for m in COLUMN_GAP.finditer(line)}


def same_table(above: str, below: str) -> bool:
    """Are two laid-out lines (indentation kept) rows of one table? Tab- and pipe-separated rows and
    dot-leader lines go together; rows laid out with spaces share where a column starts. A stack of unaligned
    laid-out lines is a page header ("Clinic   Page 1" over "Patient: X      MRN 123"), not a table."""
    if ("\t" in above and "\t" in below) or (PIPES.search(above) and PIPES.search(below)):
        return True
    if _DOT_LEADER.search(above) or _DOT_LEADER.search(below):
        return True
    starts = _column_starts(above)
    return any(x + d in starts for x in _column_starts(below) for d in (-1, 0, 1))


# a reading: a short name, a number, a unit or a word at most ("HR 88", "BP 132/84", "SpO2 97% RA")
# (and a bracketed breakdown after it: "GCS 14 (E4 V4 M6)")
READING = re.compile(r"^[A-Za-z][\w/%.-]{0,7} [<>]?\d[\d.,/:-]*%?(?: \S+)?(?: \([^()]*\))?$")

# a label one space before its value: "Obs: T 38.1", "Vitals: BP 132/78"
_LABEL_VALUE = re.compile(rf"^\s*{_LABEL}: (?=\S)")


def is_readings_line(line: str) -> bool:
    """A label one space before readings set apart by two spaces or more ("Obs: T 38.1  HR 104  BP 118/64",
    "Vitals: BP 132/78   HR 84 irregular   Wt 176 lb"), or measurements alone in columns: one record, a unit, however
    wide its gaps. A bare label
    set apart from its readings ("Vitals:   BP 136/84    Pulse 78") is a line of cells."""
    value = _LABEL_VALUE.match(line)
    cells = re.split(r"[ ]{2,}|\t+", line[value.end():].strip()) if value else []
    # (measurements alone in columns are one record too, as the writers of gold splits keep several on one line:
    # "T 100.4 F   HR 96   BP 118/74   SpO2 99% RA")
    return (len(cells) >= 2 and all(READING.match(c) for c in cells)) \
        or (not value and _measurement_cells(COLUMN_GAP.split(line.strip())))


# --- line shapes that note_split reads as structure ---------------------------------------------------

# a number written as a word, as a dictation numbers its plan's items ("one.", "Two.", "twelve.")
WORD_NUMBER = r"(?:[Oo]ne|[Tt]wo|[Tt]hree|[Ff]our|[Ff]ive|[Ss]ix|[Ss]even|[Ee]ight|[Nn]ine|[Tt]en|[Ee]leven|[Tt]welve)"
# list markers: bullets (an en dash, arrows and triangles too), checkboxes ("\u2610", "[ ]", "[x]"), "1." "2)" "(3)"
# "a)" "A." "ii." "#"
# (a phone app's symbol or emoji marks its items as a bullet does: "\u2705 Sertraline 50mg", "\U0001f539 Tue 3 June")
SYMBOL_MARK = r"[\u2600-\u27bf\u2b00-\u2bff\U0001f300-\U0001faff]\ufe0f?"
ITEM = re.compile(f"^(?:[{BULLETS}" r"\u25a1\u25a0\u25ba\u25b8\u27a2\u27a4\u2192"
                  r"\u2610\u2611\u2612\u2713\u2714\u2717\u2718]|" + SYMBOL_MARK
                  # (Word's outline bullet, a lower-case "o" before a capital: "o Keep the dressing on.")
                  + r"|o(?=[ \t]+[A-Z])|\[[ xX\u2713\u2714*-]?\]|\d{1,2}[.)]|\(\d{1,2}\)|\(?[a-z]\)|#+"
                  # lettered and roman-numbered items: "A. Heart failure", "a. ...", "ii. ...", "(iv) ..."
                  r"|[A-Za-z]\.|\(?(?:i{1,3}|iv|vi{0,3}|ix|x|I{1,3}|IV|VI{0,3}|IX|X)[.)]"
                  # (a dictation's items numbered in words, as they were spoken: "one. start omeprazole ...")
                  r"|" + WORD_NUMBER + r"[.)])[ \t]+")
# a machine export's key and its value: "visit_date=2025-03-14", a JSON dump's "\"diagnosis\": \"Sprain\"," (each
# line a field of its own, whatever case its key is in)
# (a YAML dump's lower-case key too: "clinician: Nurse K. Obi")
KEY_VALUE = re.compile(r'^(?:"[A-Za-z_][\w .-]{0,30}"\s*:|[A-Za-z_][\w.]{0,30}=|[a-z][a-z0-9_]{0,30}:[ \t])\s*\S')
# "Service: MEDICINE", "Chief Complaint: cough": a short label, a colon and its value on one line
FIELD = re.compile(rf"^{_PLAIN_LABEL}:[ \t]+\S")
# an order a line gives on its own: "STOP aspirin", "START amoxicillin ...", "HOLD: lisinopril"
_ORDER_WORD = (r"(?:STOP|START|CONTINUE|CHANGE|HOLD|RESUME|INCREASE|DECREASE|DISCONTINUE|NEW|STOPPED|"
               r"STARTED|CHANGED|HELD|CONTINUED|RESUMED|INCREASED|DECREASED|DISCONTINUED|FINISH|FINISHED|"
               r"RESTART|RESTARTED|SWITCH|SWITCHED|REDUCE|REDUCED|PAUSE|PAUSED|TAPER)\b")
ORDER = re.compile(rf"^{_ORDER_WORD}[:\s]")
# an order set in a column of its own before the drug it names ("START     Prednisolone 5 mg tablets: 30 mg once
# daily ...", "CONTINUE  Amlodipine 5 mg"): the line is that one entry, whatever label-like words the drug's name makes
ORDER_COLUMN = re.compile(rf"^{_ORDER_WORD}:?(?:[ ]{{2,}}|[ ]*\t)(?=\S)")
# a line ending in one of these stops mid-sentence, whatever its length ("... is a 71 yo man with")
OPEN_END = re.compile(r"(?:[,;/&(-]|\b(?:and|or|but|with|without|to|of|the|a|an|for|by|on|in|at|from|as|than|"
                      r"if|because|after|before|until|per|while|was|were|is|are|be|been|his|her|their|your|"
                      r"my|has|have|had|not|no|then|into|over|under|about|via|plus|due|within|including|through|"
                      r"since|around|toward|towards|between|during|every|each|that|which|who|whose|nor|will|would|"
                      r"should|can|could|may|might|must|also|this|these|those|its|our|unless|whether|along|upon|"
                      # (or a clinician's shorthand for a phrase that goes on: "Now c/o" + "L shoulder ache", "h/o",
                      # "s/o", "r/o", "w/o", "d/t", "s/p")
                      r"[chsrw]/o|d/t|s/p)"
                      # (or an example's or a restatement's abbreviation: "... a pain reliever, e.g." + "Tylenol")
                      r"|(?:^|[\s(])(?:e\.\s?g|i\.\s?e|viz)\.)$",
                      re.IGNORECASE)


def has_column_gap(text: str) -> bool:
    """Does the text hold a gap that sets columns apart (a tab, or three spaces or more)?"""
    return bool(COLUMN_GAP.search(text))


def laid_out(line: str) -> bool:
    """A table row or a line of several fields: its length is the layout's, not a wrap width."""
    return is_table_row(line) or len(field_cells(line.strip())) > 1
