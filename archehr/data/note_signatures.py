"""A signature's lines at a note's end: who signed ("Signed: Dr. A. Bell", "Electronically signed by A. Bell, PA-C",
"Tom Reyes, MD", "Dr. Ann Lowe"). The split convention gives a signature's name, role and date lines a unit each, so
a role line over a date under a signature is no appointment's name over its date."""

from __future__ import annotations

import re

# (a clinician's credentials after the name: "Tom Reyes, MD", "A. Bell PA-C")
_CREDENTIAL = r"(?:MD|DO|MBBS|MB|MBChB|FRCS|MRCP|PA-C|PA|NP|APRN|ANP|RN|CNS|DPM|PharmD|PhD|FNP-C|FNP)"
_NAME = r"[A-Z][\w.'\u2019-]*(?:\s+[A-Z][\w.'\u2019-]*){1,3}"
# (a grade and a specialty after a titled name: "Dr Ann Lowe, FY2 Cardiology", "Dr A. Bell, Consultant Physician";
# the specialty after a comma of its own too: "Dr A. Bell, Associate Consultant, Vascular Surgery")
_ROLE = r"(?:,\s+[A-Z0-9][\w/&-]*(?:\s+(?:[A-Z][\w/&-]*|of|and|in|&)){0,4}){0,2}"
# (how it was signed, in brackets after it: "Dr A. Bell (electronically signed)", "Dr A. Bell, GP (e-signed)")
_SIGNED_MARK = r"(?:\s+\((?:electronically\s+|e-?)?signed\))?"
_SIGNATURE = re.compile(rf"^(?:(?:electronically\s+)?signed(?:\s+by)?\b:?\s*\S.*"
                        rf"|(?:Dr|Prof|Mr|Mrs|Ms|Miss)\.?\s+{_NAME}{_ROLE}{_SIGNED_MARK}"
                        rf"|{_NAME},?\s+{_CREDENTIAL}(?:,\s*{_CREDENTIAL})*)$", re.IGNORECASE)


def is_signature_line(line: str) -> bool:
    """A line that signs a note: "Signed: ...", "Electronically signed by ...", a titled name or a name with
    credentials, and nothing else."""
    line = line.strip()
    return len(line) <= 80 and bool(_SIGNATURE.match(line)) and not line.endswith((".", ":", "!", "?"))


# a signer named with a title, a nurse's too ("Sister Joan Pike", "Nurse T. Osei, Ward Manager")
_TITLED = re.compile(rf"^(?:Dr|Prof|Mr|Mrs|Ms|Miss|Mx|Sister|Sr|Nurse|Matron)\.?\s+{_NAME}{_ROLE}$")
# a role or grade under a signer's name ("Consultant Physician", "Ward Manager", "Registrar in Cardiology")
_ROLE_CELL = re.compile(r"^[A-Z][A-Za-z&/()-]*(?:\s+(?:[A-Z][A-Za-z&/()-]*|of|and|in|for|&)){0,5}$")
# the date a signer signed, or a blank to sign on ("Signed 04/03/2025 10:15", "Date: 04/03/2025", "__________")
_SIGNED_CELL = re.compile(r"^(?:(?:Signed|Signature|Date|Dated|Time)\b:?\s*)?(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}"
                          r"(?:\s+\d{1,2}:\d{2})?|_{4,})$", re.IGNORECASE)
# columns: a tab, or four spaces or more (two signatures side by side stand well apart)
_SIDE_GAP = re.compile(r"[ ]*\t[ \t]*|[ ]{4,}")


def _cells(line: str) -> list[str]:
    return [c for c in _SIDE_GAP.split(line.strip()) if c]


def _signer(cell: str) -> bool:
    return is_signature_line(cell) or bool(_TITLED.match(cell))


def side_by_side_signatures(lines: list[str]) -> set[int]:
    """The lines of signatures set side by side (two signers' names on one line, their roles, dates or blanks to
    sign on in the lines beside it, in as many columns): each column is a signer's line, a unit of its own, as
    a name, a role and a date under one signature are. A table of clinicians, one a row, is no such block."""
    def block_cell(cell: str) -> bool:
        return _signer(cell) or bool(_ROLE_CELL.match(cell)) or bool(_SIGNED_CELL.match(cell))

    found: set[int] = set()
    for i, line in enumerate(lines):
        cells = _cells(line)
        if len(cells) < 2 or not all(_signer(c) for c in cells):
            continue
        found.add(i)
        for step in (-1, 1):
            j = i + step
            while 0 <= j < len(lines) and abs(j - i) <= 3 and len(_cells(lines[j])) == len(cells) \
                    and all(block_cell(c) for c in _cells(lines[j])):
                found.add(j)
                j += step
    return found
