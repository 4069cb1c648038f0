"""What a patient's question asks for: the kind of answer (`ask_kind`, one of `KINDS`), its topic as concepts
(`asked_concepts`: the question's words less those that only say which kind of answer is asked, a brand also
covered by its generic name) and the medicines it names (`medicines_asked`). `archehr.answerability.kinds`
matches these to what each note sentence holds.
"""

from __future__ import annotations

import re

from archehr.answerability.asked_result_kind import result_asked
from archehr.answerability.asking import asking_part
from archehr.answerability.cues import MEDICINE, VISIT, cue_table, plain_question
from archehr.answerability.features import QUESTION_FILLER, Concept, question_concepts
from archehr.answerability.test_words import ANALYTE, NOT_A_DOSE
from archehr.glossary import Glossary
from archehr.relevance.text import tokens

KINDS = ("how_long", "when", "med_change", "test_result", "why", "may_i")

_ASKS = cue_table("kind")
_RETURN = re.compile(r"\b(?:come back|go back to the (?:er|hospital|emergency)|(?:the )?er\b|emergency|"
                     r"call (?:the|his|her|my|a|911))", re.I)
_FIRST_WINS = ("why", "how_long")  # anywhere in the question: these win over an earlier cue
# "What do I take to sleep now?": which medicine, a medication change, not a permission
_WHAT_TO_TAKE = re.compile(r"\bwhat (?:do|should|can|does|will) (?:i|he|she|we|they) (?:take|use|give)\b", re.I)
# "Should I still take furosemide?", "can he keep taking it": a medication change, not a permission
_STILL_TAKING = re.compile(r"\b(?:still|keep|continue|carry on|stop|quit|start|restart|resume|go back on|supposed to|"
                           r"meant to)\s+(?:(?:meant|supposed) to\s+)?(?:be\s+)?(?:tak\w*|on|us\w*|with)\b|"
                           r"\b(?:come|get|go|be taken) off\b", re.I)
# "should he stop the allopurinol": a medicine stopped or restarted, asked as a permission; a medication change
# ("when can he restart his aspirin" stays a when question)
_STOP_MED = re.compile(r"\b(?:stop|quit|restart|resume)\s+(?:the|his|her|my|their)\s+" + MEDICINE + r"\b", re.I)
# "how long till the results come back", "how long before I hear": the wait for an awaited event, answered by when it
# comes (a when question), not by how long something lasts
_AWAITED = re.compile(r"\bhow long (?:un)?til+\b|\bhow long (?:before|until)\b", re.I)
_AWAITED_EVENT = re.compile(r"\b(?:results?|tests?|bloods?|scans?|biopsy|report|cultures?|swabs?)\s+(?:(?:are|is) )?"
                            r"(?:come|comes|coming|be|are|is) back\b|\b(?:results?|hear|heard|letter|phone call|"
                            r"appointment|appt|booked|referral)\b", re.I)
# "what time do I come back for the blood test": a time asked outright, not a return instruction
_TIME_ASKED = re.compile(r"\b(?:what|which) (?:day|date|time)\b", re.I)
# a verbless fragment naming an activity ("driving after stent", "alcohol with antibiotics", "shower with stitches
# ok"): the permission for it, when no question word or verb says another kind
_NO_VERB_OPENING = re.compile(r"^\s*(?!(?:how|when|why|what|which|who|where|is|are|was|were|do|does|did|has|have|"
                              r"had|can|could|will|would|should|may|am|i|he|she|we|they|my|his|her|our|their)\b)"
                              r"[a-z]", re.I)
_FRAGMENT_LINK = re.compile(r"\b(?:after|with|while|on|during|post|ok|okay|safe|allowed|yet|now)\b", re.I)
_BARE_VERDICT = re.compile(r"^\s*(?:ok|okay|alright|all right|fine|safe)\W*$", re.I)
# a question's opening clause telling what happened another time ("last time they gave us prednisolone for 5 days,
# do i need a steroid this time"): background, not what is asked about
_BACKGROUND = re.compile(r"^\s*(?:the\s+)?(?:last|other|previous) time\b[^,.;?]*[,.;]|^\s*previously\b[^,.;?]*[,.;]",
                         re.I)
# a question's "dr" or "doc" is a doctor ("the cancer dr": oncology)
_DOCTOR = re.compile(r"\b(?:dr|drs|doc|docs)\b\.?", re.I)
# words that say what kind of answer is asked, not what about (they name no topic)
KIND_WORDS = frozenset(tokens("""
long soon often when day days week weeks month months year years time date schedule scheduled calendar
appointment appointments visit check show showed come came back result results test tests okay ok alright
fine good bad normal allowed safe why reason cause caused still keep continue supposed which kind sort
will would now left leave stay term anything something everything change changed cut even ever get gets
low high up down
mom moms mother dad dads father husband wife son daughter sister brother baby babys kid child he she shes hes
him her his their they them lying
see seen bring brought send sent actually think thinks thought plan plans planning going gonna gotta wanna
cant dont wont didnt doesnt isnt arent im ive youre theyre whats thats u ur pls plz bottle bottles
worry worried scared afraid guess maybe probably exactly anymore kind sort part stuff whole supposed
score scored pass passed fail failed tell told explain mean meaning happen happening
longer look looks looked yet same soon again usual coming going getting till til using chart us place
taken another one wait
""", stem=True))


