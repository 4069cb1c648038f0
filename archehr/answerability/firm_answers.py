"""How firmly a note sentence gives a why answer or a result, for the rank of `archehr answer` only.

`archehr.answerability.kinds` tells a sentence holding the asked kind of answer (`holds.HOLDS`); for two kinds
the rank also weighs how firmly it holds it, since many sentences hold the kind in a weak form:

- why: the sentence that says the reason ("... as pain was well controlled", "... to protect against RSV",
  "Indication: recurrent tonsillitis") comes before the one that only names the diagnosis, the history or the
  change. A "since" of time ("since the summer", "since 05/04") and a label naming a visit's reason ("Reason for
  visit: two falls ...", which restates the complaint) give no cause;
- test_result: the sentence giving what was found, a value with its unit, flag or range, or a finding word
  ("positive", "no growth", "healed well"), comes before one that only names the test ("EXAM: MRI LEFT KNEE"),
  an order or a medicine given for it ("START atorvastatin 80 mg nightly -- to lower cholesterol").

- med_change, a question whether to go on with a medicine or stop it ("do i still do the blood thinner shots once i
  start the tablets"): the line deciding it for the asked drug ("STOP enoxaparin ...", "Continue donepezil") comes
  before the one starting another ("START apixaban ..."), and the drug the question sets beside the asked one
  ("while he is on the steroids", "as well as the accutane", "or just the antibiotic") is background;
- test_result: a lab line or a table row giving the value ("Creatinine 1.4 mg/dL   eGFR 48") comes before a
  sentence only speaking of it; "her last jaundice level" asks for the latest value.

These cues weigh the rank only: the typed confidence reads `holds` and `score`, which they leave as they are.
"""

from __future__ import annotations

import re

import numpy as np

from archehr.answerability.dates import HOUR_MINUTE, MONTHS, WEEKDAY
from archehr.answerability.holds import FROM_SOURCE, NOT_FOR_A_REASON, RANK_CUES
from archehr.answerability.med_decisions import dose_taken, med_rank
from archehr.answerability.spaces import fold
from archehr.answerability.test_words import LAB_UNIT
from archehr.answerability.test_words import NOT_DONE as _NOT_DONE
from archehr.answerability.test_words import RESULT as _RESULT

W_WEAK = 0.6  # the share of a firm answer a sentence holding only a weak form of the asked kind counts

_EVENTS = (r"birth|admission|discharge|surgery|operation|diagnosis|transplant|visit|appointment|review|stroke|"
           r"delivery|stay|start|beginning|childhood|injury|accident|fall|procedure|treatment|infection|illness|"
           r"retirement|pregnancy")
# "since" of time: "since the summer", "since 05/04", "since his last visit", "ever since": no cause
_SINCE_TIME = re.compile(
    rf"\bever since\b|\bsince\s+(?:\d|(?:{MONTHS})\b|{WEEKDAY}|then\b|"
    rf"yesterday|last\b|this (?:morning|afternoon|evening|week|month|year|time|visit|admission)\b|age\b|"
    rf"(?:{_EVENTS})\b|"
    rf"(?:the|his|her|their|my|your|our)\s+(?:last\s+|recent\s+|previous\s+|first\s+)?"
    rf"(?:summer|winter|spring|autumn|fall|weekend|holidays?|new year|christmas|hospital|{_EVENTS})\b)", re.I)
# a label naming why the patient came ("Reason for visit:", "Reason for referral:"): the complaint restated,
# not its cause
_VISIT_REASON = re.compile(r"^\W*reason for (?:visit|attendance|consultation|call|contact|review|appointment|"
                           r"admission|presentation|encounter|referral)\s*:", re.I)
