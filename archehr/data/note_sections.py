"""Section labels and heading lines of a pasted note: where a section starts, as against a field that holds a value.

`note_split` asks `paragraph_labels` which lines of a paragraph open with a section label before prose on the
same line ("HPI: 45 yo M presented with ...": the label is a unit of its own), and `note_wrap` asks
`is_heading_line` whether a short line is a section's heading ("HOSPITAL COURSE", "Advice") rather than the
end of a sentence wrapped from the line above (which lines head a medicine's or an order's entry is
`note_entries`').
"""

from __future__ import annotations

import re

from archehr.data.note_label_runs import (
    CALLOUT_NAME,
    LABEL_SENTENCE_END,
    PROSE_WORD,
    callout,
    described_at_length,
    more_sections,
)
from archehr.data.note_layout import FIELD, OPEN_END, ORDER, has_column_gap
from archehr.data.note_stamps import starts_with_stamp

# an AVS's heading over a group of orders, with or without its colon: "START taking these medications",
# "CHANGE how you take these medications:" (an order of its own names a drug: "STOP aspirin 81 mg")
# (or with a clause saying which: "CONTINUE these medications which have NOT CHANGED")
ORDER_HEADING = re.compile(r"^(?:START|STOP|CONTINUE|HOLD|CHANGE|Start|Stop|Continue|Hold|Change)"
                           r" (?:(?:taking|how you take) )?these (?:medications|medicines)"
                           r"(?: (?:which|that) (?:have|has|are|were) [A-Za-z ]{2,30})?\s*:?$")
# a header alone on its line: "Brief Hospital Course:", "Discharge Medications:"
HEADER_ONLY = re.compile(r"^[A-Z][A-Za-z0-9 /&,()'#-]{0,60}:$")
# the names of a note's narrative sections, which head prose rather than hold a value ("HPI: 45 yo man
# presented with ...", "Course: Pt taken to OR same day.", "Instructions: Do not drink alcohol."), an ED
# note's too ("ED course: Given ketorolac 15 mg IV ...", "Imaging: CT abdomen shows a 4 mm stone ...")
_SECTION_NAME = re.compile(r"^(?:HPI|History of (?:the )?present illness|HPC|History of (?:the )?presenting complaint"
                           r"|Interval history|(?:Brief )?hospital course"
                           r"|Course|(?:Discharge |Patient |Home )?instructions|Activity|Plan|Assessment(?: and plan)?"
                           r"|Subjective|Objective|Summary|History|Interval hx|Impression|A/P"
                           r"|(?:ED|Emergency department) course|Medical decision making|MDM|Imaging"
                           # a GP's or a letter's shorthand ("Hx:", "O/E:", "Imp:"), an SBAR handover's sections,
                           # the examination under its names ("Exam:", "Video exam:", "MSE:")
                           r"|Hx|Imp|O/E|On examination|Situation|(?:Management )?plan|Management"
                           r"|(?:(?:Physical|Video|Clinical|Focused|Neuro(?:logical)?) )?exam(?:ination)?|PE|MSE"
                           r"|Mental (?:status|state) exam(?:ination)?)$", re.IGNORECASE)
_ADVICE_SECTION = re.compile(r"^(?:Activity|(?:Discharge |Patient |Home )?instructions)\s*:", re.IGNORECASE)
# the shorthand and the narrative sections that head a sentence however short ("Imp: Viral URTI.")
_LOOSE_NAME = re.compile(r"^(?:Hx|Imp|Impression|Assessment|Subjective|Objective|History|Situation)$", re.IGNORECASE)
# an examination's findings are often a list in lower case ("Video exam: alert, speech fluent, ...")
_EXAM_NAME = re.compile(r"^(?:O/E|On examination|PE|MSE|.*\bexam(?:ination)?)$", re.IGNORECASE)
# the name of a field that holds a value however it is written ("Diagnosis: ... was ..."): never a section
_FIELD_NAME = re.compile(r"^(?:Diagnos[ie]s|Principal diagnosis|Reason\b.*|Chief complaint|CC|Allergies|Medications?"
                         # (the complaint a patient presents with, in a few words, as the chief complaint is)
                         r"|Presenting (?:complaint|problem)"
                         r"|Name|Patient|Pt|Re|DOB|Date\b.*|Referr\w*|Signed\b.*|Seen\b.*|Status"
                         # (a remark's marker heads no section: "Note: Apixaban was withheld for 48 hours ...", nor
                         # does a report's comment on its results: "Comment: Low sodium is likely from the diuretic.",
                         # unless it runs on in sentences of prose: `_comment_paragraph`)
                         r"|Note|NB|Comments?)$", re.IGNORECASE)
