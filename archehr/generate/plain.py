"""`plain`: the extractive answer reworded with the team's glossary, citations unchanged.

Abbreviations are expanded ("HTN" -> "hypertension") and clinical terms that the glossary pairs
with everyday words are replaced by them ("diuretic" -> "water pill"). Rewording happens before
the answer is fitted to the word budget, so longer wording costs whole sentences, never halves.
"""

from __future__ import annotations

import re
from typing import Any

from archehr.generate.extractive import ExtractiveGenerator

# Expansions that are themselves abbreviations or too generic to be a safe substitution target.
_MIN_TERM_CHARS = 5


def _case_like(src: str, repl: str) -> str:
    return repl[:1].upper() + repl[1:] if src[:1].isupper() else repl


class PlainGenerator(ExtractiveGenerator):
    name = "plain"

    def __init__(self, glossary: str | None = None, expand_abbreviations: bool = True, lay_terms: bool = True,
                 **kwargs: Any):
        super().__init__(**kwargs)
        from archehr.glossary import load_glossary

        self.glossary_path = glossary
        g = load_glossary(glossary)
        self.expand_abbreviations = expand_abbreviations
        self.lay_terms = lay_terms
        # clinical term -> everyday phrase, from the PRIMARY (first) expansion of each lay entry only:
        # later expansions are related drugs or tests ("water pill" also lists furosemide), not synonyms.
        # When several lay phrases share a primary term, a noun-like "-ing" form reads best ("fainting").
        lay: dict[str, str] = {}
        for e in g.entries:
            if e.kind != "lay" or not e.expansions:
                continue
            x = e.expansions[0].lower()
            if len(x) < _MIN_TERM_CHARS or x == e.term:
                continue
            if x not in lay or (e.term.endswith("ing") and not lay[x].endswith("ing")):
                lay[x] = e.term
        abbr = {e.term: e.expansions[0] for e in g.entries if e.kind == "abbr" and e.expansions}
        self._lay = lay
        self._abbr = abbr
        # one pass over both kinds so a replacement is never rewritten again
        self._rx = _pattern(abbr, lay)

    def _replace(self, m: re.Match[str]) -> str:
        surface = m.group(0)
        key = " ".join(surface.lower().split())
        if m.lastgroup == "abbr":
            if not self.expand_abbreviations:
                return surface
            full = self._abbr[key]
            return self._lay.get(full.lower(), full) if self.lay_terms else full
        return _case_like(surface, self._lay[key]) if self.lay_terms else surface

    def rewrite(self, text: str) -> str:
        if self._rx is not None:
            text = self._rx.sub(self._replace, text)
        return " ".join(text.split())

    def describe(self) -> dict[str, Any]:
        # the glossary as resolved and its size (its switches are in the resolved config run.json holds)
        return {**super().describe(), "glossary": self.glossary_path or "shipped", "terms": len(self._lay),
                "abbreviations": len(self._abbr)}


def _alternation(terms: dict[str, str]) -> str:
    keys = sorted(terms, key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(w) for w in k.split()) for k in keys)


def _pattern(abbr: dict[str, str], lay: dict[str, str]) -> re.Pattern[str] | None:
    parts = []
    if abbr:
        # abbreviations only in the note's spelling (at least one capital): "or", "us" stay words
        parts.append(r"(?P<abbr>(?<![\w-])(?=[\w-]*[A-Z])(?i:" + _alternation(abbr) + r")(?![\w-]))")
    if lay:
        parts.append(r"(?P<lay>(?<![\w-])(?i:" + _alternation(lay) + r")(?![\w-]))")
    return re.compile("|".join(parts)) if parts else None
