"""Section labels read over the lines a label's text runs on to, as the writers' split conventions set them apart.

The convention: a section label followed by prose on its line is a unit of its own, and a field keeps its value.
`note_sections.section_label` reads one line; a label's prose often wraps over the lines under it ("Findings:
Station 4R 22 mm, station 7 28" + "mm, each sampled ... . Nodes homogeneous."), and what shows it to be prose rather
than a value is there: sentences, two or more. `more_sections` sets apart, besides what `section_label` does:

- a label in capitals of two words or more before sentences, two or more ("WOUND CARE: Five port sites with
  waterproof dressings. May shower from day 2."): a discharge summary's section, as "HOSPITAL COURSE:" is;
- the presenting complaint before a sentence ("PC: Fall at home while standing up.");
- a run of labelled blocks of prose, three or more in one paragraph, each label's text opening with a capital and
  running on in sentences, two or more: a clerking note's or a procedure report's sections ("HPC: ...", "DH: ...",
  "Sedation: ...", "Complications: ..."), each label a unit of its own.

A field keeps its value however the note is laid out: who and when ("Operator: Dr. S. Varga"), an order ("STOP:
aspirin"), a value of one sentence ("Plan: Continue apixaban."), a value in lower case ("Fasting: no food after
02:00. Water only until 06:00.").
"""

from __future__ import annotations

import re

from archehr.data.note_layout import ITEM, ORDER, has_column_gap

# a label opening a line before text: a name of up to six words, its colon, then the text
_LABEL = re.compile(r"^([A-Za-z][A-Za-z0-9 /&'()-]{0,44}[A-Za-z)]):(?=[ \t]+\S)")
# a label alone on its line, which heads the lines under it
_LABEL_ALONE = re.compile(r"^[A-Za-z][A-Za-z0-9 /&'()-]{0,44}:$")
# where a sentence after a label ends (a title's full stop ends none: "Hospital course: Mrs. Vasquez presented ...")
LABEL_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bDr\.)\s+(?=[A-Z0-9])")
# the labels of a field naming who or where: the patient, the letter's sender and receivers, a clinician, a place,
# a contact ("Name:", "MRN:", "cc:", "Consultant:", "Ward:"); `roles` reads them too, as the note's identity
WHO_WHERE = ("name", "dob", "mrn", "re", "cc", "to", "from", "tel", "phone", "fax", "email", "address", "gp",
             "consultant", "clinician", "surgeon", "provider", "attending", "pharmacist", "ward", "unit", "location",
             "clinic")
# the fields that name who, when or where, whatever follows them ("Operator: Dr. S. Varga, Consultant"): `WHO_WHERE`,
# any label of the patient, a number, a date or a time, who did what ("Seen by", "Signed"), more clinicians; and the
# fields of a value that is data however it is written (a patient's allergies, medicines, diagnosis list)
_WHO_WHEN_WHERE = re.compile(
    "^(?:" + "|".join(WHO_WHERE) + r"|(?:Patient|Pt)\b.*|Copy to|NHS\b.*|Hosp(?:ital)?\b.*|Date\b.*|Time\b.*"
    r"|.*\b(?:by|at)|Referr\w*|Signed\b.*|Seen\b.*|Operator|Assistant|Anaesthetist|Prescriber|Contact"
    r"|Allerg\w*|Medications?|Medicines?|(?:Secondary |Other )?Diagnos[ie]s|Principal diagnosis)$", re.IGNORECASE)
# the patient's complaint as presented, a history's opening section ("PC: Witnessed fall at home.")
_COMPLAINT = re.compile(r"^(?:Presenting (?:complaint|problem)|PC)$", re.IGNORECASE)
_RUN = 3  # labelled blocks of prose in a paragraph that make it a run of sections
_SHARE = 3  # (and a third of its labelled lines at least)
# a word of prose: lower case, three letters or more ("drink", "lifting"; "mg", "w/" are data's)
PROSE_WORD = re.compile(r"(?<![\w/'-])[a-z]{3,}(?![\w/'-])")
# the patient's background as a history's opening section ("Background: Second pregnancy. Her first baby ..."):
# before sentences, two or more, it heads them; before one phrase it is a field ("Background: T2DM, obesity")
_BACKGROUND = re.compile(r"^(?:(?:Clinical )?background|Context)$", re.IGNORECASE)
# advice opens with these: a topic's field of advice keeps it ("Activity: No driving for 1 week. Walk daily.")
_ADVICE = re.compile(r"(?:No|Not|Do|Don't|You|Your|If|When|Until|Avoid|Please|Take|Keep|Call|Use|Walk|Try)\b")


# a callout's label, which names no field and holds no value: it flags the sentences after it
# (advice given as such heads its sentences too: "Advice given: Keep the wound dry. Avoid ...", "Safety advice: ...",
# "Post-procedure advice: ...", "Advice after sedation: ...")
CALLOUT_NAME = re.compile(r"^(?:Important|Please note|Warning|Caution|Remember|Attention"
                          r"|(?:[A-Za-z]+(?:-[A-Za-z]+)? )?advice(?: (?:given|provided|discussed)| after [a-z]+)?)$",
                          re.IGNORECASE)