# a narrative clause: a subject, then a verb in a tense a report uses, within its first words ("Bilirubin peaked
# at 15.8", "He is breastfeeding", "Home sleep study 04/2026 showed", "PT, OT and SLP all recommend"); advice
# ("No driving for 6 weeks", "You can do light activities", "Not until the drain is out") is none
# (a patient named with a title is a subject too: "Ms. Ortega is a 52-year-old woman ...")
_ADVICE_OPEN = r"(?:No|Not|Do|Don't|You|Your|If|When|Until|Avoid|Please|Take|Keep|Call|Use|Walk|Try)\b"  # advice's
_NARRATIVE = re.compile(rf"^(?!{_ADVICE_OPEN})"
                        r"(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr)\.? (?=[A-Z]))?"
                        r"[A-Z][\w/()-]*(?:, [A-Z][\w/()-]*| (?:and )?[\w/()-]+){0,4}? "
                        r"(?:is|was|were|are|has|had|have|showed|shows|peaked|failed|passed|recommends?|recommended|remains|remained|reports|reported|denies|denied"
                        r"|presented|underwent|received|tolerated|developed|improved|worsened|began|became|revealed)\b")
# a problem heading of a problem-based course: "# Delirium:", "# AKI on CKD 3:" (no sentence end inside it)
_PROBLEM_LABEL = re.compile(r"^#[ \t]*[A-Za-z0-9][^:.!?]{0,78}:(?=[ \t]+\S)")
_NAMED_LABEL = re.compile(r"^([A-Za-z][A-Za-z /]{1,38}):(?=[ \t]+\S)")
# a comment's or an addendum's label that says whose in brackets ("Comment (Clinical Biochemistry):", "ADDENDUM (Dr
# M. Lee, 14/04/2025):"): it heads the prose after it, as a problem heading does (a test's or a scan's name with its
# date in brackets heads its result: "CT sinuses (03/02/2025): Severe inflammation ...")
# (an addendum dated without brackets too: "Addendum 23/01/2025: Discussed at MDT.")
_QUALIFIED_LABEL = re.compile(r"^(?:(?:[A-Za-z]+ )?(?:comments?|addend(?:um|a)|notes?|remarks?|interpretation|opinion)"
                              r" \([^()]{1,60}\)|addend(?:um|a) \d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}):(?=[ \t]+\S)",
                              re.IGNORECASE)

_LONG_SENTENCE = 12  # words
# a verdict on how a course went, in a phrase with no verb of its own, is the section's value: "Hospital course:
# Uneventful apart from a wound ooze, settled by day 3." is a field, as "Hospital course: Uncomplicated." is; so is
# an imaging study's name, a report's "Examination: XR Chest (single frontal view)"
_VERDICT_FIELD = re.compile(r"^(?:Uneventful|Uncomplicated|Unremarkable|Straightforward|(?:XR|CT|MRI?|US|PET|X-ray)\b"
                            r"(?=[^.!?]*$))(?![^.!?]*\b(?:is|are|was|were|has|have|had|showed|shows)\b)")


# the names of a narrative section that tells what happened ("HOSPITAL COURSE", "HISTORY"), not a plan's or an
# activity's, whose short sentences are values ("ACTIVITY: As tolerated. No lifting.")
_COURSE_NAME = re.compile(r"^(?:(?:Brief |ED |Emergency department |Post-?op(?:erative)? )?(?:hospital )?course"
                          r"|HPI|HPC|History(?: of (?:the )?present(?:ing)? (?:illness|complaint))?|Interval history)$",
                          re.IGNORECASE)


