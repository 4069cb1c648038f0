"""Hard wrapping in a pasted note: where a line break only wraps a sentence and where it is the note's structure.

`note_split` asks `continues(prev, line, width, ...)` of each line that no layout rule claims; `wrap_width`
says at which column the note's writer (or the export) broke its long lines.
"""

from __future__ import annotations

import re

from archehr.data.note_blocks import ADDRESS_END
from archehr.data.note_layout import FIELD, OPEN_END, ORDER, laid_out
from archehr.data.note_sections import is_heading_line
from archehr.data.note_stamps import MONTH_NAME, WEEKDAY, starts_with_stamp

_NUMBERISH = re.compile(r"\d")
# "b.i.d.", "approx.", "pt.": abbreviations that end no sentence before lower case or a number
# (a phone extension before its number too: "Nurse line: ext. 4417")
ABBREV = re.compile(
    r"(?:^|[\s(])(?:(?:[a-z0-9]+\.){2,}|(?:vs|approx|no|pt|pts|hr|hrs|min|mins|wk|wks|mo|yr|yrs|mg|mcg|ml|tab|tabs|"
    r"cap|caps|inj|neg|pos|st|fig|ca|cf|ext)\.)$", re.IGNORECASE)


def is_lab_line(line: str) -> bool:
    """A line of results: three or more words with a digit, a third of its words or more."""
    words = line.split()
    numeric = sum(1 for w in words if _NUMBERISH.search(w))
    return numeric >= 3 and numeric / len(words) >= 0.35