# a polite frame around the ask ("Could you kindly advise whether ...", "can you please tell me if ..."): its
# "can you" is no permission asked; the kind is read from what follows
_POLITE = re.compile(r"\b(?:(?:can|could|would|will)\s+(?:you|someone|somebody|anyone)\s+"
                     r"(?:please\s+|kindly\s+|just\s+)*|please\s+(?:can\s+you\s+|could\s+you\s+)?(?:kindly\s+)?)"
                     r"(?:tell|let|advise|explain|confirm|check|clarify|find out|say)\b(?:\s+(?:me|us|know))*"
                     r"(?:\s+(?:whether|if))?\s*", re.I)


# a value the patient quotes ("is 14.6 ok for my hemoglobin", "CRP 41 - is that fine?"): a number that is no dose,
# time, count of days, date or clock time; with a verdict asked and no activity, it asks for the value's verdict
_QUOTED_VALUE = re.compile(r"(?<![\w/:.])\d+(?:\.\d+)?" + NOT_A_DOSE + r"(?![/:]\d)", re.I)
_VERDICT_ASKED = re.compile(r"\b(?:ok|okay|fine|normal|alright|all right|good|bad|too high|too low|dangerous)\b", re.I)
_ACTIVITY = re.compile(r"\b(?:take|taking|go|going|eat|drink|drive|fly|swim|travel|work|allowed|play|lift|shower|"
                       r"bath|have|use|give|stop|start|can|should|may)\b", re.I)

# "is my lantus going up", "is her metformin dose staying the same", "was his insulin put down": what moves is a
# medicine named by the lexicon of drugs (`_dose_moves`), so its dose is asked, not a test's value
_DOSE_MOVES = re.compile(r"\b(?:is|are|was|were)\s+(?:my|his|her|their|the|mum'?s|mom'?s|dad'?s)\s+"
                         r"([\w-]+(?:\s+[\w-]+)?)\s+(?:dose\s+)?(?:going|gone|being|staying|stay|kept|put)\b", re.I)


_ANALYTE = re.compile(rf"\b(?:{ANALYTE})\b", re.I)


def _dose_moves(question: str) -> bool:
    """The question asks whether a medicine's dose moves (`_DOSE_MOVES`), the medicine a drug the lexicon knows."""
    from archehr.glossary.drugs import drugs_in

    # (a drug that is also a blood test's name, "potassium", "iron", asks its level)
    return any(drugs_in(m.group(1)) and not _ANALYTE.search(m.group(1)) for m in _DOSE_MOVES.finditer(question))


def ask_kind(question: str) -> str:
    """The kind of answer a patient's question asks for (one of `KINDS`), or "other": read from the asking clauses
    when a story is told around them (`asking.asking_part`), else from the whole question."""
    question = _POLITE.sub(" ", plain_question(question))
    kind = _ask_kind(question)
    if result_asked(question, kind):
        return "test_result"  # "did the blood test come back": a test's return, not the patient's
    if kind in ("other", "test_result") and _activity_fragment(question):
        return "may_i"
    if kind == "test_result" and _dose_moves(question):
        return "med_change"  # "is my lantus going up or staying the same": the medicine's dose, no test's value
    if kind == "may_i" and _QUOTED_VALUE.search(question) and _VERDICT_ASKED.search(question) \
            and not _ACTIVITY.search(question):
        return "test_result"  # "mum haemoglobin 112, is it ok?": the value's verdict, no permission
    return kind


def _ask_kind(question: str) -> str:
    """`ask_kind` of a question already read out (texting spellings, a polite frame)."""
    part = asking_part(question)
    if part.has_story:
        kind = _kind_of(part.asking)
        if kind == "may_i" and _STILL_TAKING.search(part.asking) and _kind_of(question) == "med_change":
            return "med_change"  # "she's been on nurofen for years, can she still take it": the story's medicine
        if kind != "other":
            return kind
    return _kind_of(question)


def _kind_of(question: str) -> str:
    """The kind whose cue opens earliest in `question` (why and how long anywhere win), or "other"."""
    found = {name: m.start() for name, pattern in _ASKS if (m := pattern.search(question)) is not None}
    if "how_long" in found and "why" not in found and _awaits(question):
        # the results' "come back" is no return to hospital either
        return "when"
    for name in _FIRST_WINS:
        if name in found:
            return name
    if not found:
        return "other"
    if _WHAT_TO_TAKE.search(question) or ("med_change" in found and _STILL_TAKING.search(question)):
        return "med_change"
    first = min(found, key=lambda k: (found[k], [n for n, _ in _ASKS].index(k)))
    if first == "may_i" and "med_change" in found and _STOP_MED.search(question):
        return "med_change"
    if "when" in found and "may_i" in found and _RETURN.search(question) and not VISIT.search(question) \
            and not _TIME_ASKED.search(question):
        return "may_i"  # "When should I go back to the ER?": the answer is a return instruction, not a date
    return first


