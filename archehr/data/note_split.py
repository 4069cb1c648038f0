"""Raw clinical note -> numbered sentences with character offsets (what a release's XML gives ready-made).

Clinical notes defeat plain sentence splitters in known ways, so the note is first cut into units by
rules, and only running prose goes to the sentence splitter (spaCy's small English model when it is
installed, else a rule-based splitter; `splitter=` chooses):

- paragraphs are separated by blank lines (the official `paragraph_id`; offsets inside the paragraph
  are the official `start_char_index`);
- a section header on its own line ("Brief Hospital Course:") is one sentence; a header followed by
  text on its line ("Chief Complaint: dyspnea") stays with that text, as the releases do;
- each bullet or numbered list item ("- ", "* ", "1. ", "2) ", "# Problem:") starts a new unit, and
  its wrapped continuation lines stay with it;
- a lab line ("Glucose 512, Na 129, K 5.8, ...", "WBC-7.5 RBC-3.12* Hgb-9.3*") is cut only at a plain
  ". Capital" or before a timed result ("___ 07:15PM BLOOD ..."): its decimals, asterisks and dashes
  are not sentence ends;
- wrapped prose lines are joined before splitting, and afterwards a split after a title ("Dr.",
  "Mrs."), after a dosing or Latin abbreviation followed by lower case ("b.i.d. with meals"), or
  around a lone `___` de-identification placeholder or list marker is undone.

Every sentence keeps its offsets into the note: `note[s.start:s.end] == s.text` always holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from archehr.data.model import Case, NoteSentence, Phrase
from archehr.data.note_blocks import appointment_blocks, is_result_block
from archehr.data.note_layout import (
    ITEM,
    OPEN_END,
    ORDER,
    ORDER_COLUMN,
    field_cells,
    is_breadcrumb,
    is_page_line,
    is_readings_line,
    is_rule_line,
    is_table_row,
    line_cells,
    pipe_cells,
    table_lines,
    wraps_field_value,
)
from archehr.data.note_sections import (
    entry_heads,
    group_heads,
    heading_line,
    medicine_head,
    medicine_over_instruction,
    order_over_instruction,
    paragraph_labels,
    soap_letters_apart,
    writes_labelled_paragraphs,
)
from archehr.data.note_sentence_edits import appointment_cuts, lower_case_cuts, order_cuts, should_join
from archehr.data.note_stamps import is_entry_stamp_line
from archehr.data.note_wrap import CONTINUES_START, LETTER_START, continues, is_lab_line, text_lines, wrap_width
from archehr.data.note_spacy import SPACY_FIX, SPACY_PACKAGES, spacy_available, spacy_segmenter
from archehr.errors import InputError, Problem

SPLITTERS = ("auto", "spacy", "rules")

_NUMBERISH = re.compile(r"\d")
_TRAILING_MARKER = re.compile(r"\s+(\d{1,2})[.)]$")
_LEADING_NUMBER = re.compile(r"^(\d{1,2})[.)]\s")
# a new timed result in a run of lab records: "... Plt Ct-201 ___ 07:15PM BLOOD Glucose-168* ..."
_LAB_BOUNDARY = re.compile(r"(?:(?<!\.\.)[.!?][\"')\]]*\s+(?=[A-Z0-9#(\[_\"'])"
                           r"|\s+(?=(?:___|\[\*\*[^*\]]*\*\*\])\s+\d{1,2}:\d{2}\s?[AP]M\b))")
# (a dot leader, "A1c ........ 9.2" or one dot set apart, "Pregnancy test (urine) . Negative", ends no sentence;
# a test named in mixed case opens one: "... protein and blood. dsDNA and C3/C4 sent")
_RULE_BOUNDARY = re.compile(r"(?<!\.\.)(?<! )[.!?][\"')\]]*\s+(?=[A-Z0-9#(\[_\"']|[a-z]{1,2}[A-Z]{2})"
                            # a patient's message starts sentences in lower case ("blisters on it. it's been
                            # burning", "thanks. do I need ..."): after a word, before a word that opens one
                            r"|(?:(?<=[a-z]{3}[.!?])|(?<=[a-z][!?]{2}))\s+(?=(?:i|i'm|im|it's|its|it|do|does|did|can|"
                            r"could|should|will|would|thanks|thank|we|she|he|they|my|our|please|pls|how|what|when|"
                            r"why|where|is|are|was|has|have|had)\b)")


# a line that opens with a test's name and its value ("Potassium 5.8 ...", "Beta-hydroxybutyrate 7.9 mmol/L")
_RESULT_START = re.compile(r"^[A-Z][A-Za-z0-9-]{1,24} [<>]?\d")
# a section named by a letter (SOAP: "S:", "O:"): no field has so short a name
_SECTION_LETTER = re.compile(r"^([A-Z]:)[ \t]+(?=\S)")


@dataclass(frozen=True)
class SplitSentence:
    """One sentence of a raw note: `text == note[start:end]`; `kind` says which rule made it."""

    id: str
    paragraph_id: int
    paragraph_offset: int  # offset inside its paragraph (the official start_char_index)
    start: int
    end: int
    text: str
    kind: str  # header | list | lab | field (one of a line's fields) | row (of a table) | appointment | page | text
    # | entry (a medicine with the instruction lines under it)


@dataclass(frozen=True)
class SplitNote:
    """A raw note cut into numbered sentences, with the splitter that did it."""

    text: str
    sentences: tuple[SplitSentence, ...]
    splitter: str  # "spacy:<package> <version>" or "rules"
    notes: tuple[str, ...] = ()  # e.g. why the rule-based fallback was used

    def note_sentences(self) -> tuple[NoteSentence, ...]:
        return tuple(NoteSentence(s.id, s.paragraph_id, s.paragraph_offset, s.text) for s in self.sentences)


# --- the sentence splitters for running prose ---------------------------------------------------------

Segmenter = Callable[[str], list[tuple[int, int]]]


def _rule_segments(text: str, boundary: re.Pattern[str] | None = None) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in (boundary or _RULE_BOUNDARY).finditer(text):
        cut = m.end() - len(m.group(0)) + len(m.group(0).rstrip())
        spans.append((start, cut))
        start = m.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if b > a]


def _lab_segments(text: str) -> list[tuple[int, int]]:
    return _rule_segments(text, _LAB_BOUNDARY)


def _choose(splitter: str) -> tuple[Segmenter, str, tuple[str, ...]]:
    if splitter not in SPLITTERS:
        raise InputError(Problem(f"unknown splitter {splitter!r}; expected one of {', '.join(SPLITTERS)}",
                                 field="splitter", code="option"))
    if splitter == "rules":
        return _rule_segments, "rules", ()
    if splitter == "auto" and not spacy_available():
        return _rule_segments, "rules", (f"spaCy's en_core_web_sm is not installed, so the rule-based splitter "
                                         f"was used ({SPACY_FIX.split(', or')[0]} for the spaCy split)",)
    seg, name = spacy_segmenter(_rule_segments)
    return seg, name, ()


# --- units: what the rules cut before any sentence splitter runs ---------------------------------------

@dataclass
class _Unit:
    start: int
    end: int
    kind: str
    lead: int = 0  # the indentation of its first line
    entry: bool = False  # an entry with lines set in under it that are its own ("Amoxicillin 400 mg/5 mL" + "   Give")
    medicine: bool = False  # an entry headed by a medicine ("Ofloxacin 0.3% eye drops"): every line set in is its own


def _cell_units(line: str, start: int, cells: list[tuple[int, int]], kind: str) -> list[_Unit]:
    return [_Unit(start + a + len(line[a:b]) - len(line[a:b].lstrip()),
                  start + b - len(line[a:b]) + len(line[a:b].rstrip()), kind) for a, b in cells]


def _layout_units(line: str, start: int, in_table: bool) -> list[_Unit] | None:
    """The units of a line its layout alone decides (none for a rule line), or None for any other line.
    `in_table`: the line above or below is a table row too."""
    if is_rule_line(line):
        return []
    if is_page_line(line):
        return [_Unit(start, start + len(line), "page")]
    if is_breadcrumb(line) or is_readings_line(line):
        return [_Unit(start, start + len(line), "row")]
    cells = [] if in_table else pipe_cells(line)
    if len(cells) < 2:
        cells = field_cells(line)
    if len(cells) > 1:
        return _cell_units(line, start, cells, "field")
    # (a lettered item may be a name's initial: "G. Laidlaw, Physiotherapist      page 1/1")
    if not in_table and not ORDER.match(line) and not (ITEM.match(line) and not LETTER_START.match(line)):
        # a laid-out line on its own is a table row only when a column is a value, time or date
        cells = line_cells(line)
        if len(cells) > 1:
            return _cell_units(line, start, cells, "row")
    return None


def _next_line(text: str, paragraph: list[tuple[int, int]], index: int) -> str:
    """A paragraph's line with its indentation ("" past its end)."""
    return text[paragraph[index][0]:paragraph[index][1]] if index < len(paragraph) else ""


