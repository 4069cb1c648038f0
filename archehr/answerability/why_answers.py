"""Where a why answer sits when it does not repeat the asked thing's words, for the rank of `archehr answer`.

A why question names a thing done or felt ("why did she need her tonsils out", "why the pacemaker", "why is Mum so
muddled"); the note often gives the reason where no word of the question is: in the note's own diagnosis or
indication, a label and its value ("Indication: Recurrent tonsillitis ...", "Reason: Degenerative
spondylolisthesis ...", "Principal diagnosis: Complete heart block with syncope", "Dx: ... SIADH from sertraline"),
or the lines under such a heading ("Imp:" / "Community-acquired LRTI ...", "Diagnosis" / "Right ankle sprain",
"Assessment and plan:" / "Recurrent uncomplicated cystitis, likely post-coital"). What a note does is done for its
diagnosis: such a line holds a cause, and takes `W_DIAGNOSIS` of the best topic score a sentence of the note has
(the mention of the asked thing), so it answers before a line only naming the thing ("Procedure: Bilateral
tonsillectomy") yet after a sentence naming it and saying its own cause.

These cues weigh the rank only: the typed confidence reads `holds` and `score`, which they leave as they are.
"""

from __future__ import annotations

import re

import numpy as np

from archehr.answerability.spaces import fold

W_DIAGNOSIS = 0.6  # the share of the note's best topic score a line of its diagnosis or indication takes
MENTION_SHARE = 0.75  # a sentence scoring this share of the best topic score names the asked thing
EXPLAINED = 0.85  # a mention with a cause this firm in it or beside it is explained where it stands (W_SOFT)
DIAGNOSIS_LINES = 3  # the lines under a diagnosis heading that state it (an "Assessment and plan:" goes on to the plan)

# a label naming the note's diagnosis or what a procedure was done for: "Indication:", "Reason:", "Reason for
# surgery:", "Dx:", "Principal diagnosis:", "Imp:", "Impression:", "Assessment:", "A:", "Assessment and plan:", "A/P:"
# (not "Reason for visit:" or "Reason for referral:", the complaint restated)
_DIAGNOSIS_LABEL = re.compile(
    r"^\W*(?:(?:principal|primary|main|working|final|discharge|admission|admitting|provisional|clinical|"
    r"presumptive|differential)\s+)?(?:diagnos[ie]s|dx|ddx|impressions?|imp|assessment(?:\s*(?:and|&)\s*plan)?|a|"
    r"a\s*/\s*p|a\s*&\s*p|indications?(?: for [\w ]{2,30})?|reasons?(?: for (?:procedure|surgery|operation|test|scan|"
    r"treatment|the [\w ]{2,20}))?)\s*:\s*", re.I)
# a why question whose reason is no diagnosis: a change ("why did they stop her zoloft", "switch her to tablets",
# "reduce his tacrolimus"), a thing not done ("why didn't they send me home with antibiotics"), a choice ("surgery
# instead of therapy"): a new event or a weighing answers it, told beside the change
_ASKS_CHANGE = re.compile(
    r"\b(?:stop\w*|off|quit|discontinu\w*|anymore|no longer|cut (?:out|down|back)|take away|took away|held|hold\w*|"
    r"paus\w*|switch\w*|chang\w*|swap\w*|replac\w*|instead|rather than|reduc\w*|lower\w*|decreas\w*|increas\w*|"
    r"rais\w*|doubl\w*|halv\w*|moving|moved|closer|shorten\w*|not|cant|dont|doesnt|didnt|wont|wouldnt|couldnt|"
    r"isnt|arent|wasnt|werent|without)\b|\w+n['’]t\b", re.I)
# a line opening an item of a list ("2. Increase sertraline ...", "- Crutches given.", "• Raised toilet seat ..."):
# each item of a plan is its own step, and the reason given in one is not the reason for the next
_ITEM = re.compile(r"^\s*(?:\d{1,2}[.)]|[-•*–]|\(?[a-z]\))\s+\S")


def list_items(texts: list[str]) -> np.ndarray:
    """Which sentences open an item of a list (`_ITEM`)."""
    return np.array([bool(_ITEM.match(t)) for t in texts], dtype=bool)


# a heading line without a colon ("Diagnosis", "Impression", "ASSESSMENT")
_DIAGNOSIS_HEADING = re.compile(
    r"^\W*(?:(?:principal|primary|main|working|final|discharge|clinical)\s+)?(?:diagnos[ie]s|impressions?|"
    r"assessment(?:\s*(?:and|&)\s*plan)?|indications?)\W*$", re.I)
# a value that is no diagnosis: a date or a time ("Assessment: 03/10/2025 11:50 (telephone ...)")
_NOT_DIAGNOSIS = re.compile(r"^\W*\d{1,4}[/.:-]\d", re.I)
# a line that starts a new section: a short label ending in a colon, or a few words alone
_HEADING = re.compile(r"^[^.!?]{1,60}:$|^[A-Za-z][A-Za-z /&-]{1,40}$")


def diagnosis_lines(texts: list[str]) -> np.ndarray:
    """Which sentences state the note's diagnosis or indication: a diagnosis label and its value, or one of the first
    `DIAGNOSIS_LINES` lines under a diagnosis heading (up to the next heading)."""
    out = np.zeros(len(texts), dtype=bool)
    under = 0  # lines left under the last diagnosis heading
    for i, raw in enumerate(texts):
        t = fold(raw)
        m = _DIAGNOSIS_LABEL.match(t)
        if m and t[m.end():].strip():
            out[i] = not _NOT_DIAGNOSIS.match(t[m.end():])
            under = 0
        elif m or _DIAGNOSIS_HEADING.match(t):
            under = DIAGNOSIS_LINES
        elif _HEADING.match(t):
            under = 0
        elif under:
            out[i] = not _NOT_DIAGNOSIS.match(t)
            under -= 1
    return out


def asks_change(question: str) -> bool:
    """The question asks why something was stopped, changed, not done or chosen over another (`_ASKS_CHANGE`)."""
    return bool(_ASKS_CHANGE.search(question))


def diagnosis_carry(texts: list[str], topic: np.ndarray, held: np.ndarray, paragraphs: list[int]) -> np.ndarray:
    """Each sentence's rank as a why answer carried from the asked thing's mention: when no sentence naming the asked
    thing (a topic score at least `MENTION_SHARE` of the best) says a cause or has one beside it in its paragraph
    (`held` at least `EXPLAINED`), `W_DIAGNOSIS` times the best topic score for a line of the note's diagnosis or
    indication (`diagnosis_lines`); 0 for any other line, or when the mention is explained where it stands."""
    n = len(texts)
    best = float(topic.max()) if n else 0.0
    if best <= 0:
        return np.zeros(n)
    for i in np.flatnonzero(topic >= MENTION_SHARE * best):
        near = [held[j] for j in (i - 1, i, i + 1) if 0 <= j < n and paragraphs[j] == paragraphs[i]]
        if max(near) >= EXPLAINED:
            return np.zeros(n)
    return W_DIAGNOSIS * best * diagnosis_lines(texts)
