"""The rule-based st1 writer, one switch per rule so each can be measured (docs/question.md).

`write_question(case, config)` turns the patient's words into a clinician-style question of at most
`config.max_words` words ending in "?". Every rule is a pure string function of its input, so the
unit tests can derive outputs by hand. The switches' defaults are the configuration the grouped
cross-validation of benchmarks/st1_quality.py chose (see `DEFAULT_CONFIG`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import cast

from archehr.data.model import Case
from archehr.errors import ConfigError, Problem
from archehr_scoring.tasks import get_task

QUESTION_WORDS: int = cast(int, get_task("st1").word_limit)  # the st1 task's own limit (archehr_scoring.tasks)
CHOICES = ("longest", "first", "why", "combine")
GLOSSARY_MODES = ("none", "abbr")

_QWORDS = ("why", "what", "how", "is", "was", "are", "were", "will", "would", "could", "can", "should", "did",
           "does", "do", "when", "which", "who", "where", "has", "have", "had", "isnt", "didnt", "doesnt", "wont")
_FILLERS = [
    r"^(?:so|and|but|also|ok|okay|well|please|hi|hello)[,\s]+",
    r"^my (?:main |only |first |second |other )?questions? (?:is|are|was)?\s*(?:if|whether|that|,|:)?\s*",
    r"^i (?:want|would like|wanted|need) to know (?:if|whether|why|what|how)?\s*",
    r"^i (?:wonder|am wondering|was wondering) (?:if|whether)?\s*",
    r"^(?:can|could) (?:you|someone) (?:please )?(?:tell|explain to) me (?:if|whether)?\s*",
    r"^(?:i realize|i know|i understand) [^,]*,\s*(?:but\s*)?",
    r"^do you think\s*",
]
# Order matters: the contracted and auxiliary forms before the bare pronoun.
_PRONOUNS = [
    (r"\bmy (?:dad|father|husband|son|brother|grandfather|grandpa|uncle|boyfriend)\b", "the patient"),
    (r"\bmy (?:mom|mother|wife|daughter|sister|grandmother|grandma|aunt|girlfriend)\b", "the patient"),
    (r"\bI am\b|\bI['’]m\b", "the patient is"),
    (r"\bI was\b", "the patient was"),
    (r"\bI have\b|\bI['’]ve\b", "the patient has"),
    (r"\bI had\b", "the patient had"),
    (r"\bI\b", "the patient"),
    (r"\bme\b", "the patient"),
    (r"\bmy\b", "the patient's"),
    (r"\bmyself\b", "the patient"),
]
# Apostrophe-less spellings patients type ("im", "ive"); only safe because they are not English words.
_PRONOUNS_EXTRA = [
    (r"\bim\b", "the patient is"),
    (r"\bive\b", "the patient has"),
]
# "do the patient has to" reads as broken English; after the rewrite the auxiliary must agree.
_AGREEMENT = [
    (r"\b(do|does|did|will|would|can|could|should) the patient (has|is) (to|been)\b",
     lambda m: f"{_aux3(m.group(1))} the patient {'have' if m.group(2) == 'has' else 'be'} {m.group(3)}"),
    (r"\bdo the patient\b", "does the patient"),
    (r"\bam the patient\b", "is the patient"),
]
_HEDGES = re.compile(r"\b(?:really|just|actually|honestly|basically|literally|even|pretty much|kind of|sort of|"
                     r"at all|this fast|so much|that much)\b\s*", re.IGNORECASE)
_GENERIC = re.compile(r"^\W*(?:any (?:ideas|thoughts|advice)|what do you think|what (?:should|can|do) (?:i|we) do|"
                      r"please help|thanks?(?: you)?|help|what(?:['’]?s| is) going on(?: here)?)\W*$", re.IGNORECASE)
# "Why did they stop X if ..." -> "Why was X stopped if ...": the object ends where a clause starts.
_AGENT_Q = re.compile(r"^why (did|would|do|didn['’]?t|wouldn['’]?t|couldn['’]?t|did not) "
                      r"(?:they|the doctors?|the hospital|the surgeons?|the nurses?|you) (?!not\b|have\b)(\w+) (.+)$",
                      re.IGNORECASE)
# "Why does he need X" -> "Why was X needed" (the clinician's phrasing asks why the care was given)
_NEED_Q = re.compile(r"^why (?:does|did|do) (?:he|she|i|the patient) need (?!to\b)(.+)$", re.IGNORECASE)
# verbs whose "object" is not a thing done to the patient ("why did they wait until ...")
_NOT_TRANSITIVE = {"go", "come", "have", "need", "want", "try", "think", "say", "wait", "know", "feel", "be", "let",
                   "decide", "tell", "ask", "see", "look", "seem"}
_OBJ_PRONOUN = {"him": "he", "them": "they", "me": "me", "us": "we", "her": "she", "it": "it"}
_YESNO = re.compile(r"^(?:is|was|are|were|did|does|do)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"\s(?=(?:if|when|after|before|instead|since|because|for|and|so|to|while|even|until|"
                     r"with|at|on|in)\b)|,", re.IGNORECASE)
_CLAUSE_NO_AND = re.compile(_CLAUSE.pattern.replace("|and|", "|"), re.IGNORECASE)
_IRREGULAR = {"give": "given", "put": "put", "take": "taken", "keep": "kept", "send": "sent", "do": "done",
              "make": "made", "tell": "told", "leave": "left", "let": "let", "find": "found", "get": "gotten",
              "hold": "held", "choose": "chosen", "run": "run", "cut": "cut", "bring": "brought", "feed": "fed",
              "draw": "drawn", "write": "written", "begin": "begun", "shut": "shut", "set": "set"}


@dataclass(frozen=True)
class WriterConfig:
    """One switch per rule (docs/question.md has each one's cross-validated effect)."""

    choose: str = "longest"   # which question sentence: longest | first | why (first "why", else longest) | combine
    hedges: bool = False      # drop "really", "just", "that much" ...
    passive: bool = False     # "Why did they stop X" -> "Why was X stopped"
    glossary: str = "none"    # none | abbr: brand names and abbreviations -> the glossary's first clinical term
    agreement: bool = False   # "do the patient has to" -> "does the patient have to"; "im" -> "the patient is"
    need: bool = False        # "Why does he need X" -> "Why was X needed"
    yesno_why: bool = False   # "Was it necessary ..." -> "Why was it necessary ..."
    drop_if: bool = False     # drop a trailing "if/when/since ..." clause (keeping >= 5 words)
    max_words: int = QUESTION_WORDS

    def __post_init__(self) -> None:
        if self.choose not in CHOICES:
            raise ConfigError(Problem(f"choose must be one of {', '.join(CHOICES)}, not {self.choose!r}",
                                      field="choose", code="bad-value"))
        if self.glossary not in GLOSSARY_MODES:
            raise ConfigError(Problem(f"glossary must be one of {', '.join(GLOSSARY_MODES)}, not {self.glossary!r}",
                                      field="glossary", code="bad-value"))
        if not 1 <= self.max_words <= QUESTION_WORDS:
            raise ConfigError(Problem(f"max_words must be 1..{QUESTION_WORDS}, not {self.max_words}",
                                      field="max_words", code="bad-value"))

    def with_(self, **changes: object) -> WriterConfig:
        return replace(self, **changes)  # type: ignore[arg-type]


def shorten_question(text: str, limit: int = QUESTION_WORDS) -> str:
    """At most `limit` words, preferring to end at a clause boundary; always ends with "?"."""
    words = text.split()
    if len(words) > limit:
        head = words[:limit]
        # back off to the last clause boundary in the second half of the window
        for k in range(limit - 1, limit // 2, -1):
            if head[k - 1].endswith((",", ";", ":")):
                head = head[:k]
                break
        words = head
    out = " ".join(words).rstrip(",;:.!? ")
    return out + "?" if out else ""


def sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.?!])\s+|\n+", text)
    return [p.strip() for p in parts if p.strip()]


