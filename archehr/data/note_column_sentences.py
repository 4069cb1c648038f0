"""A sentence set apart in a column of its own after a field's value on the same line ("PE and sport: [x] May take
part   Check glucose before PE; eat a snack if below 7."): the writers' split conventions keep a field with its value
and make a later sentence on that line a unit of its own. `note_layout.field_cells` asks for the cut.

The function takes one line without its line break (offsets returned are inside that line).
"""

from __future__ import annotations

import re

# a field's label and its value, a column gap (three spaces or more, or a tab), then a sentence: a capital, four words
# or more, a full stop at the line's end, no label of its own and no checkbox (a form's next option)
_VALUE_THEN_SENTENCE = re.compile(r"^[ \t]*[A-Za-z][\w /()&'-]{0,40}:[ \t]+(?P<value>\S(?:.*\S)?)"
                                  r"(?P<gap>[ ]{3,}|[ ]*\t[ \t]*)(?P<sentence>[A-Z][a-z]*(?: \S+){3,}[.!?])[ \t]*$")
# a word of prose: lower case, three letters or more
_PROSE_WORD = re.compile(r"(?<![\w/'-])[a-z]{3,}(?![\w/'-])")
# a form's option: "[x]", "[ ]", a ballot box
_BOX = re.compile(r"\[[ xX\u2713\u2714*-]?\]|[\u2610\u2611\u2612]")


def sentence_after_value(line: str) -> list[tuple[int, int]]:
    """The column gap between a field's value and a sentence of prose set after it on its line, as a cut
    [(gap's start, gap's end)], or [] (no such sentence: a value in columns, a second field, a form's options)."""
    m = _VALUE_THEN_SENTENCE.match(line)
    if m is None:
        return []
    value, sentence = m.group("value"), m.group("sentence")
    # (the value ends no sentence of its own nor holds a gap: "Plan: rest.   Review in 2 weeks." is one field's prose,
    # "Ward: 7   Bed: 4" two fields)
    if re.search(r"[.!?]$|[ ]{3,}|\t", value) or ":" in sentence or _BOX.search(sentence):
        return []
    if len(_PROSE_WORD.findall(sentence)) < 2:
        return []
    return [(m.start("gap"), m.end("gap"))]