def _wrapped_number(line: str, unit: _Unit | None, prev: str, last_number: int) -> bool:
    """Does a line opening with a number carry on the sentence above ("... by hospital day" + "3. Blood glucose
    ran high"): a number out of its list's order after a sentence of prose left open?"""
    number = _LEADING_NUMBER.match(line)
    return bool(number) and int(number.group(1)) not in (1, last_number + 1) and unit is not None \
        and unit.kind == "text" and not prev.rstrip().endswith((".", "!", "?", ":", ";"))


def _carries_on(unit: _Unit, prev: str, line: str, width: int, lead: int, next_line: str) -> bool:
    """Does `line` (indentation `lead`) carry on `unit`, whose last line, as laid out, is `prev`?"""
    if unit.entry and lead > unit.lead and (unit.medicine or not prev.endswith((".", "!", "?"))):
        return True
    # ("CONTINUE: aspirin 81 mg" + "Take 1 tablet by mouth at bedtime.": an order's instruction at its own depth)
    if unit.entry and lead == unit.lead and (order_over_instruction(prev, line)
                                             or medicine_over_instruction(prev, line)):
        return True
    if unit.kind == "lab":  # a lab line is carried on only by a line in lower case: "... NS bolus" + "ordered",
        # after a phrase left open ("... serum osm 249, consistent with" + "SIADH"), or by the value of a test
        # named at its end ("... potassium 4.6 (3.5-5.3), creatinine" + "88 (59-104), eGFR >90.")
        if re.search(r"\d\S*,? [A-Za-z][\w-]{2,}$", prev) and re.match(r"[<>]?\d", line):
            return True
        return bool(CONTINUES_START.match(line) or OPEN_END.search(prev)) \
            and continues(prev, line, width, lead, next_line)
    prev_lead = len(prev) - len(prev.lstrip())
    if unit.kind == "row":  # a row alone carries on into a line set in under it ("Fluticasone inhaler" + "   2 puffs")
        return prev_lead < lead and continues(prev, line, width, lead, next_line)
    # a line set back out to the unit's first depth, after lines set in deeper, ends a hanging indent
    # ("  Albuterol inhaler" + "      4 puffs every 4 hours" + "  Prednisolone 15 mg/5 mL")
    if unit.lead <= lead < prev_lead and not OPEN_END.search(prev):
        return False
    # a result under a result is a line of its own ("Potassium 5.8 on admission, 3.4 at nadir" + "Lactate 2.1")
    if _RESULT_START.match(line) and _RESULT_START.match(prev.strip()) and not OPEN_END.search(prev):
        return False
    return continues(prev, line, width, lead, next_line)