def section_label(line: str, sbar: bool = False) -> int | None:
    """The end of a section label that heads prose on its own line ("HPI: 45 yo M presented with chest pain",
    "# Delirium: Resolved by 03/15, likely related to infection."): the label is a unit of its own and the
    prose the next. None for a field, whose value is short or data ("Pt: Gerald Pomfrey", "BP: 120/80",
    "Activity: as tolerated", "Plan: RN visit 03/14"): a section's first sentence opens with a capital or a
    number and has four words or more, two of them words of prose. The shorthand and the findings' sections
    ("Hx:", "Imp:", "O/E:", "Exam:", "Subjective:") head any sentence ("O/E: BP 112/70, BMI 22.", "Exam: alert,
    no distress."); a label of no known section heads a narrative clause only ("Feeds: He is breastfeeding ...");
    a comment's or an addendum's label saying whose in brackets heads prose as a problem heading does."""
    name = None
    label = _PROBLEM_LABEL.match(line) or _QUALIFIED_LABEL.match(line)
    if not label:
        label = _NAMED_LABEL.match(line)
        if label and (_comment_paragraph(label.group(1).strip(), line[label.end():].strip())
                      or callout(label.group(1).strip(), line[label.end():].strip())):
            return label.end()
        if not label or _FIELD_NAME.match(label.group(1).strip()):
            return None
        name = label.group(1).strip()
    rest = line[label.end():].strip()
    first = LABEL_SENTENCE_END.split(rest, maxsplit=1)[0]
    if has_column_gap(rest):
        return None
    # (a label naming whose comment it is heads its sentences, two or more, however short the first:
    # "Clinician comment (Dr A. Byrne, 02/03/2024): Seen today. Dose kept the same ...")
    if _QUALIFIED_LABEL.match(line) and re.search(r"\((?:Dr|Mr|Mrs|Ms|Prof|[A-Z]\.)\b", line[:label.end()]) \
            and re.match(r"[A-Z]", rest) and len(LABEL_SENTENCE_END.split(rest)) >= 2:
        return label.end()
    # (a narrative section's name in capitals heads its sentences, two or more, however short the first, as a heading
    # alone on its line would: "HOSPITAL COURSE: Uncomplicated surgery. Discharged home on day 1.")
    if name is not None and name.isupper() and _COURSE_NAME.match(name) and re.match(r"[A-Z]", rest) \
            and len(LABEL_SENTENCE_END.split(rest)) >= 2:
        return label.end()
    if _VERDICT_FIELD.match(first):
        return None
    if sbar and name is not None and name.lower() in ("background", "recommendation", "recommendations"):
        name = "History"
    # (a label in lower case before a long sentence of prose in lower case heads it, named section or not, as a
    # dictation typed up unedited writes them: "return precautions: come back for numbness, toes turning pale ...")
    # (its first sentence ends at a full stop before lower case too: "bloods today: hb 7.8, platelets 298, ferritin
    # not back yet. urine clear." is a field of results and one short sentence after it)
    said = re.split(r"(?<=[a-z0-9][.!?])\s+(?=[a-z])", first, maxsplit=1)[0]
    lower_prose = name is not None and re.match(r"[a-z]", rest) is not None and name == name.lower() \
        and len(said.split()) >= _LONG_SENTENCE and len(PROSE_WORD.findall(said)) * 3 >= len(said.split())
    if name is not None and not _SECTION_NAME.match(name):  # (a topic's one word: "Swallow: She failed ...")
        return label.end() if lower_prose or (" " not in name and _NARRATIVE.match(rest) and len(first.split()) >= 4) \
            else None
    # (a whole sentence, however short, after the shorthand or an examination's name)
    if name is not None and (_LOOSE_NAME.match(name) or _EXAM_NAME.match(name)) and len(first.split()) >= 2 \
            and first.endswith((".", "!", "?")) and (re.match(r"[A-Z0-9~<>]", rest) or _EXAM_NAME.match(name)):
        return label.end()
    # (prose opens a sentence; a lower-case start carries the label's item on: "# AKI on CRRT: continue CVVHDF",
    # unless a named section's sentence runs long, as a letter's typed in lower case does: "Plan: cast review with
    # repeat x-rays on April 8, 2025 at 2:15 pm, with removal of the cast and referral to hand therapy ...")
    if name is not None and re.match(r"[a-z]", rest) and len(first.split()) >= _LONG_SENTENCE \
            and len(PROSE_WORD.findall(first)) * 3 >= len(first.split()):
        return label.end()
    if not re.match(r"[A-Z0-9~<>]", rest) or len(first.split()) < 4 or len(PROSE_WORD.findall(first)) < 2:
        return None
    return label.end()


def _comment_paragraph(name: str, rest: str) -> bool:
    """A report's comment, its own or whose ("Laboratory comment:"), written as a paragraph: sentences of prose, more
    than one ("Comment: Urine protein is in the nephrotic range. Anti-PLA2R sent ..."), which the label heads; a
    comment of one sentence, of a value's few words first ("Comment: Calcium raised. Clinician informed ...") or of
    advice ("Comments: Take it with food. Avoid ...") is the report's field, as a field of advice is."""
    sentences = LABEL_SENTENCE_END.split(rest, maxsplit=1)
    return bool(re.fullmatch(r"(?:[A-Za-z]+ )?comments?", name, re.IGNORECASE)) and len(sentences) == 2 \
        and re.match(r"[A-Z0-9]", rest) is not None and len(sentences[0].split()) >= 4 \
        and not re.match(_ADVICE_OPEN, rest) \
        and len(PROSE_WORD.findall(sentences[0])) >= 2 and not has_column_gap(rest) \
        and not re.search(r"[.!?][)\"']?$", rest)


