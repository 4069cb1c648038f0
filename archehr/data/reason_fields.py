"""Labelled reason fields of an exported note: a label saying why something was done, and its value.

Clinical systems export the reason for a procedure, a referral, an admission or a visit as a field of its own,
whatever the note's kind: "Reason for procedure: enlarged lymph nodes on CT", "Reason for referral: penicillin
allergy label ...", "Indication: recurrent tonsillitis", "Presenting complaint: chest pain", "RFR: ...". `REASON_LABELS`
lists the label forms, each with the subject the field gives the reason for and the words a question names that
subject by ("what was the referral for", "why was I admitted"); `reason_field` reads a line as such a field.
The list is data: add a label form here, not a pattern elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# (label pattern, the field's subject, the word stems a question names that subject by). A label of no fixed
# subject ("Indication:", "Reason:", "Reason for procedure:") gives the reason for what the note names beside it:
# its subject stems are empty and the field is tied to the asked thing by the lines around it.
REASON_LABELS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (r"reason for (?:the )?referral|referral reason|reason for referring|referred for|rfr", "referral",
     ("referr", "refer", "sent", "send")),
    (r"reason for (?:the )?(?:admission|hospital stay|stay)|admission reason|admitted for|rfa", "admission",
     ("admiss", "admit", "stay", "kept", "hospit")),
    (r"reason for (?:the )?(?:visit|attendance|appointment|consult(?:ation)?|call|review|encounter|transfer)|"
     r"reason for presentation|presenting (?:complaint|problem)|pc|chief complaint|rfv|visit reason",
     "visit", ("visit", "appoint", "consult", "consultat", "call", "review", "transfer", "came", "come", "seen",
               "see")),
    # "Reason for procedure:", "Reason for tracheostomy:", "Reason for scan:", "Indication:", "Indications for
    # surgery:", "Clinical indication:", "Clinical details:", "Reason:", "Why:", "Purpose of trip:"
    (r"reason for (?:the |this )?[a-z-]{3,30}(?: [a-z-]{3,30})?|(?:clinical |procedure |surgical )?indications?"
     r"(?: for [a-z ]{2,30})?|clinical (?:details|question)|reasons?|why|purpose(?: of [a-z ]{2,30})?", "", ()),
)

# Label forms that make a why answer's first line give a cause, whatever value follows (a cause marker of
# `answerability.why_causes`, besides its own reading of `reason_field`): a short list of its own, kept by the
# others. Its forms are `REASON_LABELS`' too, but it also takes "Reason for review:" and "Reason for the visit:" (a
# visit's labels there: the complaint restated), "the" with any word ("Reason for the 2nd scan:") and any value, a
# date too; it leaves out "RFR", "admitted for", "Clinical indication:", "Why:", "Purpose:" and a label with
# "explained", "given" or "discussed".
CAUSE_LABELS = (r"reason for (?:referral|request|admission|review|surgery|procedure|the \w+)|referred for|"
                r"indications?|reasons?")

_LABELS = tuple((re.compile(r"^\W*(?:" + form + r")(?: explained(?: again)?| given| discussed)?\s*:\s*(?=\S)", re.I),
                 subject, stems) for form, subject, stems in REASON_LABELS)


@dataclass(frozen=True)
class ReasonField:
    """A reason field: its subject ("referral", "admission", "visit", or "" for a label of no fixed subject), the
    word stems a question names that subject by, the label's own words ("Reason for tracheostomy") and the value."""

    subject: str
    stems: tuple[str, ...]
    label: str
    value: str


def reason_field(text: str) -> ReasonField | None:
    """The line as a labelled reason field (`REASON_LABELS`), or None: the label must open the line and hold a value
    of at least two letters (not a date: "Review: 03/10/2025")."""
    plain = " ".join(text.split())
    for pattern, subject, stems in _LABELS:
        m = pattern.match(plain)
        if m is None:
            continue
        value = plain[m.end():]
        if re.match(r"\d{1,4}[/.:-]\d", value) or not re.search(r"[A-Za-z]{2}", value):
            return None
        return ReasonField(subject, stems, plain[:m.end()].rstrip(": "), value)
    return None