def text_lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of every line without its line break."""
    out, pos = [], 0
    for raw in text.splitlines(keepends=True):
        body = raw.rstrip("\r\n")
        out.append((pos, pos + len(body)))
        pos += len(raw)
    return out


NOT_WRAPPED = -1  # the wrap width of a note whose lines show they were not hard-wrapped
_MIN_WRAP = 50  # the narrowest wrap width taken for one: below it, a note is a list of short lines
_BRACKETED_STAMP = re.compile(r"^\[[^\[\]]*(?:\d{1,2}:\d{2}|\d{1,4}[/-]\d{1,2}[/-]\d{2,4})[^\[\]]*\]")
# a whole sentence in brackets on its own line: "(Timolol can slow the pulse.)" carries nothing on
_BRACKETED = re.compile(r"^\([A-Z].*[.!?]\)$")
LETTER_START = re.compile(r"^[A-Za-z]\.\s")
_SALUTATION = re.compile(r"^[A-Z][A-Za-z.'-]*(?: [A-Za-z.'-]+){0,3},$")
_SHORT_LABEL = re.compile(r"^[a-z]{1,3}:\s")
# a dictated header's field named in lower case: "clinic date: 03/07/2025", "seen by: mr a saleh"
_LOWER_FIELD = re.compile(r"^[a-z]+(?: [a-z]+){0,2}: \S")
# a form's options ticked or not at a line's end ("Consent signed: [x] Yes  [ ] No", "\u2611 Yes \u2610 No"): the
# last option is a choice, not a phrase left open ("No" + "Fasting ..." is no sentence "no fasting")
_BOX_OPTION_END = re.compile(r"(?:\[[ xX\u2713\u2714*-]?\]|[\u2610\u2611\u2612])[ \t]*[\w/'-]+(?: [\w/'-]+){0,2}$")
# a count and a lower-case word, "about" written as a sign before it too ("... drowsy" + "~20 min after.")
_COUNT_START = re.compile(r"^[~\u2248]?\d+(?:[.,/]\d+)?(?:\s*(?:to|-|or)\s*\d+(?:[.,]\d+)?)?\s+[a-z]{2,}\b")
# a measurement and its unit before lower-case words: "2 L/min yourself, even ...", "3.4 x10^9/L, and her ..."
MEASURE_START = re.compile(r"^\d+(?:[.,]\d+)?\s?(?!y/?o\b)[A-Za-z]*[/^%\d][\w/^%.]*,?\s+[a-z]{2,}\b")


# a medicine and its dose at a line's start: "levothyroxine 50 mcg ...", "Aspirin 81 mg daily"
# (its brand in brackets too: "ondansetron (ZOFRAN) 4 mg tablet")
_DOSE_ENTRY = re.compile(r"^[A-Za-z][\w-]*(?: [A-Za-z][\w-]*){0,2}(?: \([A-Z][\w -]*\))? \d[\d.,/-]* ?"
                         # (British lists spell the unit out: "Tamsulosin 400 micrograms once daily")
                         r"(?:mg|mcg|micrograms?|ug|\u00b5g|nanograms?|g|mL|ml|units?|mEq|mmol|IU)\b")
# a sentence opened after a full stop inside a line and left open at its end, in lower-case words
# (its last word may be a number or a size: "... No drain left. Umbilical fascia closed with 2/0" + "Vicryl, ...")
# (or opened by an article and one word: "... the left arm was marked. A modified" + "Henry approach was used ...")
# (or opened by a count and its word: "... Continue 150 mg bd. 14 days" + "TTO supplied.")
_BEGUN_INSIDE = re.compile(r"[a-z]{3}[.!?] +(?:[A-Z][a-z]*(?: [a-z]+){2,}(?: \d[\d/.,]*)?|(?:A|An|The) [a-z]{3,})$"
                           r"|[a-z]{2}[.!?] +\d+ [a-z]{3,}$")
# a date and the time of day after it: an appointment's ("04/22/2026 at 9:40 AM", "09/18/26 11:20 AM")
_APPOINTMENT_TIME = re.compile(r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b.{0,12}?\b\d{1,2}:\d{2}\s?[AaPp]\.?[Mm]\b")
_STARTS_ANEW = re.compile(r"^(?:[A-Z][a-z]+ (?!(?:with|at|of|and|on|in|for|to|the|by|from)\b)[a-z]{2,}\b"
                          r"|(?:\S+ ){1,2}Dr\.? [A-Z])")
# a document's title in capitals on its line: "DISCHARGE SUMMARY", "OPERATION NOTE - GENERAL SURGERY"
# (a department before a dash too: "EMERGENCY DEPARTMENT - DISCHARGE SHEET")
_DOCUMENT_TITLE = re.compile(r"^(?:[A-Z/&-]+ ){0,4}(?:SUMMARY|NOTE|NOTES|REPORT|LETTER|RECORD|INSTRUCTIONS|SHEET"
                             r"|CONSULTATION)(?: - [A-Z][A-Z /&-]{0,30})?$")
# a letterhead's line in capitals, its institution and its department after a dash ("NORTHFIELD HOSPITAL - MOVEMENT
# DISORDERS CLINIC"): it ends on the place's name, and the line under it starts anew
# (or its institution's name ends before the dash, whatever the department after it is called: "ST ANNE'S HOSPITAL -
# EMERGENCY DEPARTMENT / EYE CASUALTY")
_PLACE_WORD = r"\b(?:HOSPITAL|CENTER|CENTRE|CLINIC|DEPARTMENT|UNIT|WARD|PRACTICE|SURGERY|INFIRMARY|SERVICES?)"
_LETTERHEAD_PLACE = re.compile(rf"^[A-Z][A-Z.'&/ -]* - [A-Z.'&/ -]*{_PLACE_WORD}$"
                               rf"|^[A-Z][A-Z.'&/ -]*{_PLACE_WORD} - [A-Z][A-Z.'&/ -]*[A-Z]$")
# a phone number at a line's end: "(606) 555-0143", "555-0143", "035 555 0142", "01632 960 412"
_PHONE_END = re.compile(r"(?:\(\d{3}\) ?\d{3}-\d{4}|\b\d{3}-\d{4}|\b0\d{2,4} \d{3} \d{3,4})$")
# a lower-case word ("because ...", "and ..."), not a lab name written in lower case first ("eGFR 29")
_JOINING_START = re.compile(r"^(?:and|or|but|nor|so|then|with|without|to|of|for|in|at|on|by|from|as|than|that|which|who"
                            r"|because|if|when|while|until|after|before)\b")
# a medicine's status set after a dash at its line's end: "... AT 22:00 - UNCHANGED", "... - CHANGED (WAS 1 UNIT PER 12
# G)", "... - NEW"
_STATUS_END = re.compile(r"\s[-\u2013\u2014]\s*(?:NEW|UNCHANGED|CHANGED|STOPPED|STOP|HELD|INCREASED|DECREASED|REDUCED"
                         r"|STARTED|CONTINUED?)(?:\s*\([^()]*\))?$")
CONTINUES_START = re.compile(r"^(?:[a-z][a-z'-]*(?![A-Za-z0-9])|[(,;&\u2014])")


def wrap_width(text: str) -> int:
    """The column a hard-wrapped note breaks its lines at, read from the note itself: the longest line that a
    sentence certainly runs on from (the next line opens in lower case, or this one stops mid-phrase), when
    two or more show it; else the longest line of prose, if 50 columns or more (else 0: no wrapping). Lab
    lines, laid-out columns and unwrapped lines of over 200 characters say nothing about it; nor does one long
    line left unwrapped in a wrapped note."""
    prose = [text[s:e].rstrip() for s, e in text_lines(text)]
    prose = [x if x.strip() and len(x) <= 200 and not is_lab_line(x) and not laid_out(x) else "" for x in prose]
    wrapped = [len(a) for a, b in zip(prose, prose[1:], strict=False)
               if a and b and (CONTINUES_START.match(b.strip()) or OPEN_END.search(a))]
    # a dictation typed as it was spoken, each paragraph one long line, opens its lines in lower case: two lines or
    # more of over 200 characters, more than the lines that seem to wrap, show it is not hard-wrapped ("hand therapy
    # review dictated by ..." + "patient raymond hollis ..." are header lines, each a unit)
    unwrapped = sum(len(text[s:e].rstrip()) > 200 for s, e in text_lines(text))
    # (beside such lines, only a line of some length that ends no sentence shows a wrap: readings dictated one a
    # line in lower case, "morning average 158 over 92" + "evening average 151 over 88", or an item that ends its
    # sentence over the next item, "one. start ramipril." + "two. ...", show none)
    shown = sum(1 for a, b in zip(prose, prose[1:], strict=False)
                if a and b and len(a) >= _MIN_WRAP and not a.endswith((".", "!", "?"))
                and (CONTINUES_START.match(b.strip()) or OPEN_END.search(a)))
    if unwrapped >= 2 and unwrapped > shown:
        return NOT_WRAPPED
    if len(wrapped) >= 2:
        width = max(wrapped)
        # a narrow width that more lines run past than show it: the note is not hard-wrapped, and its lower-case
        # line starts are entries of their own ("START taking these medications" + "apixaban 5 mg tablet")
        if width < _MIN_WRAP and sum(len(x) > width for x in prose) > len(wrapped):
            return NOT_WRAPPED
        return width
    # (without them, a note whose lines are all short is a list of short lines, not text wrapped narrow)
    widest = max((len(x) for x in prose), default=0)
    return widest if widest >= _MIN_WRAP else 0


_LETTERHEAD_LEAD = 8  # spaces: lines set in this deep or deeper are set for the page, not wrapped at a margin


# every word in a capital, a digit or a bracket, bar a few joining words: an organisation's name
_TITLE_CASE = re.compile(r"^[A-Z0-9(][\w()&'.,-]*(?: (?:[A-Z0-9(&][\w()&'.,-]*|of|and|for|the|in|at|on))+$")


# a person named with a title and nothing else ("Mrs Ann Lee-Ward", "Mme S. Roy", "M. Jean Roy")
_ADDRESSEE = re.compile(r"^(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Mme|Mlle|M|Sr|Sra|Srta)\.? (?:[A-Z]\. ?)*[A-Z][\w'-]+"
                        r"(?: [A-Z][\w'-]+){0,3}$")
# who a signer signs for: "on behalf of Dr A. Lee", "p.p. Mr B. Roe"
_ON_BEHALF = re.compile(r"^(?:(?:for and )?on behalf of|p\.? ?p\.?) (?:Dr|Mr|Mrs|Ms|Miss|Mx|Prof|Sister|the)\b")
# a house number opening an address line ("88, rue des Pins", "4 Elm Road", "12B Mill Lane")
_HOUSE_NUMBER = re.compile(r"^\d{1,5}[A-Za-z]?,? [A-Za-z]")


def _address_or_sign_off_lines(prev: str, line: str) -> bool:
    """Are `prev` and `line` a letter's address or sign-off lines, a unit each? An addressee's name with a title over a
    house number ("Mme Ann Lee" + "88, rue des Pins", "Mr J. Roe" + "4 Elm Road") is no sentence carried on to a
    count; a signer's "on behalf of" line under the role line in title case ("Specialty Registrar in Urology" + "on
    behalf of Miss A. Lee, Consultant Urologist") starts anew."""
    return bool(_ADDRESSEE.match(prev) and _HOUSE_NUMBER.match(line)) \
        or bool(_ON_BEHALF.match(line) and _TITLE_CASE.match(prev))