def _advice_field(line: str) -> bool:
    """A field whose value is advice written in sentences, under a name no section has ("Driving: No driving
    for 6 weeks. You may be a passenger.", "Return to work: usually 1 to 2 weeks.")."""
    label = _NAMED_LABEL.match(line)
    # (a label in capitals is a section's header: "CHIEF COMPLAINT: Chest pain." is no advice)
    return bool(label) and bool(FIELD.match(line)) and not _SECTION_NAME.match(label.group(1).strip()) \
        and line.rstrip().endswith((".", "!", "?")) and not label.group(1).isupper()


# a label heading a paragraph in a letter ("Anti-D:", "Post-operative course:", "X-ray:"): two characters or more,
# so no SOAP letter; a field that names who or when ("Patient:", "Date of clinic:", "Signed:") heads no paragraph
_PARAGRAPH_LABEL = re.compile(r"^([A-Za-z][A-Za-z0-9 /'()-]{0,38}[A-Za-z)]):(?=[ \t]+[A-Z0-9])")
_WHO_WHEN = re.compile(r"^(?:Name|Patient|Pt|Re|cc|DOB|Date\b.*|Referr\w*|Signed\b.*|Seen\b.*)$", re.IGNORECASE)
# the words a letter's labelled paragraphs average: a field's value, even with a sentence of advice after it,
# is shorter ("Wound: 18 clips. Clips out at GP practice nurse on day 10-12." is 12), and a report's findings under
# their labels are terse ("Findings: Acute abscess of the lower left molar. X-ray shows no bone loss." is 12)
_PARAGRAPH_WORDS = 20


def paragraph_label(line: str) -> int | None:
    """The end of a label that opens a paragraph of sentences on its line ("Background: Second pregnancy. Her
    first baby was born ..."), or None: the label is followed by a capital or a number and its text ends a
    sentence; a row of fields ("Ward: Robin Ward   Bed: 4"), a value with no full stop ("Consultant: Mr O.
    Lachlan") and a field naming who or when are no paragraph."""
    label = _PARAGRAPH_LABEL.match(line)
    # (an order names its drug after its colon: "STOP: Folic acid 400 micrograms daily - you can stop this now.")
    if not label or _WHO_WHEN.match(label.group(1).strip()) or ORDER.match(line):
        return None
    rest = line[label.end():].strip()
    if has_column_gap(rest) or not rest.endswith((".", "!", "?")) or len(rest.split()) < 3:
        return None
    return label.end()


def writes_labelled_paragraphs(paragraphs: list[list[str]]) -> bool:
    """Does a note (its paragraphs' lines, stripped) write its sections as labelled paragraphs, as a clinic letter
    does ("Background: Second pregnancy. Her first baby ...", "Plan: Repeat full blood count in 4 weeks. ...")? No
    label stands alone on its line (a note that sets its headings over their text makes a label on a line of
    text a field); three or more lines open with a label followed by sentences, _PARAGRAPH_WORDS words or more
    on average; and they stand together, as a letter's body does: at least half of them directly under another
    (labelled lines each set apart by blank lines are a report's fields: "Findings: ..." / "" / "Imaging: ...").
    Each such label then heads its paragraph: a unit of its own."""
    if any(HEADER_ONLY.match(line) for para in paragraphs for line in para):
        return False
    marks = [[paragraph_label(line) for line in para] for para in paragraphs]
    texts = [line[end:].split() for para, ends in zip(paragraphs, marks, strict=True)
             for line, end in zip(para, ends, strict=True) if end]
    together = sum(1 for ends in marks for above, end in zip(ends, ends[1:], strict=False) if above and end)
    return len(texts) >= 3 and sum(map(len, texts)) >= _PARAGRAPH_WORDS * len(texts) and 2 * together >= len(texts)


# a section's name said in a dictation typed up unedited, a bare noun in lower case with no colon, before its first
# sentence on the line: "history she was seen ...", "examination tone normal in both arms." ("history of ...",
# "examination today showed ..." are sentences; "on examination bp ..." and "impression ..." open the sentence they
# are in, as the gold splits keep them)
_SAID_SECTION = re.compile(r"^(?:examination|(?:social |family |drug |past (?:medical )?)?history)"
                           r" (?!(?:of|and|today|\w+ (?:is|was|were|are|has|had|showed|shows|found|revealed))\b)"
                           r"(?!(?:is|was|were|are|has|had|showed|shows|found|stayed|revealed)\b)(?=[a-z])")


