"""The units a splitter gives a note, white space collapsed, shared by the splitter's tests.

Each unit is checked to be the note's own text at its offsets first: a unit that is not copied text would pass a
test of its words while breaking gold offsets."""

from __future__ import annotations

from archehr.data.note_split import split_note


def texts(note: str, splitter: str = "rules") -> list[str]:
    split = split_note(note, splitter)
    for s in split.sentences:
        assert note[s.start:s.end] == s.text
    return [" ".join(s.text.split()) for s in split.sentences]
