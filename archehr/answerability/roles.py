"""What part a note sentence plays: a question asked, a title, the patient's own words, history, a test asked
for, a result awaited, or what the clinician found, thinks or plans.

A note holds more than its answers. A patient portal thread quotes the patient's own question ("Is it ok for
her to go swimming with school?") above the nurse's reply ("Yes, swimming is fine."); a letter opens with its
letterhead ("Harbourview Community Physio") and identity fields; a clinic note gives the presenting complaint
("Right shoulder pain for 8 weeks") before the assessment that explains it, the medicines the patient takes
("Takes hydrochlorothiazide 25 mg daily") before the plan that changes them ("Stop hydrochlorothiazide."), and a
test asked for ("I have also requested an HIV test") before its result ("the HIV test is negative"). Such a
sentence may share every word with the question and still not answer it. `sentence_roles` tells each
sentence's role from its shape (a question mark, a line of capitals, a label naming a person or a place) and
from the section it sits in (the headers "S:", "Presenting complaint:", "Reason for visit:", a thread's
"[Patient message - ...]"); `role_weights` turns the roles into factors on a sentence's answer score for the
question's kind (`archehr.ask` multiplies its rank by them): a question asked in the note or a bare title never
answers; the patient's words, history, a test asked for and a result awaited answer less than the clinician's
finding, assessment, plan or result.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from archehr.answerability.order_rows import order_words
from archehr.answerability.spaces import fold
from archehr.answerability.test_words import PENDING
from archehr.answerability.test_words import REQUESTED as _REQUEST
from archehr.answerability.test_words import RESULT_WORDS as _RESULT_WORDS
from archehr.answerability.test_words import TEST_NAMED as _TEST
from archehr.answerability.when_answers import BOOKED_SLOT
from archehr.data.note_label_runs import WHO_WHERE

ROLES = ("question", "title", "reported", "patient", "complaint", "history", "request", "awaited", "clinician")

# the factor on a sentence's answer score, by role and by the kind of answer asked (archehr.answerability.kinds);
# a role or kind not listed keeps its score
ROLE_FACTOR: dict[str, dict[str, float]] = {
    "question": dict.fromkeys(("how_long", "when", "med_change", "test_result", "why", "may_i", "other"), 0.0),
    "title": dict.fromkeys(("how_long", "when", "med_change", "test_result", "why", "may_i", "other"), 0.0),
    "patient": dict.fromkeys(("how_long", "when", "med_change", "test_result", "why", "may_i", "other"), 0.5),
    # a question the note reports with no reply in its own sentence ("Patient asked if he can go hiking."): it
    # names the topic; its reply, the next line, answers (`reply_lines` carries the topic over to it)
    "reported": dict.fromkeys(("how_long", "when", "med_change", "test_result", "why", "may_i", "other"), 0.5),
    "complaint": dict.fromkeys(("how_long", "when", "med_change", "test_result", "why", "may_i", "other"), 0.6),
    # (a result told in the history, "CXR showed ...", still answers a result question; the story before the
    # visit loses less for a why question: its "Indication: ..." says a cause, which the rank counts whole)
    "history": {"how_long": 0.5, "when": 0.5, "med_change": 0.5, "may_i": 0.5, "other": 0.5, "why": 0.7},
    "request": {"test_result": 0.5},
    # (a result awaited is still worth citing after a result said: "Final blood culture report pending")
    "awaited": {"test_result": 0.75},
}


class _Sentence(Protocol):
    text: str


# --- shapes -------------------------------------------------------------------------------------------------

# a question asked: ends in a question mark set against its word ("is this shingles??"); a shorthand query set
# apart ("Right shoulder pain ?") is a clinician's doubt, not a question, and a polite request to a colleague
# ("Could you please continue the pregabalin?", "Please could you repeat his U&E in 2 weeks?") is a plan
_QUESTION_END = re.compile(r"[^\s?]\?+[\s\"')\]]*$")
_REQUEST_TO_COLLEAGUE = re.compile(r"^\W*(?:(?:please|so|and|also|kindly),?\s+)?(?:could|would|can|will) you\b|"
                                   r"^\W*(?:i would be grateful if|i wonder if|i'd be grateful if) you\b", re.I)
# a header line ("Plan:", "Brief Hospital Course:")
_HEADER = re.compile(r"^[^.!?]{1,60}:$")
# a label and its value ("Clinic: Harbourview Community Physio")
_FIELD = re.compile(r"^\s*([A-Za-z][A-Za-z .'/()&-]{0,40}?)\s*:\s*(\S.*)$")
# labels whose value names who or where or which document, never what was found or planned (not "Date:" or
# "Time:", which may be an appointment's, nor "PT:" or "OT:", which may be a therapy planned)
# (`note_label_runs.WHO_WHERE`, the splitter's fields of who and where, and more of them)
_IDENTITY = re.compile(
    "^(?:" + "|".join(WHO_WHERE) + r"|hospital|practice|service|department|dept|bed|team|trust|"
    r"patient|client|patient name|d\.o\.b|date of birth|age|sex|gender|nhs (?:no|number)|"
    r"hosp(?:ital)? (?:no|number)|medical record number|record number|id|address visited|"
    r"telephone|e-mail|subject|physician|doctor|"
    r"author|physiotherapist|therapist|nurse|pcp|referred by|referrer|referring clinician|"
    r"midwife|dietitian|dietician|social worker|health visitor|care coordinator|case manager|"
    r"parent|guardian|carer|next of kin|nok|also present|occupation|visit type|encounter type|note type|"
    r"dictated|typed|signed|signed by|electronically signed|page|date of service|date of visit|"
    r"clinic date|date seen|seen by|interpreter|language|"
    # who checked or signed off a report, not what it found ("Reviewed by: Sister H. Brennan, ...")
    r"(?:reviewed|checked|reported|verified|authori[sz]ed|requested|ordered|approved) by)$", re.I)
# a thread's message header: "[Patient message - 03/11/2026 21:14]", "[Nurse reply - 04/11/2026 09:02, ...]"
# (the header may share a sentence with the message's first line: "[Nurse reply - ...] Yes, swimming is fine.")
_MESSAGE_HEAD = re.compile(r"^\s*\[[^\]]*\b(?:message|reply|response|wrote|note)\b[^\]]*\]\s*|"
                           r"^\s*(?:message|reply) from\b.{0,60}:?\s*$|^\s*.{0,40}\bwrote:\s*$", re.I)
_CLINICIAN_SIDE = re.compile(r"\b(?:nurse|doctor|dr|gp|clinician|provider|pharmacist|consultant|team|practice|"
                             r"physician|therapist|md|rn)\b", re.I)
_PATIENT_SIDE = re.compile(r"\b(?:patient|parent|mum|mom|mother|dad|father|carer|caregiver|guardian|"
                           r"son|daughter|wife|husband|partner|family)\b", re.I)
# a title line: a few capitalised words, no sentence end, no digit ("PHYSIOTHERAPY INITIAL ASSESSMENT",
# "Riverside Dermatology Patient Portal"); only where it cannot be a finding: in capitals, or naming a place
_TITLE_WORDS = re.compile(r"^(?:[A-Z][\w&'/-]*|and|of|the|for|at|on|in|&|-|\|)(?:\s+(?:[A-Z][\w&'/(),-]*|and|of|the|"
                          r"for|at|on|in|to|&|-|\|))*$")
_PLACE = re.compile(r"\b(?:hospital|clinic|practice|centre|center|department|infirmary|unit|portal|service|"
                    r"trust|medicine|health|healthcare|physio|physiotherapy|pharmacy|team)\b", re.I)
_TELLS = re.compile(r"[a-z]{2}[.!?]\s+[A-Z]|:")
# a sample taken, not its result ("so a wound swab was taken", "bloods were taken this morning")
_TAKEN = re.compile(r"\b(?:was|were|been|be|being) (?:taken|collected|obtained|done)\b(?!\s+(?:off|to))", re.I)
# a line in capitals opening with an order or an imperative ("STOP ASPIRIN", "NO LIFTING"): an order, not a title
_ORDER = re.compile("^" + order_words(("START", "STOP", "CONTINUE", "HOLD", "CHANGE", "RESTART", "RESUME", "FINISH",
                                       "TAKE", "AVOID", "NO", "DO")))

# --- sections -----------------------------------------------------------------------------------------------

# the labels of what the patient brought. The complaint, as the patient or the referrer put it ("Presenting
# complaint:", "Diagnosis on referral:"): a symptom named, not explained. The story before the visit ("S:" of a
# SOAP note, "HPI:", "Reason for visit:", "Indication:", "Medications on admission:"): what happened and why the
# patient came, not what was found or planned
_COMPLAINT_LABEL = re.compile(r"\b(?:complaint|c/o|presenting|diagnosis on referral|referral diagnosis|"
                              r"provisional diagnosis|symptoms?|concerns?)\b", re.I)
_HISTORY_LABEL = re.compile(r"^s$|\b(?:subjective|hpi|history|hx|background|reason|indication|referral|pmh|"
                            r"on admission|home med\w*|(?:usual|regular|pre-?admission) (?:med\w*|drugs|tablets)|"
                            r"review of systems|ros|previous|prior|past)\b", re.I)
# words of a label heading what the clinician found, thought, did or planned: a label holding one of these is
# no history ("HPI/Course:", "Assessment:"), unless it names the time before ("Medications on admission")
_CLINICIAN_LABEL = re.compile(
    r"^[oap]$|\b(?:objective|exam\w*|findings?|results?|investigations?|labs?|imaging|assessment|impression|"
    r"diagnos[ie]s|plan|management|recommend\w*|advice|instructions?|outcome|summary|course|treatment|procedure|"
    r"operation|follow[\s-]?up|discharge|goals?|changes?|a/p)\b", re.I)
_BEFORE = re.compile(r"\b(?:on admission|referral|previous|prior|past)\b", re.I)
# the patient's story told in a sentence of its own, wherever it stands (a letter has no sections): its subject
# (a pronoun, a name or "his mother"), if any, then a verb of what the patient reports, takes or has had
# ("She has been taking pregabalin 75 mg twice daily", "His mother reports loud snoring", "Takes
# hydrochlorothiazide 25 mg daily")
_STORY = re.compile(r"^\W*(?:(?:he|she|they|the patient|patient|pt|(?:his|her|their) \w+|(?:mr|mrs|ms|miss)\.? \w+|"
                    r"(?-i:[A-Z][a-z]+))\s+)?(?:has been taking|has been on|has had|takes|reports|reported|describes|"
                    r"described|complains of|complained of|presents with|presented with|noticed|denies|c/o)\b", re.I)
# others' report of the story: "Care home staff report ...", "Her family say ..."
_OTHERS_SAY = re.compile(r"^\W*(?:the |his |her |their )?(?:care home |nursing home |school |home )?(?:staff|carers?|"
                         r"family|relatives?|parents?|teachers?|neighbours?)\s+(?:report|reported|say|says|said|"
                         r"describe|described|noticed)\b", re.I)

# a question reported in the note: who asked (a timestamp or a signature may come first), then the asking verb and
# what was asked ("Patient asked if he can go hiking again", "Mum asked whether she can bath him", "Wife asked
# about his tablets", "Patient emailed asking whether he still needs bisoprolol", "Asking when she can eat")
_REPORTED = re.compile(r"\b(?:asked|asks|asking|wondered|wondering|wants to know|wanted to know|queried|querying|"
                       r"enquired|enquiring|inquired|inquiring)\s+(?:(?:me|us|the \w+|again|also|repeatedly)\s+)?"
                       r"(?:if|whether|about|when|how|why|what|which|can|could|should|is|are|for advice)\b", re.I)
# ... and its reply in the same sentence, after a semicolon or a clause ("He asked about driving; advised ...",
# "She asked about her dental cleaning, and I advised her to postpone it"): the sentence answers itself
_REPLY_IN = re.compile(r"[;:]|,\s*(?:and|but|so|which|I|we|she|he|they)\b|\s(?:and|but) (?:I|we|was|were|has|have)\b|"
                       r"\s[-\u2013\u2014]\s", re.I)
# the line that replies: it opens telling what was advised or decided ("Advised yes, ...", "Told to wait until
# ...", "Confirmed it is no longer needed", "Yes, ...", "I have advised ...", "We explained ...", "He may ...")
_REPLY = re.compile(r"^\W*(?:(?:\d{1,2}[:.]\d{2}\s+)?(?:(?:i|we|nurse|dr\.? \w+|gp|pharmacist)\s+(?:have\s+|has\s+)?)?"
                    r"(?:advised|advise|told|confirmed|explained|reassured|informed|recommended|suggested|agreed|"
                    r"replied|answered|counselled|counseled|instructed)\b|(?:yes|no|ok|okay|fine)\b|"
                    r"(?:he|she|they|you|patient|baby)\s+(?:may|can|should|must|is (?:fine|ok|safe) to)\b)",
                    re.I)
REPORTED_WORDS = 30  # a reported question is short: who asked and what


def _folded(sentences: Sequence[_Sentence]) -> list[str]:
    """The sentences' texts, white space folded to one space (a wrapped line reads as one)."""
    return [fold(s.text) for s in sentences]


