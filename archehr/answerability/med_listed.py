"""A medicine listed, not what is asked of it: the answer's first line is a medication list entry that names the drug
and its dose, and neither it nor the lines about it give the fact a question asks of the medicine.

A note lists its medicines in many places: a medication list, a discharge list, a table row ("Metformin 500 mg
twice daily"). A question naming one of them shares its words, so the answer citing the entry looks confident; but
a question asking why it was started, how long to take it or whether it is safe with something else asks a fact the
entry does not hold. `listed_only` reads:

- the fact asked (`asked_facts`): a reason ("why is she on it", "what is it for"), a length or an end ("how long",
  "when can he stop"), a safety or a mix ("is it safe with", "can I take it together with"). A change ("is it the
  same as before", "instead of") is not read: a list entry answers it as often as not (a "STOP" row, a new entry);
  nor is a dose, a name or whether it is still taken, which the entry gives;
- whether the first line is a list entry (`list_entry`): it names a medicine and a dose or how often it is taken,
  in a short line (a table row's cells counted as one line);
- whether the entry, the heading over it ("Changed medicines:", "Stopped because of the fall:") or the next line of
  its paragraph naming no other medicine gives that fact (`FACT_GIVEN`, `why_causes.has_cause`,
  `length_forms.any_length`).

`archehr answer` flags such an answer for review (never declines it: the note may tell the fact in other words).
Over the 117 development writers, of the medication questions answered unflagged with such a first line, it flagged 4
unanswerable (4 writers) and 1 answerable; with a change read as asked, 5 unanswerable and 20 answerable.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from archehr.answerability.doses import STRENGTH
from archehr.answerability.spaces import fold

# the fact a medication question asks, by its words
ASKED = {
    # "why", "how come", "what is it for", "what's the pantoprazole even for": a "for" closing the clause (not "what is
    # the new tablet for the constipation", which asks its name, nor "what is she to take for her reflux")
    "reason": re.compile(r"\bwhy\b|\bhow come\b|\bwhat(?:'s| is| are| was| were)? "
                         r"(?:(?!(?:take|give|use|have|get)\b)\S+ ){0,4}for\b(?=\s*(?:[?.,!]|$|"
                         r"(?:my|his|her|me|him|them|if|when|and|but|as|since|cause|cos)\b))|\bfor what\b|"
                         r"\breasons?\b|\bwhat does (?:it|this|that) do\b|\bis (?:it|this|that) for\b", re.I),
    "length": re.compile(r"\bhow long\b|\b(?:until|till|til) when\b|\bhow many (?:more )?(?:days|weeks|months)\b|"
                         r"\bwhen (?:can|do|should|does|will|must|could) (?:i|he|she|they|we|mum|dad)\s+(?:\w+\s+)?"
                         r"(?:stop|come off|finish|get off)\b|\bfor life\b|\bforever\b|\blong[- ]term\b|"
                         r"\brest of (?:my|his|her|their) life\b", re.I),
    "safe": re.compile(r"\bsafe\w*\b|\b(?:take|have|use|give) (?:\S+ ){0,3}together\b|\bmix\w*\b|"
                       r"\binteract\w*\b|\bclash\w*\b|\bside[- ]effects?\b|"
                       r"\bwith (?:alcohol|drink|wine|beer|food)\b|\bon top of\b|\bas well as\b", re.I),
}
# what gives a safety or a mix on a medicine, beside the decisions of `med_decisions.DECISION` ("do not take with")
SAFETY_GIVEN = re.compile(r"\b(?:safe\w*|avoid\w*|do not|don't|dont|never|must not|should not|interact\w*|caution|"
                          r"together|with food|alcohol|side[- ]effects?|risk\w*|warn\w*|fine to|ok(?:ay)? to|"
                          r"can (?:take|use|have)|allergy|allergic)\b", re.I)
# a dose or how often: "500 mg", "2 puffs", "twice daily", "BD", "at night", "when required"
DOSING = re.compile(rf"{STRENGTH.pattern}|"
                    r"\b(?:once|twice|three times|four times|daily|nightly|weekly|od|bd|bid|tds|tid|qds|qid|nocte|"
                    r"mane|prn|qhs|qd|at night|in the morning|when required|as needed|as required)\b", re.I)
ENTRY_WORDS = 18  # a list entry is at most this many words (a table row's separators aside)
# a heading over a list: a short line ending in a colon, or a section title ("Changes to medicines")
_HEADING = re.compile(r"^[^.!?]{2,60}:\s*$|^[A-Z][A-Za-z /&-]{2,40}$")


def asked_facts(question: str) -> tuple[str, ...]:
    """The facts a medication question asks (`ASKED`), in `ASKED` order."""
    plain = fold(question)
    return tuple(f for f, p in ASKED.items() if p.search(plain))


def _names_medicine(text: str) -> bool:
    """The text names a drug (`drugs.drugs_in`) or a class of the lexicon ("statin", "water tablet")."""
    from archehr.glossary import load_lexicon
    from archehr.glossary.drugs import drugs_in

    return bool(drugs_in(text)) or any(e.kind == "class" for e in load_lexicon().matches(text))


def list_entry(text: str) -> bool:
    """A medication list entry: a short line (`ENTRY_WORDS`, a table's cell separators aside) naming a medicine and
    a dose or how often it is taken (`DOSING`)."""
    plain = fold(text)
    words = [w for w in re.split(r"[\s|]+", plain) if w and re.search(r"\w", w)]
    return len(words) <= ENTRY_WORDS and bool(DOSING.search(plain)) and _names_medicine(plain)


def gives(fact: str, text: str) -> bool:
    """The text gives the asked fact: a cause (`why_causes.has_cause`), a length or an end (`any_length`), a safety
    word (`SAFETY_GIVEN`) or a decision on the medicine (`med_decisions.DECISION`)."""
    from archehr.answerability.length_forms import any_length
    from archehr.answerability.med_decisions import DECISION
    from archehr.answerability.why_causes import has_cause

    plain = fold(text)
    if fact == "reason":
        return has_cause(plain)
    if fact == "length":
        return any_length(plain)
    return bool(SAFETY_GIVEN.search(plain)) or bool(DECISION.search(plain))


def _heading_over(at: int, texts: Sequence[str], paragraphs: Sequence[str]) -> str | None:
    """The heading line over entry `at`: the nearest line before it in its paragraph (or the line just before the
    paragraph) that is no entry and reads as a heading (`_HEADING`)."""
    for i in range(at - 1, -1, -1):
        if _HEADING.match(fold(texts[i]).strip()) and not list_entry(texts[i]):
            return texts[i]
        if paragraphs[i] != paragraphs[at] and i < at - 1:
            return None
    return None


def near_lines(at: int, texts: Sequence[str], paragraphs: Sequence[str]) -> list[str]:
    """The entry, the heading over it, and the next line of its paragraph when that names no medicine (an entry's
    instruction kept apart by the split: "Metformin 500 mg twice daily" then "Take with food")."""
    out = [texts[at]]
    head = _heading_over(at, texts, paragraphs)
    if head is not None:
        out.append(head)
    nxt = at + 1
    if nxt < len(texts) and paragraphs[nxt] == paragraphs[at] and not _names_medicine(texts[nxt]):
        out.append(texts[nxt])
    return out


def listed_only(kind: str, question: str, texts: Sequence[str], paragraphs: Sequence[str], at: int | None) -> bool:
    """A question (med_change, why, how-long, may-I, or of no kind read) asking a reason, a length or
    a safety (`asked_facts`) whose first line (`at`) is a medication list entry (`list_entry`) and no line about it
    (`near_lines`) gives one of the asked facts."""
    if kind not in ("med_change", "why", "how_long", "may_i", "other") or at is None:
        return False
    facts = asked_facts(question)
    if not facts or not list_entry(texts[at]):
        return False
    near = near_lines(at, texts, paragraphs)
    return not any(gives(f, t) for f in facts for t in near)
