"""A result question the kind cues read as another kind: a test that "came back", a sample "taken off" a limb.

The kind cues (`cues.CUES`) let the earliest cue win. Two cues of other kinds open many result questions:
"come back" is also a return to hospital (may I: "when should he come back in"), and "took ... off" a medicine
stopped (a medication change: "did they take him off the warfarin"). Neither holds when the thing that comes back
is a test ("did the blood test they took for the allergy come back", "what did his kidney function come back as",
"is the culture back yet"), or is asked to confirm a finding ("did the ct angiogram confirm the narrowing"), or when
what was taken off is a sample taken off a body part, no medicine named ("did the swab they took off my leg come
back clear"). `result_asked` reads that structure: the clause's subject before
"(come) back" names a test or asks of one with "did" / "has" / "is", or the question reads as a medication change
while naming no medicine and asking a result. `asked_for.ask_kind` then reads a result question.
"""

from __future__ import annotations

import re

from archehr.answerability.cues import MEDICINE, cue_table

# a test, a sample or a result in a patient's words
TEST_NOUN = (r"(?:tests?|results?|bloods?|blood ?work|swabs?|cultures?|scans?|x-?rays?|xrays?|mri|ct|biops(?:y|ies)|"
             r"smears?|samples?|specimens?|levels?|screens?|histology|pathology|reports?|ultrasound|echo|ecg|ekg|"
             r"function|count|markers?|panel|urine|sputum|fluid)")
# the test's clause coming back: "did the blood test they took for the allergy come back", "has my vitamin D blood
# test come back", "did the dsDNA and complement come back", "what did his kidney function come back as": an asking
# auxiliary or a test noun, then no clause break, then "come back" (a return is asked with a person: "when should
# he come back": no auxiliary with a noun phrase before it)
_CAME_BACK = re.compile(r"\b(?:(?:did|has|have|had)\s+(?!(?:i|he|she|we|they|you|it|to)\b)(?:the|my|his|her|their|"
                        r"that|this|those|these|our|your|\w+'s|\w+)\b[^,.;?!]{0,50}?|"
                        + TEST_NOUN + r"\b[^,.;?!]{0,40}?)\b(?:come|came|comes|coming)\s+back\b", re.I)
# "is the culture back yet", "are his bloods back", "is the result back"
_IS_BACK = re.compile(r"\b(?:is|are|has|have)\s+(?:the|my|his|her|their|that|this|those|these|our|your)\s+"
                      r"(?:[\w'-]+\s+){0,3}?" + TEST_NOUN + r"\s+(?:been\s+)?back\b", re.I)
# a test asked to confirm or rule out a finding: "did the ct angiogram confirm the narrowing", "has the vitamin c blood
# test confirmed it's scurvy", "did the scan rule out a clot": what the test found
_CONFIRMED = re.compile(r"\b(?:did|does|has|have|had)\s+(?:the|my|his|her|their|that|this|those|these|your)\s+"
                        r"(?:[\w'-]+\s+){0,4}?" + TEST_NOUN + r"\s+(?:[\w'-]+\s+){0,3}?"
                        r"(?:confirm\w*|rule[ds]? out|exclude[ds]?|prove[ds]?)\b", re.I)
_MED = re.compile(r"\b" + MEDICINE + r"\b", re.I)
# a sample taken off a body part ("the swab they took off my knuckles"), read out before looking for a medicine given
_TAKEN_OFF = re.compile(r"\b(?:took|taken|take|came|come)\s+(?:\w+\s+)?off\s+(?:my|his|her|their|the|your)\s+\w+",
                        re.I)
# a medicine given, taken or kept on, by whatever name ("keep taking my zyrtec", "did they give me some med")
_MED_ACT = re.compile(r"\b(?:tak\w*|took|give|gave|given|giving|prescrib\w*|meds?|dose)\b", re.I)
# the kind cues' result row, built once (not per question)
_RESULT_CUE = dict(cue_table("kind"))["test_result"]


def result_asked(question: str, kind: str) -> bool:
    """The question (read as `kind`) asks what a test found though another kind's cue opened it (the module's
    docstring): a may-I or other question whose test comes back, or a medication change naming no medicine and
    no medicine taken or given whose result cue also holds."""
    if kind in ("may_i", "other") and (_CAME_BACK.search(question) or _IS_BACK.search(question)
                                       or _CONFIRMED.search(question)):
        return True
    if kind == "med_change" and not _MED.search(question) and not _MED_ACT.search(_TAKEN_OFF.sub(" ", question)):
        return bool(_RESULT_CUE.search(question))
    return False