def reported_question(text: str) -> bool:
    """`text` reports a question asked, with no reply in it ("Patient asked if he can go hiking again this
    weekend.", "09:20 Wife asked about his tablets."), not "He asked about driving; advised to wait 4 weeks"."""
    t = fold(text)
    m = _REPORTED.search(t)
    return bool(m) and len(t.split()) <= REPORTED_WORDS and not _REPLY_IN.search(t[m.end():]) \
        and not _REPLY.match(t)


def reply_lines(sentences: Sequence[_Sentence]) -> tuple[tuple[int, int], ...]:
    """(reported question, its reply) index pairs: a line reporting a question with no reply in it
    (`reported_question`) and the next line, when that one opens with the reply ("Advised yes, from next week
    ...", "Told to wait until the cord falls off", "Confirmed it is no longer needed")."""
    texts = _folded(sentences)
    return tuple((i, i + 1) for i in range(len(texts) - 1)
                 if reported_question(texts[i]) and _REPLY.match(texts[i + 1]) and not _question(texts[i + 1]))


# a schedule's title ("Oxycodone ER taper schedule", "Taper schedule for morphine MR:") and its rows, each a period and
# its dose, naming the drug only in the title ("Weeks 3-4 (Jan 22 - Feb 4) | 15 mg twice a day", "Day 2: 20 mg")
_SCHEDULE_TITLE = re.compile(r"\b(?:taper\w*|schedule|regimen|reducing|weaning|titration|dosing)\b", re.I)
_PERIOD_ROW = re.compile(r"^\W*(?:days?|weeks?|months?|step)\s+\d", re.I)
_COLUMNS = re.compile(r"^[^\d|]+(?:\|[^\d|]+)+$")  # a table's column header row: "Week | Dose"
TITLE_WORDS = 8