def is_question(s: str) -> bool:
    first = s.split()[0].lower().strip(",") if s.split() else ""
    return s.endswith("?") or first in _QWORDS


def is_generic(s: str) -> bool:
    return bool(_GENERIC.match(s))


def strip_fillers(text: str) -> str:
    for rx in _FILLERS:
        text = re.sub(rx, "", text, flags=re.IGNORECASE).strip()
    return text


def third_person(text: str, extra: bool = False) -> str:
    rules = _PRONOUNS_EXTRA + _PRONOUNS if extra else _PRONOUNS
    for rx, repl in rules:
        # patients often write a lower-case "i": whole-word matching makes that safe to catch
        text = re.sub(rx, repl, text, flags=re.IGNORECASE)
    return text


def _aux3(aux: str) -> str:
    return "does" if aux.lower() == "do" else aux


def fix_agreement(text: str) -> str:
    for rx, repl in _AGREEMENT:
        text = re.sub(rx, repl, text, flags=re.IGNORECASE)  # type: ignore[arg-type]
    return text


def drop_hedges(text: str) -> str:
    return re.sub(r"\s{2,}", " ", _HEDGES.sub("", text)).strip()


def participle(verb: str) -> str:
    """Past participle of a regular or common irregular verb: stop -> stopped, change -> changed."""
    v = verb.lower()
    if v in _IRREGULAR:
        return _IRREGULAR[v]
    if v.endswith("e"):
        return v + "d"
    if v.endswith("y") and len(v) > 2 and v[-2] not in "aeiou":
        return v[:-1] + "ied"
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnpt]", v):  # one short syllable: stop -> stopped
        return v + v[-1] + "ed"
    return v + "ed"