def _results_carry_on(unit: _Unit | None, prev: str, line: str, width: int, lead: int, next_line: str) -> bool:
    """Does a line that reads as results carry `unit` on rather than open a lab line of its own: in lower case
    or after a phrase left open ("... contact the biologics" + "helpline on 01632 960 412.", "His LDL cholesterol
    was" + "3.9 mmol/L and ..."), or under a lab line that the lab rule carries on?"""
    if unit is None or not (unit.kind == "lab" or (unit.kind in ("text", "list")
                                                   and (CONTINUES_START.match(line) or OPEN_END.search(prev)))):
        return False
    return _carries_on(unit, prev, line, width, lead, next_line)


def _units(paragraph: list[tuple[int, int]], text: str, width: int, soap: bool = False,
           labels: bool = True, excerpt: bool = False, sbar: bool = False, letter: bool = False) -> list[_Unit]:
    """The units of a paragraph's lines. `soap`: the note sets SOAP section letters over blocks of lines; `labels`:
    a section label before prose on its line is a unit of its own; `excerpt`: the note writes each paragraph on
    one line, as a release's excerpt does, and keeps a one-line paragraph's label with its prose ("A/P: 54F with
    DKA ..."); `sbar`: an SBAR handover; `letter`: labelled paragraphs, whose labels are units of their own."""
    units: list[_Unit] = []
    open_unit: _Unit | None = None  # a prose or list unit that wrapped lines may continue
    prev_line = ""
    lines = [text[s:e].strip() for s, e in paragraph]
    blocks = appointment_blocks(lines, [len(text[s:e]) - len(text[s:e].lstrip()) for s, e in paragraph])
    if is_result_block(lines):  # a result stacked on short lines: one unit, like an appointment block
        blocks = {0: len(lines) - 1}
    in_table = table_lines([text[s:e] for s, e in paragraph])
    heads = entry_heads([text[s:e] for s, e in paragraph])
    groups = group_heads([text[s:e] for s, e in paragraph], heads)
    named = paragraph_labels(lines, sbar, letter, soap) if labels and (paragraph[1:] or not excerpt) \
        else [None] * len(lines)
    skip_to = last_number = -1
    for index, (line_s, line_e) in enumerate(paragraph):
        if index <= skip_to:
            continue
        if index in blocks:
            skip_to = blocks[index]
            units.append(_block_unit(text, paragraph, index, skip_to))
            open_unit, prev_line = None, ""
            continue
        lead = len(text[line_s:line_e]) - len(text[line_s:line_e].lstrip())
        s = line_s + lead
        e = s + len(text[s:line_e].rstrip())
        section = _SECTION_LETTER.match(text[s:e]) if soap else None
        # (a named section or a problem heading before its prose: "HPI: 45 yo M ...", "# Delirium: Resolved ...",
        # in a paragraph of lines; a release's excerpt joins a paragraph into one line and keeps its labels)
        label_end = section.end(1) if section else named[index]
        if label_end:
            units.append(_Unit(s, s + label_end, "header", lead))
            open_unit = None  # (the prose after a label carries on no line above it)
            s += label_end + len(text[s + label_end:e]) - len(text[s + label_end:e].lstrip())
        line = text[s:e]
        layout = _layout_units(line, s, in_table[index])
        if layout is not None:  # a rule line, a page header or footer, a row of fields: no wrapped text
            units += layout
            open_unit, prev_line = None, ""
            continue
        # the previous line as laid out, indentation included: that is what the wrap width measures
        laid_out, prev_line = prev_line, text[line_s:e]
        if index in groups or heading_line(line, open_unit is None, _next_line(text, paragraph, index + 1), index == 0):
            units.append(_Unit(s, e, "header"))
            open_unit = None
            continue
        if open_unit is not None and _wrapped_number(line, open_unit, laid_out, last_number):
            open_unit.end = e
            continue
        number = _LEADING_NUMBER.match(line)
        last_number = int(number.group(1)) if number else last_number
        if is_entry_stamp_line(line) and index + 1 < len(paragraph):
            open_unit = _Unit(s, e, "stamp", lead)
        elif ITEM.match(line):
            open_unit = _Unit(s, e, "list", lead)
        elif is_table_row(line):
            open_unit = _Unit(s, e, "row", lead)
            if in_table[index]:  # (a table's row carries on into no line)
                units.append(open_unit)
                open_unit = None
                continue
        elif is_lab_line(line) and not _results_carry_on(open_unit, laid_out, line, width, lead,
                                                         _next_line(text, paragraph, index + 1)):
            open_unit = _Unit(s, e, "lab", lead)
        elif open_unit is not None and (open_unit.kind == "stamp" or _carries_on(
                open_unit, laid_out, line, width, lead, _next_line(text, paragraph, index + 1))):
            open_unit.end = e  # (a stamp line takes its entry's first line whatever it holds)
            if open_unit.kind in ("row", "stamp"):  # a row with its instructions under it: prose sentences
                open_unit.kind = "text"
            continue
        else:
            open_unit = _Unit(s, e, "text", lead)
        open_unit.entry, open_unit.medicine = index in heads, index in heads and medicine_head(line)
        units.append(open_unit)
    return _wrapped_field(_medicine_entries(units, text), text)


