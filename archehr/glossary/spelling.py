"""British spellings of the glossary's (American) clinical words: notes written in the UK say haemoglobin,
oedema, paediatric, diarrhoea, caesarean, ferrous sulphate, tumour.

The glossary is written in American spelling; `british_variants` gives the British spelling of a word or
phrase where a rule of the two spellings applies, so the everyday lexicon (`load_lexicon`) lists both: a
patient's "blood count" is then covered by a note's "Haemoglobin 102 g/L". Rules, not a word list: each
is a fact of the two spellings, applied at the start of a word ("hem" of hemoglobin, not of chemo) or to a
whole ending.
"""

from __future__ import annotations

import re

# (pattern, replacement) on lower-case text; each a spelling rule of medical British English
_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"\bhem(?=at|o|or)", "haem"),             # hemoglobin, hematoma, hemorrhage, hemodialysis (not hemi-)
    # anemia, ischemia, hypoglycemia, leukemia, hyperkalemia, uremia, hypoxemia, lipidemia (not systemic)
    (r"(?<=[chklnrxd])emia\b", "aemia"),
    (r"(?<=[chklnrxd])emic\b", "aemic"),
    (r"\bedema", "oedema"),
    (r"\besophag", "oesophag"),
    (r"\bestrogen", "oestrogen"),
    (r"pediatric", "paediatric"),
    (r"orthoped", "orthopaed"),
    (r"gynec", "gynaec"),
    (r"anesthe", "anaesthe"),
    (r"\bcesarean", "caesarean"),
    (r"diarrhea", "diarrhoea"),
    (r"(?<=[a-z])pnea\b", "pnoea"),            # apnea, dyspnea, hypopnea, tachypnea
    (r"sulfate", "sulphate"),
    (r"\btumor", "tumour"),
    (r"\bcolor", "colour"),
    (r"behavior", "behaviour"),
    (r"\bcenter", "centre"),
    (r"liter\b", "litre"),
    (r"\bceliac", "coeliac"),
    (r"\bfeces", "faeces"),
    (r"leukocyte", "leucocyte"),
    (r"(?<=[a-z])ization\b", "isation"),       # immunization, hospitalization
    (r"(?<=[a-z]{3})ize\b", "ise"),            # mobilize, immunize (a word of at least 6 letters)
))


def british_variants(text: str) -> list[str]:
    """`text`'s British spelling, if one of the rules changes it ([] otherwise); all rules are applied at once."""
    low = text.lower()
    out = low
    for pattern, repl in _RULES:
        out = pattern.sub(repl, out)
    return [out] if out != low else []


__all__ = ["british_variants"]