def schedule_rows(sentences: Sequence[_Sentence]) -> tuple[tuple[int, int], ...]:
    """(title, row) index pairs: a short line naming a taper or schedule (`_SCHEDULE_TITLE`, no sentence end), then,
    past a column header row if any ("Week | Dose"), the rows that open with a period ("Weeks 1-2 ...", "Day 3:")."""
    return _schedule_pairs(_folded(sentences))


def _schedule_pairs(texts: list[str]) -> tuple[tuple[int, int], ...]:
    """`schedule_rows` over the folded texts."""
    out: list[tuple[int, int]] = []
    for i, t in enumerate(texts):
        if not _SCHEDULE_TITLE.search(t) or len(t.split()) > TITLE_WORDS or t.rstrip(":").endswith((".", "!", "?")):
            continue
        j = i + 1
        if j < len(texts) and _COLUMNS.match(texts[j]):
            j += 1
        while j < len(texts) and _PERIOD_ROW.match(texts[j]):
            out.append((i, j))
            j += 1
    return tuple(out)


def carry_over(score: np.ndarray, sentences: Sequence[_Sentence]) -> np.ndarray:
    """Each sentence's score, a schedule's row adding its title's (the row names the period and dose, the title the
    drug: together they answer), and the line telling how to take a medication entry ("Take 1 tablet by mouth once a
    day for 28 days", `follow_on.entry_line`) adding the entry's, which names the drug."""
    from archehr.answerability.follow_on import entry_line

    out = np.asarray(score, dtype=float).copy()
    texts = _folded(sentences)
    for t, r in _schedule_pairs(texts):
        out[r] = float(score[r]) + float(score[t])
    paras = [getattr(s, "paragraph_id", 0) for s in sentences]
    for i in range(len(texts) - 1):
        if paras[i] == paras[i + 1] and entry_line(texts[i], texts[i + 1]):
            out[i + 1] = float(score[i + 1]) + float(score[i])
    return out


