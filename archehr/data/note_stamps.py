"""Dates and times as notes stamp their entries: a timed or dated entry's opening ("14:32 ...", "Mon 12/14 ..."),
a stamp alone ("04/06/2026 09:18"), and a log's entry heading over its first line ("03/06/2025 09:42 - Sr A. Lee,
CNS"). Used by the line-layout and sentence rules of note_split."""

from __future__ import annotations

import re

# (month and day names in title case or, as upper-case exports print them, in capitals: "MAY 16, 2034")
WEEKDAY = (r"(?:(?:Mon|Tues?|Wed(?:nes)?|Thu(?:rs?)?|Fri|Sat(?:ur)?|Sun)(?:day)?"
            r"|(?:MON|TUES?|WED(?:NES)?|THU(?:RS?)?|FRI|SAT(?:UR)?|SUN)(?:DAY)?)\.?")
MONTH_NAME = (r"(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*"
               r"|(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|SEPT|OCT|NOV|DEC)[A-Z]*)\.?")
# a time or date at the start of a line opens a unit: a timed entry ("14:32 Pt ambulated", "0815 Seen by")
# or a dated one ("12/14/2026 Echo ...", "Mon 12/14 9:30 AM ...", "2026-12-14 ...")
STAMP = re.compile(rf"^(?:\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:\s?[AaPp]\.?[Mm]\.?)?(?![\d:])"
                    rf"|(?:[01]\d|2[0-3])[0-5]\d(?=\s+[A-Za-z])"
                    rf"|{MONTH_NAME}\s+\d{{1,2}}\b"
                    rf"|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}}\b|,?\s+\d{{1,2}}:\d{{2}})|\d{{4}}-\d{{2}}-\d{{2}}\b"
                    # (a month's name between hyphens, as UK records print dates: "07-Mar-2025 13:30 ...")
                    rf"|\d{{1,2}}-{MONTH_NAME}-\d{{2,4}}\b"
                    rf"|{WEEKDAY},?\s+(?:\d|{MONTH_NAME}))")


# a time or a date and nothing else ("03:05", "12/02/2026 16:41", "Tue 11/24 8:15 AM")
# (a date written with dots too: "18.11.2025 08:05")
_STAMP_TOKEN = (rf"(?:{WEEKDAY}|{MONTH_NAME}|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?"
                rf"|\d{{1,2}}\.\d{{1,2}}\.\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}-{MONTH_NAME}-\d{{2,4}}"
                rf"|\d{{1,2}}:\d{{2}}(?::\d{{2}})?|\d{{1,4}}|[AaPp]\.?[Mm]\.?)")
STAMP_ONLY = re.compile(rf"^(?=\S)(?:{_STAMP_TOKEN}[\s,]*)+$")

# a message thread's or a log's entry heading on a line of its own, with a date or a time: bracketed ("[Nurse
# reply - 04/11/2026 09:02, J. Doe, Practice Nurse]") or a date and time and its writer ("03/06/2025 09:42 - Sr
# A. Lee, CNS"): the entry's stamp, kept with its first sentence
_STAMP_LINE = re.compile(r"^\[[^\[\]]*(?:\d{1,2}[:.]\d{2}|\d{1,4}[/-]\d{1,2}[/-]\d{2,4})[^\[\]]*\]$"
                         r"|^(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}),?[ \t]+\d{1,2}:\d{2}"
                         r"(?:[ \t]?[AaPp][Mm])?[ \t]+[-\u2013\u2014|][ \t]+[A-Z][^!?:;]{1,60}(?<![.!?])$"
                         # (the entry's kind before who wrote it, after a dash, or its writer named by an initial
                         # or a title: "14/01/2024 23:47 Telephone - S. Lee (Crisis Practitioner)", "03/10/2025
                         # 08:55  Phlebotomy - HCA T. Ray", "20/01/2025 10:15  Ward midwife L. Joseph RM"; no
                         # sentence ends inside it, "... 10:12 Day 1 call. Patient at home, reports ..." is prose)
                         # (the stamp in brackets too: "[18/02/2025 09:42] H. Cho PDNS"; or the writer's full name
                         # and a role in capitals in brackets: "03/12/2024 09:14  Ann Lee (MS CNS)")
                         r"|^\[?(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}),?[ \t]+\d{1,2}:\d{2}"
                         r"(?:[ \t]?[AaPp][Mm])?\]?[ \t]+(?=[A-Z\u00c0-\u00de])(?![^\n]*[a-z]{3}\.\s)"
                         # (an initial or a surname accented: "É. Ménard", "N. Côté")
                         r"(?=[^\n]*?(?:\s[-\u2013\u2014]\s"
                         r"|(?<!\w)[A-Z\u00c0-\u00de]\.[ \t]?[A-Z\u00c0-\u00de][a-z\u00df-\u00ff'-]"
                         r"|\b(?:Dr|Sr|Mr|Mrs|Ms|Prof|Nurse|Sister)\.?[ \t]+[A-Z]"
                         r"|(?<=\s)[A-Z][a-z'-]+(?:[ \t]+[A-Z][a-z'-]+){1,2}[ \t]+\([A-Z]{2,}(?:[ \t]+[A-Z]{2,})*\)$))"
                         r"[^!?:;\n]{1,80}(?<![.!?,])$")


def is_entry_stamp_line(line: str) -> bool:
    """A log's or a thread's entry heading that stands over its first line: a date or a time, and who wrote it."""
    return bool(_STAMP_LINE.match(line.strip()))


def starts_with_stamp(line: str) -> bool:
    """Does the line open with a time or date, as a timed or dated entry does ("14:32 ...", "Mon 12/14 ...")?"""
    return bool(STAMP.match(line.strip()))


def is_stamp_only(text: str) -> bool:
    """A time or a date and nothing else, with no full stop ("04/06/2026 09:18", "10:36", "Tue 11/24 8:15 AM")."""
    text = text.strip()
    return bool(STAMP_ONLY.match(text)) and re.search(r"\d[:/-]\d", text) is not None \
        and not text.endswith((".", "!", "?"))


# a log entry's head before its first field: a stamp, then the entry's kind in capitals or who wrote it, in a few
# words that open in capitals ("06/10/2024 10:30 VISIT", "14:20 S. Rao", "09:05 Sr J. Holt (RN)")
# (a title with its full stop and a writer's role or grade in brackets too, six words at most: "10/03/2025 09:12
# Sr. P. Cele, Rheumatology Nurse Specialist", "07:55  Dr Ann Lee-Ward (Anaesthetics ST6)"; how it came in a
# bracket: "10:40  RN D. Ash (telephone)", or after a dash, a few words in lower case: "09:05  Dr A. Lee (GP) - home
# visit")
_ENTRY_HEAD = re.compile(rf"^(?=\S)(?:{_STAMP_TOKEN}[\s,]*)+(?:-\s+)?"
                         r"(?:(?:\(?(?:[A-Z]\.|(?:Dr|Mr|Mrs|Ms|Sr|Prof)\.|[A-Z][\w'-]*)\)?|\([a-z][\w'-]*\)),?(?:\s+|$)){0,6}"
                         r"(?:(?<=[a-z.)] )[-\u2013]\s+[a-z][\w'-]*(?: [a-z][\w'-]*){0,2})?$")


def is_entry_head(text: str) -> bool:
    """A stamp alone, or a stamp with the entry's kind or its writer after it (`_ENTRY_HEAD`): the head of a log's
    entry, which stays with the entry's first sentence or field (the caller knows the line opens with a stamp)."""
    text = text.strip()
    return bool(_ENTRY_HEAD.match(text)) and not text.endswith((".", "!", "?", ":"))
