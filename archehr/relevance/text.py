"""Text helpers shared by the classifiers: tokens, note sections and problem blocks.

Kept dependency-light: regex and a small suffix stripper of our own.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from archehr.data.model import Case, NoteSentence

_TOKEN = re.compile(r"[a-z][a-z0-9]*|\d+(?:\.\d+)?")
STOPWORDS = frozenset("""
a about above after again against all am an and any are aren't as at be because been before being below
between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each
few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers
herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me
more most mustn't my myself no nor not of off on once only or other ought our ours ourselves out over
own same shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs
them themselves then there there's these they they'd they'll they're they've this those through to too
under until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where
where's which while who who's whom why why's with won't would wouldn't you you'd you'll you're you've
your yours yourself yourselves just also really still get got go going went like know want wanted
mom dad mother father husband wife son daughter patient pt mr mrs ms year old years yo ___ s t
""".split())

# Canonical section names by header keywords (first match wins); everything else is "other".
SECTION_KEYS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("instructions", ("instruction", "followup", "follow-up", "follow up")),
    ("diagnosis", ("diagnos", "impression")),
    ("medications", ("medication", "meds")),
    ("results", ("result", "lab", "imaging", "study", "studies", "radiolog", "finding")),
    ("course", ("hospital course", "course", "assessment", "plan", "procedure", "operation")),
    ("history", ("present illness", "history", "hpi", "chief complaint", "complaint", "presentation")),
    ("exam", ("exam", "physical", "vital")),
)
SECTIONS: tuple[str, ...] = tuple(name for name, _ in SECTION_KEYS) + ("other",)

_HEADER_PREFIX = re.compile(r"^\s*([A-Z][A-Za-z /&-]{2,40}):\s*")
_PROBLEM = re.compile(r"^\s*#\s*([^:]{2,120}):")
_NUMBER = re.compile(r"\d")
_LAB = re.compile(r"\b[A-Za-z]{1,10}-\d|\d+\s*(?:mg|mcg|g|ml|mL|L|mmHg|%|bpm|units?|mEq|kg|lbs?)\b|\d+/\d+|\*")


_VOWEL = re.compile(r"[aeiouy]")


@functools.lru_cache(maxsize=65536)
def stem_word(word: str) -> str:
    """A light suffix stripper (plurals, -ing, -ed, -ly, -ation, -ness, -ment, -al).

    Our own rather than nltk's Porter stemmer: importing nltk pulls in scipy (seconds of start-up),
    and a conservative stemmer is enough to match "transfused"/"transfusion", "bleeding"/"bleed".
    """
    w = word
    if len(w) <= 3 or not w.isalpha():
        return w
    for suf, rep in (("ational", "ate"), ("ation", "ate"), ("ness", ""), ("ments", ""), ("ment", ""),
                     ("ies", "y"), ("sses", "ss"), ("ally", "al"), ("ly", "")):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: len(w) - len(suf)] + rep
            break
    else:
        if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 4:
            w = w[:-1]
    for suf in ("ing", "ed"):
        if w.endswith(suf) and len(w) - len(suf) >= 3 and _VOWEL.search(w[: -len(suf)]):
            w = w[: -len(suf)]
            if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":  # "stopped" -> "stop"
                w = w[:-1]
            break
    for suf in ("ion", "al", "e"):  # "transfusion"/"transfuse", "syncopal"/"syncope"
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            w = w[: -len(suf)]
            break
    return w


def tokens(text: str, stem: bool = True) -> list[str]:
    """Lower-cased content tokens (stop words dropped), suffix-stripped by default."""
    out = [t for t in _TOKEN.findall(text.lower().replace("'", "")) if t not in STOPWORDS and len(t) > 1]
    return [stem_word(t) for t in out] if stem else out


def is_header(text: str) -> bool:
    """A section title line such as "Brief Hospital Course:" (short, ends with a colon)."""
    t = text.strip()
    return t.endswith(":") and len(t.split()) <= 6


def section_of(header: str) -> str:
    h = header.lower()
    for name, keys in SECTION_KEYS:
        if any(k in h for k in keys):
            return name
    return "other"


@dataclass(frozen=True)
class SentenceContext:
    """Where a sentence sits: its section, its problem block ("# Title: ..."), and whether it is a title."""

    section: str
    block: int  # index of the problem block / paragraph group inside the note
    block_title: str
    header: bool


def contexts(case: Case) -> list[SentenceContext]:
    """The section and problem block of every sentence of the case, in note order."""
    out: list[SentenceContext] = []
    section = "other"
    block = 0
    title = ""
    last_para: int | None = None
    for s in case.sentences:
        text = s.text.strip()
        header = is_header(text)
        if header:
            section = section_of(text)
            block += 1
            title = ""
        else:
            m = _HEADER_PREFIX.match(text)
            p = _PROBLEM.match(text)
            if m and section_of(m.group(1)) != "other":  # "Pertinent Results: ..." opens a section inline
                section = section_of(m.group(1))
                block += 1
                title = ""
            elif p:
                block += 1
                title = p.group(1).strip()
            elif last_para is not None and s.paragraph_id != last_para and not title:
                block += 1
        last_para = s.paragraph_id
        out.append(SentenceContext(section, block, title, header))
    return out


def numeric_fraction(text: str) -> float:
    toks = text.split()
    return sum(1 for t in toks if _NUMBER.search(t)) / max(1, len(toks))


def lab_pattern(text: str) -> float:
    """1 for lab/vital-looking text ("Hgb-6.1*", "40 mg", "148/72"), scaled by how many hits."""
    return min(1.0, len(_LAB.findall(text)) / 4.0)


def question_fields(case: Case) -> dict[str, str]:
    """The texts a sentence is compared with: patient question phrases, clinician question, narrative."""
    return {
        "patient": case.question_text or "",
        "clinician": case.clinician_question or "",
        "narrative": case.patient_narrative or "",
    }


def sentence_texts(sentences: Sequence[NoteSentence]) -> list[str]:
    return [" ".join(s.text.split()) for s in sentences]
