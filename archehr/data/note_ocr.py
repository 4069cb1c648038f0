"""A note read back by OCR from a fax or a scan, whose words are set two spaces apart and whose punctuation stands
apart from its word ("I  reviewed  Mr  Osei  today .  The  MRI  shows ..."). The split rules read two spaces as a
gap between fields and " ." as a dot leader, so such a note is split as its single-spaced reading and each sentence
mapped back onto the note's own characters (`note_split` keeps `note[start:end] == text`).
"""

from __future__ import annotations

import re

# a gap between two words inside a line: its spaces
_GAP = re.compile(r"(?<=\S)( +)(?=\S)")
# punctuation set apart from the word before it: "pain .", "Dear Dr Mensah ,", "Plan :"
_LOOSE_MARK = re.compile(r"(?<=[A-Za-z0-9)]) {1,2}(?=[.,:;!?](?:\s|$))")
_MIN_GAPS = 20  # gaps a note needs before its spacing says anything
_SHARE = 0.5  # the share of its gaps a double-spaced note sets two spaces wide, at least


def is_double_spaced(note: str) -> bool:
    """Are most of the note's gaps between words exactly two spaces (a fax's or a scan's OCR), with enough of them?
    A note laid out in columns has wider gaps, and typed text has gaps of one space."""
    gaps = [len(m.group(1)) for m in _GAP.finditer(note)]
    return len(gaps) >= _MIN_GAPS and sum(1 for g in gaps if g == 2) >= _SHARE * len(gaps)


def single_spaced(note: str) -> tuple[str, list[int]]:
    """The note with its two-space gaps as one space and its loose punctuation set back against its word, and for
    each character of that reading the offset of the same character in the note. Gaps of three spaces or more are
    kept: they set columns apart."""
    drop: set[int] = set()
    for m in _LOOSE_MARK.finditer(note):
        drop.update(range(m.start(), m.end()))
    for m in _GAP.finditer(note):
        if len(m.group(1)) == 2 and m.start(1) not in drop:
            drop.add(m.start(1))
    offsets = [i for i in range(len(note)) if i not in drop]
    return "".join(note[i] for i in offsets), offsets
