"""After a sentence splitter has cut a unit of a pasted note: the cuts clinical text does not mean, undone
(`should_join`: after a title, an initial, a dosing abbreviation, a label's colon, inside brackets), and the cuts
it misses, added (`order_cuts`: an order in capitals run into a list item, "2. Lisinopril 10 mg daily STOP
aspirin"; `appointment_cuts`: appointments one after another in a field, "Next appointment: nurse review in 6
weeks; clinic in 4 months")."""

from __future__ import annotations

import re

from archehr.data.note_layout import WORD_NUMBER
from archehr.data.note_page import is_page_line
from archehr.data.note_stamps import is_entry_stamp_line, is_stamp_only, starts_with_stamp
from archehr.data.note_wrap import ABBREV

_MARKER_ONLY = re.compile(r"^(?:[-*\u2022\u00b7#]+|\d{1,2}[.)]|[A-Za-z]\.|\(?[a-z]\)"
                          r"|\(?(?:i{1,3}|iv|vi{0,3}|ix|x)[.)]|" + WORD_NUMBER + r"[.)])$")
# a label said in a dictation, a comma after it, then its list's first number: "plan, one."
_SAID_LABEL = re.compile(r"([a-z]+(?: [a-z]+)?,)[ \t]+((?:one|1)\.)[ \t]*$")
# Titles are never sentence-final in notes; the others end a sentence only before a capital.
# (a place's abbreviations too: "Co. Westmeath", "Mt. Hope", "Ft. Collins")
# (in the languages of Southern Europe too: "Dra. Alves", "Sra. Lima", "Enf. Lopes", the nurse's; "Mme. Roy")
_TITLES = re.compile(r"(?:^|[\s(])(?:Dr|Drs|Mr|Mrs|Ms|Prof|St|Sr|Jr|DR|DRS|MR|MRS|PROF|Co|Mt|Ft|Pharm"
                     r"|Dra|Sra|Srta|Enf|Enfa|Mme|Mlle)\.$")
# a person's initial: after a title, a label, another initial or a comma ("Dr. P. Lindgren", "Nurse: T. Alvarado",
# "A. J. Whitcombe"), not a letter ending a sentence ("... hepatitis B. Next ...")
# (British style writes titles without a full stop: "Dr A. Mensah")
# (a slash, an ampersand or a semicolon between two people too: "O. Devine, CNS / K. Brady RN", "K. Lee RN; T. Osei RN")
# (a nurse's or other clinician's role before the initial too, as a log's entries name their writer: "09:12 RN A." +
# "Lyle: Pt called ...", "Phone call, RN M." + "O'Brien - Wife rang", "Sister J." + "Hale")
_INITIAL = re.compile(r"(?:(?:^|[\s(])(?:Dr|Drs|Mr|Mrs|Ms|Mx|Miss|Prof|Sr|DR|MR|MRS|RN|RGN|RMN|LPN|LVN|NP|ANP"
                      r"|APRN|CNS|CNM|PA|PA-C|HCA|[Nn]urse|Sister|Matron|[Mm]idwife|Physio"
                      # (any clinician's role named before the initial: "Dietitian H." + "Okafor informed ...")
                      r"|[Dd]ieti[tc]ian|[Pp]harmacist|[Pp]hysiotherapist|[Tt]herapist|[Pp]sychologist|[Pp]odiatrist"
                      r"|[Rr]egistrar|[Cc]onsultant|[Ss]urgeon|[Cc]ounsell?or|[Oo]ptometrist|[Ss]ocial worker|GP)"
                      r"(?:\.|(?=\s))|[:;,(]|\s[-/&]\s|^"
                      r"|(?:^|\s)[A-Z]\.)\s*[A-Z]\.$")
