"""The service or the clinician a when question asks to see, and the note's dated lines naming it.

"when is the eye dr appt", "whens my appt with mr raman", "when is my cardiology appt": the patient asks for one
service's date. A note often books another service's visit ("Primary Care Follow-up Dr. Hannah Voss ... Tue Apr 29,
2025 at 9:40 AM") and leaves the asked one unset ("Eye Exam Lakeshore Eye Associates will call you to set up a
time"). The asked service is a concept of the question that names a specialty or a service ("eye doctor" ->
ophthalmology, "dietician", "dentist", "physio") or a person by title ("Mr Raman", "Dr Kell"); a note's own
follow-up line seldom names its own clinic, so plain "doctor", "surgeon" or "nurse" are not read as one.

- `service_rows` tells the sentences naming the asked service;
- `service_undated`: the question asks a visit with such a service, and no sentence naming it gives a firm date
  (a calendar date, a weekday, a clock time, "in 2 weeks"; not a log entry's own stamp): the date asked is not
  in the note, which the review flag reports;
- `service_share`: the rank keeps `W_OTHER_SERVICE` of a dated line that names no asked service when a dated line
  naming it exists.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.spaces import fold
from archehr.relevance.text import tokens

# a specialty or service a patient may ask to see, by the words of the concept's phrases (stemmed tokens)
_SERVICE = re.compile(r"^(?:\w*olog(?:y|ist|i)\w*|\w*iatr\w*|dentist\w*|dental|dietic\w*|dietit\w*|nutritionist|"
                      r"physio\w*|podiatr\w*|chiropod\w*|optom\w*|optician\w*|orthodont\w*|orthopaed\w*|orthoped\w*|"
                      r"orthot\w*|prosthet\w*|midwi\w*|audiolog\w*|pharmacist|psycholog\w*|counsel\w*|"
                      r"therapist|ophthalm\w*|dermat\w*|endocrin\w*|rheumat\w*|neurosurg\w*)$")
# the titles a person is named by ("Mr Raman", "Dr. Kell", "Sister Brennan"), and those of them patients also write
# as plain words ("miss class", "the doctor about", "ask the nurse")
TITLES = ("mr", "mrs", "ms", "miss", "dr", "doctor", "prof", "professor", "sister", "nurse")
TITLE_WORDS = frozenset({"miss", "doctor", "professor", "nurse"})
# a person named by a title in the question, the name as group 1 ("Dr Kell's" gives "kell's"): `PERSON` reads every
# title; `PERSON_STRICT` (`when_other`, which weighs a person against the others a line names) leaves out the
# `TITLE_WORDS` and any name with an apostrophe in it or after it ("Dr Kell's", "Dr O'Neill")
PERSON = re.compile(rf"\b(?:{'|'.join(TITLES)})\.?\s+([a-z][a-z'-]+)", re.I)
PERSON_STRICT = re.compile(rf"\b(?:{'|'.join(t for t in TITLES if t not in TITLE_WORDS)})\.?\s+([a-z][a-z-]+)\b(?!')",
                           re.I)
# words after a title that name no one ("Dr appt", "the nurse again"): these in both rules, each with its own more
NOT_NAMES = frozenset({"appt", "appointment", "again", "next", "visit", "clinic", "the", "my", "his", "her", "for",
                       "and", "when", "will", "was"})
_NOT_NAMES = NOT_NAMES | {"a", "or", "to", "at", "on", "in", "is"}
_ASKS_VISIT = re.compile(r"\b(?:appointments?|appts?|visit|see|seeing|seen|go back|come back|check[\s-]?up|"
                         r"follow[\s-]?up|review|clinic)\b", re.I)
W_OTHER_SERVICE = 0.75


def service_concepts(question: str, concepts: Sequence) -> list[int]:
    """The indices of the question's concepts naming a service or a clinician by name (none when the question asks
    no visit)."""
    if not _ASKS_VISIT.search(question):
        return []
    people = {tuple(tokens(m.group(1))) for m in PERSON.finditer(question) if m.group(1).lower() not in _NOT_NAMES}
    out = []
    for k, c in enumerate(concepts):
        words = {w for ph in c.phrases for w in ph} | set(c.surface)
        if c.surface in people or any(_SERVICE.match(w) for w in words):
            out.append(k)
    return out


# the note's writer: its header, a signature or an identity field naming the asked one ("ALLERGY CLINIC", "Mr Adrian
# Kell FRCS (SN)", "Consultant: Dr S. Kowalczyk"); the note's own follow-up then is theirs ("Review in this clinic in
# 12 months")
_FIELD = re.compile(r"^\W*(?:consultant|surgeon|physician|doctor|clinician|author|seen by|signed|from|dictated by|"
                    r"provider|attending|therapist|physiotherapist|dietitian|dietician)\b[^:]{0,20}:", re.I)
SIGNATURE_WORDS = 8
HEADER_LINES = 8  # a note's header (its service, its author) and its signature stand within so many lines of its ends
_OWN_VISIT = re.compile(r"\b(?:this clinic|our clinic|(?:the|this) (?:same )?service|review|follow[\s-]*up|f/u|"
                        r"see (?:you|him|her|them)(?: again)?|return (?:to clinic|in)|come back|rtc|back to clinic)\b",
                        re.I)
# no visit to come, which answers the when asked: "I have not arranged further follow-up", "discharged back to GP"
_NO_VISIT = re.compile(r"\b(?:no|not arranged|not booked|not needed|without) (?:any )?(?:further |routine )?"
                       r"(?:follow[\s-]*up|appointments?|review)|\bnot (?:arranged|booked) (?:any )?(?:further )?"
                       r"(?:follow[\s-]*up|appointments?|review)|\bdischarged (?:him |her |them )?(?:back )?to\b", re.I)


def service_rows(question: str, concepts: Sequence, named: np.ndarray,
                 texts: Sequence[str] = ()) -> np.ndarray | None:
    """Which sentences name the asked service (a row of `named` per concept), or None when the question names none;
    when the note's writer is the asked one (`_FIELD`, a signature of at most `SIGNATURE_WORDS` words), also the
    note's own follow-up lines naming no other service."""
    ks = service_concepts(question, concepts)
    if not ks or named.ndim != 2 or not named.size:
        return None
    rows = named[ks].any(axis=0)
    plain = [fold(t) for t in texts]
    n = len(plain)
    if any(_FIELD.match(plain[i]) or (i < HEADER_LINES or i >= n - HEADER_LINES)
           and len(plain[i].split()) <= SIGNATURE_WORDS for i in np.flatnonzero(rows) if i < n):
        rows = rows | np.array([bool(_OWN_VISIT.search(t)) and not _other_service(t) for t in plain], dtype=bool)
    return rows