def _be(subject: str) -> str:
    last = subject.split()[-1].lower()
    plural = last in ("they", "we") or (last.endswith("s") and not last.endswith(("ss", "us", "is")))
    return "were" if plural else "was"


def _split_object(rest: str, keep_and: bool = False) -> tuple[str, str]:
    """ "the aspirin if it was protecting her" -> ("the aspirin", " if it was protecting her")."""
    cut = (_CLAUSE_NO_AND if keep_and else _CLAUSE).search(rest)
    return (rest[:cut.start()].strip(), rest[cut.start():]) if cut else (rest.strip(), "")


def to_passive(text: str) -> str:
    """ "Why did they stop the aspirin if ..." -> "Why was the aspirin stopped if ...";
    "Why didn't they give him the clot buster" -> "Why was he not given the clot buster"; else unchanged."""
    m = _AGENT_Q.match(text.rstrip("?!. "))
    if not m:
        return text
    aux, verb, rest = m.group(1).lower(), m.group(2), m.group(3)
    neg = " not" if ("n't" in aux or "nt" in aux or " not" in aux) else ""
    if verb.lower() in _NOT_TRANSITIVE:
        return text
    obj, tail = _split_object(rest)
    words = obj.split()
    if not words or len(words) > 6 or words[0].lower() in ("to", "that", "so", "it"):
        return text
    first = words[0].lower()
    if first in _OBJ_PRONOUN and (len(words) == 1 or first != "her"):
        # "give him the clot buster": the person becomes the subject, the thing stays after the verb
        subj = _OBJ_PRONOUN[first]
        after = " " + " ".join(words[1:]) if len(words) > 1 else ""
        return f"Why {_be(subj)} {subj}{neg} {participle(verb)}{after}{tail}".rstrip() + "?"
    return f"Why {_be(obj)} {obj}{neg} {participle(verb)}{tail}".rstrip() + "?"


