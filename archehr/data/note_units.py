"""A paragraph of a raw note -> units: what the rules cut before any sentence splitter runs
(`archehr.data.note_split` splits each unit into sentences).

A unit is a header, a list item, a lab line, a field or a table row, an appointment block, a page line, or prose;
wrapped lines stay with the unit they carry on. `units` walks a paragraph's lines, carrying from line to line the unit
still open to wrapped lines, the line above as laid out (the wrap width measures it) and the last list number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from archehr.data.note_blocks import appointment_blocks, is_result_block
from archehr.data.note_entries import (
    entry_heads,
    group_heads,
    is_order_note,
    medicine_head,
    medicine_over_instruction,
    order_over_instruction,
)
from archehr.data.note_field_wraps import wrapped_field
from archehr.data.note_layout import (
    FIELD,
    ITEM,
    KEY_VALUE,
    OPEN_END,
    ORDER,
    field_cells,
    has_column_gap,
    is_readings_line,
    is_table_row,
    line_cells,
    place_and_date_cells,
)
from archehr.data.note_page import is_breadcrumb, is_page_furniture, is_page_line, is_rule_line, running_lines
from archehr.data.note_pipes import pipe_cells, pipe_row_wraps, table_lines
from archehr.data.note_sections import HEADER_ONLY, heading_line, paragraph_labels
from archehr.data.note_stamps import MONTH_NAME, is_entry_head, is_entry_stamp_line, is_stamp_only, starts_with_stamp
from archehr.data.note_wrap import CONTINUES_START, LETTER_START, MEASURE_START, continues, is_lab_line

# a line opening with a list number ("3. ", "12) ")
LEADING_NUMBER = re.compile(r"^(\d{1,2})[.)]\s")
# a line that opens with a test's name and its value ("Potassium 5.8 ...", "Beta-hydroxybutyrate 7.9 mmol/L")
_RESULT_START = re.compile(r"^[A-Z][A-Za-z0-9-]{1,24} [<>]?\d")
# a value, a month's date or a year alone that ends a sentence: "0.60.", "12 mmol/L.", "January 2024."
_VALUE_END = re.compile(rf"^(?:[<>]?\d[\d.,]*(?: ?[A-Za-z%/]+)?|{MONTH_NAME} \d{{4}}|(?:19|20)\d{{2}})\.$")
# a capitalised word that opens a sentence and names nothing ("If the line breaks ...", "Please call ...")
_OPENS_SENTENCE = re.compile(r"^(?:If|When|Whenever|Please|You|Your|We|It|This|These|They|Call|Ring|Phone|Contact|Seek"
                             r"|Do|Don't|Go)\b")
# a section named by a letter (SOAP: "S:", "O:"): no field has so short a name
SECTION_LETTER = re.compile(r"^([A-Z]:)[ \t]+(?=\S)")
# (a dictation typed in lower case writes them so: "s: patient returns ...", "p: one. ...")
_LOWER_SECTION_LETTER = re.compile(r"^([soap]:)[ \t]+(?=\S)")


@dataclass
class Unit:
    """A span of the note (`start`, `end`) that the rules cut before any sentence splitter runs; `kind` is the
    rule's (header, list, lab, field, row, appointment, page, stamp, entry or text)."""

    start: int
    end: int
    kind: str
    lead: int = 0  # the indentation of its first line
    entry: bool = False  # an entry with lines set in under it that are its own ("Amoxicillin 400 mg/5 mL" + "   Give")
    medicine: bool = False  # an entry headed by a medicine ("Ofloxacin 0.3% eye drops"): every line set in is its own
    order: bool = False  # opened by an order ("STOP      Metformin 500 mg"): a labelled note set in under it is apart


def _cell_units(line: str, start: int, cells: list[tuple[int, int]], kind: str) -> list[Unit]:
    return [Unit(start + a + len(line[a:b]) - len(line[a:b].lstrip()),
                  start + b - len(line[a:b]) + len(line[a:b].rstrip()), kind) for a, b in cells]


