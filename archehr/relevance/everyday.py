"""Features that bridge a patient's words and the note's: the `everyday` group of the `lexical+everyday` set.

The base `lexical` features match the question to the note through the clinical glossary
(`load_glossary()`). Patients write "blood thinner", "heart scan", "kidney numbers", "heart doctor"; the
note writes apixaban, TTE, creatinine, cardiology. This group adds, per note sentence:

- BM25 of each question field expanded with the everyday lexicon (`load_lexicon()`: lay words, tests,
  people and places, drug classes with their member generic names) against the sentence's words, the
  sentence's abbreviations expanded and the lay classes its drugs belong to added ("apixaban" also reads
  as "blood thinner", "anticoagulant");
- whether the sentence names a member of a drug class the question names in lay words;
- whether the sentence holds the kind of answer the question asks for (a duration for "how long", a date
  or appointment for "when", a cause for "why", a medication change, a result, an instruction), alone and
  times the sentence's everyday match, since a duration answers only when it is about the thing asked.

Everything is regex and dictionary lookup (no torch): `predict`'s cost barely moves. The kind patterns are
this module's own (not `archehr.answerability.kinds`'), so the shipped model's features do not move when
the `answer` command's patterns are tuned.
"""

from __future__ import annotations

import re

import numpy as np

from archehr.data.model import Case
from archehr.glossary import Glossary, load_lexicon
from archehr.relevance.lexical import FIELD_WEIGHTS, FIELDS, bm25, max_norm, percentile_rank
from archehr.relevance.text import contexts, question_fields, sentence_texts, tokens

EVERYDAY_FEATURES: tuple[str, ...] = (
    *(f"ev_bm25_{f}" for f in FIELDS),
    "ev_rank",
    "ev_gain",
    "class_hit",
    "kind_holds",
    "kind_holds_x_ev",
)

def _compiled(table: dict[str, str]) -> dict[str, re.Pattern[str]]:
    """Each kind's pattern, case-insensitive."""
    return {kind: re.compile(pattern, re.I) for kind, pattern in table.items()}


# what a question asks for: kind -> cue (patients' and clinicians' phrasings)
ASKS: dict[str, re.Pattern[str]] = _compiled({
    "how_long": r"\bhow (?:long|many (?:more )?(?:days?|weeks?|months?))\b|\bfor how long\b|"
                r"\buntil when\b|\bhow much longer\b|\bduration\b|\bforever\b|\bfor life\b",
    "when": r"\bwhen\b|\bwhat (?:day|date|time)\b|\bhow soon\b|\bfollow[\s-]*up\b|\bappointment\b|"
            r"\btiming\b|\bexpected\b",
    "why": r"\bwhy\b|\bhow come\b|\breason\b|\bcause[ds]?\b|\bwhat (?:made|led to)\b|"
           r"\bwhat (?:is|was) (?:it|that|this) for\b|\bindication\b|\brationale\b|\betiology\b",
    "med_change": r"\b(?:medicines?|medications?|meds|pills?|drugs?|dose|doses|dosing|prescri\w+|"
                  r"stop(?:ped)?|start(?:ed)?|switch\w*|chang\w+|still on|taking|discontinu\w+|"
                  r"regimen)\b",
    "test_result": r"\b(?:results?|test(?:s|ed)?|scan|labs?|levels?|numbers?|showed?|find|found|"
                   r"normal|abnormal|came back|come back ok|imaging|biopsy|x-?ray|blood work)\b",
    "may_i": r"\b(?:can|could|may|should|must)\s+(?:i|he|she|we|they|you|my \w+)\b|\bis it (?:ok|okay|"
             r"safe|fine)\b|\ballowed\b|\bok to\b|\bsafe to\b|\bavoid\b|\brestrictions?\b|"
             r"\bprecautions?\b|\bwarning signs\b|\breturn\b|\bactivity\b",
})
_N = r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|ten|twelve|several|a few)"
_UNIT = r"(?:days?|d|weeks?|wks?|months?|mos?|years?|doses?|hours?|hrs?)"
# what a sentence holds: kind -> pattern
HOLDS: dict[str, re.Pattern[str]] = _compiled({
    "how_long": rf"\bx\s*{_N}\s*(?:more\s+)?{_UNIT}\b|\b(?:for|over|another|additional|total of)\s+"
                rf"(?:a\s+|the\s+next\s+|at\s+least\s+)?{_N}(?:\s*(?:-|to)\s*{_N})?\s*(?:more\s+)?{_UNIT}\b|"
                rf"\b\d+-(?:day|week|month)\b|\buntil\b|\bindefinite\w*\b|\blife-?long\b|\bfor life\b|"
                rf"\blong-term\b|\btaper\w*\b|\bcourse\b|\bduration\b",
    "when": rf"\bfollow(?:ed)?[\s-]*up\b|\bf/u\b|\bappointment\b|\bappt\b|\bscheduled\b|\bclinic\b|"
            rf"\bin\s+{_N}(?:\s*(?:-|to)\s*{_N})?\s*{_UNIT}\b|\bwithin\s+{_N}?\s*{_UNIT}\b|"
            rf"\bpost-?op(?:erative)? day\b|\bpod\s*#?\d+|\bhd\s*#?\d+|\bday\s+\d+\b|\btomorrow\b|"
            rf"\bnext\b|\bplanned\b|\bexpected\b|\bdate\b|\[\*\*",
    "why": r"\b(?:because|due to|secondary to|given|attributed|caused|likely|in the setting of|"
           r"as a result|concern(?:ing)? for|consistent with|related to|contribut\w+|trigger\w*|"
           r"etiology|felt to|thought to|to (?:prevent|treat|reduce|protect|rule out|evaluate)|"
           r"for (?:treatment|prophylaxis|presumed|suspected|possible))\b",
    "med_change": r"\b(?:start(?:ed|ing)?|initiat\w+|begun|began|newly|add(?:ed)?|stop(?:ped)?|"
                  r"discontinu\w+|d/c|held|hold|resum\w+|restart\w*|continu\w+|switch\w*|chang\w+|"
                  r"increas\w+|decreas\w+|reduc\w+|titrat\w+|instead|no longer|taper\w*)\b|"
                  r"\b\d+(?:\.\d+)?\s*(?:mg|mcg|units?|g|ml)\b",
    "test_result": r"\b(?:show(?:ed|s)?|reveal\w*|demonstrat\w*|negative|positive|normal|abnormal|"
                   r"unremarkable|no evidence|elevated|grew|consistent with|notable for|significant "
                   r"for|confirm\w*|ruled out|ef)\b|\b[A-Za-z]{1,10}\s*[-:]\s*\d+(?:\.\d+)?\*?|"
                   r"\d+\s*%",
    "may_i": r"\b(?:do not|don't|avoid|no (?:lifting|driving|heavy|baths?|swimming|strenuous|"
             r"alcohol)|should|must|ok to|allowed|advised|counsel\w*|instruct\w*|return|call|seek|"
             r"restrict\w*|limit\w*|refrain|encouraged|if you|cleared|not to)\b",
})


