"""A document's own stamps written as fields without colons on one line, as a dictation's header types them
("dictated 09/09/2025 transcribed 09/10/2025 by jm"): each stamp is a field of its own, as the split convention
gives several fields on one line one unit each."""

from __future__ import annotations

import re

_DATE = r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}"
_VERB = r"(?:dictated|transcribed|typed|signed|printed|reviewed|verified|approved|authori[sz]ed)"
# a line that opens with a stamp: the verb, then its date
_OPENS = re.compile(rf"^{_VERB}:?[ \t]+(?:{_DATE})\b", re.IGNORECASE)
# a further stamp right after a date or a time (no comma, no full stop between): it opens the next field
_NEXT = re.compile(rf"(?<=\d)[ \t]+(?={_VERB}:?[ \t]+(?:{_DATE})\b)", re.IGNORECASE)


def doc_stamp_cuts(s: int, e: int, text: str) -> list[tuple[int, int]]:
    """text[s:e] cut before each stamp after the first, when it is one line that opens with a stamp
    ("dictated 09/09/2025" + "transcribed 09/10/2025 by jm"); any other span is returned whole."""
    piece = text[s:e]
    if "\n" in piece or not _OPENS.match(piece):
        return [(s, e)]
    out: list[tuple[int, int]] = []
    start = s
    for m in _NEXT.finditer(text, s, e):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, e))
    return out