def _layout_units(line: str, start: int, in_table: bool, in_header: bool = False) -> list[Unit] | None:
    """The units of a line its layout alone decides (none for a rule line), or None for any other line.
    `in_table`: the line above or below is a table row too; `in_header`: a line of fields is above or below it."""
    if is_rule_line(line):
        return []
    if is_page_line(line) or is_page_furniture(line):
        return [Unit(start, start + len(line), "page")]
    if is_breadcrumb(line) or is_readings_line(line):
        return [Unit(start, start + len(line), "row")]
    cells = [] if in_table else pipe_cells(line)
    if len(cells) < 2:
        cells = field_cells(line)
    if len(cells) < 2 and in_header:  # ("Yesenia Ruiz    DOB: ..." + "Lakeside Urgent Care    Saturday, June 7, 2025")
        cells = place_and_date_cells(line)
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


def _wrapped_number(line: str, unit: Unit | None, prev: str, last_number: int) -> bool:
    """Does a line opening with a number carry on the sentence above ("... by hospital day" + "3. Blood glucose
    ran high"): a number out of its list's order after a sentence of prose left open?"""
    number = LEADING_NUMBER.match(line)
    # (a heading in capitals over it is open on no sentence: a PDF's next page goes on with "ACTIVITY" + "5. No
    # swimming ...")
    heading = prev.strip().isupper() and len(prev.split()) <= 5
    return bool(number) and int(number.group(1)) not in (1, last_number + 1) and unit is not None \
        and unit.kind == "text" and not prev.rstrip().endswith((".", "!", "?", ":", ";")) and not heading


def _carries_on(unit: Unit, prev: str, line: str, width: int, lead: int, next_line: str) -> bool:
    """Does `line` (indentation `lead`) carry on `unit`, whose last line, as laid out, is `prev`?"""
    # ("STOP      Metformin 500 mg twice daily" + "          Reason: no effect after 6 months.": the order's note,
    # whether the order is an entry or a table's row)
    if unit.order and lead > unit.lead and is_order_note(line):
        return False
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
        # (or a measurement running on in lower case: "... normal, with neutrophils" + "3.4 x10^9/L, and her ...")
        if MEASURE_START.match(line) and re.search(r"[a-z]{2}$", prev.rstrip()):
            return True
        # (or by a value or a date alone that ends its sentence: "... FEV1/FVC" + "0.60.", "... diagnosed" + "January
        # 2024.")
        if _VALUE_END.match(line) and not prev.rstrip().endswith((".", "!", "?", ":", ";")):
            return True
        return bool(CONTINUES_START.match(line) or OPEN_END.search(prev)) \
            and continues(prev, line, width, lead, next_line)
    # a list item's line that stopped short of the wrap width, under a line opening on a word that opens sentences, not
    # names ("- the line is damaged or has moved out further than before" + "If the line breaks, clamp it ..."): the
    # item ended there, however its last word reads
    if unit.kind == "list" and _OPENS_SENTENCE.match(line) and width >= 50 \
            and len(prev) + 1 + len(line.split(maxsplit=1)[0]) <= width:
        return False
    # (a list item's line left open on a word near the wrap width carries on into a line that goes on in lower case,
    # whatever its first word: "7. ... it does not affect the Dexcom" + "G7 readings at normal doses.")
    if unit.kind == "list" and width >= 50 and len(prev.rstrip()) >= 0.85 * width and re.search(r"\w$", prev) \
            and re.match(r"\S+ [a-z]{2,}", line) and not (FIELD.match(line) or ORDER.match(line) or ITEM.match(line)):
        return True
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