# a cause said outright: a cause word, a purpose ("to protect against RSV", "to allow full recovery"), a drug or
# a step taken for a condition ("nebulized for stridor", "transferred for maternal-fetal medicine input", "for
# stroke prevention"), a risk weighed, what a procedure was done for ("Indication: ...", "Reason: ...")
_CAUSE = re.compile(
    r"\b(?:because|due to|secondary to|attributed|caus(?:ed|ing|es)|provoked|triggered|in the setting of|"
    r"as a result|so that|in order to|so as to|since|therefore|hence|related to|contribut\w+|"
    # "given heavy ibuprofen intake", not "cycle 3 given 11/10", "was given the vaccine"
    r"(?<!was )(?<!were )(?<!been )(?<!be )(?<!is )(?<!are )given (?!\d|(?:on|at|in|to|today|yesterday|tonight|iv|"
    r"po|im|sc|by|x|as|with|for|over|once|twice|daily|every|after|before|during|until|via|and|or)\b)|"
    r"(?:felt|thought|believed|likely|probably) (?:to be|due|related|from|because|caused)|"
    # a source ("from long-term use"), not a "from" of time, place or person (`holds.FROM_SOURCE`)
    rf"{FROM_SOURCE}(?:the|his|her|a|an|long-term|recent|daily|regular|heavy|ongoing)\b|"
    r"the reason|the cause|cause (?:is|was|of)|which (?:is|was|are|were) (?:\w+ )?(?:caus|why|respons)\w*|"
    r"so (?:that )?(?:the|your|his|her|their|it|she|he|they|you|we|this|that)\b[^.;]{0,30}?\b(?:can|could|will|"
    r"would|may|is|are|does|do|requires?|needs?)|risk of|at (?:higher |high |increased )?risk|"
    r"not (?:needed|indicated|safe|recommended|required) (?:as|because|since|given|now)|"
    r"not (?:safe|recommended|advised) (?:when|with|if|in|for|while|during)|unsafe|contraindicated|"
    # a purpose, unless it is an instruction's object ("tells you to stop")
    r"(?<!you )(?<!him )(?<!her )(?<!them )(?<!me )to (?:prevent|reduce|treat|lower|protect|avoid|cover|control|"
    r"allow|bring|settle|help|keep|block|improve|ease|relieve|clear|heal|manage|support|make sure|ensure|"
    r"minimi[sz]e|limit|slow|boost|replace|correct|raise|thin|break|dissolve|drain|remove|check|confirm|"
    r"rule out|look for|see (?:if|whether|how)|find|detect|assess|evaluate|monitor|test for|screen for|reverse|"
    r"restore|calm|soothe|fight|kill|strengthen|shrink)|"
    r"for (?:\w+ )?(?:prevention|prophylaxis|protection|treatment|relief|control)|"
    # a step taken for a condition, not for a length of time ("for 5 days", "for the past two years", "for now")
    # or for someone ("given to him for ..."); a decimal point is no sentence end ("start amlodipine 2.5 mg daily
    # for blood pressure")
    r"(?:given|start|started|starting|take|taking|use|using|prescribed|admitted|transferred|moved|kept|"
    r"treated|used|received|nebuli[sz]ed|recommended|offered|added|referred|performed|done|booked|arranged|"
    r"turn\w*|increas\w+|decreas\w+|reduc\w+|rais\w+|lower\w*|chang\w+|switch\w*)\b"
    r"(?:[^.;]|\.\d){0,40}?\bfor (?!\d|(?:a |an |the next |another |up to |about |at least |now|life|one|two|three|"
    r"four|five|six|seven|ten|several|many|most|the (?:past|last|whole|rest|first|next|night|day)|"
    r"(?:the )?\w+ (?:days?|weeks?|months?|years?|hours?|nights?)|him|her|you|them|me|us|patients?|children|"
    r"adults)\b))\b|"
    # a purpose leading the sentence: "For the hot flushes I have started megestrol", "For his pain we gave ..."
    r"^\W*for (?:the |his |her |their |your |my )?[\w -]{2,30}?,? (?:i|we|he|she|they|the team|you) "
    r"(?:have |has |had |will |would )?(?:started|prescribed|given|gave|added|recommend\w*|suggest\w*|arranged|"
    r"referred|booked|advised|increased|switched)\b|"
    r"^\W*(?:indications?|reason(?: for (?:procedure|surgery|operation|test|scan|treatment|the \w+))?)\s*:|"
    # a dose line's indication after a comma ("Ferrous sulfate 325 mg ... for 3 months, for anemia"), not a length
    r"\b\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g|units?|ml|tablets?|capsules?|puffs?)\b[^.;]{0,80}?,\s*for "
    rf"{NOT_FOR_A_REASON}[a-z]",
    re.I | re.M)