def _is_person(question: str, concept) -> bool:
    """The concept is a person the question names by title ("Mr Raman")."""
    return concept.surface in {tuple(tokens(m.group(1))) for m in PERSON.finditer(question)}


def _other_service(text: str) -> bool:
    """The line opens naming a specialty or a service ("Cardiology (PFO evaluation) - referral placed")."""
    return any(_SERVICE.match(w) for w in tokens(text)[:3])


def _dated(texts: Sequence[str]) -> np.ndarray:
    """Which sentences give a firm date or an interval (the log stamp they open with set aside), or say no visit
    is to come."""
    from archehr.answerability.date_unset import DATE_FIELD, FIRM, unstamped
    from archehr.answerability.review import WHEN_GIVEN
    from archehr.answerability.when_answers import BOOKED_SLOT

    plain = [fold(t) for t in texts]
    return np.array([bool(FIRM.search(unstamped(t)) or BOOKED_SLOT.search(unstamped(t))
                          or WHEN_GIVEN.search(unstamped(t)) or _NO_VISIT.search(t))
                     and not DATE_FIELD.search(t) for t in plain], dtype=bool)


def service_undated(kind: str, question: str, texts: Sequence[str], concepts: Sequence, named: np.ndarray) -> bool:
    """A when question asking a visit with a service the note names, no sentence naming which gives a firm date."""
    if kind != "when":
        return False
    rows = service_rows(question, concepts, named, texts)
    if rows is None or not rows.any():
        return False
    return not (rows & _dated(texts)).any()


def service_share(question: str, texts: Sequence[str], concepts: Sequence, named: np.ndarray) -> np.ndarray:
    """`W_OTHER_SERVICE` for a dated sentence not naming the asked service when a dated one names it; 1 else."""
    rows = service_rows(question, concepts, named, texts)
    if rows is None:
        return np.ones(len(texts))
    dated = _dated(texts)
    if not (rows & dated).any():
        return np.ones(len(texts))
    return np.where(dated & ~rows, W_OTHER_SERVICE, 1.0)
