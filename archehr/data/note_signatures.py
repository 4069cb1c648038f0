"""A signature's lines at a note's end: who signed ("Signed: Dr. A. Bell", "Electronically signed by A. Bell, PA-C",
"Tom Reyes, MD", "Dr. Ann Lowe"). The split convention gives a signature's name, role and date lines a unit each, so
a role line over a date under a signature is no appointment's name over its date."""

from __future__ import annotations

import re

# (a clinician's credentials after the name: "Tom Reyes, MD", "A. Bell PA-C")
_CREDENTIAL = r"(?:MD|DO|MBBS|MB|MBChB|FRCS|MRCP|PA-C|PA|NP|APRN|ANP|RN|CNS|DPM|PharmD|PhD|FNP-C|FNP)"
_NAME = r"[A-Z][\w.'\u2019-]*(?:\s+[A-Z][\w.'\u2019-]*){1,3}"
# (a grade and a specialty after a titled name: "Dr Ann Lowe, FY2 Cardiology", "Dr A. Bell, Consultant Physician")
_ROLE = r"(?:,\s+[A-Z0-9][\w/&-]*(?:\s+(?:[A-Z][\w/&-]*|of|and|in|&)){0,4})?"
_SIGNATURE = re.compile(rf"^(?:(?:electronically\s+)?signed(?:\s+by)?\b:?\s*\S.*"
                        rf"|(?:Dr|Prof|Mr|Mrs|Ms|Miss)\.?\s+{_NAME}{_ROLE}"
                        rf"|{_NAME},?\s+{_CREDENTIAL}(?:,\s*{_CREDENTIAL})*)$", re.IGNORECASE)


def is_signature_line(line: str) -> bool:
    """A line that signs a note: "Signed: ...", "Electronically signed by ...", a titled name or a name with
    credentials, and nothing else."""
    line = line.strip()
    return len(line) <= 80 and bool(_SIGNATURE.match(line)) and not line.endswith((".", ":", "!", "?"))