# a reason in a softer form, counting `W_SOFT`: what something can do ("may cause drowsiness"), what is usual
# ("is common in the first week"), a germ's resistance, a clause of reason after "as" or ", so" ("..., as
# reinfection is common", "As most disc protrusions settle ...", "stopped as pain was well controlled", "..., so
# she is under-replaced")
_SOFT = re.compile(
    r"\b(?:(?:may|can|could|will|would|might|often|commonly|usually) (?:cause|slow|worsen|delay|harm|injure|damage|"
    r"push|raise|increase|lead to|make \w+ worse|interact|affect)|resistant to|not covered by|"
    r"(?:is|are|was|were) (?:very |quite |fairly )?(?:common|normal|expected|usual)|"
    r"expected (?:at|after|with|in|for|from))\b|"
    r"(?:^|[,;(]|\s[-–—])\s*as\s+(?!(?:needed|well|tolerated|directed|above|below|before|such|per|instructed|"
    r"prescribed|discussed|planned|advised|follows?|of|part|soon|long|much|many|far|usual|required|necessary|"
    r"appropriate|possible|a|an|in|on|at|to|for|with|outpatient|scheduled|noted|expected|previously|agreed|"
    r"indicated|recommended|shown|described)\b)\w+\s+\w+|"
    r"[,;]\s*so\s+(?:she|he|they|it|we|you|i|the|his|her|their)\b|"
    r"(?<!such )(?<!well )(?<!same )(?<!soon )(?<!long )\bas (?:the |his |her |their |your |its |it |this |these |"
    r"they |she |he |there |most |many |some )?\w+ (?:is|was|were|are|has|had|have|can|could|may|might|will|would|"
    r"does|did|remains?)\b", re.I)
W_SOFT = 0.85


# a finding that a step answers ("Foot exam: monofilament sensation reduced", "Carotid doppler: 60-69% stenosis",
# "Together these suggest you need a little more fludrocortisone", "creatinine up from 96"): a weak why answer,
# the reason in the findings
_FINDING = re.compile(r"\bsuggest\w*|\b(?:reduced|raised|elevated|low|high|abnormal|positive|stenosis|"
                      r"deficien\w*|enlarged|dilat\w*|blocked|infected)\b|"
                      # a value gone up or down ("creatinine up from 96", "HbA1c has gone up from 55", "weight up 1.2
                      # kg"): what was found, a weak why answer
                      r"\b(?:gone|went|is|are|was|were|has|have|came|come|creeping|trending) (?:up|down)\b|"
                      r"\b(?:up|down) (?:from|to|by|\d)|\b(?:rose|risen|fell|fallen|dropped|climbed|rising|falling)\b",
                      re.I)

# a dose or a value changed "from" one number to another ("reduce from 4 mg twice daily"): no cause
_FROM_NUMBER = re.compile(r"\bfrom\s+[<>~]?\d", re.I)


def cause_text(text: str) -> str:
    """The sentence with what only looks like a cause taken out: a "since" of time, a visit's reason label, a
    change "from" a number."""
    return _FROM_NUMBER.sub(" ", _VISIT_REASON.sub(" ", _SINCE_TIME.sub(" ", text)))


def cause_strength(texts: list[str], weak: re.Pattern[str]) -> np.ndarray:
    """Each sentence's why answer: 1 when it says a cause outright (`_CAUSE`), `W_SOFT` in a softer form
    (`_SOFT`), `W_WEAK` when it holds only a weak
    why cue (`weak`, the why row of `holds.HOLDS`), 0 else; read without a "since" of time or a visit's reason
    label."""
    out = np.zeros(len(texts))
    for i, t in enumerate(texts):
        plain = cause_text(fold(t))
        out[i] = 1.0 if _CAUSE.search(plain) else W_SOFT if _SOFT.search(plain) else W_WEAK if weak.search(plain) \
            or _FINDING.search(plain) else 0.0
    return out


