"""A field's value that an export wrapped onto the next line ("Consultant: Mr A. Kell, Paediatric" + "Neurosurgeon"):
the carried line joins its field, as the paragraph's last line or between two lines of fields."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

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
        if units[k - 1].kind == field.kind == "field" and line.kind in ("text", "header") \
                and "\n" not in text[units[k - 1].end:field.start] \
                and text.count("\n", field.end, line.start) == 1 and "\n" not in text[line.start:line.end] \
                and (last or (units[k + 2].kind == "field" and _overruns(text, field, line, width))) \
                and wraps_field_value(text[field.start:field.end], text[line.start:line.end]):
            field.end = line.end
            del units[k + 1]
        k += 1
    return units


def _overruns(text: str, field: Unit, line: Unit, width: int) -> bool:
    """Would the carried line's first word have run the field's line past the wrap width?"""
    line_start = text.rfind("\n", 0, field.end) + 1
    first_word = text[line.start:line.end].split()[0]
    return width > 0 and field.end - line_start + 1 + len(first_word) > width