def paragraph_labels(lines: list[str], sbar: bool = False, letter: bool = False,
                     soap: bool = False) -> list[int | None]:
    """`_paragraph_labels`, and a dictation's section name said before its first sentence on a paragraph's first
    line (`_SAID_SECTION`), when the paragraph holds no capital and that sentence ends in a full stop after three
    words or more: the name is a unit of its own, as "HISTORY:" is."""
    ends = _paragraph_labels(lines, sbar, letter, soap)
    ends = ends if soap else more_sections(lines, ends)  # (over the lines a label's text runs on to)
    said = _SAID_SECTION.match(lines[0]) if lines else None
    # (the sentence after the name: up to its full stop before a space or the line's end, no other stop before it)
    sentence = re.match(r"([^.!?]+)\.(?:\s|$)", lines[0][said.end():]) if said else None
    if sentence and ends[0] is None and not re.search(r"[A-Z]", "".join(lines)) \
            and len(sentence.group(1).split()) >= 3:
        ends[0] = said.end() - 1
    # (a label in lower case under a line left open carries that line's sentence on: "... Discussed with Dr Lee" +
    # "by phone: dose increased from today.")
    return [None if i and end and lines[i][:1].islower() and not lines[i - 1].endswith((".", "!", "?", ":", ";"))
            else end for i, end in enumerate(ends)]


def _paragraph_labels(lines: list[str], sbar: bool = False, letter: bool = False,
                      soap: bool = False) -> list[int | None]:
    """For each line of a paragraph (stripped), the end of the section label that heads prose on it, or None.
    A named label in a run of fields of advice ("Diet: ..." / "Activity: You can do light activities." /
    "Driving: ...") is one of those fields, not a section: it keeps its first sentence, as they do. `sbar`: the
    note is an SBAR handover, whose "Background:" and "Recommendation:" are sections; `letter`: the note writes
    labelled paragraphs (`writes_labelled_paragraphs`), whose labels are sections, its fields of advice too;
    `soap`: the note's sections are SOAP letters, and a label in a letter's block other than an assessment's or a
    plan's is a field of that section ("O: Moderate swelling." + "Imaging: Not indicated per Ottawa rules.")."""
    if letter:
        # (a field alone in its paragraph is a field still, in a letter too: "Diagnosis: Herpes zoster (shingles),
        # left V1 distribution.", "Follow-up: Physiotherapy review in 2 weeks. ...", "Impression: Suspected ACL
        # rupture, right knee."; in a run of labelled lines each label heads its paragraph)
        if len(lines) == 1 and _field_of_its_own(lines[0]):
            return [None]
        return [paragraph_label(line) or section_label(line, sbar) for line in lines]
    if soap:
        # (a callout's label heads its sentences in a SOAP note too: "Advice given: No driving ... . No baths ...")
        return [end if end and (_PROBLEM_LABEL.match(line) or _SOAP_NAME.match(line[:end - 1].strip())
                                or CALLOUT_NAME.match(line[:end - 1].strip())) else None
                for line, end in zip(lines, _paragraph_labels(lines, sbar), strict=True)]
    capitals = _capital_sections(lines)
    if capitals is not None:
        return capitals
    if len(lines) == 1:
        return [_paragraph_of_its_line(lines[0], sbar)]
    ends = [section_label(line, sbar) for line in lines]
    first = list(ends)  # (a topic heading narrative prose is no field of advice: "Feeds: She is ..." + "Swallow: ...")
    for i, end in enumerate(ends):
        # (advice's own sections and topics only: "Activity:", "Work:"; "Exam:" beside "Diagnosis: Gout." is a section)
        if end and not _PROBLEM_LABEL.match(lines[i]) \
                and (_ADVICE_SECTION.match(lines[i]) or not _SECTION_NAME.match(lines[i][:end - 1].strip())) \
                and any(0 <= j < len(lines) and first[j] is None and _advice_field(lines[j]) for j in (i - 1, i + 1)) \
                and not described_at_length(lines, i, end, _NARRATIVE):
            ends[i] = None
        # (the findings under a field of vital signs are that record's next field: "Vitals: BP 108/66, HR 64" +
        # "Exam: JVP 8 cm, no crackles, trace ankle edema.")
        label = _NAMED_LABEL.match(lines[i])
        # (findings in more sentences than one are the examination's section: "Obs: T 38.1  HR 104" + "O/E: Drowsy
        # but rousable. Dry mucous membranes.")
        if end and label and _EXAM_NAME.match(label.group(1).strip()) and i > 0 and first[i - 1] is None \
                and FIELD.match(lines[i - 1]) and re.search(r"\d", lines[i - 1]) \
                and len(LABEL_SENTENCE_END.split(lines[i][end:].strip())) == 1:
            ends[i] = None
        # (a plan or an assessment under a field holding its value is one more field of a report's run of them:
        # "Complications: None." + "Plan: Medical therapy for the LAD lesion; no further stenting planned.")
        # (the field above may wrap: "Histology: Sent to the lab. Results in 2" + "to 3 weeks." + "Impression: ...")
        above = _line_opening_above(lines, i)
        # (so is a named line of one phrase: "Antibiotic: Ceftriaxone 2 g IV" + "Course: 6 weeks; day 1 = 04/03/2024")
        if end and label and (_CONCLUSION_NAME.match(label.group(1).strip())
                              or _phrase_line(lines, i, end)) and above is not None \
                and first[above] is None and _value_field(lines[above]):
            ends[i] = None
        # (a report's finding stated in a noun phrase under its name is that report's field, its sentences after it
        # units of their own: "Impression: Severe osteoarthritis with varus alignment. No fracture.")
        if end and _finding_field(lines[i], end):
            ends[i] = None
        # (an assessment over more diagnoses, one a line, is a list of them: "Assessment: Acute urticaria, likely
        # from amoxicillin." + "Acute sinusitis, day 5 of treatment, improving.")
        if end and _stated_diagnosis(lines[i]) and _stated_diagnosis(lines[i][end:], named=False) \
                and all(_stated_diagnosis(x, named=False) for x in lines[i + 1:]):
            ends[i] = None
    # (a named section in lower case whose sentences go on over the lines under it heads them all, however short its
    # first: "objective: bp 148/86, pulse 78." + "complete right-sided facial weakness ...")
    label = _NAMED_LABEL.match(lines[0])
    if ends[0] is None and label and _SECTION_NAME.match(label.group(1).strip()) and lines[0].endswith(".") \
            and not re.search(r"[A-Z]", "".join(lines)) and not any(_NAMED_LABEL.match(x) for x in lines[1:]):
        ends[0] = label.end()
    return ends