def _results_carry_on(unit: Unit | None, prev: str, line: str, width: int, lead: int, next_line: str) -> bool:
    """Does a line that reads as results carry `unit` on rather than open a lab line of its own: in lower case
    or after a phrase left open ("... contact the biologics" + "helpline on 01632 960 412.", "His LDL cholesterol
    was" + "3.9 mmol/L and ..."), or under a lab line that the lab rule carries on?"""
    # (a value that ends the sentence wrapped from the line above, more sentences after it: "... LVEF (biplane)" +
    # "41%. Previous study: LVEF 30%.")
    said = re.split(r"(?<=\.)\s+(?=[A-Z])", line.strip(), maxsplit=1)
    if unit is not None and unit.kind in ("text", "field") and len(said) == 2 and _VALUE_END.match(said[0]) \
            and re.search(r"[A-Za-z)]$", prev.rstrip()) and len(prev.strip()) >= 40:
        return True
    # (a medicine's instruction set in under it carries its entry on, doses and days as it may hold: "Salbutamol
    # inhaler" + "    Day 1: 6 puffs every 4 hours.")
    if unit is None or not (unit.kind == "lab" or (unit.kind in ("text", "list")
                                                   and (CONTINUES_START.match(line) or OPEN_END.search(prev)))
                            or (unit.medicine and lead > unit.lead)):
        return False
    return _carries_on(unit, prev, line, width, lead, next_line)


@dataclass(frozen=True)
class _Paragraph:
    """A paragraph's lines with what `units` reads of them all before walking them one by one."""

    text: str  # the whole note
    lines: list[tuple[int, int]]  # the paragraph's lines, as offsets into `text`
    width: int  # the note's wrap width
    soap: bool  # the note sets SOAP section letters over blocks of lines
    blocks: dict[int, int]  # an appointment block's (or a stacked result's) first line -> its last
    in_table: list[bool]  # the line above or below is a table row too
    heads: set[int]  # lines that head an entry
    groups: set[int]  # lines that head a group of entries
    named: list[int | None]  # the length of a section label opening the line, if any
    phrases: bool = False  # three lines or more (two under a heading), each opening in a capital, none ending a
    # sentence: a list of lines
    running: frozenset[str] = frozenset()  # a PDF copy's header or footer lines printed again on each page

    def next_line(self, index: int) -> str:
        """The paragraph's line after line `index`, with its indentation ("" past its end)."""
        return _next_line(self.text, self.lines, index + 1)


@dataclass
class _Walk:
    """The state carried from line to line: the units so far, the unit wrapped lines may continue, the line above as
    laid out, and the last list number seen."""

    units: list[Unit] = field(default_factory=list)
    open_unit: Unit | None = None  # a prose or list unit that wrapped lines may continue
    prev_line: str = ""
    last_number: int = -1

    def close(self, units: list[Unit]) -> None:
        """Add units that no line carries on (a block, a layout's units); the next line opens a unit afresh."""
        self.units += units
        self.open_unit, self.prev_line = None, ""


def _read_paragraph(paragraph: list[tuple[int, int]], text: str, width: int, soap: bool, labels: bool,
                    excerpt: bool, sbar: bool, letter: bool) -> _Paragraph:
    lines = [text[s:e].strip() for s, e in paragraph]
    laid_out = [text[s:e] for s, e in paragraph]
    blocks = appointment_blocks(lines, [len(line) - len(line.lstrip()) for line in laid_out])
    if is_result_block(lines):  # a result stacked on short lines: one unit, like an appointment block
        blocks = {0: len(lines) - 1}
    heads = entry_heads(laid_out)
    named = paragraph_labels(lines, sbar, letter, soap) if labels and (paragraph[1:] or not excerpt) \
        else [None] * len(lines)
    return _Paragraph(text, paragraph, width, soap, blocks, table_lines(laid_out), heads,
                      group_heads(laid_out, heads), named, _phrase_lines(lines, laid_out), running_lines(text))