def need_passive(text: str) -> str:
    """ "Why does he need the drain if ..." -> "Why was the drain needed if ..."; else unchanged."""
    m = _NEED_Q.match(text.rstrip("?!. "))
    if not m:
        return text
    obj, tail = _split_object(m.group(1), keep_and=True)
    if not obj or len(obj.split()) > 6:
        return text
    be = "were" if " and " in f" {obj} " else _be(obj)
    return f"Why {be} {obj} needed{tail}".rstrip() + "?"


def yesno_to_why(text: str) -> str:
    """ "Was it necessary to give him blood?" -> "Why was it necessary to give him blood?"."""
    if _YESNO.match(text):
        return "Why " + text[0].lower() + text[1:]
    return text


def drop_if_clause(text: str, min_words: int = 5) -> str:
    """ "Why was X stopped if it was working?" -> "Why was X stopped?" when enough words remain."""
    m = re.search(r"\s(?:if|when|even though|since)\s", text, flags=re.IGNORECASE)
    if m and len(text[:m.start()].split()) >= min_words:
        return text[:m.start()].rstrip(" ,") + "?"
    return text


def clinical_terms(text: str) -> str:
    """Brand names and abbreviations -> the glossary's first clinical term (eliquis -> apixaban)."""
    from archehr.glossary import load_glossary

    gl = load_glossary()
    for e in gl.matches(text):
        if e.kind != "abbr":
            continue
        text = re.sub(rf"\b{re.escape(e.term)}\b", e.expansions[0], text, flags=re.IGNORECASE)
    return text


def choose_question(cands: list[str], how: str, limit: int) -> str | None:
    """The sentence holding the question, or None when there is no question (only statements)."""
    questions = [s for s in cands if is_question(s) and not is_generic(s)]
    if not questions:
        return None
    longest = max(questions, key=lambda s: (min(len(s.split()), 25), -cands.index(s)))
    if how == "first":
        return questions[0]
    if how == "why":
        return next((s for s in questions if s.lower().startswith("why")), longest)
    if how == "combine" and len(questions) > 1:
        a, b = questions[0].rstrip("?!. "), questions[1]
        if len(a.split()) + len(b.split()) <= limit + 2:
            return f"{a}, and {b[0].lower()}{b[1:]}"
        return questions[0]
    return longest


def _rewrite(text: str, cfg: WriterConfig) -> str:
    text = strip_fillers(text)
    if cfg.hedges:
        text = drop_hedges(text)
    if cfg.glossary == "abbr":
        text = clinical_terms(text)
    if cfg.passive:
        text = to_passive(text)
    if cfg.need:
        text = need_passive(text)
    if cfg.yesno_why:
        text = yesno_to_why(text)
    if cfg.drop_if:
        text = drop_if_clause(text)
    text = third_person(text, extra=cfg.agreement)
    if cfg.agreement:
        text = fix_agreement(text)
    return text.strip(" ,")


def write_question(case: Case, cfg: WriterConfig) -> str:
    source = case.question_text or case.patient_narrative or ""
    cands = sentences(source)
    if not cands:
        return ""
    best = choose_question(cands, cfg.choose, cfg.max_words)
    if best is None:
        # "Any ideas?" carries no content: ask about the statement just before it
        statements = [s for s in cands if not is_generic(s)] or cands
        return shorten_question("What explains that " + _rewrite(statements[-1], cfg).rstrip(".!?"), cfg.max_words)
    text = _rewrite(best, cfg) or best
    text = text[0].upper() + text[1:]
    return shorten_question(text, cfg.max_words)


# Every switch off: the template as first written (it gives the same output on all 84 tuning narratives), kept
# as the benchmark's "legacy" row.
FIRST_CONFIG = WriterConfig()
# Chosen by benchmarks/st1_quality.py (grid fitted on the whole tuning pool; docs/question.md).
DEFAULT_CONFIG = WriterConfig(choose="combine", hedges=True, passive=True, agreement=True, need=True, yesno_why=True,
                               drop_if=True)