def _awaits(question: str) -> bool:
    """The question's only how-long cue asks how long until an awaited event (results, a letter, an appointment)."""
    how_long = dict(_ASKS)["how_long"]
    starts = [m.start() for m in how_long.finditer(question)]
    waits = [m for m in _AWAITED.finditer(question) if _AWAITED_EVENT.search(question, m.end(), m.end() + 50)]
    return bool(waits) and all(any(abs(s - m.start()) <= 4 for m in waits) for s in starts)


def _activity_fragment(question: str) -> bool:
    """The question is a verbless fragment naming something a patient does and may ask leave for (an `activity`
    of the everyday lexicon: driving, a shower, alcohol), beside a condition ("after", "with") or a bare "ok?"."""
    from archehr.glossary import load_lexicon

    if not _NO_VERB_OPENING.search(question) or len(question.split()) > 8:
        return False
    acts = [e for e in load_lexicon().matches(question) if e.kind == "activity"]
    if not acts:
        return False
    words = question.split()
    return bool(_FRAGMENT_LINK.search(question)) or len(words) <= 2 or bool(_BARE_VERDICT.search(words[-1]))


def asked_concepts(question: str, lexicon: Glossary) -> list[Concept]:
    """The question's topic: its concepts without the words that only say which kind of answer is asked;
    a brand name ("Eliquis") is also covered by its generic name (apixaban, `features.question_concepts`)."""
    question = _DOCTOR.sub("doctor", _BACKGROUND.sub(" ", question))
    out = [c for c in question_concepts(question, lexicon)
           if not all(t in KIND_WORDS or t in QUESTION_FILLER for t in c.surface)]
    return out + _filler_terms(question, lexicon)


def _filler_terms(question: str, lexicon: Glossary) -> list[Concept]:
    """Lexicon terms of two or more words that are each filler on their own ("baby doctor", "regular doctor"):
    the term names a thing (pediatrics, primary care) although none of its words does."""
    out = []
    for e in lexicon.matches(question):
        words = tuple(tokens(e.term))
        if (len(words) < 2 or e.kind == "activity" or all(t in KIND_WORDS for t in words)
                or not all(t in QUESTION_FILLER or t in KIND_WORDS for t in words)):
            continue
        phrases = {tuple(tokens(x)) for x in e.expansions} - {()}
        if phrases and not all(all(t in QUESTION_FILLER or t in KIND_WORDS for t in ph) for ph in phrases):
            out.append(Concept(words, frozenset(phrases | {words})))
    return out


def medicines_asked(question: str, lexicon: Glossary) -> set[tuple[str, ...]]:
    """The question's words that name a medicine, as concept surfaces: a drug class in patients' words ("water
    pill"), a lexicon term standing for class members ("Advil" -> ibuprofen: `_stands_for_medicine`), or a drug or
    brand name."""
    from archehr.glossary.drugs import WORD, generic_of

    out = set()
    for e in lexicon.matches(question):
        if e.kind == "class" or _stands_for_medicine(e.expansions, lexicon):
            out.add(tuple(t for t in tokens(e.term) if t not in QUESTION_FILLER))
    out.update(tuple(tokens(w)) for w in WORD.findall(question) if generic_of(w) is not None or lexicon.classes_in(w))
    out.discard(())
    return out


def _stands_for_medicine(expansions: tuple[str, ...], lexicon: Glossary) -> bool:
    """At least half of a term's expansions name a medicine class ("Advil": ibuprofen, an NSAID): the term stands for a
    medicine. A word with one medicine among many other senses ("sleep": insomnia, sleep hygiene ... and a sleep aid;
    "sugar", "cholesterol", "infection") names a state or a test, not a medicine the note must name."""
    named = sum(1 for x in expansions if lexicon.classes_in(x))
    return named > 0 and 2 * named >= len(expansions)


def lay_twin(concept: Concept, concepts: list[Concept], named: list[int], question: str, lexicon: Glossary) -> bool:
    """A concept no sentence names whose surface a named concept shares, and which is no drug class of the question
    (it holds under half of the class's members): "sugar pill" (metformin ...) and the lay "sugar" (glucose, HbA1c
    ...) both read as "sugar" once "pill" is dropped, so the lay sense the note does not use is no medicine it never
    names (`named`: how many sentences name each concept, in `concepts` order)."""
    for e in lexicon.matches(question):
        members = {tuple(tokens(x)) for x in e.expansions} if e.kind == "class" else set()
        if members and 2 * len(members & concept.phrases) >= len(members):
            return False
    return any(c is not concept and c.surface == concept.surface and n > 0
               for c, n in zip(concepts, named, strict=True))