def _letterhead_lines(prev: str, line: str, lead: int) -> bool:
    """Are `prev` (as laid out) and `line` (indented by `lead`) a letterhead's lines, set right or centred each at its
    own depth ("                Department of Otolaryngology" over "     Castlebridge General Hospital, Wexley Road")?
    Each is a unit of its own, however full the line above looks."""
    prev_lead, prev_end = len(prev) - len(prev.lstrip()), len(prev.rstrip())
    if min(prev_lead, lead) < _LETTERHEAD_LEAD or OPEN_END.search(prev):
        return False
    # (two centred lines of one length are set in alike: a name in title case over the next line is the letterhead's,
    # "   Infectious Diseases (OPAT) Service" over "   Level 2, Harnwood Wing, Kingsbridge KB4 7QT")
    if prev_lead == lead:
        return bool(_TITLE_CASE.match(prev.strip())) and line[:1].isupper()
    return abs(prev_end - (lead + len(line))) <= 1 or abs(prev_lead + prev_end - (2 * lead + len(line))) <= 2


def _message_opens(prev: str, line: str) -> bool:
    """Does `line` open a message of a thread or an e-mail, whatever the line above left open?"""
    # a thread's message opens with its stamp in brackets ("... for 3 days now" + "[Nurse reply - 10/11/2026 09:02,
    # J. Doe] Thank you."); a quoted reply's first line under the line that says who wrote it ("On Mon, 3 Mar 2025
    # at 09:12, Clinic <clinic@example.org> wrote:" + "> Please bring your inhaler."; "> 5 mm" is a measure)
    return bool(_BRACKETED_STAMP.match(line)) \
        or bool(re.match(r"\s*>+[ \t]*[A-Za-z]", line)) and not prev.lstrip().startswith(">")