def _question(text: str) -> bool:
    return bool(_QUESTION_END.search(text)) and not _REQUEST_TO_COLLEAGUE.search(text) \
        and not _FIELD.match(text)


def _identity_fields(value: str) -> bool:
    """A field's value going on only into further fields of identity, with no sentence ("80-441-2297 Date of
    Birth: 07/21/1998")."""
    labels = re.findall(r"(?:^|\s)([A-Za-z][A-Za-z .'/()&-]{0,30}?)\s*:", value)
    return bool(labels) and not re.search(r"[a-z]{2}[.!?]\s+[A-Z]", value) \
        and all(any(_IDENTITY.match(" ".join(lb.split()[-k:])) for k in range(1, 5)) for lb in labels)


def _title(text: str, caps_note: bool) -> bool:
    """A line that names the note, a place, a person or a date rather than telling anything."""
    t = text.strip()
    if _HEADER.match(t) or _MESSAGE_HEAD.fullmatch(t):
        return True
    field = _FIELD.match(t)
    if field:
        # (a value going on into a sentence or another field tells something: "Department: SURGERY When: ...",
        # unless every field is one of identity: "MRN: 80-441-2297 Date of Birth: 07/21/1998")
        return bool(_IDENTITY.match(field.group(1).strip())) and (not _TELLS.search(field.group(2))
                                                                  or _identity_fields(field.group(2)))
    if t.endswith((".", "!", "?", ";", ",")) or re.search(r"\d", t) or _ORDER.match(t) or len(t.split()) > 9:
        return False
    if not _TITLE_WORDS.match(t):
        return False
    return (t.isupper() and not caps_note) or bool(_PLACE.search(t))