def asked_kinds(case: Case) -> tuple[str, ...]:
    """The kinds of answer the patient's question and the clinician's question ask for (in `ASKS` order)."""
    q = question_fields(case)
    text = q["patient"] + " " + q["clinician"]
    return tuple(k for k, pat in ASKS.items() if pat.search(text))


def _class_key(lexicon: Glossary, term: str) -> str:
    """A lay class term's canonical name (its first expansion: "water pills" -> "diuretic")."""
    e = lexicon.get(term)
    return e.expansions[0] if e is not None and e.expansions else term


def question_classes(case: Case, lexicon: Glossary) -> set[str]:
    """The drug classes the question's fields name in lay words (canonical names)."""
    out = set()
    for text in question_fields(case).values():
        out |= {e.expansions[0] for e in lexicon.matches(text) if e.kind == "class" and e.expansions}
    return out


def everyday_sentence_tokens(texts: list[str], lexicon: Glossary) -> tuple[list[list[str]], list[set[str]]]:
    """Per sentence: its tokens plus its abbreviations' expansions and its drugs' lay classes; and its classes."""
    docs, classes = [], []
    for text in texts:
        extra = [x for e in lexicon.matches(text) if e.kind == "abbr" for x in e.expansions]
        cls = {_class_key(lexicon, t) for t in lexicon.classes_in(text)}
        docs.append(tokens(" ".join([text, *extra, *sorted(cls)])))
        classes.append(cls)
    return docs, classes


def everyday_features(case: Case, base_combined: np.ndarray, lexicon: Glossary | None = None) -> list[np.ndarray]:
    """The `EVERYDAY_FEATURES` columns of one case; `base_combined` is the base features' combined lexical score."""
    lex = lexicon if lexicon is not None else load_lexicon()
    texts = sentence_texts(case.sentences)
    headers = np.array([c.header for c in contexts(case)], dtype=bool)
    docs, classes = everyday_sentence_tokens(texts, lex)
    sims = {}
    for f, text in question_fields(case).items():
        s = bm25(tokens(lex.expand(text)), docs)
        s[headers] = 0.0
        sims[f] = max_norm(s)
    combined = max_norm(sum(FIELD_WEIGHTS[f] * sims[f] for f in FIELDS))
    q_classes = question_classes(case, lex)
    class_hit = np.array([len(q_classes & c) for c in classes], dtype=float)
    kinds = asked_kinds(case)
    holds = np.array([sum(bool(HOLDS[k].search(t)) for k in kinds) / len(kinds) if kinds else 0.0 for t in texts])
    holds[headers] = 0.0
    return [*(sims[f] for f in FIELDS), percentile_rank(combined), combined - base_combined, np.log1p(class_hit), holds,
            holds * combined]