def _medicine_entries(units: list[_Unit], text: str) -> list[_Unit]:
    """A medicine's entry, its head with the instruction lines under it ("Ofloxacin 0.3% eye drops" + "    Right eye:
    1 drop 4 times a day. Stop after 11/11/2026."), is one unit, however many sentences its instruction holds: the
    reading of most writers of gold splits (a few cut the instruction's sentences apart)."""
    for u in units:
        if u.medicine and u.kind == "text" and "\n" in text[u.start:u.end]:
            u.kind = "entry"
    return units


def _wrapped_field(units: list[_Unit], text: str) -> list[_Unit]:
    """A paragraph's last line under a line of fields that carries on its last field's value, wrapped inside a title
    ("Clinic date: 06/02/2025     Consultant: Mr A. Kell, Paediatric" + "Neurosurgeon"), joins that field."""
    if len(units) >= 3 and units[-3].kind == units[-2].kind == "field" and units[-1].kind in ("text", "header") \
            and "\n" not in text[units[-3].end:units[-2].start] \
            and text.count("\n", units[-2].end, units[-1].start) == 1 \
            and wraps_field_value(text[units[-2].start:units[-2].end], text[units[-1].start:units[-1].end]):
        units[-2].end = units[-1].end
        return units[:-1]
    return units