def _starts_anew(prev: str, line: str, lead: int) -> bool:
    """A line that opens a unit of its own whatever the line above: a short lower-case label, a letterhead's, an
    address's or a sign-off's next line, a dictated header's next field, a message's opening, or a line under a
    form's options."""
    if _SHORT_LABEL.match(line):  # "cc: Patient", "re: your letter": a short lower-case label starts a field
        return True
    if _letterhead_lines(prev, line, lead) or _address_or_sign_off_lines(prev.strip(), line):
        return True
    # a dictated header's field in lower case under another ("clinic date: 03/07/2025" + "seen by: mr a saleh ...")
    if _LOWER_FIELD.match(line) and _LOWER_FIELD.match(prev.strip()):
        return True
    if _message_opens(prev, line):
        return True
    # (a box's item left open on a joining word still runs on: "[x] Follow-up booked with" + "Dr Lee")
    return bool(_BOX_OPTION_END.search(prev.rstrip())) and not CONTINUES_START.match(line) \
        and (not OPEN_END.search(prev) or bool(re.search(r"\bno$", prev.rstrip(), re.IGNORECASE)))


def continues(prev: str, line: str, width: int, lead: int = 0, next_line: str | None = None) -> bool:
    """Does `line` carry on the sentence of the line before it, rather than start a unit of its own?

    A line break inside a sentence is wrapping: the next line starts in lower case, the previous one
    stops mid-phrase, or it was full (the next line's first word would not have fit on it). Any other
    line break is the note's structure: a field, an appointment or a short result line of its own."""
    if _starts_anew(prev, line, lead):
        return False
    # a medicine and its dose under a medicine and its dose is a list's next entry, not a wrap
    # ("  donepezil 10 mg at bedtime" + "  levothyroxine 50 mcg every morning")
    # (short lines only: prose wrapped at a dose, "... increased atorvastatin from 40 mg to 80 mg. He" +
    # "should continue amlodipine 10 mg daily", runs on)
    # (longer lines too when both are set in at one depth, as a list's entries are: "  cefTRIAXone (ROCEPHIN) 1 g
    # injection into the muscle - given 11:40 AM" + "  ondansetron (ZOFRAN) 4 mg tablet ... - given 11:15 AM")
    # (and longer lines that each hold one entry, no sentence ended inside them: "amlodipine 5 mg tablet - take 1
    # tablet by mouth every day in the morning" + "metformin 500 mg tablet - take 1 tablet twice a day with meals")
    listed = lead > 0 and len(prev) - len(prev.lstrip()) == lead
    if all(_DOSE_ENTRY.match(x) and (len(x) <= 60 or listed or not re.search(r"[.!?;]\s", x))
           for x in (prev.strip(), line)) and not OPEN_END.search(prev):
        return False
    # a line far shorter than the note's wrap width, left open on no phrase, was ended where it was written: a
    # dictation's header or sign-off lines in lower case ("re: mrs a lind" + "dob 01/02/1950", "dr k moss" +
    # "consultant physician")
    # (a line that opens on a joining word carries a sentence on whatever the break: "... what we discussed" + "and
    # your results", as a PDF's text breaks its lines)
    if width >= _MIN_WRAP and len(prev.strip()) < width / 3 and not OPEN_END.search(prev) \
            and not _JOINING_START.match(line):
        return False
    if CONTINUES_START.match(line) and not _BRACKETED.match(line) and (width != NOT_WRAPPED or OPEN_END.search(prev)):
        # (unless the line above ended a sentence: "... sent to your pharmacy." + "apixaban 5 mg tablet")
        return not (prev.endswith((".", "!", "?")) and re.search(r"[A-Za-z]{3}[.!?]$", prev)
                    and not ABBREV.search(prev) and not ADDRESS_END.search(prev))
    # a sentence begun at the line's end with a test's name in capitals runs on into the line, whatever it looks
    # like ("... WBC 14.2. CT" + "A/P: dilated appendix ...")
    if re.search(r"[a-z0-9)][.!?] [A-Z]{2,5}$", prev) and not ORDER.match(line):
        return True
    # (a sentence begun inside the line above and left open on a joining word runs on into a line that reads as a
    # field: "... sent. five. She asked about going to" + "Spain in late August: fine to travel, ...")
    if FIELD.match(line):
        return bool(_BEGUN_INSIDE.search(prev) and OPEN_END.search(prev))
    # a lone word that ends a sentence under a long line left open on a lower-case word ends that sentence
    # ("... sore throat, otherwise denies" + "CP/SOB.")
    if re.fullmatch(r"[A-Za-z][\w/-]*[.!?]", line.strip()) and re.search(r"\b[a-z]{3,}$", prev) \
            and len(prev.strip()) >= _MIN_WRAP:
        return True
    # a greeting or a closing on a line of its own ("Dear Dr Okafor,", "Yours sincerely,", "Signed,") is
    # no sentence left open: the name or letter under it starts anew
    if _SALUTATION.match(prev.strip()) and line[:1].isupper():
        return False
    # (a short heading over a capitalised line ends nothing open: "What we talked about" + "You told us ...")
    # (in a note not hard-wrapped, any line is as short as it was written: "Take care and have a good Christmas," +
    # "Aoife" under e-mail paragraphs of one long line each)
    heading = line[:1].isupper() and prev.strip()[:1].isupper() \
        and (width == NOT_WRAPPED or (width >= _MIN_WRAP and len(prev.strip()) < width / 2))
    # (before orders: "... YOU SHOULD" + "STOP TAKING IT IF ..." is one sentence)
    if OPEN_END.search(prev) and not heading:
        return True
    # a title in capitals wrapped on a joining word runs on into the next line of capitals ("DISCHARGE ADVICE AND" +
    # "PATIENT INFORMATION"), however short the lines
    if _CAPS_TITLE_OPEN.match(prev.strip()) and line.strip().isupper() and not ORDER.match(line):
        return True
    # a document's title in capitals is a line of its own, under a full line of capitals too ("MERCY VALLEY
    # MEDICAL CENTER - REGIONAL BURN CENTER" + "DISCHARGE SUMMARY")
    if ORDER.match(line) or _DOCUMENT_TITLE.match(line.strip()) or _LETTERHEAD_PLACE.match(prev.strip()):
        return False
    # a sign-off that ends on the time it was signed ends its line, full or not ("Report electronically signed by Dr
    # A. Lee 09/04/2024 11:42" + "Northgate Clinic, 2 Mill Road - Printed 09/04/2024")
    if _SIGNED_AT.match(prev.strip()) and line[:1].isupper():
        return False
    return _carries_on(prev, line, width, lead, next_line)


