"""The note sentences shown beside "The note does not say.": related to the question, or none.

A decline shows up to `RELATED` of the note's sentences as related, never cited. They must be about the question:

1. the sentences naming most of the question's topic (`AnswerTypes.topic`: a concept of the question, with the
   glossary's synonyms, drug classes and brand names, the same test or body part), by that share, then by their
   answer score;
2. else, when none names it, the sentences holding the kind of answer asked for that kind of question
   (`KIND_LINES`): an appointment, a follow-up or a date to come for "when is my colonoscopy", a length of time for
   a how-long question, a medicine's line for a question about a medicine (by its kind or the medicine it names), a
   result for a result question, advice or a warning for a may-I question; by their answer score;
3. else none, with one line saying so ("no sentence in the note is about colonoscopy or gives an appointment or a
   date to come").

Whatever the step, a sentence that tells nothing is never shown (`tells_nothing`): a section title, a field left
blank or holding only a date ("Admission Date: ___", "Date of surgery: 27/11/2025"), a field naming the patient,
the writer or the place (`roles.sentence_roles`' titles: "Patient: ...", "DOB: ...", letterhead) or a signature.
A why question gets no sentences of its kind (a cause of something else is no cause of what was asked), nor does a
question of no kind.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from archehr.answerability.doses import DOSE
from archehr.relevance.text import is_header, tokens

RELATED = 3  # related sentences shown at most
# what a sentence of each kind's lines gives, as the one line said when none does
KIND_LINES = {"when": "an appointment or a date to come", "how_long": "a length of time", "med_change": "a medicine",
              "test_result": "a test result", "may_i": "advice or a warning"}
# blanks left by de-identification ("___", "[**Name**]"), dates and clock times: what a bare field holds
_BLANKS = re.compile(r"_{2,}|\[\*\*[^\]]*\*\*\]")
_DATES = re.compile(r"\b\d{1,4}(?:[/.-]\d{1,2}){1,2}(?:[/.-]\d{2,4})?\b|\b\d{1,2}[:.]\d{2}(?::\d{2})?\s*(?:am|pm)?\b|"
                    r"\b\d{1,2}\s*(?:am|pm)\b", re.I)
_LABELS = re.compile(r"(?:^|(?<=\s))[A-Za-z][A-Za-z .'/()&#-]{0,40}?\s*:")  # "Admission Date:", "Unit No:"
# a signature: signed or dictated by someone, or a name with a clinician's letters after it ("J. Okafor, MD")
_SIGNED = re.compile(r"^\W*(?i:electronically\s+)?(?i:signed|co-?signed|dictated|transcribed|authenticated)\b|"
                     r"^[^.!?]{0,60},\s*(?:MD|DO|MBBS|MBChB|FRCP\w*|MRCP\w*|RN|NP|PA-?C?|PharmD|DPT|FRCS\w*)\b\W*$")
SIGNATURE_WORDS = 12  # a signature is a short line
# who did it, as a field: "Reconciled by: T. Adeyemi, Clinical Pharmacist" (a longer line may go on to tell what
# was done: "Results viewed by: Dr L. Ferreira ... - patient phoned, antibiotic changed")
_DONE_BY = re.compile(r"^\W*[A-Za-z][A-Za-z /-]{0,30}\bby\s*:", re.I)
BY_WORDS = 8
# a visit still to be booked: a referral, a waiting list ("Referral sent to the allergy clinic")
_REFERRED = re.compile(r"\b(?:referr(?:al|ed)|refer(?:ring)?|waiting (?:list|time)|to book|will book|booked)\b", re.I)


@dataclass(frozen=True)
class Related:
    """The related sentences of a decline (note indices, in note order), and the line said when there are none."""

    indices: tuple[int, ...]
    note: str = ""  # "" when some are shown; else "no sentence in the note is about ..."


def bare_field(text: str) -> bool:
    """The line holds no word once its labels, blanks, dates and clock times are taken out ("Admission Date: ___
    Discharge Date: ___", "Date of surgery: 27/11/2025", "___ 05:40AM"); a value ("eGFR: 79") is kept."""
    rest = _LABELS.sub(" ", _DATES.sub(" ", _BLANKS.sub(" ", " ".join(text.split()))))
    return not tokens(rest) and not re.search(r"\d", rest)


def signature(text: str) -> bool:
    """A short line signing the note ("Electronically signed by ...", "A. Mensah, MD", "Reconciled by: T. Adeyemi,
    Clinical Pharmacist"), or ending with a date and a clock time and saying nothing to come
    (`when_other.signature`)."""
    from archehr.answerability.when_other import signature as dated_signature

    plain = " ".join(text.split())
    words = len(plain.split())
    return ((words <= SIGNATURE_WORDS and bool(_SIGNED.search(plain))) or dated_signature(plain)
            or (words <= BY_WORDS and bool(_DONE_BY.search(plain))))


def tells_nothing(sentences: Sequence[Any]) -> np.ndarray:
    """Per sentence: a title, a bare or identity field, letterhead or a signature (never shown as related)."""
    from archehr.answerability.roles import sentence_roles

    roles = sentence_roles(sentences)
    return np.array([is_header(s.text) or role == "title" or bare_field(s.text) or signature(s.text)
                     for s, role in zip(sentences, roles, strict=True)], dtype=bool)


def related_sentences(question: str, sentences: Sequence[Any], types: Any, rank: np.ndarray,
                      lexicon: Any) -> Related:
    """The related sentences of a decline (module docstring): naming the question's topic, else of the asked kind,
    else none with the line saying so. `types` is the question's `AnswerTypes`, `rank` each sentence's answer score
    (`archehr.ask`'s), `question` the question as read."""
    shown = ~tells_nothing(sentences)
    topic = np.asarray(types.topic, dtype=float)
    rank = np.asarray(rank, dtype=float)
    named = [i for i in np.lexsort((-rank, -topic)).tolist() if topic[i] > 0 and shown[i]]
    if named:
        return Related(tuple(sorted(named[:RELATED])))
    wanted = asked_lines(question, types.kind, lexicon)
    lines = kind_lines(wanted, [s.text for s in sentences], types.holds)
    of_kind = [i for i in np.argsort(-rank, kind="stable").tolist() if lines[i] and shown[i]]
    if of_kind:
        return Related(tuple(sorted(of_kind[:RELATED])))
    return Related((), none_said(question, wanted, lexicon))


def asked_lines(question: str, kind: str, lexicon: Any) -> str:
    """The kind of line a question with no sentence naming its topic is shown (a key of `KIND_LINES`), or ""."""
    from archehr.answerability.asked_for import medicines_asked

    if kind == "med_change" or (kind in ("how_long", "why", "may_i", "other") and medicines_asked(question, lexicon)):
        return "med_change"
    return kind if kind in KIND_LINES else ""


def kind_lines(wanted: str, texts: Sequence[str], holds: np.ndarray) -> np.ndarray:
    """Per sentence: it holds the kind of line wanted (`asked_lines`): an appointment, a follow-up, a referral or a
    time to come (`kinds._APPOINTMENT`, `when_first.dates_to_come`; "review within 48 hours"), a medicine named with
    its amount or change, or the kind's own answer (`holds`, `AnswerTypes.holds`: a length of time, a result, advice
    or a warning)."""
    from archehr.answerability.holds import HOLDS
    from archehr.answerability.kinds import _APPOINTMENT, _TO_BE_BOOKED, _WHEN_STRONG
    from archehr.answerability.when_first import _AHEAD, dates_to_come
    from archehr.glossary.drugs import drugs_in

    if wanted == "when":
        return np.array([bool(_APPOINTMENT.search(t) or _TO_BE_BOOKED.search(t) or _REFERRED.search(t)
                              or (_WHEN_STRONG.search(t) and _AHEAD.search(t))) or dates_to_come(t) for t in texts],
                        dtype=bool)
    if wanted == "med_change":
        change = HOLDS["med_change"]
        return np.array([bool(drugs_in(t)) and bool(DOSE.search(t) or change.search(t)) for t in texts],
                        dtype=bool)
    if wanted:
        return np.asarray(holds, dtype=bool)
    return np.zeros(len(texts), dtype=bool)


def none_said(question: str, wanted: str, lexicon: Any) -> str:
    """The line said when no sentence is related: what the question asks about that no sentence names (its words as
    the patient wrote them), and what kind of line none gives."""
    about = asked_words(question, lexicon)
    gives = KIND_LINES.get(wanted, "")
    if about and gives:
        return f"no sentence in the note is about {about} or gives {gives}"
    if about:
        return f"no sentence in the note is about {about}"
    return f"no sentence in the note gives {gives}" if gives else "no sentence in the note is about the question"


def asked_words(question: str, lexicon: Any) -> str:
    """The question's own words for what it asks about (`asked_for.asked_concepts`), in its order: "colonoscopy",
    "blood thinner", "tired, fainting or washed"."""
    from archehr.answerability.asked_for import asked_concepts

    stems = {t for c in asked_concepts(question, lexicon) for t in c.surface}
    words: list[str] = []
    for w in re.findall(r"[A-Za-z][A-Za-z'-]*", question):
        if set(tokens(w)) & stems and w.lower() not in (x.lower() for x in words):
            words.append(w)
    phrases = _phrases(question, words)
    return phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " or " + phrases[-1] if phrases else ""


def _phrases(question: str, words: list[str]) -> list[str]:
    """The words, those standing side by side in the question joined into one phrase ("blood thinner")."""
    out: list[str] = []
    for w in words:
        if out and re.search(rf"\b{re.escape(out[-1])}\s+{re.escape(w)}\b", question):
            out[-1] = f"{out[-1]} {w}"
        else:
            out.append(w)
    return out