# a label in capitals ("TREATMENT IN HOSPITAL:", "WHAT HAPPENED:") and a clause that opens a sentence: a subject
# pronoun and its verb ("He was started on ...", "You fell ...") or an instruction's verb ("Come straight to ...",
# "Do not stop ..."); a value's phrase ("Giant cell arteritis.", "Uncomplicated surgery.") is none
_CAPITAL_LABEL = re.compile(r"^([A-Z][A-Z /&'-]{0,38}[A-Z]):[ \t]+(?=\S)")
_CLAUSE_OPEN = re.compile(r"^(?:(?:He|She|They|We|You|It)(?: [a-z]+){2}"
                          r"|(?:Do|Don't|Come|Go|Call|Take|Keep|Stop|Avoid|Seek|Return|Carry|Continue|Contact|Attend"
                          r"|Phone|Ring|Make|Bring|Wear)(?: [a-z]+){2})")


def _capital_sections(lines: list[str]) -> list[int | None] | None:
    """A paragraph that a label in capitals opens, every label in it in capitals before a clause of five words or
    more ("TREATMENT IN HOSPITAL: He was started on ...", "DRIVING: He may keep driving, as ..." over "RETURN ADVICE:
    Come straight to ..."): each label is a section's heading, a unit of its own, as a heading alone on its line
    is. None when any label of the paragraph holds a value, a name or a field's phrase (a run of a leaflet's fields,
    "DIRECTIONS: TAKE 1 TABLET ..." over "USES: This medicine ...", keeps each label with its sentence)."""
    ends: list[int | None] = []
    for line in lines:
        label = _CAPITAL_LABEL.match(line) or _NAMED_LABEL.match(line)
        if label is None:
            ends.append(None)
            continue
        rest = line[label.end():].strip()
        if not _CAPITAL_LABEL.match(line) or _FIELD_NAME.match(label.group(1).strip()) or has_column_gap(rest) \
                or not (_CLAUSE_OPEN.match(rest) or _NARRATIVE.match(rest)) \
                or len(LABEL_SENTENCE_END.split(rest)[0].split()) < 5:
            return None
        ends.append(label.end())
    return ends if ends and ends[0] is not None else None