def callout(name: str, rest: str) -> bool:
    """A callout's label before sentences of prose, two or more ("Important: Do not stop your anticoagulant. You
    must keep taking it for 4 weeks ..."): it heads them, as a section's label does, advice as they may be."""
    # (a label in lower case is a data dump's key, its value one field: "advice: Drink fluids. Finish the course.")
    return bool(CALLOUT_NAME.match(name)) and name[:1].isupper() and len(LABEL_SENTENCE_END.split(rest)) >= 2 \
        and re.match(r"[A-Z]", rest) is not None and not has_column_gap(rest)


def _block(lines: list[str], i: int, end: int) -> str:
    """Line i's text after its label and the lines under it that carry it on, up to the next label, a label alone,
    a list item or an order: the label's whole text."""
    parts = [lines[i][end:].strip()]
    for line in lines[i + 1:]:
        if _LABEL.match(line) or _LABEL_ALONE.match(line) or ITEM.match(line) or ORDER.match(line):
            break
        parts.append(line.strip())
    # (a word hyphenated over a line end is one word: "treat-" + "ment")
    return re.sub(r"(?<=[a-z])- (?=[a-z])", "", " ".join(parts))


_DESCRIBED = 3  # sentences a label's text runs to when it describes at length


def described_at_length(lines: list[str], i: int, end: int, narrative: re.Pattern[str]) -> bool:
    """Does the label ending at `end` on line i head a description at length: a narrative clause first ("There are
    two small foci ...", "The liver is normal ..."), sentences three or more over the lines its text runs on to? A
    report's findings so written are a section's prose, whatever fields stand beside the label."""
    text = _block(lines, i, end)
    return bool(narrative.match(text)) and len(LABEL_SENTENCE_END.split(text)) >= _DESCRIBED


def _prose(text: str) -> bool:
    """Is a label's text prose: opening with a capital or a number, sentences two or more, ending a sentence, in
    lower case as well as capitals ("DAILY WEIGHTS: WEIGH EVERY MORNING. ..." is a leaflet's field), no columns?"""
    return bool(re.match(r"[A-Z0-9]", text)) and len(LABEL_SENTENCE_END.split(text)) >= 2 \
        and text.endswith((".", "!", "?")) and re.search(r"[a-z]", text) is not None and not has_column_gap(text)


def _says(text: str) -> bool:
    """Does the first sentence say something in words: three words or more, two of them words of prose ("Five port
    sites with waterproof dressings."; "RR 44, HR 152, SpO2 91% in air." is data)?"""
    first = LABEL_SENTENCE_END.split(text, maxsplit=1)[0]
    return len(first.split()) >= 3 and len(PROSE_WORD.findall(first)) >= 2


def more_sections(lines: list[str], ends: list[int | None]) -> list[int | None]:
    """`ends` (the section labels `section_label` found on a paragraph's stripped lines) and the labels set apart
    over the lines their text runs on to (the module's docstring). Labelled lines under a label alone on its line
    are that section's fields ("FINDINGS:" over "LUNGS: ...", "BONES: ..."): none is set apart."""
    found: list[tuple[int, int, str, str]] = []  # (line, label's end, name, text)
    # (in a run of labelled lines under a label alone on its line; a label written as that heading is, not as its
    # fields are, is the next section's: "DIET:" + "Stage 1 (weeks 1-2): ..." + "ACTIVITY: Walk ...")
    under: tuple[bool, bool] | None = None  # (the heading in capitals, its first field's label in capitals)
    for i, line in enumerate(lines):
        label = _LABEL.match(line)
        if _LABEL_ALONE.match(line):
            below = _LABEL.match(lines[i + 1]) if i + 1 < len(lines) else None
            under = (line.isupper(), below.group(1).isupper()) if below else None
        elif label is not None and under is not None and label.group(1).isupper() == under[0] != under[1]:
            under = None
        if label is None or under is not None or ORDER.match(line) or _WHO_WHEN_WHERE.match(label.group(1).strip()):
            continue
        found.append((i, label.end(), label.group(1).strip(), _block(lines, i, label.end())))
    out = list(ends)
    # (a leaflet writes its fields' values in capitals: "DRUG: AMOXICILLIN 500 MG CAPSULE" over "HOW TO TAKE: Take it
    # with water. Finish the course." keeps each capital label with its sentence, as a run of fields)
    leaflet = any(name.isupper() and not re.search(r"[a-z]", text) for _, _, name, text in found)
    prose = [f for f in found if _prose(f[3]) and not _ADVICE.match(f[3])]
    run = len(prose) >= _RUN and _SHARE * len(prose) >= len(found)
    for i, end, name, text in found:
        if out[i] is not None:
            continue
        if _COMPLAINT.match(name) and re.match(r"[A-Z0-9]", text) and len(text.split()) >= 3 \
                and not has_column_gap(text):
            out[i] = end
        elif (name.isupper() and " " in name and not leaflet and _prose(text) and _says(text)) \
                or (run and _prose(text) and not _ADVICE.match(text)):
            out[i] = end
        # (a callout's sentences wrapped over the lines under it: "Post-procedure advice: Do not drive for 24" +
        # "hours. A responsible adult should stay with you overnight."; on one line `section_label` reads it)
        elif (callout(name, text) and text != lines[i][end:].strip()) or (_BACKGROUND.match(name) and _prose(text)):
            out[i] = end
    return out