# an entry's writer named after its time or date, an initial and a surname before a comma, a colon, a dash or a
# bracket ("04/18/2025 11:52 N." + "Greer, PA-C: Wound check done"): a letter after a time ends no sentence there
# (a log's columns too: the time, two spaces or a tab, the writer, another gap, the entry: "08/07 07:45  S." + "Rao
# (Senior Carer)  New pack started"; a gap of two spaces or a tab after the surname is a column's end)
# (in brackets, with a title, and with a role before the colon too: "12/03 09:14 [S." + "Pike, EPAU nurse] Rang",
# "14:40 [Dr M." + "Adeyemi, SHO]", "10/06/2025 L." + "Quaye ANP: Results reviewed.")
# (the stamp in brackets, the writer after it: "[18/02/2025 09:42] H." + "Cho PDNS")
# (a pipe between the stamp and the writer too: "10/03/2025 09:14 | G." + "Pryce, ESN | incoming call ...")
_STAMP_INITIAL = re.compile(r"(?:\d{1,2}:\d{2}(?:\s?[AaPp]\.?[Mm]\.?)?|\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4})\]?\s+(?:\|\s+)?"
                            r"[\[(]?(?:(?:Dr|Mr|Mrs|Ms|Miss|Prof|Sister|Sr|Nurse)\.?\s+)?[A-Z\u00c0-\u00de]\.$")
# (a surname's letters may be accented: "Côté", "Émond", "Nuñez")
_UP = "A-Z\u00c0-\u00d6\u00d8-\u00de"
_LOW = "a-z\u00df-\u00f6\u00f8-\u00ff"
_SURNAME_THEN_MARK = re.compile(f"[{_UP}][{_LOW}]*(?:['-][{_UP}]?[{_LOW}]+)*" r"(?:\s+[A-Z]{2,5}(?=\s+[-\u2013(]))?"
                                # (or a grade in capitals before the entry's first word: "14:30 J." + "Ames RN
                                # Phoned back, settled")
                                r"(?:,|:|\s+[A-Z][A-Za-z-]{1,5}:|\s+[-\u2013(]| {2,}|\t"
                                r"|\s+[A-Z][A-Z0-9-]{1,5}\s+(?=[A-Z])"
                                # (or a surname and a grade ending the heading's line: "10:15  B." + "Quayle RGN")
                                r"|(?:[ \t]+[A-Z]{2,5})?[ \t]*\n)")
# a medicine's form abbreviated in a capital, as prescriptions write it before the drug: "Tab.", "Cap.", "Inj.", "Syp."
# (in capitals it may be a diagnosis's acronym ending a sentence: "He has CAP." + "He was given ...", pneumonia)
_FORM_ABBREV = re.compile(r"(?:^|[\s(])(?:Tabs?|Caps?|Inj|Syp|Syr|Susp|Oint|Supp|Neb|(TABS?|CAPS?|INJ|SYP))\.$")
# a word cut short before the number it names: a month's or a weekday's, in a capital ("Jan. 5, 2025", "Tues. 14
# Oct. 2025"; "the sun." ends a sentence), a room's, a floor's or a building's ("Rm. 4", "Bldg. 2", "Ste. 210"), a
# reading's or a contact's ("Temp. 38.4", "Wt. 80 kg", "Sats. 94%", "Tel. 01632 ...", "Ref. 2025/118", "Vol. 2");
# before a word these may end a sentence ("... see the ref. list" is none of theirs), before a number they end none
_CALENDAR_WORDS = ("Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec",
                   "Mon", "Tue", "Tues", "Wed", "Thu", "Thur", "Thurs", "Fri", "Sat", "Sun")
_NUMBER_ABBREV = re.compile(r"(?:^|[\s(])(?:" + "|".join(w for word in _CALENDAR_WORDS for w in (word, word.upper()))
                            + r"|(?i:Rm|Bldg|Ste|Apt|Fl|Flr|Temp|Wt|Ht|Sats?|Tel|Mob|Ref|Vol))\.$")
# the words that bring in an example or a restatement ("e.g. Tylenol or Advil", "i.e. Monday and Thursday", "viz.
# Warfarin"): what follows is the same sentence, whatever its first letter
_EXAMPLE_ABBREV = re.compile(r"(?:^|[\s(])(?:[Ee]\.\s?g|[Ii]\.\s?e|viz)\.$")
# a record's number after the abbreviated name of what it numbers ("Hosp." + "No. 12345", "Ref." + "No: 8812")
# (a case's or a process's file too: "Proc." + "No.: 2290481", "Proc." + "No. 55")
_NUMBERED_RECORD = re.compile(r"(?:^|[\s(])(?:Hosp|Reg|Ref|Acc|Pt|Proc|HOSP|REG|REF|ACC|PT|PROC)\.$")
_AGE_SEX = re.compile(r"\d\s?(?:y\.\s?o|yo|yrs?|y)\.$", re.IGNORECASE)
_PLACEHOLDER_ONLY = re.compile(r"^[\s_.,;:()\[\]*-]*$")