# the names of a report's conclusion about its findings
_FINDING_NAME = re.compile(r"^(?:Impression|Summary|Conclusions?)$", re.IGNORECASE)


def _finding_field(line: str, end: int) -> bool:
    """A report's conclusion named as one ("Impression:", "Summary:") whose first sentence is a finding in a noun
    phrase, no clause with a verb ("Paroxysmal atrial fibrillation, symptomatic.")."""
    name = line[:end - 1].strip()
    first = LABEL_SENTENCE_END.split(line[end:].strip())[0]
    return bool(_FINDING_NAME.match(name)) and first.endswith(".") and len(first.split()) <= 20 \
        and not _NARRATIVE.match(first) and not _CLAUSE.search(first)


def _phrase_line(lines: list[str], i: int, end: int) -> bool:
    """Is line i's text after its label one phrase, no sentence's end in it, and not wrapped onto the next line?"""
    return not re.search(r"[.!?]", lines[i][end:]) and not OPEN_END.search(lines[i]) \
        and not (i + 1 < len(lines) and re.match(r"[a-z]", lines[i + 1]))


def _line_opening_above(lines: list[str], i: int) -> int | None:
    """The line that opens the unit above line i: lines that open in lower case carry a wrapped sentence on."""
    k = i - 1
    while k > 0 and re.match(r"[a-z]", lines[k]):
        k -= 1
    return k if k >= 0 else None


# the sections that conclude a report: what was found and what is to be done
_CONCLUSION_NAME = re.compile(r"^(?:Plan|Management plan|Assessment|Impression|Imp|A/P)$", re.IGNORECASE)


def _value_field(line: str) -> bool:
    """A field that holds a value, a finding or a diagnosis ("Complications: None.", "Diagnosis: Non-obstructive
    coronary artery disease."), not a narrative clause ("Medication: I have increased his metformin ...")."""
    label = _NAMED_LABEL.match(line)
    return bool(label) and bool(FIELD.match(line)) and not _NARRATIVE.match(line[label.end():].strip())

# the sections a SOAP note names in words beside its letters ("A/P: 61M w/ septic shock ...")
_SOAP_NAME = re.compile(r"^(?:A/P|Assessment(?: and plan)?|Plan|Subjective|Objective|Impression|HPI)$", re.IGNORECASE)
# the names of an assessment, whose few words after them state the diagnosis; a finite clause: a word before an
# auxiliary or a modal verb ("he must not drive", "symptoms are now controlled", "anyone you have had sex with")
_DIAGNOSIS_NAME = re.compile(r"^(?:Assessment|Impression|Clinical impression)$", re.IGNORECASE)
_DIAGNOSIS_WORDS = 12
_CLAUSE = re.compile(r"\b[a-z]+ (?:is|are|was|were|has|have|had|must|may|might|should|can|could|will|would)\b")


def _stated_diagnosis(line: str, named: bool = True) -> bool:
    """Does the line state a diagnosis in a few words, one sentence, no narrative clause ("Right ureteral stone, 4
    mm, uncomplicated."), after an assessment's name ("Assessment:", "Impression:") when `named`?"""
    label = _NAMED_LABEL.match(line)
    if named and not (label and _DIAGNOSIS_NAME.match(label.group(1).strip())):
        return False
    rest = line[label.end():].strip() if named and label else line.strip()
    first = LABEL_SENTENCE_END.split(rest)[0]
    return len(first.split()) <= _DIAGNOSIS_WORDS and first.endswith(".") and not _NARRATIVE.match(rest) \
        and (named or (first == rest and re.match(r"[A-Z]", rest) is not None and not FIELD.match(rest)
                       and not has_column_gap(rest)))


# the name of a field of appointments ("Follow-up:", "Next appointment:", "Review:")
_APPOINTMENT_NAME = re.compile(r"^(?:Next )?(?:appointments?|follow[- ]?ups?|f/u|reviews?|next visits?)$",
                               re.IGNORECASE)


def _field_of_its_own(line: str) -> bool:
    """Is a line that is a paragraph of its own a field: named as a field is ("Diagnosis:", "Presenting complaint:"),
    as appointments are ("Follow-up:"), or an assessment that states a diagnosis in a few words?"""
    label = _PARAGRAPH_LABEL.match(line)
    if label is None:
        return False
    name = label.group(1).strip()
    return bool(_FIELD_NAME.match(name) or _APPOINTMENT_NAME.match(name)) or _stated_diagnosis(line)