def _section_label(text: str) -> str | None:
    """The label a sentence opens with ("S:", "Presenting complaint: ...", "Plan:"), lower-cased, or None."""
    m = re.match(r"^\s*([A-Za-z][A-Za-z /'&-]{0,40}?)\s*:", text)
    return m.group(1).strip().lower() if m else None


def _label_role(label: str) -> str:
    """What a section label or a field's label says its text is: "complaint", "history" or "" (anything else)."""
    if _COMPLAINT_LABEL.search(label):
        return "complaint"
    if _HISTORY_LABEL.search(label) and (_BEFORE.search(label) or not _CLINICIAN_LABEL.search(label)):
        return "history"
    return ""


def _heading(text: str) -> str | None:
    """The label of a line heading a section ("Plan:", "S:", "INTERVAL HISTORY", "Results (03/11/2026)"), or None."""
    if _HEADER.match(text):
        return text[:-1].strip()
    if text.endswith((".", "!", "?", ";", ",")) or len(text.split()) > 6 or _FIELD.match(text):
        return None
    return text if text.isupper() or _TITLE_WORDS.match(re.sub(r"\([^)]*\)", "", text).strip()) else None


def sentence_roles(sentences: Sequence[_Sentence]) -> tuple[str, ...]:
    """The role of each sentence of a note (one of `ROLES`), in note order: its shape first (a question, a
    title), then its own label ("Indication: ..."), then the section it sits in."""
    texts = _folded(sentences)
    letters = "".join(texts)
    caps_note = sum(c.isupper() for c in letters) > 0.6 * max(1, sum(c.isalpha() for c in letters))
    out: list[str] = []
    section = ""  # "complaint" | "history" | "patient" (a patient's message in a thread) | "" (the clinician's)
    for t in texts:
        heading = _heading(t)
        own = ""  # the role a field's own label gives it, for this sentence only
        head = _MESSAGE_HEAD.match(t)
        if head:
            section = "patient" if _PATIENT_SIDE.search(head.group(0)) and not _CLINICIAN_SIDE.search(head.group(0)) \
                else ""
            t = t[head.end():].strip() or head.group(0).strip()  # the message's first line, if it shares the sentence
        elif heading is not None:
            section = _label_role(heading)
        else:
            field = _FIELD.match(t)
            own = _label_role(field.group(1)) if field else ""
        if _question(t):
            out.append("question")
        elif _title(t, caps_note):
            out.append("title")
        elif reported_question(t):
            out.append("reported")
        elif section == "history" and not own and BOOKED_SLOT.search(t):
            out.append("clinician")  # a booked slot ("Attend the clinic on 24/06/2026 at 14:20") is a plan
        elif own or section:
            out.append(own or section)
        elif _STORY.search(t) or _OTHERS_SAY.search(t):
            out.append("history")
        elif PENDING.search(t) and not _RESULT_WORDS.search(t):
            out.append("awaited")
        elif (_REQUEST.search(t) or _TAKEN.search(t)) and _TEST.search(t) and not _RESULT_WORDS.search(t):
            out.append("request")
        else:
            out.append("clinician")
    return tuple(out)


def weigh_by_role(score: np.ndarray, sentences: Sequence[_Sentence], kind: str) -> np.ndarray:
    """Each sentence's answer score weighed by its role (`role_weights`), and a reported question's reply scoring
    at least what the question scored before its weight: the reply rarely repeats the topic ("Patient asked if he
    can go hiking." / "Advised yes, from next week ..."), so it takes it from the question it answers."""
    roles = sentence_roles(sentences)
    weights = role_weights(roles, kind)
    out = np.asarray(score, dtype=float) * weights
    for q, r in reply_lines(sentences):
        out[r] = max(out[r], float(score[q]) * ROLE_FACTOR.get(roles[r], {}).get(kind, 1.0))
    return out


def role_weights(roles: Sequence[str], kind: str) -> np.ndarray:
    """Each sentence's factor on its answer score for a question of this kind (1 where its role says nothing)."""
    return np.array([ROLE_FACTOR.get(r, {}).get(kind, 1.0) for r in roles], dtype=float)