def _block_unit(text: str, paragraph: list[tuple[int, int]], first: int, last: int) -> _Unit:
    """An appointment block's (or a result stacked on short lines') lines as one unit, first line to last."""
    line_s, line_e = paragraph[first]
    last_s, last_e = paragraph[last]
    return _Unit(line_s + len(text[line_s:line_e]) - len(text[line_s:line_e].lstrip()),
                 last_s + len(text[last_s:last_e].rstrip()), "appointment")


def _paragraphs(text: str) -> list[list[tuple[int, int]]]:
    paras: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    for s, e in text_lines(text):
        if text[s:e].strip():
            current.append((s, e))
        elif current:
            paras.append(current)
            current = []
    if current:
        paras.append(current)
    return paras


def _split_unit(unit: _Unit, text: str, segment: Segmenter, excerpt: bool = False) -> list[tuple[int, int]]:
    """A unit's sentences. `excerpt`: the note is written as a release's excerpt, whose sentences keep a field's
    appointments together ("Follow-up: PCP in 1 week; cardiology in 4 weeks.")."""
    # (an order set in its column is a row of a list of orders, whose instruction may hold sentences: "START
    # Doxycycline 100 mg twice daily. Take it with water.")
    if unit.kind in ("header", "appointment", "row", "page", "entry") \
            and not (unit.kind == "row" and ORDER_COLUMN.match(text[unit.start:unit.end])):
        return [(unit.start, unit.end)]
    # a lab line's decimals and asterisks are no sentence ends; only a plain ". Capital" is
    lab = unit.kind == "lab" or (unit.kind == "field" and is_lab_line(text[unit.start:unit.end]))
    seg = _lab_segments if lab else segment
    spans = [(unit.start + a, unit.start + b) for a, b in seg(text[unit.start:unit.end])]
    merged: list[tuple[int, int]] = []
    for s, e in spans:
        piece = text[s:e]
        s += len(piece) - len(piece.lstrip())
        e -= len(piece) - len(piece.rstrip())
        if s >= e:
            continue
        if merged and should_join(text[merged[-1][0]:merged[-1][1]], text[s:e], unit.kind):
            merged[-1] = (merged[-1][0], e)
            continue
        if merged:
            # "1. Apixaban 5 mg PO BID 2." + "Atorvastatin ...": an inline list's next number starts the next item
            prev = text[merged[-1][0]:merged[-1][1]]
            m, first = _TRAILING_MARKER.search(prev), _LEADING_NUMBER.match(prev)
            # (a number that the next line opens with as its item ends a sentence here: "2. Stop bleomycin from
            # cycle 3. Repeat lung function tests are not needed." over "3. End-of-treatment PET-CT ...")
            if m and re.match(rf"{m.group(1)}[.)]\s", text[unit.end:].lstrip()):
                m = None
            if m and ((first and int(m.group(1)) == int(first.group(1)) + 1)
                      or (m.group(1) == "1" and prev[:m.start()].endswith(":"))):
                cut = merged[-1][0] + m.start()
                merged[-1] = (merged[-1][0], cut)
                s = cut + len(text[cut:s]) - len(text[cut:s].lstrip())
        merged.append((s, e))
    merged = lower_case_cuts(merged, text, unit.start)
    # a medication list item run into an order ("2. Lisinopril 10 mg daily STOP aspirin"); prose is not cut
    if not excerpt:
        merged = [cut for s, e in merged for cut in appointment_cuts(s, e, text)]
    return [cut for s, e in merged for cut in (order_cuts([(s, e)], text) if ITEM.match(text[s:e]) else [(s, e)])]


