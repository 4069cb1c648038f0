"""The lines of a copied page rather than of the note: rule lines ("-----"), a PDF copy's page header or footer
("Page 2 of 3") and its running header laid out in columns ("Clinic Name      Page 1 of 2"), a portal's trail of
pages ("Home > Results > Kidney panel"). `note_units` reads each as a unit of its own, or as no sentence at all.

Each function takes one line without its line break.
"""

from __future__ import annotations

import re

# a line of rule characters only ("------", "======", "* * * *", "______", a table's "|----|----|", "+----+")
# (box-drawing rules too: "\u2500\u2500\u2500", "\u2501\u2501\u2501", "\u2550\u2550\u2550")
# (a JSON dump's lone braces and brackets draw its layout too: "{", "}," "],")
_RULE_LINE = re.compile(r"^(?:([-=_~*#.\u2500-\u257f])[ ]?)\1(?:[ ]?\1){2,}$|^[|+:]?(?:[ ]*[-=]{3,}[ ]*[|+:]*)+$"
                        r"|^[{}\[\]]{1,2},?$"
                        # (blanks to sign on side by side: "______________      ______________")
                        r"|^_{4,}(?:[ \t]+_{4,})+$"
                        # (a box-drawn table's border joins its rule with corners: "\u250c\u2500\u252c\u2510")
                        r"|^[\u2500-\u257f]{3,}$")
# (a bilingual copy's "of" in two languages too: "Page 1 de/of 2", "Page 2 of/de 3")
_OF = r"(?:of|/|de/of|of/de)"
# a PDF copy's page header or footer
# (a viewer's page arrows too: "\u25c0 1 / 2 \u25b6", "< 2 of 3 >")
# (dashes either side, one or more: "- 2 -", "-- 1 of 2 --", "\u2014 Page 3 \u2014")
_PAGE_LINE = re.compile(r"^(?:[-\u2013\u2014]+\s*|[<\u2039\u25c0\u25c2\u2190]\s*)?(?:page\s+\d+(?:\s*" + _OF
                        + r"\s*\d+)?"
                        r"|\d+\s*(?:of|/)\s*\d+|\(?continued\)?|(?<=-)\s*\d+"
                        r"|continued (?:on|from) (?:next|previous) page)"
                        r"(?:\s*[-\u2013\u2014]+|\s*[>\u203a\u25b6\u25b8\u2192])?$", re.IGNORECASE)
# a portal's trail of pages: an arrow between its steps
_CRUMB = re.compile(r"\s(?:>|\u203a|\u25b8|\u25b6|\u00bb|\u2192)\s")


def is_breadcrumb(line: str) -> bool:
    """A portal's trail of pages ("Home > Results > Kidney panel"): one unit, no sentence inside it."""
    return len(_CRUMB.findall(line)) >= 2 and not re.search(r"[.!?]\s", line)


def is_rule_line(line: str) -> bool:
    """A line drawn with one rule character ("-----", "=====", "* * * *"): layout, no sentence."""
    return bool(_RULE_LINE.match(line.strip()))


def is_page_line(line: str) -> bool:
    """A PDF copy's page header or footer ("Page 2 of 3", "2/3", "- continued -")."""
    return bool(_PAGE_LINE.match(line.strip()))


# the last column of a PDF copy's running header or footer: a page of a copy with more than one ("Page 2 of 2"), or
# the mark of a page carried on ("ED Discharge Summary (continued)")
_PAGE_COLUMN = re.compile(r"page\s+\d+\s*" + _OF + r"\s*(?:[2-9]|\d{2,})$", re.IGNORECASE)
# the columns of a running header: tabs, three spaces or more, spaced pipes. Not `note_layout`'s `line_cells` or
# `pipe_cells`, which give no cells for a row of data (a record number: "Clinic      WIERZBICKI T   HCH-09-55671
# Page 2 of 2"; 3 raw-note header lines would stop being furniture), nor `COLUMN_GAP`, which keeps a gap after a
# colon in its cell
_FURNITURE_GAP = re.compile(r"(?:[ ]*\t[ \t]*|[ ]{3,}|\s+\|\s+)")


