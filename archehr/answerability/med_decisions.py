"""Whether a note sentence decides what happens to a medicine, for a med_change question of `archehr answer`.

A note names a medicine in many lines that decide nothing about it: the history ("takes cetirizine 10 mg daily for
seasonal allergies"), a nursing log of doses taken ("09:05 Took spironolactone 100 mg, furosemide 40 mg ... this
morning as usual"), a dose given once in the department ("Ondansetron 4 mg ODT given at 19:10"). A question whether
to keep, stop or change a medicine is answered by the line that acts on it: an order or a plan ("Continue
furosemide", "Hold spironolactone from today", "Dose back to 4 mg daily", "START apixaban", "... instead of ...").

- `DECISION` tells a line holding such an action; `dose_taken` a line recording a dose taken or given, which the
  rank counts `W_TAKEN` of its score for a med_change question;
- a log of dated or timed entries ("16/05/2025 11:40  INR 2.9." ... "23/05/2025 10:05  INR 1.9.") tells its latest
  decision last: `log_places` gives each line its entry's place, and the rank lifts later entries by up to
  `W_LATEST` times the line's topic, so "Dose back to 4 mg daily" of the last entry comes before "Restart warfarin
  ... at 3 mg daily" of an earlier one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability.dates import ISO_DATE
from archehr.answerability.spaces import fold

# an action on a medicine: started, stopped, continued, held, changed, a dose moved ("back to 4 mg", "reduced from"),
# a replacement ("instead of", "replaced by", "switched to"), an order row ("START", "STOP", "CONTINUE")
DECISION = re.compile(
    r"\b(?:start\w*|commenc\w+|initiat\w+|stop\w*|discontinu\w+|cease[ds]?|continu\w*|carry on|keep (?:taking|using|"
    r"on|giving)|hold\w*|held|withh[eo]ld\w*|omit\w*|paus\w*|suspend\w*|chang\w+|increas\w+|decreas\w+|reduc\w+|"
    r"lower\w*|rais\w+|switch\w*|swap\w*|restart\w*|resum\w+|instead|replac\w+|titrat\w+|taper\w*|wean\w*|"
    r"no longer|back (?:to|on)|go(?:ing)? (?:up|down) to|cut (?:down|back)|add(?:ed)?|prescrib\w+|put on|"
    r"unchanged|same dose|d/c|finish\w*|complet\w*|no more|"
    # advice on how to go on ("I have advised that these can now be given only when needed")
    r"advis\w+ (?:that|to|him|her|them|you)|only (?:as|when|if) (?:needed|required))\b", re.I)
# a dose taken or given, recorded, not decided: "Took ... this morning as usual", "had his usual insulin",
# "Ondansetron 4 mg ODT given at 19:10", "loading dose of ... given in ED", "received 1 g IV"
_TAKEN = re.compile(
    r"^\W*(?:\d{1,2}[:.]\d{2}\s+)?(?:(?:he|she|they|pt|patient|(?:mr|mrs|ms|miss)\.? \w+)\s+)?"
    r"(?:took|has taken|had taken|had (?:his|her|their) (?:usual|normal|morning|evening)|received|was given)\b|"
    r"\b(?:given|administered|taken)\s+(?:at\s+\d{1,2}[:.]\d{2}|in (?:the )?(?:ed|a&e|department|resus|ambulance)|"
    r"(?:this|that) (?:morning|evening)|stat\b|pre-?hospital)|"
    r"\b(?:loading|stat|one-off|single|bolus) dose\b", re.I)
# what still makes a recorded dose a decision: an order to go on or change ("to continue", "then stop")
_GOES_ON = re.compile(r"\bto (?:continue|stop|start|restart|hold)\b|\b(?:then|and|but|now)\s+(?:continue|stop|"
                      r"start|restart|hold|reduce|increase)\b|\bfrom (?:now|today|tomorrow)\b", re.I)
W_TAKEN = 0.6  # the share of its rank a line recording a dose taken or given keeps for a med_change question
W_LATEST = 0.2  # what the latest entry of a log adds (times the topic) for a med_change question
# an entry's stamp at the start of a line: "14/05/2025 09:12", "23/05/2025 10:05", "09:05 ...", "2025-05-14 09:12"
_STAMP = re.compile(rf"^\W*(?:(?:\d{{1,2}}[/.-]\d{{1,2}}(?:[/.-]\d{{2,4}})?|{ISO_DATE})[ ,T]+)?\d{{1,2}}[:.]\d{{2}}"
                    rf"\b|^\W*(?:\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}|{ISO_DATE})\s*[:-]?\s+(?=[A-Za-z])")
LOG_ENTRIES = 3  # a note with at least this many stamped lines is a log


def dose_taken(text: str) -> bool:
    """The line records a dose taken or given, with no action on a medicine in it ("No more steroid needed; the
    single dose given in ED is enough" decides)."""
    plain = fold(text)
    return bool(_TAKEN.search(plain)) and not _GOES_ON.search(plain) and not DECISION.search(plain)


def decides(text: str) -> bool:
    """The line holds an action on a medicine (`DECISION`) and is no record of a dose taken (`dose_taken`)."""
    plain = fold(text)
    return bool(DECISION.search(plain)) and not dose_taken(plain)


def stamp(text: str) -> str | None:
    """The entry stamp a line opens with ("14/05/2025 09:12", "09:05"), or None."""
    m = _STAMP.match(fold(text))
    return m.group(0) if m else None


def log_places(texts: Sequence[str]) -> np.ndarray:
    """Each line's place among a log's entries (0 for lines before the first stamp or in the first entry, 1 in the
    last entry, evenly between); all 0 when fewer than `LOG_ENTRIES` lines open with a stamp."""
    starts = [i for i, t in enumerate(texts) if stamp(t)]
    out = np.zeros(len(texts))
    if len(starts) < LOG_ENTRIES:
        return out
    k = -1
    for i in range(len(texts)):
        if k + 1 < len(starts) and starts[k + 1] == i:
            k += 1
        out[i] = max(k, 0) / (len(starts) - 1)
    return out


def med_rank(texts: Sequence[str], topic: np.ndarray, score: np.ndarray, current: bool) -> np.ndarray:
    """The rank's score for a med_change question: a line recording a dose taken keeps `W_TAKEN`; asking what is
    taken now or whether to go on (`current`), a log's later entries gain up to `W_LATEST` times their topic."""
    out = score * np.array([W_TAKEN if dose_taken(t) else 1.0 for t in texts])
    if current:
        out = out + W_LATEST * topic * log_places(texts)
    return out


# a decision passed on to someone else: a request or a referral ("replacement requested from GP", "Refer to
# dermatology"), and the thing requested, the word before "requested" ("prescription requested": no action taken)
_REQUEST = re.compile(r"\b(?:request(?:ed|s)?|refer(?:red|ral|rals|ring)?)\b", re.I)
_REQUESTED = re.compile(r"\b[\w-]+\s+request(?:ed)?\b", re.I)


def requested_only(text: str) -> bool:
    """The line asks someone else for a decision (`_REQUEST`) and takes none on a medicine itself (`DECISION` outside
    what is requested): "Repeat prescription requested from the GP" decides nothing on what is in it."""
    plain = fold(text)
    return bool(_REQUEST.search(plain)) and not DECISION.search(_REQUESTED.sub(" ", plain))


def undecided(texts: Sequence[str], roles: Sequence[str], i: int) -> bool:
    """The line `i` decides nothing on a medicine: it records a dose taken (`dose_taken`), passes the decision on
    in a request or a referral (`requested_only`), or it is the story before the visit (history, the patient's
    words) and holds no action (`DECISION`: "takes cetirizine 10 mg daily for seasonal allergies", not "Takes
    aspirin 75 mg daily - continue")."""
    if dose_taken(texts[i]) or requested_only(texts[i]):
        return True
    return roles[i] in ("history", "patient", "complaint", "question", "title") and not DECISION.search(texts[i])


# a question asking about one medicine while on another: "do I need to stop my pill while I'm on the ibuprofen",
# "should he keep the inhaler going while taking the steroids": what is asked is the one before "while"; a line
# naming only the one after it (its prescription) decides nothing on the asked one
_WHILE = re.compile(r"^(.*?)\bwhile\s+(?:(?:i'?m|im|i am|he'?s|she'?s|they'?re|on|taking|using|having)\s+)*(.*)$",
                    re.I | re.S)
# the words of such a question that name no medicine: the asking, the change asked, pronouns
_NOT_ASKED = frozenset(
    "the this that these those with need stop keep carry continue take taking still should okay using have does "
    "will would could can must going start restart hold their your them what which when".split())


def _stems(text: str) -> set[str]:
    """The words of four letters or more, cut to their first five (plurals and endings read alike)."""
    return {w[:5] for w in re.findall(r"[a-z][a-z'-]{3,}", fold(text).lower()) if w not in _NOT_ASKED}


def other_medicine_only(question: str | None, text: str) -> bool:
    """The question asks about a medicine while on another (`_WHILE`) and the line names the other only: a word of
    the clause after "while", none of the clause before it (the asked medicine)."""
    m = _WHILE.match(fold(question or ""))
    if m is None:
        return False
    asked, during, said = _stems(m.group(1)), _stems(m.group(2)), _stems(text)
    return bool(asked) and bool(during & said) and not asked & said


# the state a medicine is left in now: held, stopped, continued ("HOLD ramipril ... restart to be decided", "remains on
# hold until review", "ON HOLD until the bloods are rechecked"), not a choice still open ("whether to stop it is to
# be decided": after "whether", "if" or "about")
_STATE_NOW = re.compile(r"(?<!whether to )(?<!whether )(?<!if to )(?<!about )(?<!on )\b(?:hold|held|on hold|"
                        r"withh[eo]ld\w*|stop|stopped|discontinued|continue|continued|remains? (?:on|off)|paused|"
                        r"suspended|omit|omitted)\b", re.I)


def state_decided(text: str, phrases: Sequence[str]) -> bool:
    """The line leaves the medicine in a state now (`_STATE_NOW`: held, stopped, continued) at or before the first
    of its phrases saying the next step is not decided (`phrases`, from `undetermined.asked_undetermined`): to a
    medication question ("should he still be taking it") the hold is the answer, the restart still open its sequel."""
    plain = fold(text).lower()
    at = [plain.find(p.lower()) for p in phrases if p.lower() in plain]
    if not at:
        return False
    m = _STATE_NOW.search(plain)
    return m is not None and m.start() <= min(at) + len("on hold")


# a question asking which medicine by its name: "what is the name of this medicine", "which drug is it exactly",
# "which tablets will I be going on to"
_ASKS_NAME = re.compile(r"\bname of (?:the |this |that |his |her |my )?(?:new )?(?:medicine|medicen|medication|drug|"
                        r"tablets?|pills?|cream|injection|inhaler)\b|\bwhat (?:is|was) (?:it|the \w+) called\b|"
                        r"\bwhich (?:new )?(?:one|drug|medicine|medication|tablets?|pills?|antibiotic\w*)\b(?! to\b)",
                        re.I)


def name_unsaid(question: str | None, text: str) -> bool:
    """The question asks which medicine by its name (`_ASKS_NAME`) and the line names none (`drugs.drugs_in`, nor a
    class of the lexicon): "started on preventive treatment" tells that a medicine was started, not which."""
    from archehr.glossary import load_lexicon
    from archehr.glossary.drugs import drugs_in

    if not question or not _ASKS_NAME.search(question):
        return False
    return not drugs_in(text) and not any(e.kind == "class" for e in load_lexicon().matches(text))