def _date_carries_on(prev: str, line: str, width: int) -> bool:
    """Does a line opening with a date carry on the sentence left open above it: the date ends it or goes on after a
    comma in lower case, or a joining word in lower case follows the date under a full line ("... two. Next
    injection" + "Monday 05/08/2024 at 10:30, Kestrel House.")? A timed or dated entry starts anew."""
    first_word = line.split(maxsplit=1)[0]
    # (a time before a joining word in lower case, under a line left on a lower-case word, is inside the sentence: "...
    # urine sample taken on the visit" + "10:15 and sent to the lab."; an entry's time opens no clause)
    if _TIME_RUNS_ON.match(line) and re.search(r"[a-z]$", prev.rstrip()):
        return True
    return (bool(re.match(r"^\S+(?:\.(?:\s|$)|,\s+[a-z])", line))
            or (bool(_DATE_RUNS_ON.match(line)) and width >= _MIN_WRAP
                and len(prev) <= width < len(prev) + 1 + len(first_word))) \
        and not prev.rstrip().endswith((".", "!", "?", ":", ";"))


# a date, its weekday before it or none, then a joining word in lower case: a date inside a sentence ("Monday 05/08/2024
# at 10:30", "12/03 until the review"), not an entry's stamp ("12/03/2025 09:14 Phoned ...")
_DATE_RUNS_ON = re.compile(rf"^(?:{WEEKDAY},?\s+)?(?:\d{{1,2}}[/.-]\d{{1,2}}(?:[/.-]\d{{2,4}})?"
                           rf"|\d{{1,2}}(?:st|nd|rd|th)? {MONTH_NAME}(?: \d{{4}})?"
                           rf"|{MONTH_NAME} \d{{1,2}}(?:, \d{{4}})?),?"
                           r"\s+(?:at|from|to|until|in|for|and|or|with|when|if|before|after)\b")