def is_page_furniture(line: str) -> bool:
    """A PDF copy's running header or footer laid out in columns, a page mark last ("Clinic Name      Page 1 of
    2", "Printed 05/09 08:31    LIMS v7    Page 2 of 2", "Ann SMITH   MRN: 123   (continued)"), a title in capitals
    first too ("DISCHARGE SUMMARY      Page 1 of 2", "SMITH, ANN      DOB 01/02/1950      Page 2 of 2"): one unit,
    as the writer brief keeps a page's header or footer line. A title beside a one-page copy's "Page 1 of 1" stays a
    unit of its own; a page carried on is marked so whatever the case ("SMITH, ANN   (continued)")."""
    body = line.strip()
    cells = [c for c in _FURNITURE_GAP.split(body) if c.strip()]
    last = cells[-1].strip() if len(cells) >= 2 else ""
    # (a page mark of a copy of more pages first in a footer of three columns or more is one too: "Page 2 of 3
    # Clinic Record v2    Printed 30/06/2025 15:48"; beside one column only, a writer cuts it: "Page 1 of 2    Printed")
    return last.endswith("(continued)") or bool(_PAGE_COLUMN.match(last)) \
        or (len(cells) >= 3 and bool(_PAGE_COLUMN.match(cells[0].strip()))) \
        or (len(cells) >= 2 and bool(_PRINTED.match(cells[0]))
            and (bool(_CONFIDENTIAL.match(last)) or not any(is_page_line(c) for c in cells[1:])))


# a footer's print stamp and its mark of confidence, first and last of its columns ("Printed 19/02/2025 11:42
# CONFIDENTIAL - PATIENT COPY", "Printed ... by PORTAL    Page 1 of 1    CONFIDENTIAL"): one unit, as the writers
# who copy such footers keep it; so is a print stamp beside the organisation that printed it, no page mark among its
# columns ("Printed 02/03 10:14    Northgate Labs, 4 Mill Way, Fairbury"). A page mark first ("Page 1 of 2    Printed
# ...") is no such footer, nor a print stamp beside a one-page copy's mark ("Printed 11/17 11:52 AM    Page 1 of 1"):
# a writer cuts them
# (the printed thing named first too: "Report printed 03/02/2025 09:01", "Document printed: 03/02/2025")
_PRINTED = re.compile(r"(?:(?:report|document|letter|copy|page|date)\s+)?printed:?\s+(?:on\s+)?\d", re.IGNORECASE)
_CONFIDENTIAL = re.compile(r"(?:strictly\s+)?confidential\b", re.IGNORECASE)


_PAGE_MARK = re.compile(r"\bpage\s+\d+\s*" + _OF + r"\s*\d+\b", re.IGNORECASE)


def has_page_mark(line: str) -> bool:
    """The line holds a page count: "Page 1 of 2", "page 2/3", "Page 1 de/of 2"."""
    return bool(_PAGE_MARK.search(line))


def running_lines(note: str) -> frozenset[str]:
    """A PDF copy's running header or footer laid out in columns and printed again on each page ("Clinic Name
    Outpatient Physical Therapy" at the top of pages 1 and 2): the lines (stripped) set out in columns that the note
    holds twice or more, when it marks its pages ("Page 1 of 2"). Each is one unit, as a page's header line is
    whatever it holds; a table's row repeated in a note without page marks is none."""
    if not _PAGE_MARK.search(note):
        return frozenset()
    seen: dict[str, int] = {}
    # (a footer printed on each page with its page's number, "Printed 05/09 08:31    CONFIDENTIAL    Page 1" over
    # "... Page 2", is printed again too: three columns or more, the same but for the number after "Page")
    numbered: dict[str, set[str]] = {}
    for line in note.splitlines():
        body = line.strip()
        if _FURNITURE_GAP.search(body) and re.search(r"[A-Za-z]{3}", body):
            seen[body] = seen.get(body, 0) + 1
            if len([c for c in _FURNITURE_GAP.split(body) if c.strip()]) >= 3 and _PAGE_NUMBER.search(body):
                numbered.setdefault(_PAGE_NUMBER.sub("page #", body), set()).add(body)
    lines = [line.strip() for line in note.splitlines()]
    # (a page's header of two lines: a title line in columns over the line that marks the page, "Lakeside Hospital
    # Patient Information" over "Urology Unit      Page 1 of 2", is the page header's too, however often it is
    # printed; its columns hold no field nor value)
    above = {lines[i - 1] for i in range(1, len(lines))
             if is_page_furniture(lines[i]) and _PAGE_MARK.search(lines[i]) and _FURNITURE_GAP.search(lines[i - 1])
             and not re.search(r"[:\d]", lines[i - 1]) and re.search(r"[A-Za-z]{3}", lines[i - 1])}
    return frozenset(body for body, n in seen.items() if n >= 2) | above | _carried_header(lines) \
        | _marked_twin(lines) | _titled_head(lines) \
        | {body for bodies in numbered.values() if len(bodies) >= 2 for body in bodies}