def split_note(note: str, splitter: str = "auto") -> SplitNote:
    """Cut a raw note into numbered sentences (ids "1", "2", ...), keeping their offsets in `note`.

    `splitter`: "spacy" (en_core_web_sm; UnavailableError when absent), "rules" (no dependency), or
    "auto" (spaCy when installed, else the rules, saying so in `notes`).
    """
    if not isinstance(note, str) or not note.strip():
        raise InputError(Problem("the note is empty", field="note", code="empty-note"))
    segment, name, notes = _choose(splitter)
    sentences: list[SplitSentence] = []
    width = wrap_width(note)
    # "S: 47 yo F ... but" over more lines: a note that sets a SOAP section's letter over the block of lines
    # it opens heads each section so, "A: Strep throat." too; in a note that never does, "S: Pt feels
    # better." keeps its letter as that line's label, as the releases keep it
    paragraphs = _paragraphs(note)
    # (or sets two SOAP letters or more alone on their lines over their blocks: "O:" + "Vitals: ...", "A:" + "...")
    soap = any(_SECTION_LETTER.match(note[a:b].strip()) and k + 1 < len(para)
               for para in paragraphs for k, (a, b) in enumerate(para)) \
        or len({note[a:b].strip() for para in paragraphs for a, b in para[:-1]} & {"S:", "O:", "A:", "P:"}) >= 2 \
        or soap_letters_apart([[note[a:b].strip() for a, b in para] for para in paragraphs])
    # a note de-identified as the releases are ("Name: ___", "Dr. ___") is written as they are: its section
    # labels stay with their prose ("HISTORY OF PRESENT ILLNESS: Mr. ___ is ...", "# AKI: Cr peaked ...")
    labels = "___" not in note
    excerpt = all(len(para) == 1 for para in paragraphs)
    sbar = bool(re.search(r"^[ \t]*Situation[ \t]*:", note, re.MULTILINE | re.IGNORECASE))
    letter = writes_labelled_paragraphs([[note[a:b].strip() for a, b in para] for para in paragraphs])
    for p_id, para in enumerate(paragraphs, start=1):
        p_start = para[0][0] + len(note[para[0][0]:para[0][1]]) - len(note[para[0][0]:para[0][1]].lstrip())
        for unit in _units(para, note, width, soap, labels, excerpt, sbar, letter):
            for s, e in _split_unit(unit, note, segment, excerpt):
                sentences.append(SplitSentence(str(len(sentences) + 1), p_id, s - p_start, s, e, note[s:e],
                                               unit.kind))
    return SplitNote(note, tuple(sentences), name, notes)


def note_case(note: str | SplitNote, question: str, narrative: str | None = None, case_id: str = "1",
              splitter: str = "auto", specialty: tuple[str, ...] = ()) -> tuple[Case, SplitNote]:
    """A one-case `Case` from a raw note and a patient question (with the patient's message if given).

    The question is the patient's question phrase; it is found in the narrative when given (else appended
    to it), and it also stands in for the clinician's rewording, which a raw question does not have.
    """
    question = (question or "").strip()
    if not question:
        raise InputError(Problem("the question is empty", field="question", code="empty-question"))
    split = note if isinstance(note, SplitNote) else split_note(note, splitter)
    story = " ".join((narrative or "").split())
    if not story:
        story = question
    elif question not in story:
        story = f"{story} {question}"
    phrase = Phrase(0, story.index(question), question)
    case = Case(case_id, story, (phrase,), question, split.text, split.note_sentences(), tuple(specialty))
    return case, split