def should_join(prev: str, nxt: str, kind: str) -> bool:
    p, n = prev.rstrip(), nxt.lstrip()
    if _MARKER_ONLY.match(p) or _PLACEHOLDER_ONLY.match(n) or _PLACEHOLDER_ONLY.match(p):
        return True
    # "# Osteoporosis: Vitamin D 18; ..." - a label, not a sentence end (in markdown's bold too: "**Plan:**")
    if p.rstrip("*_").endswith(":"):
        return True
    # a parser's cut before a semicolon (at a line's wrap: "... with the cooler" + "pack" + "; travel letter ..."):
    # no sentence opens with one
    if n[:1] in ";:":  # (or a colon set a space off its label, as French typography writes it: "Téléc." + ": 555")
        return True
    # a parser's cut before closing quotes and marks alone ('"Rest the ankle."' + '",' in a JSON dump)
    if re.fullmatch(r"[\"'\u201d\u2019)\]}]+[.,;]?", n):
        return True
    # an age's abbreviation before the sex ("71 y.o. F", "8 yo. M"): one item of a header
    if _AGE_SEX.search(p) and re.match(r"(?:[MFmf]|male|female|man|woman|boy|girl)\b", n, re.IGNORECASE):
        return True
    # an entry's time or date alone is no sentence: it stays with the entry's first ("04/06/2026 09:18" +
    # "Medications reviewed with wife."; a parser may cut there, the rules never do)
    # (in a chat export's brackets too: "[09/06/2025, 14:02]" + "Dr Lee: Your results are back.")
    if is_stamp_only(p) or (p[:1] == "[" and p.endswith("]") and is_stamp_only(p[1:-1])):
        return True
    # (a log entry's heading, its stamp and who wrote it, too: "2025-03-04 09:15  A. Roy, RN (home visit)" + "Seen.")
    if "\n" not in p and is_entry_stamp_line(p):
        return True
    # a cut before a number after no sentence's end is inside a drug's entry or a phrase ("STOP: Theophylline
    # (Uniphyllin Continus)" + "200 mg twice daily - nausea and no benefit.")
    if kind != "lab" and n[:1].isdigit() and not p.endswith((".", "!", "?", ";")):
        return True
    # one field of a line of fields ends a sentence only at a full stop ("Date of visit: 03 Sep 2034" is whole)
    if kind == "field" and not p.endswith((".", "!", "?")):
        return True
    # "TTE [**2194-8-3**]: LVEF 25%" (in a lab line, a dated placeholder starts the next result)
    if n.startswith("[**") and kind != "lab" and not p.endswith((".", "!", "?")):
        return True
    # a page's mark after a footer's sentence on its line ("This summary was printed on 04/02/2025. Page 1 of 1"):
    # a page's footer line is one unit whatever it holds (a page mark on a line of its own is a unit of its own
    # before any sentence is cut)
    # (a mark naming its page: a bare count, "... HealthLife. 1 of 1", is no footer's)
    if is_page_line(n) and re.match(r"page\b", n, re.IGNORECASE):
        return True
    if p.count("(") > p.count(")"):  # "(Pap smear [**2196-2**] normal)": inside brackets
        return True
    if _TITLES.search(p) or (_INITIAL.search(p) and n[:1].isupper()):
        return True
    # a prescription's form abbreviated before the drug's name ("1. Tab. Thyronorm 100 mcg ...", "Inj. Clexane 40 mg"):
    # the form opens the entry, it ends no sentence
    # (in capitals before a name in capitals, or opening its entry: "CAP. OMEZ", "2. CAP. Omez"; not "He has CAP.")
    form = _FORM_ABBREV.search(p)
    if form and re.match(r"[A-Z][A-Za-z-]", n) and (not form.group(1) or re.match(r"[A-Z][A-Z-]", n)
                                                     or re.fullmatch(r"(?:\d{1,2}[.)]\s*)?[A-Z]+\.", p)):
        return True
    if _STAMP_INITIAL.search(p) and _SURNAME_THEN_MARK.match(n):
        return True
    # a short word in capitals before a title in capitals is its abbreviation ("ST. ADELINE REGIONAL MEDICAL
    # CENTER", "MT. HOPE CLINIC"): a title ends in no full stop
    if re.fullmatch(r"[A-Z]{2,3}\.", p) and not re.search(r"[a-z]|[.!?:]$", n):
        return True
    # "Signed by N." + "Okoro RN 21-Jun 11:20": an initial before a name and no lower-case word after it
    # (not a unit after a number, "6.1 L." + "ECHO SHOWED ...": the name is in title case, after a word or a
    # grade's code, "From: FY2 R." + "Bhatt")
    if re.search(r"(?:[A-Za-z]|[A-Z]\d)\s[A-Z]\.$", p) and re.match(r"[A-Z][a-z][A-Za-z'-]*\b(?!\.)", n) \
            and not re.search(r"(?:^|\s)[a-z]", n):
        return True
    if _initial_before_surname(p, n):
        return True
    # upper-case text shows the parser no sentence: "RETURN TO THE ED" + "IF: you are ..." ends nowhere
    if kind != "lab" and not p.endswith((".", "!", "?", ",", ";")) and not re.search(r"[a-z]", p) \
            and re.search(r"[A-Z]{2}", p):
        return True
    first = n[:1]
    if _abbreviation_goes_on(p, n):
        return True
    # a signature's initial after a dash ("-- E." + "Szymanska, RN"): no sentence is a lone initial
    if re.fullmatch(r"[-\u2013\u2014~/ ]*[A-Z]\.", p) and first.isupper():
        return True
    # a split in the middle of a sentence: the next piece starts in lower case
    return bool(first.islower()) and not p.endswith((".", "!", "?"))


