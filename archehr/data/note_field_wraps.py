"""A field's value that an export wrapped onto the next line ("Consultant: Mr A. Kell, Paediatric" + "Neurosurgeon"):
the carried line joins its field, as the paragraph's last line or between two lines of fields."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

# a field: a label and its colon before a value ("Line type: PICC, single lumen"), as a line of fields reads it (a
# label of two characters or more, ending in a letter, a digit or a bracket: a SOAP letter, "S:", is a section's)
from archehr.data.note_layout import FIELD_START

if TYPE_CHECKING:
    from archehr.data.note_units import Unit

# a field's value cut at a capitalised word of a title ("Consultant: Mr A. Kell, Paediatric"), and the one to three
# capitalised words that end it on the next line ("Neurosurgeon")
_OPEN_TITLE = re.compile(r"^[A-Z][A-Za-z0-9 /&()'#.-]{0,38}:[ \t]+(?:\S.*\b)?[A-Z][a-z]+$")
_TITLE_END = re.compile(r"^[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2}$")


def wraps_field_value(field: str, line: str) -> bool:
    """Does `line`, under a line of fields, carry on that line's last field (`field`),
    whose value the export wrapped inside a title ("Consultant: Mr A. Kell, Paediatric" + "Neurosurgeon")?"""
    return bool(_OPEN_TITLE.match(field.strip())) and bool(_TITLE_END.match(line.strip()))


def wrapped_field(units: list[Unit], text: str, width: int = 0) -> list[Unit]:
    """A line under a line of fields that carries on its last field's value, wrapped inside a title ("Clinic date:
    06/02/2025     Consultant: Mr A. Kell, Paediatric" + "Neurosurgeon"), joins that field: as the paragraph's last
    line, or between two lines of fields when the line of fields is as wide as the note's wrap width would let the
    carried word sit ("Requested by: S. Lee RM    Location: Kingsmere" + "Antenatal Clinic" + "Collected: ...")."""
    k = 1
    while k + 1 < len(units):
        field, line = units[k], units[k + 1]
        last = k + 2 == len(units)
        carried = text[line.start:line.end]
        if units[k - 1].kind == field.kind == "field" and line.kind in ("text", "header") \
                and "\n" not in text[units[k - 1].end:field.start] \
                and text.count("\n", field.end, line.start) == 1 and "\n" not in carried \
                and (_lower_case_wrap(text[field.start:field.end], carried)
                     or ((last or (units[k + 2].kind == "field" and _overruns(text, field, line, width)))
                         and wraps_field_value(text[field.start:field.end], carried))):
            field.end = line.end
            del units[k + 1]
        k += 1
    return _wrapped_names(_wrapped_first_cells(_label_over_value(units, text), text), text)


# a field's label opened after a sentence's end at the end of a line of prose ("... it is ready to use. Length
# inserted:")
_LABEL_AT_END = re.compile(r"[a-z)][.!?][ \t]+[A-Z][A-Za-z ]{0,30}:$")


def _label_over_value(units: list[Unit], text: str) -> list[Unit]:
    """A field's label that prose wrapped at its line's end, its value the first column of the line of fields under
    it ("... it is ready to use. Length inserted:" + "43 cm.   External length: 2 cm."): the value joins the prose's
    unit, whose sentences then cut the label and its value from the sentence before."""
    k = 0
    while k + 2 < len(units):
        prose, value, after = units[k], units[k + 1], units[k + 2]
        if prose.kind == "text" and value.kind == after.kind == "field" \
                and _LABEL_AT_END.search(text[prose.start:prose.end]) \
                and text.count("\n", prose.end, value.start) == 1 and "\n" not in text[value.end:after.start] \
                and not FIELD_START.match(text[value.start:value.end]):
            prose.end = value.end
            del units[k + 1]
        k += 1
    return units


def _wrapped_first_cells(units: list[Unit], text: str) -> list[Unit]:
    """A field's value a PDF wrapped onto the next line, where a field of its own follows the carried words in a
    column ("Line type: PICC, single lumen, left basilic" + "vein    Inserted: 26/11/2024"): the line's first cell, a
    few words in lower case and no label, joins the field above, left open on no sentence's end."""
    k = 0
    while k + 2 < len(units):
        above, cell, after = units[k], units[k + 1], units[k + 2]
        if above.kind in ("text", "field") and cell.kind == "field" and after.kind == "field" \
                and FIELD_START.match(text[above.start:above.end]) \
                and not text[above.start:above.end].rstrip().endswith((".", "!", "?", ":", ";")) \
                and text.count("\n", above.end, cell.start) == 1 and "\n" not in text[cell.end:after.start] \
                and re.fullmatch(r"[a-z][a-z-]*(?: [a-z][a-z-]*){0,2}", text[cell.start:cell.end]):
            above.end = cell.end
            del units[k + 1]
        k += 1
    return units


def _lower_case_wrap(field: str, line: str) -> bool:
    """Does a line in lower case carry on the last field of the line of fields above it, left without a sentence's
    end ("Referred by: Dr S. Lee   Reason for referral: palpitations" + "and breathlessness on exertion")? (A short
    label in lower case opens a field of its own: "cc: Dr Lee".)"""
    return bool(FIELD_START.match(field.strip())) \
        and not field.rstrip().endswith((".", "!", "?", ":", ";")) and bool(re.match(r"^[a-z]+\b(?!:)", line.strip()))


# a person's field whose value is given names without the surname in capitals ("Patient: Marcia Joy"), and the
# surname, in capitals, opening the line of fields under it ("BROWN   DOB: 17/10/1963   MRN: K2290481")
_GIVEN_NAMES = re.compile(r"^(?:Patient|Name|Patient name|Pt)[ \t]*:[ \t]+[A-Z][a-z'-]+"
                          r"(?: [A-Z][a-z'-]+| [A-Z]\.){0,3}$")
_SURNAME = re.compile(r"^[A-Z][A-Z'-]+(?:-[A-Z][A-Z'-]+)?$")


def _wrapped_names(units: list[Unit], text: str) -> list[Unit]:
    """A name field wrapped before its surname, which opens the next line of fields, takes it back."""
    k = 0
    while k + 1 < len(units):
        name, surname = units[k], units[k + 1]
        if surname.kind == "field" and _GIVEN_NAMES.match(text[name.start:name.end]) \
                and text.count("\n", name.end, surname.start) == 1 and not text[name.end:surname.start].strip() \
                and _SURNAME.match(text[surname.start:surname.end]):
            name.end = surname.end
            del units[k + 1]
        k += 1
    return units


def _overruns(text: str, field: Unit, line: Unit, width: int) -> bool:
    """Would the carried line's first word have run the field's line past the wrap width?"""
    line_start = text.rfind("\n", 0, field.end) + 1
    first_word = text[line.start:line.end].split()[0]
    return width > 0 and field.end - line_start + 1 + len(first_word) > width