# an order or a medicine's dose line, which a result question is not asked about: an imperative, a plan or a
# condition at the start ("START atorvastatin ...", "Avoid salt substitutes", "Referral to ...", "If temperature
# 38.0 or above, come straight to ..."), a treatment allowed or asked ("Amara can restart the ointment"), a dose
# with how often ("enoxaparin 40 mg injection ... once daily")
_ORDER = re.compile(
    r"^\W*(?:\d+[.)]\s*)?(?:[A-Za-z][\w /-]{0,25}:\s*)?(?:start|stop|continue|take|avoid|do not|don't|cut down|"
    r"keep|use|give|increase|decrease|reduce|hold|restart|resume|switch|change|call|get|eat|drink|limit|"
    r"referral|refer|please|if|you (?:should|can|may|must)|no (?:lifting|driving|heavy)|low[- ]\w+ diet)\b|"
    r"\b(?:can|should|may|must|will|to) (?:restart|start|stop|continue|take|use|apply|resume)\b|"
    r"\b\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|units?|tablets?|capsules?|puffs?|sachets?|% (?:ointment|cream|gel|"
    r"lotion|drops|solution))\b(?!\s*/)(?:[^.;]|\.\d){0,60}?\b(?:daily|bid|tds|tid|qds|qid|twice|once|nightly|every|"
    r"at night|each (?:morning|night)|q\d+h?|qhs|prn|as needed)\b", re.I)
W_ORDER = 0.6  # the share of its rank an order or a dose line keeps for a result question


def result_strength(texts: list[str], holds: np.ndarray) -> np.ndarray:
    """Each sentence's result answer: 1 when it says a result (`_RESULT`: a value with its unit, flag or range, a
    finding word) of a test done, `W_WEAK` when it only holds the result kind (`holds`: a test named, "was", a
    level), 0 else."""
    out = np.zeros(len(texts))
    for i, (t, h) in enumerate(zip(texts, holds, strict=True)):
        plain = fold(t)
        out[i] = 1.0 if _RESULT.search(plain) and not _NOT_DONE.search(plain) else W_WEAK if h else 0.0
    return out


def order_share(texts: list[str]) -> np.ndarray:
    """`W_ORDER` for an order or a dose line (`_ORDER`), 1 else: its share of the rank for a result question."""
    return np.array([W_ORDER if _ORDER.search(fold(t)) else 1.0 for t in texts])


# a question whether to go on with a medicine or stop it ("do i still do the shots", "does he keep taking his
# metformin", "do i stop the levemir", "am i supposed to take ibuprofen too"): the line deciding it for the asked drug
_ASKS_DECISION = re.compile(r"\b(?:still|keep|carry on|continue|stop\w*|quit|hold|too|as well|or just|"
                            r"suppos\w* to|meant to|or not)\b", re.I)
# what decides it: a medicine continued, stopped or held ("Continue donepezil", "Never stop the long-acting
# insulin", "He should carry on with his metformin as normal", "Withhold ramipril"), not one started
_DECIDES = re.compile(r"\b(?:continu\w*|carry on|keep (?:taking|using|on|giving)|stop\w*|withh[eo]ld\w*|hold\w*|"
                      r"omit\w*|paus\w*|suspend\w*|discontinu\w*|as (?:normal|usual|before)|unchanged)\b", re.I)
W_DECISION = 0.2  # what a deciding line adds (times the topic) for such a question
# the other drug of such a question, its background ("while he is on the steroids", "once i start the tablets",
# "as well as the accutane", "or just the antibiotic"): not what is asked about
_BESIDE = re.compile(r"\b(?:as well as|on top of|in addition to|alongside|along with|besides)\s+"
                     r"(?:the\s+|my\s+|his\s+|her\s+|their\s+)?([\w-]+)|"
                     r"\b(?:while|once|when|after)\s+(?:i|he|she|we|they|you)(?:'s|'m|\s+(?:is|am|are|was|start\w*|"
                     r"go\w* on|take\w*|begin\w*)|s)?\s+(?:on\s+|start\w*\s+|taking\s+)?"
                     r"(?:the\s+|my\s+|his\s+|her\s+|their\s+)([\w-]+)|"
                     r"\bor (?:just|only) (?:the\s+|my\s+|his\s+|her\s+|their\s+)?([\w-]+)", re.I)