# a medicine's status in capitals after its dose: "STOPPED", "HELD - restart when eating", "NEW"
_DOSE_STATUS = re.compile(r"(?:STOPPED|HELD|CHANGED|CONTINUED|INCREASED|REDUCED|DECREASED|DISCONTINUED|SUSPENDED"
                          r"|PAUSED|RESUMED|NEW|UNCHANGED)\b(?![a-z])")


def _abbreviation_goes_on(p: str, n: str) -> bool:
    """Does `p` end on an abbreviation that the sentence goes on after, into `n`?"""
    first = n[:1]
    # (before a number, a lower-case word or an identifier: "Hosp No. A7730219", "Rm. B12")
    # (the identifier's letters may be hyphenated from its digits: "Hosp No. KH-0093314")
    if ABBREV.search(p) and (first.islower() or first.isdigit() or first in "(_"
                             or re.match(r"[A-Z]{1,3}-?\d{3,}\b", n)):
        return True
    if _EXAMPLE_ABBREV.search(p) or (_NUMBER_ABBREV.search(p) and first.isdigit()):
        return True
    # (a dose's times before the medicine's status in capitals: "Ibuprofen 400 mg t.d.s." + "STOPPED - avoid NSAIDs")
    if re.search(r"(?:^|[\s(])(?:[a-z]+\.){2,}$", p) and _DOSE_STATUS.match(n):
        return True
    # (a vitamin's abbreviation before its letter: "Vit." + "D 25 nmol/L", "Vit." + "B12 normal")
    if re.search(r"(?:^|[\s(])(?:Vit|VIT|vit)\.$", p) and re.match(r"[A-EK]\d{0,2}\b", n):
        return True
    return bool(_NUMBERED_RECORD.search(p) and re.match(r"No\b\.?:?(?:\s*[A-Z]{0,4}-?\d|$)", n))