def _paragraph_of_its_line(line: str, sbar: bool) -> int | None:
    """The section label of a paragraph that is one line (a blank line above and below it). An assessment that
    states a diagnosis in a few words ("Assessment: Right ureteral stone, 4 mm, uncomplicated.") is the note's
    diagnosis, a field as "Diagnosis:" is, not a section; a label before sentences of prose in lower case, whose
    first is a clause with its verb ("Driving: because of the severe hypo, he must not drive. Check ..."), heads
    them as a section's label does (a field's value in lower case is a phrase: "Work note: light duty for 2
    weeks. Note sent to ...")."""
    end = section_label(line, sbar)
    label = _NAMED_LABEL.match(line)
    if label is None or has_column_gap(line[label.end():]):
        return end
    name, rest = label.group(1).strip(), line[label.end():].strip()
    sentences = LABEL_SENTENCE_END.split(rest)
    if end and _stated_diagnosis(line):
        return None
    if end is None and re.match(r"[a-z]", rest) and len(sentences) >= 2 and _CLAUSE.search(sentences[0]) \
            and not _FIELD_NAME.match(name):
        return label.end()
    return end


# a heading: one to five words, each opening in a capital (joining words aside), no digit, no punctuation but
# "&", "/" and "-" ("HOSPITAL COURSE", "Hospital Course", "Advice", "Pending results at discharge" is no heading)
_HEADING = re.compile(r"^[A-Z][A-Za-z&/-]*(?: (?:[A-Z][A-Za-z&/-]*|and|of|the|at|on|to|for|&))"
                      r"{0,4}$")


def is_heading_line(prev: str, line: str, next_line: str | None) -> bool:
    """Is `line` the heading of a section, a unit of its own, rather than a sentence wrapped from `prev`?
    A short line of capitalised words after a line that ends in no open phrase, over a line that opens anew
    (a capital, a number or a list marker; not a lower-case word, which would carry a sentence on)."""
    if not _HEADING.match(line.strip()) or OPEN_END.search(prev.rstrip()):
        return False
    # (in text written in capitals a line of capitals shows nothing: "... AND SHORTNESS OF" + "BREATH")
    if line.isupper() and not re.search(r"[a-z]", prev):
        return False
    after = (next_line or "").strip()
    return bool(after) and not re.match(r"[a-z]", after)


def soap_letters_apart(paragraphs: list[list[str]]) -> bool:
    """Does a note (its paragraphs' stripped lines) open its lines with three SOAP letters or more, one of them
    alone over its block ("S: Baby delivered ...", "O: BP 124/78. ...", "A: ...", then "P:" over a numbered
    plan)? Then it sets each letter apart from the prose after it."""
    letters = {line[:2] for para in paragraphs for line in para if line[:2] in ("S:", "O:", "A:", "P:")}
    alone = any(line in letters for para in paragraphs for line in para[:-1])
    return len(letters) >= 3 and alone


# a heading in title case over a list whose lines open in lower case ("Your Medication List" over
# "levothyroxine 88 mcg tablet"): no sentence runs on from it
_TITLE_LINE = re.compile(r"^(?:[A-Z][a-z]+|[A-Z]{2,})(?: (?:[A-Z][a-z]+|[A-Z]{2,}|of|and|to|for|&)){1,4}$")


# a paragraph's caption in sentence case over its lines, as a patient portal heads its sections ("What happened
# today", "Your medication list"): a few words, no digit, no stop
_CAPTION = re.compile(r"^[A-Z][a-z]+(?: [a-z]+){1,5}$")


def heading_line(line: str, starts_unit: bool, next_line: str, first: bool = False) -> bool:
    """A header alone on its line ("Discharge Medications:"), a group of orders' heading, where no unit runs on
    into the line a title-case heading over a line opening in lower case, or (`first`: the paragraph's first line) a
    caption over the paragraph's next line, unless that line opens with a date, as an appointment's name does, or
    carries a sentence on, in lower case or a bracket at the caption's depth ("Knee bend" + "(flexion) is 95"), or the
    caption stops on an open word ("Follow up with cardiology in" + "2 weeks.")."""
    return bool(HEADER_ONLY.match(line) or ORDER_HEADING.match(line)
                or (starts_unit and _TITLE_LINE.match(line) and next_line.lstrip()[:1].islower())
                or (first and _CAPTION.match(line) and not OPEN_END.search(line) and next_line.strip()
                    and not starts_with_stamp(next_line)
                    and (next_line[:1].isspace() or not re.match(r"[(a-z]", next_line))))