def _phrase_lines(lines: list[str], laid_out: list[str]) -> bool:
    """Is a paragraph a list of phrases, one a line ("Diagnosis: Venous leg ulcer, left leg" + "Superficial venous
    reflux" + "Hypertension; type 2 diabetes"): three lines or more at one depth, each opening in a capital, none
    ending a sentence or left open? A full line there wraps nothing: prose wrapped over three lines ends a sentence
    (lines set in under a line are its own: "Follow-up with Dr. Lee" + "    To be scheduled after your results")."""
    # (or two lines or more under a heading alone on its line: "Current treatment:" + "Insulin pump with closed-loop
    # control, using insulin aspart (NovoRapid)" + "Continuous glucose monitor"; prose wrapped over two lines under a
    # heading ends a sentence too)
    least = 3
    if len(lines) >= 3 and HEADER_ONLY.match(lines[0]):
        lines, laid_out, least = lines[1:], laid_out[1:], 2
    return len(lines) >= least and len({len(x) - len(x.lstrip()) for x in laid_out}) == 1 \
        and all(re.match(r"[A-Z]", x) and not x.endswith((".", "!", "?", ":")) and not OPEN_END.search(x)
                for x in lines)


def units(paragraph: list[tuple[int, int]], text: str, width: int, soap: bool = False,
          labels: bool = True, excerpt: bool = False, sbar: bool = False, letter: bool = False) -> list[Unit]:
    """The units of a paragraph's lines. `soap`: the note sets SOAP section letters over blocks of lines; `labels`:
    a section label before prose on its line is a unit of its own; `excerpt`: the note writes each paragraph on
    one line, as a release's excerpt does, and keeps a one-line paragraph's label with its prose ("A/P: 54F with
    DKA ..."); `sbar`: an SBAR handover; `letter`: labelled paragraphs, whose labels are units of their own."""
    if _signature_block([text[s:e].strip() for s, e in paragraph]):  # (a sign-off's lines: one unit each)
        return [u for k in range(len(paragraph)) for u in _sign_off_line(text, paragraph, k)]
    para = _read_paragraph(paragraph, text, width, soap, labels, excerpt, sbar, letter)
    walk = _Walk()
    skip_to = -1
    for index in range(len(paragraph)):
        if index <= skip_to:
            continue
        if index in para.blocks:
            skip_to = para.blocks[index]
            walk.close([_block_unit(text, paragraph, index, skip_to)])
        else:
            _take_line(para, walk, index)
    return wrapped_field(_medicine_entries(walk.units, text), text, width)


def _take_line(para: _Paragraph, walk: _Walk, index: int) -> None:
    """Walk one line (not in a block): a label before it, then its layout's units, a header, or a unit it opens or
    carries on."""
    text = para.text
    line_s, line_e = para.lines[index]
    lead = len(text[line_s:line_e]) - len(text[line_s:line_e].lstrip())
    s = line_s + lead
    e = s + len(text[s:line_e].rstrip())
    if text[s:e] in para.running:  # (a running header or footer: one unit, whatever it holds)
        walk.close([Unit(s, e, "page")])
        return
    s = _after_label(para, walk, index, s, e, lead)
    line = text[s:e]
    # (the lines around are read only for a line of a place and a date)
    layout = _layout_units(line, s, para.in_table[index],
                           bool(place_and_date_cells(line)) and _among_fields(para, index))
    if layout is not None:  # a rule line, a page header or footer, a row of fields: no wrapped text
        walk.close(layout)
        return
    # the previous line as laid out, indentation included: that is what the wrap width measures
    laid_out, walk.prev_line = walk.prev_line, text[line_s:e]
    # (a log entry's stamp line takes its first line even when that is a heading: "09:12 Sr A. Lee" + "Seen:")
    stamped = walk.open_unit is not None and walk.open_unit.kind == "stamp"
    # (a line above left open on an article runs on into any line, a heading's look as it has: "... or go to the" +
    # "Emergency Department if:")
    on_article = walk.open_unit is not None and re.search(r"\b(?:the|a|an)$", laid_out.rstrip()) is not None
    if index in para.groups or not (stamped or on_article) \
            and heading_line(line, walk.open_unit is None, para.next_line(index),
                             index == 0 or _caption_over_list(para, index, lead)):
        walk.units.append(Unit(s, e, "header"))
        walk.open_unit = None
        return
    if walk.open_unit is not None and _wrapped_number(line, walk.open_unit, laid_out, walk.last_number):
        walk.open_unit.end = e
        return
    number = LEADING_NUMBER.match(line)
    walk.last_number = int(number.group(1)) if number else walk.last_number
    _open_or_carry_on(para, walk, index, Unit(s, e, "text", lead), laid_out)


