"""Direct answers first: note sentences that state the instruction, the change or the value asked about.

A patient asking "Should I still take furosemide?" is answered by "Please stop taking furosemide."
and by the sentence saying it was switched to torsemide, not by the sentence most similar overall;
"Was my potassium low?" by the lab line with K 3.3. The relevance model ranks by similarity to the
question and by what clinicians cite; this adds, for `archehr answer` only (the official `predict`
keeps the trained selector as it is), a score for sentences that
- name one of the question's concepts (a glossary term counts by any of its expansions: potassium / K)
  and carry an instruction or change cue ("stop taking", "switched to", "held", "resume") for should-I
  and why questions, or a value (a number after the analyte) for was-my-X-low questions;
- sit in the section the question type points at (Discharge Instructions / Discharge Medications for
  should-I, Pertinent Results for a value).
"""

from __future__ import annotations

import re

import numpy as np

from archehr.answerability.data import question_type
from archehr.answerability.features import note_terms, question_concepts
from archehr.data.model import Case
from archehr.glossary import Glossary, load_glossary
from archehr.relevance.text import contexts, is_header, sentence_texts, tokens

CHANGE_CUES = re.compile(
    r"\b(?:stop(?:ped)?\s+taking|do\s+not\s+take|don't\s+take|discontinu\w*|stopped|switch(?:ed)?\s+(?:to|from)|"
    r"chang(?:ed|e)\s+(?:to|from)|replac\w+|instead\s+of|in\s+place\s+of|held|hold|resum\w*|restart\w*|"
    r"start(?:ed)?\s+(?:taking|on)|increas\w+|decreas\w+|no\s+longer|continue\s+(?:taking|your)|new\s+medication)\b",
    re.I)
# an analyte then its value: "K-3.3", "K 3.3", "potassium was low at 3.3", "Na of 129"
_VALUE_AFTER = r"(?:[\s:=-]+(?:was|is|were|of|at|low|high|elevated|down|up|to)){0,3}[\s:=-]*\(?\s*\d+(?:\.\d+)?"
SECTION_FOR_TYPE = {"should": ("instructions", "medications"), "why": ("course",), "value": ("results",),
                    "when": ("instructions",)}


def direct_scores(case: Case, glossary: Glossary | None = None) -> np.ndarray:
    """Per-sentence direct-answer score in [0, 1] (0: not a direct answer), for the case's question."""
    g = glossary if glossary is not None else load_glossary()
    question = case.question_text
    qtype = question_type(question)
    concepts = question_concepts(question, g)
    texts = sentence_texts(case.sentences)
    terms = note_terms(case, g)
    ctx = contexts(case)
    out = np.zeros(len(texts))
    if not concepts:
        return out
    # the raw spellings of the question's words (with glossary expansions), for the value pattern
    words = {c.lower() for e in g.matches(question) for c in (e.term, *e.expansions)}
    words |= {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9]+", question) if tokens(w)}
    alts = set().union(*(c.alternatives for c in concepts))
    for i, (text, s) in enumerate(zip(texts, case.sentences, strict=True)):
        if is_header(s.text):
            continue
        toks = set(terms[i])
        named = [c for c in concepts if c.covered_by(toks)]
        if not named:
            continue
        score = 0.0
        if qtype == "value":
            # the note's own abbreviation of an asked-about analyte counts: "K-3.3" for potassium
            spell = words | {e.term.lower() for e in g.matches(text)
                             if e.kind == "abbr" and {t for x in e.expansions for t in tokens(x)} & alts}
            value_re = re.compile(r"(?<![A-Za-z])(?:" + "|".join(re.escape(w) for w in sorted(spell, key=len,
                                  reverse=True)) + r")(?![A-Za-z])" + _VALUE_AFTER, re.I)
            if value_re.search(text):
                score = 1.0
        elif CHANGE_CUES.search(text):
            score = 1.0 if qtype in ("should", "why", "when") else 0.6
        if score and ctx[i].section in SECTION_FOR_TYPE.get(qtype, ()):
            score += 0.5
        out[i] = score * len(named) / len(concepts)
    m = float(out.max())
    return out / m if m > 0 else out
