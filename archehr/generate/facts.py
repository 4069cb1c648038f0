"""Fact-level check of a generated line: every number it states must appear in what it cites.

A similarity check compares meaning, so a fluent line that copies the shape of a note sentence but
changes its numbers ("12.5 mg" for "40 mg", an invented age) passes it. Numbers are the facts a
small model invents most and a patient relies on most (doses, ages, days, lab values), and they are
cheap to check exactly: a line may only state numbers found in its cited sentences or in the
patient's own question.

What a faithful writer does with a number is not an invention, so it passes: a number the note
writes as a word ("two stents" -> "2 stents"), a rounding of a note value ("34.6" -> "about 35",
"8.6 L" -> "over 8 liters"), and a unit change of a note value ("1.5 cm" -> "15 mm", "500 mg" ->
"0.5 g", "14 days" -> "2 weeks", "38.5 C" -> "101.3 F").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

# 1,200 / 12.5 / 0.9 / 7 ; a "1," or "7." at a sentence end is the number 1 or 7
_NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?![\d])")
_WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                      "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}
_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
               "hundred": 100, "thousand": 1000, "once": 1, "twice": 2, "single": 1, "double": 2, "triple": 3,
               "dozen": 12, "half": 0.5, "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
               "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "both": 2, "pair": 2})
_WORD = re.compile(r"\b(" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
# "twenty-five", "twenty five"
_COMPOUND = re.compile(r"\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[\s-](one|two|three|four|five|"
                       r"six|seven|eight|nine)\b", re.IGNORECASE)
# unit -> (family, factor to the family's base unit)
_UNITS = {"mcg": ("mass", 1e-6), "ug": ("mass", 1e-6), "µg": ("mass", 1e-6), "mg": ("mass", 1e-3),
          "g": ("mass", 1.0), "gram": ("mass", 1.0), "grams": ("mass", 1.0), "kg": ("mass", 1e3),
          "lb": ("mass", 453.592), "lbs": ("mass", 453.592), "pounds": ("mass", 453.592),
          "mm": ("length", 1e-3), "cm": ("length", 1e-2), "m": ("length", 1.0), "in": ("length", 0.0254),
          "inch": ("length", 0.0254), "inches": ("length", 0.0254),
          "ml": ("volume", 1e-3), "cc": ("volume", 1e-3), "l": ("volume", 1.0), "liter": ("volume", 1.0),
          "liters": ("volume", 1.0), "litres": ("volume", 1.0),
          "sec": ("time", 1.0), "second": ("time", 1.0), "seconds": ("time", 1.0), "min": ("time", 60.0),
          "minute": ("time", 60.0), "minutes": ("time", 60.0), "h": ("time", 3600.0), "hr": ("time", 3600.0),
          "hrs": ("time", 3600.0), "hour": ("time", 3600.0), "hours": ("time", 3600.0), "day": ("time", 86400.0),
          "days": ("time", 86400.0), "d": ("time", 86400.0), "week": ("time", 604800.0),
          "weeks": ("time", 604800.0), "wk": ("time", 604800.0), "wks": ("time", 604800.0),
          "month": ("time", 2629800.0), "months": ("time", 2629800.0), "year": ("time", 31557600.0),
          "years": ("time", 31557600.0), "yr": ("time", 31557600.0), "yrs": ("time", 31557600.0)}
_FAMILIES: dict[str, list[float]] = {}
for _fam, _f in _UNITS.values():
    _FAMILIES.setdefault(_fam, [])
    if _f not in _FAMILIES[_fam]:
        _FAMILIES[_fam].append(_f)
_WITH_UNIT = re.compile(r"(?<![\w.])(\d+(?:,\d{3})*(?:\.\d+)?)\s*-?\s*(°\s*[cf]\b|[a-zµ]+)", re.IGNORECASE)


def normalise_number(raw: str) -> str:
    """'1,200' -> '1200', '12.50' -> '12.5', '07' -> '7', '3.0' -> '3'."""
    s = raw.replace(",", "")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    s = s.lstrip("0") or "0"
    return "0" + s if s.startswith(".") else s


def numbers(text: str) -> set[str]:
    """The numbers a text states in digits, normalised (ranges "3-4" and dates "2/3" give each part)."""
    return {normalise_number(m.group(0)) for m in _NUMBER.finditer(text)}


def _values(text: str) -> set[float]:
    """Every value a source states: digits, number words, and each number converted to its unit's relatives."""
    out = {float(n) for n in numbers(text)}
    out |= {float(_WORDS[m.group(1).lower()]) for m in _WORD.finditer(text)}
    out |= {float(_WORDS[m.group(1).lower()] + _WORDS[m.group(2).lower()]) for m in _COMPOUND.finditer(text)}
    for m in _WITH_UNIT.finditer(text):
        x, unit = float(m.group(1).replace(",", "")), m.group(2).lower().replace(" ", "")
        if unit in ("°c", "°f"):
            out.add(x * 9 / 5 + 32 if unit == "°c" else (x - 32) * 5 / 9)
        elif unit in _UNITS:
            fam, f = _UNITS[unit]
            out |= {x * f / g for g in _FAMILIES[fam]}
    return out


def _supported(n: str, known: set[float]) -> bool:
    """The number as written, or a rounding of a known value to the precision it is written with."""
    value = float(n)
    places = len(n.split(".")[1]) if "." in n else 0
    for x in known:
        if abs(x - value) < 1e-9 or round(x, places) == value:
            return True
        if places == 0 and x > 1 and abs(x - value) < 1:  # "over 8 liters" for 8.6 L: floor as well as round
            return True
    return False


def unsupported_numbers(line: str, sources: Iterable[str]) -> list[str]:
    """Numbers of `line` that none of `sources` states (as written, in words, rounded or in another unit)."""
    known: set[float] = set()
    for s in sources:
        known |= _values(s)
    seen: dict[str, None] = {}
    for m in _NUMBER.finditer(line):
        n = normalise_number(m.group(0))
        if n not in seen and not _supported(n, known):
            seen.setdefault(n)
    return list(seen)


def recite_unsupported(lines: Sequence[tuple[str, list[str]]], sentence_text: Mapping[str, str],
                       question: str, drop: bool = False) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """Lines stating a number their citations (and the question) do not hold, re-written from what they cite
    (`drop`: dropped instead).

    Dropping such a line (`archehr answer` does: a patient must not read an invented dose) also drops its
    citations, which the official 2025 score counts; a submission keeps them: the line's text becomes its
    cited sentences' own text, whose numbers are the note's. A line citing nothing is dropped (it has nothing
    to be re-written from, and no citation to lose). Returns (lines, notes).
    """
    from archehr.generate.clean import clean_sentence

    out: list[tuple[str, list[str]]] = []
    bad: list[str] = []
    recited = dropped = 0
    for text, ids in lines:
        known = [i for i in ids if i in sentence_text]
        missing = unsupported_numbers(text, [sentence_text[i] for i in known] + [question])
        if not missing:
            out.append((text, ids))
            continue
        bad += missing
        if known and not drop:
            out.append((" ".join(clean_sentence(sentence_text[i]) for i in known), list(ids)))
            recited += 1
        else:
            dropped += 1
    if not bad:
        return out, []
    shown = ", ".join(dict.fromkeys(bad))
    notes = [f"re-wrote {recited} line(s) from their cited sentences: they stated numbers those do not "
             f"contain ({shown})"] if recited else []
    if dropped:
        what = ("line(s) stating numbers their citations do" if drop else
                "uncited line(s) stating numbers the question does")
        notes.append(f"dropped {dropped} {what} not contain ({shown})")
    return out, notes