# a page's number after its word: "Page 1", "page 2 of 3" (the count after it is the same on each page)
_PAGE_NUMBER = re.compile(r"\bpage\s+\d+", re.IGNORECASE)


def _marked_twin(lines: list[str]) -> set[str]:
    """A page's header line in columns printed again on a later page with the page's mark in its last column
    ("Patient: LEE, Ann     MRN: 5501     DOB: 01/02/1960" and "Patient: LEE, Ann     MRN: 5501     Page 2 of 2"):
    both lines are the page header's, each one unit, as a header printed on each page is."""
    cells = {body: [c for c in _FURNITURE_GAP.split(body) if c] for body in lines}
    marked = [c[:-1] for c in cells.values() if len(c) >= 3 and _PAGE_MARK.fullmatch(c[-1].strip())]
    twins = [c[:-1] for c in cells.values() if len(c) >= 3 and not _PAGE_MARK.search(c[-1]) and c[:-1] in marked]
    return {body for body, c in cells.items() if len(c) >= 3 and c[:-1] in twins}


# a later page's mark: "Page 2 of 2", "Page 3 of 4"
_LATER_PAGE = re.compile(r"\bpage\s+(?:[2-9]|\d{2,})\s*" + _OF + r"\s*\d+\b", re.IGNORECASE)


def _carried_header(lines: list[str]) -> set[str]:
    """A later page's header line that carries the patient on from the first page, laid out in columns under the
    page's mark ("Clinic Name      Page 2 of 2" over "SMITH, Ann Jane   MRN-5501   Seen: 01/02/2025"): its first
    column names someone the note named before inside a field ("Patient: SMITH, Ann Jane"), so the line is the
    page's header, one unit, as a header line printed on each page is."""
    found = set()
    for i in range(1, len(lines)):
        cells = [c.strip() for c in _FURNITURE_GAP.split(lines[i]) if c.strip()]
        if len(cells) < 2 or not _LATER_PAGE.search(lines[i - 1]) or not is_page_furniture(lines[i - 1]):
            continue
        # (the first column a name in words, found in a line of an earlier page: "NDEGWA, Samuel" in "Patient
        # Name: NDEGWA, Samuel")
        # (a line that repeats page 1's row of fields, the name first there too, is those fields again, cut as they
        # were: "SMITH, ANN    MRN: 5501" under "SMITH, ANN    MRN: 5501    DOB: 01/02/1950")
        earlier = lines[:i - 1]
        if re.search(r"[A-Za-z]{3}.*[, ].*[A-Za-z]{3}", cells[0]) and not re.search(r"[:.!?]", cells[0]) \
                and any(cells[0] in line for line in earlier) \
                and not any(line.startswith(cells[0]) for line in earlier):
            found.add(lines[i])
    return found


# a document's title in words, no field nor value: "SDEC Discharge Letter", "Clinic Letter (continued)"
_TITLE_CELL = re.compile(r"^[A-Z][A-Za-z&/'-]*(?:\s+(?:[A-Z(][A-Za-z&/()'-]*|of|and|to|for|the|-)){1,6}$")


def _titled_head(lines: list[str]) -> set[str]:
    """A later page's header line under its page's mark that carries the patient's fields and the document's title
    in columns ("Clinic Name      Page 2 of 2" over "Patient: Ann LEE   NHS No: 401 222 3333   Discharge Letter"): the
    page's running header, one unit, as a page's header line is whatever it holds."""
    found = set()
    for i in range(1, len(lines)):
        cells = [c.strip() for c in _FURNITURE_GAP.split(lines[i]) if c.strip()]
        if len(cells) >= 3 and _LATER_PAGE.search(lines[i - 1]) and is_page_furniture(lines[i - 1]) \
                and all(":" in c for c in cells[:-1]) and _TITLE_CELL.match(cells[-1]):
            found.add(lines[i])
    return found