def _caption_over_list(para: _Paragraph, index: int, lead: int) -> bool:
    """Is line `index` (set in by `lead`) set out to the left over a list's items set in, under another list's items, a
    title in capitals or a field? A portal's summary heads its lists so ("VISIT SUMMARY" + "Diagnoses this visit" +
    "  Acute bronchitis", "  Tobacco use" + "Orders placed this visit" + "  Chest X-ray"): the caption is a paragraph's
    first line however the note is spaced. A medicine's name over its instruction ("Multivitamin with iron" + "    Take
    1 tablet daily.") is none: the items hold no sentence's stop."""
    if index == 0:
        return False
    above, below = _next_line(para.text, para.lines, index - 1), para.next_line(index)
    if not below.strip() or len(below) - len(below.lstrip()) <= lead or below.rstrip().endswith((".", "!", "?", ":")):
        return False
    item_above = len(above) - len(above.lstrip()) > lead and not above.rstrip().endswith((".", "!", "?", ":"))
    return item_above or above.strip().isupper() or bool(FIELD.match(above.strip())) or len(field_cells(above)) > 1


def _among_fields(para: _Paragraph, index: int) -> bool:
    """Is a line of fields directly above or below line `index` ("Provider: Dr A. Lee", "Jo Ruiz    DOB: 1/2/1990")?"""
    near = [para.text[a:b].strip() for k, (a, b) in enumerate(para.lines) if abs(k - index) == 1]
    return any(FIELD.match(x) or len(field_cells(x)) > 1 for x in near)


def _after_label(para: _Paragraph, walk: _Walk, index: int, s: int, e: int, lead: int) -> int:
    """Where the line's prose starts after a label that is a unit of its own (a named section or a problem heading
    before its prose: "HPI: 45 yo M ...", "# Delirium: Resolved ...", in a paragraph of lines; a release's excerpt
    joins a paragraph into one line and keeps its labels), which it adds; `s` when there is none."""
    text = para.text
    section = (SECTION_LETTER.match(text[s:e]) or _LOWER_SECTION_LETTER.match(text[s:e])) if para.soap else None
    label_end = section.end(1) if section else para.named[index]
    if not label_end:
        return s
    walk.units.append(Unit(s, s + label_end, "header", lead))
    walk.open_unit = None  # (the prose after a label carries on no line above it)
    return s + label_end + len(text[s + label_end:e]) - len(text[s + label_end:e].lstrip())