def _initial_before_surname(p: str, n: str) -> bool:
    """Does `p` end on a person's initial that `n` carries on with the surname? After a word that names who did it
    ("Entries by R." + "Penhaligon unless stated.", "seen with K." + "Osei today"); "... by group B." + "Next ..."
    ends a sentence, a letter after no such word (a credential after a comma too: "... with A." + "Rahman, NP, to
    review ...", or a credential and its colon before what was done: "... visit with G." + "Tully PA-C: wound
    healed"). Or in a log entry's heading that opens with a stamp, before a surname that ends the line, with a
    grade or none ("12/03/2025 16:05  Telephone - relative called, taken by J." + "Ames RN\nSon asked ...", "...
    08:40  Ward physio K." + "Brennan MCSP\nWalked ...")."""
    if re.search(r"(?:^|\s)(?:by|with|from|per)\s[A-Z]\.$", p) \
            and re.match(r"[A-Z][a-z]+(?:-[A-Z][a-z]+)?(?:,?\s+[A-Z][A-Za-z-]{1,5}[,:])?\s+[a-z]", n):
        return True
    return bool(re.search(r"\s[A-Z]\.$", p)) and starts_with_stamp(p.rsplit("\n", 1)[-1]) \
        and re.match(f"[{_UP}][{_LOW}]+(?:['-][{_UP}]?[{_LOW}]+)*" r"(?:,?[ \t]+[A-Z]{2,5})?[ \t]*\n", n) is not None


# "... 5. Levothyroxine 75 mcg PO daily STOP taking: Aspirin": an order in capitals inside a line starts anew,
# not one that says why or when of the medicine before it ("Hydrochlorothiazide 25 mg STOPPED because ...")
_INLINE_ORDER = re.compile(r"(?<=[a-z0-9)\]])(?<!\band)(?<!\bor)(?<!\bto)(?<!\bthen)(?<![Pp]lease)\s+"
                           r"(?=(?:STOP|STOPPED|HOLD|HELD|START|STARTED|DISCONTINUE|RESUME)\b"
                           r"(?! (?:because|as|due|since|after|until|when|while|for|on|in|at|by|today|yesterday)\b)"
                           r"(?:[: ]+[a-z]|:? [A-Za-z]+ ?:))")