W_STARTED = 0.85  # the share a line starting a medicine keeps for such a question (unless it also asks the new one)


def asks_decision(question: str) -> bool:
    """The question asks whether to go on with a medicine or stop it (`_ASKS_DECISION`)."""
    return bool(_ASKS_DECISION.search(question))


def beside_drugs(question: str) -> list[str]:
    """The words naming the medicine a keep-or-stop question sets beside the asked one ("while he is on the
    steroids": "steroids")."""
    return [g for m in _BESIDE.finditer(question) for g in m.groups() if g]


def decision_rank(question: str, texts: list[str], topic: np.ndarray, score: np.ndarray) -> np.ndarray:
    """The rank's score for a keep-or-stop question: a line deciding (`_DECIDES`) gains `W_DECISION` times its topic;
    a line starting a medicine gains as much when the question also asks for the new one ("which blood thinner did
    they put him on, and is he still ..."; "once i start the tablets" is only background), keeps its score when it
    asks which, else keeps `W_STARTED`."""
    asks_new = bool(RANK_CUES["asks_start"].search(_BESIDE.sub(" ", question)))
    which = bool(re.search(r"\b(?:which|what)\b", question, re.I))
    out = score.copy()
    for i, t in enumerate(texts):
        if dose_taken(t):
            continue  # "Took ... furosemide 40 mg ... as usual" records a dose, it decides nothing
        if _DECIDES.search(t) or (asks_new and RANK_CUES["begun"].search(t)):
            out[i] += W_DECISION * topic[i]  # ("which one is she stopping and which new one is she starting")
        elif not which and RANK_CUES["begun"].search(t):
            out[i] *= W_STARTED
    return out


# a lab line or a table row: a test's name and its value, with a unit, a flag or a table's bars, and no sentence
# around it ("Creatinine 1.4 mg/dL   eGFR 48", "Neutrophils | 0.8 | x10^9/L | 2.0-7.5 | L"): the result itself
_VALUE_ROW = re.compile(rf"^\W*(?:{HOUR_MINUTE}\s+)?[A-Za-z][\w()/^ -]{{0,30}}?\s*[:|=]?\s*[<>]?\d+(?:\.\d+)?\s*"
                        rf"(?:\|\s*\S|(?i:{LAB_UNIT})|\s+(?:H|L|HH|LL|high|low)\b)", re.I)
W_LATER = 0.15  # (kinds.W_LATER) what the latest line adds, at most, to a "last level" result question
W_ROW = 0.1  # what a value row adds (times the topic) for a result question
# a result question asking for the latest value ("whats her last jaundice level", "his most recent PSA")
_LATEST = re.compile(r"\b(?:last|latest|most recent|newest)\s+(?:[\w-]+\s+){0,3}?(?:levels?|values?|results?|"
                     r"readings?|counts?|numbers?|tests?|bloods?|scores?|checks?)\b", re.I)


def rank_lift(kind: str, question: str, texts: list[str], topic: np.ndarray, score: np.ndarray,
              later: bool) -> np.ndarray:
    """The rank's score with this module's lifts: a keep-or-stop question's deciding line (`decision_rank`); a result
    question's value row (`value_row_lift`) and, asking the latest value (`_LATEST`) unless `later` already weighed
    it, the later lines (`W_LATER` times the topic times the line's place in the note)."""
    if kind == "med_change":
        current = asks_decision(question) or bool(RANK_CUES["current_q"].search(question))
        out = med_rank(texts, topic, score, current)
        return decision_rank(question, texts, topic, out) if asks_decision(question) else out
    if kind != "test_result":
        return score
    out = score + value_row_lift(texts, topic)
    if not later and _LATEST.search(question):
        out = out + W_LATER * topic * 0.5 * np.arange(len(texts)) / max(len(texts) - 1, 1)
    return out


def value_row_lift(texts: list[str], topic: np.ndarray) -> np.ndarray:
    """What each sentence's rank gains for a result question: `W_ROW` times its topic for a value row of at most 14
    words (`_VALUE_ROW`), 0 else."""
    return np.array([W_ROW * topic[i] if len(t.split()) <= 14 and _VALUE_ROW.search(t) else 0.0
                     for i, t in enumerate(texts)])