def _open_or_carry_on(para: _Paragraph, walk: _Walk, index: int, unit: Unit, laid_out: str) -> None:
    """Open the unit a line (`unit`, its span and indentation, as "text") starts by its shape, or carry the open
    unit on into it; `laid_out` is the line above as laid out."""
    line, open_unit = para.text[unit.start:unit.end], walk.open_unit
    # (an order's labelled note set in under its drug's column is no wrap of it: "STOP      Metformin 500 mg" +
    # "          Reason: no effect after 6 months.")
    if open_unit is not None and open_unit.kind == "row" and index > 0 and _cell_wrapped_below(para, index - 1) \
            and not (open_unit.order and is_order_note(line)):
        open_unit.end = unit.end  # (a row's last cell goes on under its column: the row's unit takes the line)
        return
    if open_unit is not None and open_unit.kind == "stamp" and not is_entry_stamp_line(line):
        # (a stamp line takes its entry's first line whatever it holds, results too: "06/10/2025 15:22  Results - Dr
        # A. Lee" + "U&E: sodium 138, potassium 4.1, creatinine 96.")
        open_unit.end, open_unit.kind = unit.end, "text"
        return
    if (is_entry_stamp_line(line) or _message_stamp(para, index, line)) and index + 1 < len(para.lines):
        unit.kind = "stamp"
    elif ITEM.match(line):
        unit.kind = "list"
    elif is_table_row(line) and not _row_wraps_on(open_unit, para.text, line, unit.lead):
        unit.kind = "row"
        # (a table's row carries on into no line, unless it heads an entry with its lines set in under it:
        # "STOP      Vitamin gummies - dose far too low for this" + "          degree of deficiency")
        if para.in_table[index] and index not in para.heads and not _cell_wrapped_below(para, index):
            walk.units.append(unit)
            walk.open_unit = None
            return
    elif is_lab_line(line) and not _results_carry_on(open_unit, laid_out, line, para.width, unit.lead,
                                                     para.next_line(index)):
        unit.kind = "lab"
    elif KEY_VALUE.match(line) and not _prose_runs_into_key(open_unit, laid_out, line, para.width):
        # (an export's key and value opens a unit: no line above runs on into it)
        unit.kind = "text"
    elif open_unit is not None and (open_unit.kind == "stamp" or not para.phrases and _carries_on(
            open_unit, laid_out, line, para.width, unit.lead, para.next_line(index))):
        open_unit.end = unit.end  # (a stamp line takes its entry's first line whatever it holds)
        if open_unit.kind in ("row", "stamp"):  # a row with its instructions under it: prose sentences
            open_unit.kind = "text"
        return
    unit.entry, unit.medicine = index in para.heads, index in para.heads and medicine_head(line)
    unit.order = bool(ORDER.match(line.strip()))
    walk.units.append(unit)
    walk.open_unit = unit


def _cell_wrapped_below(para: _Paragraph, index: int) -> bool:
    """Does line `index`, a row laid out in columns, go on under its last column: is the next line set in exactly
    where that column starts, one cell's words (a row's comment wrapped: "Sodium   131   Low - recheck" over
    "                      in 1 week")? The row's last line wrapped so takes the next the same way."""
    row, below = _next_line(para.text, para.lines, index), para.next_line(index)
    if pipe_row_wraps(row, below):  # (a pipe table's row wrapped onto a line of its own, its first cell empty)
        return True
    gaps = list(re.finditer(r"\S(?: {2,}|\t+)(?=\S)", row))
    if gaps and gaps[-1].end() == len(below) - len(below.lstrip()) and below.strip() \
            and not has_column_gap(below.strip()):
        return True
    # (a line that is itself the wrapped rest of the row above: carries on under the same column)
    return index > 0 and _cell_wrapped_below(para, index - 1) and bool(below.strip()) \
        and len(below) - len(below.lstrip()) == len(row) - len(row.lstrip()) > 0 and not has_column_gap(below.strip())


def _row_wraps_on(unit: Unit | None, text: str, line: str, lead: int) -> bool:
    """Is a line laid out in columns, set in under an order's row that heads an entry, that row's cells wrapped onto
    the next line ("START   amoxicillin 875 mg PO   10 days;" + "        twice daily with food    culture sensitive")?
    Its columns carry the row's own on, as a line of one column set in under it does."""
    return unit is not None and unit.entry and lead > unit.lead and not ORDER.match(line) \
        and bool(ORDER.match(text[unit.start:unit.end]))


def _prose_runs_into_key(unit: Unit | None, prev: str, line: str, width: int) -> bool:
    """A lower-case word and its colon under a full line of prose left open is the sentence's next word, no export's
    key ("... and after the anaesthetic. Bloods taken 31/03/2025" + "reviewed: Hb 131 g/L, ..."): the line above
    filled the wrap width and its first word would not have fitted on it."""
    first = line.split(maxsplit=1)[0]
    return unit is not None and unit.kind == "text" and width >= 50 and bool(re.match(r"[a-z]+:\s", line)) \
        and not prev.rstrip().endswith((".", "!", "?", ":", ";", ",")) \
        and len(prev) <= width < len(prev) + 1 + len(first) and len(re.findall(r"\b[a-z]{3,}\b", prev)) >= 6