def order_cuts(spans: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in spans:
        for m in _INLINE_ORDER.finditer(text, s, e):
            out.append((s, m.start()))
            s = m.end()
        out.append((s, e))
    return out


# a field of appointments ("Next appointment:", "Follow-up:", "F/u:", "Review:") and, in each of its parts, when:
# "in 6 weeks", "within 2 days", a date ("12/07", "3 Nov"), a weekday
_APPOINTMENT_FIELD = re.compile(r"^(?:Next )?(?:appointments?|follow[- ]?ups?|f/u|reviews?|next visits?)\s*:",
                                re.IGNORECASE)
_WHEN = re.compile(r"\b(?:in|within|after) (?:\d+|one|two|three|four|six|a few) (?:days?|weeks?|months?|years?)\b"
                   r"|\b\d{1,2}/\d{1,2}\b|\b\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
                   r"|\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b", re.IGNORECASE)


def appointment_cuts(s: int, e: int, text: str) -> list[tuple[int, int]]:
    """A field of appointments cut after each semicolon, when every part says when ("Next appointment: nurse
    review in 6 weeks;" + "clinic in 4 months."): each appointment is a unit. A part without a time is no
    appointment ("Follow-up: referral sent; the team will call within 2 weeks" stays one)."""
    piece = text[s:e]
    if not _APPOINTMENT_FIELD.match(piece) or ";" not in piece:
        return [(s, e)]
    parts = [m.end() for m in re.finditer(r";[ \t]+", piece)]
    bounds = [0, *parts, len(piece)]
    if not all(_WHEN.search(piece[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)):
        return [(s, e)]
    return [(s + a, s + len(piece[a:b].rstrip()) + a) for a, b in zip(bounds, bounds[1:], strict=False)]


# a sentence's end before a lower-case word: after a word or a number ("... with blunt dissection. calots
# triangle ...", "... blood loss 20 ml. she can go ...")
_LOWER_CASE_END = re.compile(r"(?<=[a-z0-9%)][.!?])\s+(?=[a-z])")
# abbreviations a dictation writes before lower case that end no sentence ("approx. two", "etc. and")
# (a unit's full stop does end one: "blood loss 20 ml. wound closed ...")
# (a decimal's full stop is a number's end, not an abbreviation's: "bmi 22.4. no other medicines")
_RUN_ON_ABBREV = re.compile(r"(?:^|[\s(])(?:(?=[a-z0-9.]*[a-z])(?:[a-z0-9]+\.){2,}"
                            r"|(?:etc|incl|esp|resp|approx|vs|cf|viz|ca|pt|pts|no|fig|dr|mr|mrs|ms|st)\."
                            r"|(?:dr|mr|mrs|ms|miss|prof|sister|sr|nurse)\.?\s+[a-z]\.?)$",
                            re.IGNORECASE)


def _lower_case_ends(text: str, s: int, e: int) -> list[re.Match[str]]:
    """The full stops before a lower-case word in text[s:e] that an abbreviation does not make."""
    # (nor does a list's marker at the unit's start: "one. start omeprazole ...")
    return [m for m in _LOWER_CASE_END.finditer(text, s, e)
            if not _RUN_ON_ABBREV.search(text[s:m.start()]) and not _MARKER_ONLY.match(text[s:m.start()].strip())]


def lower_case_cuts(spans: list[tuple[int, int]], text: str, unit_start: int) -> list[tuple[int, int]]:
    """A unit written in lower case, as dictation typed up unedited is ("patient supine four port technique ...
    with blunt dissection. calots triangle dissected out ..."), opens its sentences in lower case: each full stop
    after a word or a number before a lower-case word ends one there. So does a unit that opens in lower case, or
    whose sentences open in lower case twice or more and more often than with a capital; any other unit keeps its
    full stops before lower case (an abbreviation's, "b.i.d. with meals", is no end)."""
    if not spans:
        return spans
    lower = len(_lower_case_ends(text, unit_start, spans[-1][1]))
    upper = len(re.findall(r"[a-z0-9)][.!?]\s+[A-Z]", text[unit_start:spans[-1][1]]))
    if not text[unit_start:unit_start + 1].islower() and not (lower >= 2 and lower > upper):
        return spans
    out: list[tuple[int, int]] = []
    for s, e in spans:
        for m in _lower_case_ends(text, s, e):
            # (a list's number word inside the span stays with its item: "plan. one. stop x. two. start y")
            if _MARKER_ONLY.match(text[s:m.start()].strip()):
                continue
            # (a dictated label said with a comma before the first item's number, a "two." after it: "plan, one." +
            # "folic acid ...": the label is a unit, the number opens its item)
            said = _SAID_LABEL.match(text, s, m.start())
            if said and re.search(r"\b(?:two|2)\.\s", text[m.end():spans[-1][1]]):
                out.append((s, said.end(1)))
                s = said.start(2)
                continue
            out.append((s, m.start()))
            s = m.end()
        out.append((s, e))
    # (a number word a parser cut off its item, "... weeks. five." + "she asked ...": it opens the next one)
    for k in range(len(out) - 2, -1, -1):
        if _MARKER_ONLY.match(text[out[k][0]:out[k][1]].strip()):
            out[k:k + 2] = [(out[k][0], out[k + 1][1])]
    return out


# a clinical query opens a sentence with its question mark after a full stop ("... thenar eminence. ?retained FB
# ?collection.", "... x 5 weeks. ?Cause."): a parser that reads "?" as no word's start runs the two together
_QUERY_START = re.compile(r"(?<=[A-Za-z0-9%)][.!])\s+(?=\?[A-Za-z])")


def query_cuts(spans: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """Each span cut before a query that opens a sentence ("On simvastatin." + "?alcohol-related liver disease.").
    A query's mark a parser left at the end of the sentence before ("On simvastatin. ?" + "alcohol-related ...") is
    first joined back to its query."""
    joined: list[tuple[int, int]] = []
    for s, e in spans:
        if joined and re.search(r"\s\?$", text[joined[-1][0]:joined[-1][1]]) and text[s:s + 1].isalpha():
            joined[-1] = (joined[-1][0], e)
        else:
            joined.append((s, e))
    out: list[tuple[int, int]] = []
    for s, e in joined:
        for m in _QUERY_START.finditer(text, s, e):
            out.append((s, m.start()))
            s = m.end()
        out.append((s, e))
    return out