_TIME_RUNS_ON = re.compile(r"^\d{1,2}[:.]\d{2}(?:\s?[AaPp]\.?[Mm]\.?)?,?\s+(?:and|or|but|then|so|when|where|which"
                           r"|because)\s")
# a sign-off line that ends on its date's time ("Electronically signed by Dr A. Lee 09/04/2024 11:42")
_SIGNED_AT = re.compile(r"^(?:[A-Z][a-z]+ )?(?:[Ee]lectronically )?(?:[Ss]igned|[Aa]uthori[sz]ed|[Vv]erified"
                        r"|[Cc]ountersigned)(?: electronically)?(?: by)?:? .*\d{1,2}:\d{2}(?:\s?[AaPp][Mm])?$")
# one capitalised word after a full stop at a line's end ("... eating soft food. Advised")
_ONE_WORD_BEGUN = re.compile(r"[a-z]{3}[.!?] +[A-Z][a-z]{2,}$")
# a line in capitals that stops on a joining word: a title wrapped mid-phrase
_CAPS_TITLE_OPEN = re.compile(r"^[A-Z][A-Z0-9 ,/()'-]*[A-Z] (?:AND|OF|FOR|THE|TO|WITH|IN|ON|&)$")


def _carries_on(prev: str, line: str, width: int, lead: int, next_line: str | None) -> bool:
    """`continues` for a line that opens no field, order or list entry and follows no open phrase: a sentence
    begun inside the line above, a hanging indent, a count, a bracket or a full line carry on; a timed entry or
    an appointment's end start anew."""
    # a sentence begun inside the line above and left without its end carries on, whatever the width read
    # ("... since her teens. This headache began" + "Tuesday morning with zigzag lines ...")
    # (one word so, at a line's end nearly as wide as the note wraps: "... soft food. Advised" + "Mouthwash 15 ml")
    begun = _BEGUN_INSIDE.search(prev) \
        or (_ONE_WORD_BEGUN.search(prev) and width >= _MIN_WRAP and len(prev) >= 0.85 * width)
    if begun and not starts_with_stamp(line):
        return True
    # a hanging indent: one line set in deeper than an indented line above carries it on
    # ("  Eye exam (retinal screening)" + "     Please call 555-0176 to schedule"); several lines at that
    # depth are items under a heading ("  Diagnoses" + "     Pneumonia" + "     Diabetes")
    # (the lines at that depth are one wrapped sentence when the one wraps into the next: "    furosemide 40 mg
    # tablet" + "        Take 2 tablets ... then go back to" + "        1 tablet every morning.")
    prev_lead = len(prev) - len(prev.lstrip())
    next_lead = len(next_line) - len(next_line.lstrip()) if next_line and next_line.strip() else -1
    if 0 < prev_lead < lead and not prev.endswith((".", "!", "?")) \
            and (lead != next_lead or OPEN_END.search(line) or CONTINUES_START.match((next_line or "").strip())):
        return True
    # "... within" + "3 to 5 days.": a count and a lower-case word carry on a sentence left open
    if _COUNT_START.match(line) and (not prev.rstrip().endswith((".", "!", "?", ":", ";")) or ABBREV.search(prev)):
        return True
    # (under a line left open on a lower-case word: "... turn the flow up above" + "2 L/min yourself, even ...")
    if MEASURE_START.match(line) and re.search(r"[a-z]{2}$", prev.rstrip()):
        return True
    # (a date that ends a sentence carries on the line left open above it: "... every morning, starting" +
    # "06/04/2035. It may take 4-6 weeks.")
    # a bracket left open at the line's end is closed on the next line, whatever that line opens with ("... for 7
    # days (last dose" + "26 February 2025). The urine culture ...")
    if prev.count("(") > prev.count(")") and re.match(r"^[^()]*\)", line):
        return True
    # a quoted name under a line left open on a lower-case word carries it on ("... referred to the psychology-led" +
    # "\"Moving Forward\" course; ...")
    if re.match(r"^[\"\u201c]\S", line) and re.search(r"[a-z]$", prev.rstrip()):
        return True
    # a year under a line left open on a word ends or carries on its sentence ("... haematuria in December" +
    # "2024. Smoker, 40 pack-years.", "... stopped" + "2021."), a month before it too ("... diagnosed" + "January
    # 2024.")
    if re.match(rf"^(?:{MONTH_NAME} )?(?:19|20)\d{{2}}(?:[.,;)]?(?:\s|$))", line) \
            and re.search(r"[A-Za-z]$", prev.rstrip()):
        return True
    # (a date that ends the sentence, or goes on after a comma in lower case, carries it on: "... discussed at the MDT"
    # + "11/04/2025, agree discharge ...")
    if starts_with_stamp(line):  # a timed or dated entry starts anew, even below a full line
        return _date_carries_on(prev, line, width)
    # in upper-case text no lower-case word shows a wrap: a long line left open carries on
    # ("... AND SHORTNESS OF BREATH" + "WHEN LYING FLAT.")
    # (in a note not hard-wrapped no line wraps, capitals or not: "KELVINSIDE HOSPITAL - DISCHARGE LETTER" + "WARD 7B,
    # ACUTE MEDICINE" over paragraphs of one long line each; a line ending on a status set after a dash ends its entry:
    # "LANTUS 22 UNITS AT 22:00 - UNCHANGED" + "SALBUTAMOL 100 MICROGRAMS 2 PUFFS AS REQUIRED - NEW")
    if not re.search(r"[a-z]", prev + line) and len(prev.strip()) >= _MIN_WRAP and width != NOT_WRAPPED \
            and not prev.endswith((".", "!", "?", ":", ";")) and not _STATUS_END.search(prev.rstrip()):
        return True
    # an appointment's line (a date and its time) ends its unit where it ends, full or not, before a sentence or
    # another clinician's appointment ("Dr. L. Haverkamp (PCP), 04/22/2026 at 9:40 AM, Eastbrook Internal Medicine"
    # + "Do not repeat a stool test ...", "... 11:20 AM - orthostatic vitals, BMP" + "Cardiology Dr. A. Varghese");
    # the rest of its place carries it on ("... 10:00 AM, Pine Ridge" + "Surgery Clinic, 2nd floor.")
    if _APPOINTMENT_TIME.search(prev) and _STARTS_ANEW.match(line):
        return False
    # a phone number that ends a line ends its field or sentence, before a line opening with a capital ("Primary
    # care: Dr. A. Lee, Oak Family Medicine, (606) 555-0143" + "Call the office to make an appointment ...")
    if _PHONE_END.search(prev.rstrip()) and line[:1].isupper():
        return False
    first_word = line.split(maxsplit=1)[0] if line.split() else ""
    # (a note whose lines are all short is a list of lines, not text wrapped at a narrow width)
    # (a line longer than the wrap width was not wrapped: "Video visit · Neurology · Mon ... PA-C" over the next one)
    full = width >= len(prev) and len(prev) + 1 + len(first_word) > width
    # (below 50 columns, shown by the note's own wrapped lines, only a lone word that would not fit carries a
    # line left open on: "Pt: Aurelio" + "VANTERPOOL-SINGH"; short lines of several words are a list)
    if 0 < width < _MIN_WRAP and full and len(line.split()) == 1 and not prev.rstrip().endswith(
            (".", "!", "?", ":", ";", ",")):
        return True
    # a section's heading under a line that happens to be full ("... 40 pack-years" + "HOSPITAL COURSE")
    # (nor does a full line ending on a medicine's status: "... 2 PUFFS AS REQUIRED - UNCHANGED")
    return width >= _MIN_WRAP and full and not is_heading_line(prev, line, next_line) \
        and not _STATUS_END.search(prev.rstrip())