def _message_stamp(para: _Paragraph, index: int, line: str) -> bool:
    """A message's date and time alone over its text, opening the paragraph ("Mon 12 May, 09:14" + "Riverside
    Surgery: Your results are back. ..."), as a phone's or a portal's message list prints them: the stamp stays with
    the message's first sentence. A date alone heads a day's block ("12/03/2025" + "09:14 Phoned ..."), and a line
    opening with its own time is an entry of its own."""
    return index == 0 and (is_stamp_only(line) or (starts_with_stamp(line) and is_entry_head(line))) \
        and re.search(r"\d:\d\d", line) is not None \
        and index + 1 < len(para.lines) and not starts_with_stamp(para.next_line(index))


# a clinician named with a title, in lower case as a dictation types it: "dr felix amankwah", "mr j o'neill"
_LOWER_SIGNER = re.compile(r"^(?:dr|mr|mrs|ms|miss|prof|sister|nurse)\.? [a-z][a-z'-]+(?: [a-z][a-z'-]+){0,3}$")


# a letter's closing typed in lower case on its line: "kind regards", "yours sincerely,", "with best wishes"
_LOWER_CLOSING = re.compile(r"^(?:(?:with )?(?:kind|best|warm|many|warmest)(?: regards| wishes| thanks)|regards"
                            r"|yours (?:sincerely|faithfully|truly)|thanks|thank you|many thanks|best),?$")


def _signature_block(lines: list[str]) -> bool:
    """A dictation's sign-off typed in lower case: a paragraph of two to six short lines opening with a
    clinician's name and title ("dr felix amankwah" + "specialty doctor in urology" + "cc gp, dr ..."), or with the
    letter's closing over them ("kind regards" + "dr ..."), no line ending a sentence. Its lines are units of their
    own, as a sign-off's lines in capitals are."""
    closing = bool(lines) and bool(_LOWER_CLOSING.match(lines[0]))
    lines = lines[closing:]
    return 2 - closing <= len(lines) <= 5 and bool(_LOWER_SIGNER.match(lines[0])) \
        and all(0 < len(x) <= 60 and not x.endswith((".", "!", "?", ",", ";", ":")) for x in lines)


def _sign_off_line(text: str, paragraph: list[tuple[int, int]], k: int) -> list[Unit]:
    """A sign-off's line: one unit, or its cells when a separator parts them ("dict 2024-11-06 / tr 2024-11-07":
    when it was dictated and when typed, a unit each)."""
    unit = _block_unit(text, paragraph, k, k)
    cells = pipe_cells(text[unit.start:unit.end])
    return _cell_units(text[unit.start:unit.end], unit.start, cells, "field") if len(cells) > 1 else [unit]


def _medicine_entries(units: list[Unit], text: str) -> list[Unit]:
    """A medicine's entry, its head with the instruction lines under it ("Ofloxacin 0.3% eye drops" + "    Right eye:
    1 drop 4 times a day. Stop after 11/11/2026."), is one unit (kind "entry"), which `note_split` cuts into the
    instruction's sentences, the head kept with the first ("Ofloxacin 0.3% eye drops Right eye: 1 drop 4 times a
    day." + "Stop after 11/11/2026."): the writer brief's reading, as a list item of two sentences gives two units."""
    for u in units:
        if u.medicine and u.kind == "text" and "\n" in text[u.start:u.end]:
            u.kind = "entry"
    return units


def _block_unit(text: str, paragraph: list[tuple[int, int]], first: int, last: int) -> Unit:
    """An appointment block's (or a result stacked on short lines') lines as one unit, first line to last."""
    line_s, line_e = paragraph[first]
    last_s, last_e = paragraph[last]
    return Unit(line_s + len(text[line_s:line_e]) - len(text[line_s:line_e].lstrip()),
                 last_s + len(text[last_s:last_e].rstrip()), "appointment")
