"""Whether a why answer's first line holds a cause, for `archehr answer`.

A why question ("why did they stop my metformin", "why was he referred to the nurse", "why dont I need the brace")
is answered by a sentence that says a cause, not by one that only names the thing ("STOP metformin", "Night splint
is no longer needed"): `archehr answer` flags such a first line for review (`review.why_uncaused`). A first line holds a
cause (`has_cause`) when it holds a cause marker: the firm, soft and weak why cues of `firm_answers.cause_strength`
("because", "due to", "to prevent", "as ... is", "risk"), or `_MORE` ("owing to", "in view of", "which is why",
", so ...", "not suitable", "Reason for referral:", "as not ...", a medicine row's comment after a dash or in
brackets, a problem's label before its plan, a hold "until kidney function is back to baseline"), or `_FURTHER`
(shorthand "2/2", "c/b"; a purpose "as a bridge", "to stop her moving the shoulder", "so Maya can rest", "for the
protein in the urine"; a condition met "once her temperature had been normal"; a harm "it made you feel too sleepy",
"can add to confusion", "cannot be crushed"; a replacement; "only needed while on methotrexate"; "after the X-ray
showed"; "Findings:"; a reason after an em dash), or is a labelled reason field for what was done (`gives_reason`:
"Reason for tracheostomy: ...", "Indication: ...", of `data.reason_fields`; not a visit's complaint). A medicine row
laid out as a table's cells gives its reason in the cell after the dose (`cell_reason`: "STOP   X 10 mg daily   Risk of
a dry mouth"), which the folded white space of the other readings runs into the dose.

A line of the note's diagnosis or indication (`why_answers.diagnosis_lines`) is the reason for what was done
("why did she need her tonsils out": "Recurrent tonsillitis"), unless it names the asked thing itself with no cause
marker and adds no word to the question's: a diagnosis that only restates the asked finding ("why does he have
coeliac disease": "Coeliac disease.") is no reason for it. A medicine row opening with its action ("HOLD furosemide
40 mg OM") takes the reason the heading over it gives ("Meds held (kidney injury, sick day rules):"). A short lab
value row whose only cue is a finding word ("Fasting glucose 141 mg/dL (high)") says what was found, not why.
A cause told beside the first line counts too, where the note's layout ties it to that line: the next line of the
same item, when it opens no new item, gives no order and takes no step of its own (`next_reason`: "STOP sotalol"
then "It can bring on a slow heart rate"; "Reason: ..."; a change row's lab value against its target), the head of
a row the first line ends (`wrapped_reason`: "... (not needed with apixaban) -" then "Status: STOPPED"), a finding
just before a step (`found_before`: "Comment: ferritin very low." then "Referral ... is advised"), a reason field
of the same block of fields (`field_reason`: "Procedure: ...", "Date: ...", "Reason: ..."). A row with no reason
whose neighbours are other rows with theirs keeps none. Further forms: a harm or a part in a result ("can bring on
wheeze", "slows wound healing", "adding to your tiredness"), "no further X needed as ...", "is small and does not
need a scan", the patient's wish ("not keen on", "declined"), a lab value beside a step on the same line ("eGFR 28
mL/min - metformin halved"), a row under a "Findings:" heading.
What only looks like a cause marker is read out first (`cause_read`): a condition ("as long as"), a prognosis
("expected to improve"), a change row's comment that is the change itself ("- from once weekly to once a month").
The cause is not tied to the asked thing's words: the note often names it in other words than the question's (a
nickname, a misspelling, a class), and requiring the tie flagged many right answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from archehr.answerability import firm_answers as firm
from archehr.answerability import why_answers as why
from archehr.answerability.doses import DOSE
from archehr.answerability.holds import NOT_FOR_A_REASON, SCHEDULE_COMMENT
from archehr.answerability.spaces import fold
from archehr.data.reason_fields import CAUSE_LABELS, reason_field

# cause markers the rank's `firm_answers` does not read as firm: a cause in other words, a clause of result after a
# comma (", so propranolol is not suitable"), a thing unsafe or unsuitable, a referral's or a request's reason, a
# negative reason ("as not needed", "as no longer ..."), a hold until something recovers
_MORE = re.compile(
    r"\b(?:owing to|in view of|on account of|as a result of|in light of|which is why|that is why|this is why|"
    r"that's why|the reason|reason (?:is|was|being)|why we|not (?:suitable|appropriate|safe)|unsuitable|"
    r"interacts? with|interfer\w+ with|stops? \w+ (?:from )?(?:being |working)|can't be used|cannot be used|"
    r"works? against|counteracts?|"
    r"should not be used|no longer (?:needed|required|necessary) (?:as|because|since|now that)|now that)\b|"
    r"[,;]\s*so\s+\w+|"
    rf"^\W*(?:{CAUSE_LABELS})\s*:\s*\S|"  # a referral's or a request's reason (`data.reason_fields`)
    r"(?:^|[,;(]|\s)as (?:not|no longer|no)\b|"
    # a medicine row's comment: "STOP gliclazide - replaced by insulin", "CHANGE metformin ... - kidney function
    # still recovering", "HOLD apixaban: bleeding"
    r"^\W*(?:stop(?:ped)?|start(?:ed)?|change[ds]?|hold|held|withh[eo]ld|reduce[ds]?|increase[ds]?|decrease[ds]?|"
    rf"switch(?:ed)?|suspend(?:ed)?|paused?|discontinu\w+)\b[^\n]*?\s[-–—]\s+(?!{SCHEDULE_COMMENT})[a-z]\w+ \w+|"
    # a problem's label before its plan ("Hepatic encephalopathy: continue lactulose ..."), a reason in brackets
    # after a stop ("STOP amlodipine 10 mg daily (BP soft after UF)"), a purpose in a table cell ("| For anxiety |")
    r"^\W*(?:\d+[.)]\s*)?[A-Za-z][\w -]{3,40}:\s*(?:continue|start|stop|hold|increase|reduce|change|switch)\b|"
    r"^\W*(?:stop(?:ped)?|hold|held|withh[eo]ld|reduce[ds]?)\b[^(\n]*\([^)]{4,}\)|\|\s*for [a-z]|"
    r"\b(?:works? best|no need|not needed|(?:does|do|would) not (?:help|change)|"
    r"at (?:his|her|their|your|my) request)\b|"
    r"\b(?:until|till) (?:the |his |her |your |their |its |it |she |he |they )?\w+ (?:\w+ )?(?:back to|"
    r"recover|heal|settle|improv|resolv|clear|return|normali[sz]|stable|rechecked)\w*|"
    r"\b(?:until|till) (?:the |his |her |your |their |its |it |she |he |they )?\w+ (?:\w+ )?"
    r"(?:recover|heal|settle|improv|resolv|clear|return|normali[sz])\w*",
    re.I | re.M)
# a lab value with its unit, or a value against its range ("below reference range", "above target")
_LAB_VALUE = (r"(?:\d(?:\.\d+)?\s*(?:mmol/l|[uµ]mol/l|mg/dl|g/dl|g/l|i?u/l|ng/ml|pmol/l|nmol/l|meq/l|ml/min|kpa)\b|"
              r"\b(?:below|above|outside|out of) (?:the )?(?:reference|normal|target)\b)")
# a finding word or range ("raised", "low", "in the pre-diabetes range"): what a step in the same sentence answers
_FOUND_WORD = (r"\b(?:in the [\w -]{0,30}?range|raised|elevated|high|low|abnormal|positive|borderline|reduced|"
               r"deficien\w*)\b")
# a step done to a medicine or a test ("added", "halved", "held")
_STEP_DONE = (r"\b(?:added|started|stopped|held|withheld|paused|increased|reduced|decreased|lowered|halved|doubled|"
              r"changed|switched|adjusted|omitted)\b")
# cause and purpose in further forms: shorthand ("2/2 pyelonephritis", "c/b AKI requiring CRRT"), a purpose
# ("as a bridge", "to stop her moving the shoulder", "so Maya can rest", "for the protein in the urine"), a
# condition met ("once her temperature had been normal"), a harm ("it made you feel too sleepy", "can add to
# confusion", "cannot be crushed"), a replacement ("Clopidogrel replaces it"), a need tied to another treatment
# ("only needed while on methotrexate", "avoid NSAIDs while on lithium"), a medicine row's comment after a dash
# anywhere in the row ("folic acid 1 mg Stop - only needed ..."), a change with its finding in brackets
# ("lowered from 71 kg to 70 kg (BP 162/88, edema)")
_FURTHER = re.compile(
    r"(?:^|\s)2/2\s|\bc/b\b|\brequiring\b|"
    r"\bas (?:a |an )?(?:bridge|precaution\w*|safety|prevention|preventive|prophyla\w+|substitute|replacement|"
    r"alternative|trial)\b|"
    r"(?<!you )(?<!him )(?<!her )(?<!them )(?<!me )\bto (?:stop \w+ (?:from )?\w+ing|keep \w+ (?:from|still|safe|"
    r"open|clean|dry|steady)|let \w+ (?:heal|rest|settle|recover)|rest|support|ease|relieve|settle|"
    r"stabili[sz]e|immobili[sz]e|make sure|ensure|minimi[sz]e|lessen|replace|correct|thin|shrink|speed up)\b|"
    r"\bso (?:that )?\w+ (?:can|could|will|would|may|might|gets?|has)\b|"
    r"\bfor (?:the|your|his|her|their) (?!next\b|rest\b|first\b|last\b|time\b|moment\b|day\b|night\b|week\b|"
    r"month\b|year\b|review\b|appointment\b|procedure\b|operation\b|op\b|surgery\b|test\b|scan\b)[a-z]\w+|"
    r"\bonce (?:the |his |her |your |their |its |it |she |he |they )?\w+ (?:\w+ )?(?:had|has|have|was|is|were|are|"
    r"returned|came back|settled|improved|resolved|healed|recovered)\b|"
    r"\bmade (?:you|him|her|me|them|it|things)\b|\b(?:can|may|could|might|will) add to\b|"
    r"\b(?:cannot|can't|can not|must not|should not) be (?:crushed|split|chewed|opened|taken|given|swallowed|mixed)\b|"
    r"\b(?:until|till) [^.;]{0,40}?\b(?:is|are|has been|have been) (?:rechecked|recovered|healed|settled|improved|"
    r"resolved|normal|stable|back)\b|"
    r"\bafter (?:the |his |her |your |their |a |an )?[\w-]+ (?:[\w-]+ )?(?:showed|found|revealed|confirmed)\b|"
    r"^\W*findings?\s*:\s*\S|\s—\s*[a-z]{3,}\s\w+|"
    r"\breplac(?:es|ed by|ing)\b|\binstead of\b|\bin case\b|"
    # a test's purpose in the verbs of looking again or ruling out ("repeat echo in 3 months to reassess the
    # pump", "CT to exclude a clot"), and a colour a medicine or a dye gives ("can turn the urine orange"): why
    # a test is redone, why a body fluid looks odd
    r"(?<!you )(?<!him )(?<!her )(?<!them )(?<!me )\bto (?:re-?assess|re-?evaluate|re-?check|re-?image|re-?stage|"
    r"measure|track|exclude|investigate|establish|determine|clarify|characteri[sz]e|visuali[sz]e|look at)\b|"
    r"\b(?:can|may|could|might|will|often|commonly|usually) (?:turn|colou?r|stain|discolou?r|darken)\b|"
    # a treatment not needed, told as "no X needed" ("no iron needed now", "no antibiotics required"), and a visit
    # told as following its occasion ("seen in clinic following a second fall", "admitted following an episode"; not
    # "seen following the review": a meeting followed)
    r"\bno (?!longer\b)(?:[\w-]+ ){1,2}(?:needed|required|necessary|indicated)\b|"
    r"\b(?:seen|reviewed|admitted|referred|assessed|attended|brought in)\b[^.;]{0,40}?\bfollowing (?:a|an|his|her|"
    r"two|three|second|third|another|further|recent|repeated) \w+|"
    # a dose line's purpose ("Melatonin 2 mg at night for sleep", "17 g once a day as needed for constipation"): a
    # reason for the review flag, not a firm one for the rank (a PRN painkiller's "for pain" is seldom the asked one)
    r"\b\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g|units?|ml|tablets?|capsules?|puffs?|sachets?|drops?|sprays?)\b"
    rf"[^.;]{{0,80}}?\sfor {NOT_FOR_A_REASON}[a-z]|"
    r"\bas (?:a|an|one|another) (?:[\w-]+ )?(?:way|means|method|measure) (?:of|to)\b|"
    # a state given as the reason in shorthand ("stopped ... as BP normal", "held as eGFR low"), a referral's or an
    # admission's purpose ("Dietitian referral for weight gain sent")
    r"\bas (?:his |her |their |your |the )?[\w-]+ (?:now |still |too |very )?(?:normal|stable|settled|resolved|"
    r"improved|controlled|recovered|low|high|raised)\b|"
    rf"\b(?:referral|admission|admitted|referred)\b[^.;]{{0,30}}?\bfor {NOT_FOR_A_REASON}[a-z]{{3,}}|"
    r"\bonly (?:needed|required|used|given|necessary) (?:while|when|during|if|for|with)\b|"
    r"\b(?:avoid|do not take|don't take)\b[^.;]*\bwhile on\b|"
    rf"\b(?:stop(?:ped)?|hold|held|withh[eo]ld|reduce[ds]?|change[ds]?|switch(?:ed)?)\s+[-–—]\s+(?!{SCHEDULE_COMMENT})"
    r"[a-z]\w+ \w+|"
    r"\b(?:lowered|raised|reduced|increased|decreased|stopped|held|changed)\b[^(\n]*\([^)]*[a-z]{3}[^)]*\)|"
    # a harm or a part in a result ("beta-blockers can bring on wheeze", "smoking slows wound healing", "this is
    # probably adding to your tiredness"), a negative need with its reason ("no further antibiotics needed as ..."),
    # the patient's own wish ("he is not keen on a drain", "she declined the implant")
    r"\b(?:can|may|could|might|will|would) (?:bring on|trigger|provoke|set off|aggravate)\b|"
    r"\bslows? (?:down )?(?:the |your |his |her |their )?(?:[\w-]+ )?(?:healing|recovery)\b|"
    r"\b(?:adding|contribut\w+) to\b|"
    r"\bno (?:further |more )?(?:[\w-]+ ){0,2}(?:needed|required|necessary|indicated) (?:as|because|since|given)\b|"
    r"\b(?:small|minor|mild|slight|normal|stable|benign|harmless)\b[^.;]{0,30}\b(?:and|so)\b[^.;]{0,15}?"
    r"\b(?:does not|doesn't|do not|don't|did not|didn't|will not|won't) (?:need|require|warrant)\b|"
    r"\b(?:not keen|did not want|does not want|doesn't want|didn't want|(?:does|did) not wish|declined)\b|"
    # a lab value and a step on the same line ("B12 below reference range; methylmalonic acid added", "metformin
    # halved, eGFR 28 mL/min"): the value is the step's reason
    rf"{_LAB_VALUE}[^.\n]{{0,60}}?(?:[;,]|\s[-–—])\s*[^.\n]{{0,40}}?{_STEP_DONE}|"
    rf"{_STEP_DONE}[^.\n]{{0,60}}?[;,:–—-]\s*[^.\n]{{0,30}}?{_LAB_VALUE}|"
    # a finding, then the step it brings in the same sentence ("HbA1c is in the pre-diabetes range; a glucose
    # tolerance test will be arranged", "ferritin low, iron infusion has been booked")
    rf"{_FOUND_WORD}[^.;]{{0,40}}[;,]\s*[^.;]{{0,60}}?\b(?:will be|is being|has been|have been|was|were|to be)\s+"
    r"(?:arranged|requested|booked|ordered|organi[sz]ed|sent|started|added|offered|repeated|referred)\b|"
    # an event the state or step came after, mid-line ("on dialysis since 2019 following a kidney injury", "knee
    # pain following his fall"), not a list's "the following" nor a time, a meeting or advice followed
    r"(?<=[\w,)] )following (?:a|an|his|her|their|the) (?!(?:week|day|month|year|night|morning|evening|visit|"
    r"appointment|review|discussion|call|conversation|advice|instructions?|plan|meeting)s?\b)[a-z][\w-]{2,}|"
    # a rule's reason told as what happens if it is broken ("if it bends even once, the healing starts again")
    r"\bif (?:it|he|she|they|you|this|that|the [\w-]+)\b[^.;,]{1,40},\s*(?:the|it|this|that|your|his|her|their)\b"
    r"[^.;,]{0,30}?\b(?:restarts?|starts? (?:all over )?again|(?:will|would|could|might) (?:\w+ )?(?:fail|worsen|"
    r"get worse|come back|not heal|go back|undo))\b",
    re.I | re.M)


# what only looks like a cause marker: a condition or a comparison ("fine to travel as long as she has had the
# injection", "as soon as it is", "as well as"), a prognosis ("hoarse, which is expected to improve": what will
# happen, not why), a change row's comment that is the change itself ("CHANGE X sachet - from once weekly to once a
# month"). Read out before the markers are read: such a line says what was done or will happen, not why.
_LOOKS_CAUSAL = re.compile(
    r"\bas (?:long|soon|well|far|much|often) as\b|"
    r"\b(?:is|are|was|were|be)?\s*(?:expected|likely|hoped|going) to (?:improve|settle|get better|recover|"
    r"resolve|heal|go|ease|clear|return)\w*|"
    r"\s[-–—]\s+from\s+[^.;]{1,40}?\bto\b[^.;,]*", re.I)


def cause_read(text: str) -> str:
    """The text (white space made single) with what only looks like a cause marker read out (`_LOOKS_CAUSAL`)."""
    return _LOOKS_CAUSAL.sub(" ", fold(text))


def has_cause(text: str) -> bool:
    """The text holds a cause marker: a firm, soft or weak why cue of `firm_answers.cause_strength` (with the why row
    of `holds.HOLDS`; a "since" of time and a change "from" a number read out) or one of `_MORE`, once what only
    looks like one is read out (`cause_read`)."""
    from archehr.answerability.holds import HOLDS

    plain = cause_read(text)
    return float(firm.cause_strength([plain], HOLDS["why"])[0]) > 0 or bool(_MORE.search(plain)) \
        or bool(_FURTHER.search(plain)) or gives_reason(plain)


# a step told done in the passive, then a firm cause in the same sentence ("was stopped because", "was kept on a
# feeding tube for 10 days to allow ...")
_DONE_THEN_CAUSE = re.compile(r"\b(?:was|were|has been|have been|is being|had been)\s+(?:[\w-]+\s+)?[a-z]+(?:ed|en|ept|"
                              r"ut)\b[^.;]{0,80}?\b(?:because|due to|secondary to|to (?:allow|prevent|let|protect|"
                              r"avoid|reduce|treat|help|stop|keep)|so that|as a result of|in order to)\b", re.I)


def cause_given(text: str, topic: float) -> bool:
    """A why answer's first line (`text`, naming `topic` of the question's topic) says a cause: outright ("... to
    prevent another attack", "Start colecalciferol for low vitamin D", "caused by ...", the firm why form of
    `firm_answers.cause_strength`) and names at least `HOLDS_MIN` of the topic, or in a softer form ("..., so we'll
    start your hep B vaccine", "... as his doses are still being adjusted") and names at least `TOPIC_NAMED` of it.
    Such a line is not flagged only because its confidence is middling. (A softer form naming a quarter to half of the
    topic is not read: among the 49 writers' why questions, scored in-sample, it would clear one unanswerable first
    line for three answerable ones.)"""
    from archehr.answerability.holds import HOLDS
    from archehr.answerability.review import FIRST_FACT_MIN, HOLDS_MIN, TOPIC_NAMED

    # (what only looks like a cause read out: "which is expected to improve", "as long as")
    plain = cause_read(text)
    strength = float(firm.cause_strength([plain], HOLDS["why"])[0])
    # a step told done and then its outright cause ("her usual zopiclone was stopped because ...") names the step
    # the question asks about in the note's own words (a drug's name for "sleeping medicine"): a tenth of the topic
    told = strength >= 1.0 and topic >= FIRST_FACT_MIN and bool(_DONE_THEN_CAUSE.search(plain))
    return (strength >= 1.0 and topic >= HOLDS_MIN) or (strength >= firm.W_SOFT and topic >= TOPIC_NAMED) or told


def gives_reason(text: str) -> bool:
    """The line is a labelled reason field (`data.reason_fields`: "Reason for tracheostomy: ...", "Indication: ...")
    for what was done, not a visit's complaint ("Presenting complaint:", "Reason for visit:": the complaint
    restated, no reason for what the visit did)."""
    field = reason_field(text)
    return field is not None and field.subject != "visit"


def says_no_cause(i: int, texts: Sequence[str], named: np.ndarray, question: str = "") -> bool:
    """Sentence `i`, a why answer's first line, holds no cause at all: no cause marker (`has_cause`), no reason in
    the heading over it (`heading_reason`), and it is no line of the note's diagnosis, or it is a diagnosis line with
    no marker that names the asked thing and adds nothing to the question's words (the asked finding restated: "why
    does he have coeliac disease" answered by "Coeliac disease."; "Right ankle sprain, grade 2" to "what is wrong
    with my ankle" names the diagnosis)."""
    # (a diagnosis line naming the asked thing and adding words, read as a cause: over the 49 writers' leave-one-
    # writer-out 3 answerable why questions no longer flagged, in 3 writers, for 1 unanswerable one let through; why
    # AUROC 0.810 -> 0.811; with `value_only`, why caught 67.5 both, AUROC 0.813)
    # (a finding word in a diagnosis line naming the asked thing, "Iron deficiency", is left a cause: read as none,
    # over the 41 writers it flagged 6 more answerable why questions for 1 more unanswerable)
    if (has_cause(texts[i]) and not value_only(texts[i])) or heading_reason(i, texts) or next_reason(i, texts) \
            or wrapped_reason(i, texts) or found_before(i, texts) or field_reason(i, texts) or cell_reason(texts[i]):
        return False
    if not why.diagnosis_lines(list(texts))[i]:
        return True
    return bool(named.size and named[:, i].any()) and not adds_words(texts[i], question)


def value_only(text: str) -> bool:
    """The line is a lab value row of at most 14 words (`firm_answers.value_row_lift`: "Fasting glucose 141 mg/dL
    (high)") whose only cause cue is a weak one (a finding word, "high"): it says what was found, not why."""
    plain = fold(text)
    if len(plain.split()) > 14 or not firm.value_row_lift([plain], np.ones(1))[0]:
        return False
    from archehr.answerability.holds import HOLDS

    return float(firm.cause_strength([plain], HOLDS["why"])[0]) <= firm.W_WEAK and not _MORE.search(plain) \
        and not _FURTHER.search(plain)


def adds_words(line: str, question: str) -> bool:
    """The line names a word of three letters or more (stemmed) the question does not: it says more than the asked
    thing ("Right ankle sprain" to "my ankle"), not the asked finding restated."""
    from archehr.relevance.text import tokens

    asked = set(tokens(question))
    return any(len(t) >= 3 and t.isalpha() and t not in asked for t in tokens(line))


# a heading over a list giving its reason: "Meds HELD (AKI, sick day rules):", "Stopped because of the fall:"
_HEADING_LINE = re.compile(r"^[^.!?\n]{2,80}:\s*$")
_BRACKET_REASON = re.compile(r"\([^)]*[A-Za-z]{2,}[^)]*\)")
HEADING_REACH = 8  # the list rows a heading's reason reaches down to
# a medicine row opening with its action ("HOLD furosemide 40 mg OM", "- Stop aspirin"): a row of the list a heading
# gives the reason for
_ACTION_ROW = re.compile(r"^\W*(?:\d+[.)]\s*)?(?:stop(?:ped)?|hold|held|withh[eo]ld|omit|suspend(?:ed)?|paused?|"
                         r"start(?:ed)?|reduce[ds]?|increase[ds]?|change[ds]?|switch(?:ed)?)\b", re.I)


def heading_reason(i: int, texts: Sequence[str]) -> bool:
    """The nearest heading over sentence `i` (a line ending in a colon, at most `HEADING_REACH` lines up) gives a
    reason: a cause marker (`has_cause`) or a reason in brackets ("Meds HELD (AKI, sick day rules):" over "HOLD
    furosemide 40 mg OM"), when `i` is a medicine row opening with its action (`_ACTION_ROW`); or the heading is
    "Findings:" or "Indication:" (what was found is the reason for what was done), over any row."""
    action = bool(_ACTION_ROW.match(texts[i]))
    for j in range(i - 1, max(i - 1 - HEADING_REACH, -1), -1):
        t = fold(texts[j])
        if _HEADING_LINE.match(t):
            if re.match(r"^\W*(?:findings?|indications?)\W*$", t, re.I):  # the rows under it are what was found
                return True
            return action and (bool(_BRACKET_REASON.search(t)) or has_cause(t))
    return False


# a line opening a new item of a list or a plan: a bullet, a number, a box, a number word ("two."); a row's own
# reason line comes under the row, before the next item
_NEW_ITEM = re.compile(r"^\W*(?:[-•*▪◦·>]\s|\d+[.)]\s|\[[ xX]?\]|"
                       r"(?:one|two|three|four|five|six|seven|eight|nine|ten)\.\s)", re.I)
# a line holding a step of its own: its cause is that step's ("TSH is raised, so a free T4 has been added")
_OWN_STEP = re.compile(_STEP_DONE + r"|\b(?:given|prescribed|referred|requested|booked|arranged|restarted|resumed|"
                       r"continued?|start|stop|hold|increase|reduce)\b", re.I)


def next_reason(i: int, texts: Sequence[str]) -> bool:
    """The sentence after `i` says why in the same item: it opens no new item or heading, gives no order and takes
    no step of its own (`firm_answers.order_share`), and holds a cause ("STOP propranolol 40 mg." then "Beta-blockers
    can bring on wheeze."), a labelled reason ("Reason: ...") or a lab value against its target. A row with no
    reason whose neighbours are the next rows keeps none."""
    if i + 1 >= len(texts):
        return False
    t = fold(texts[i + 1])
    if gives_reason(t) or re.match(rf"^\W*(?:{CAUSE_LABELS})\s*:\s*\S", t, re.I):
        return True
    if _NEW_ITEM.match(t) or _HEADING_LINE.match(t) or _OWN_STEP.search(t) or firm.order_share([t])[0] < 1:
        return False
    from archehr.answerability.holds import HOLDS

    # a weak or soft cue alone (a finding word, "was normal") is the next finding, not this line's reason
    if float(firm.cause_strength([t], HOLDS["why"])[0]) >= 1 or _MORE.search(t) or _FURTHER.search(t):
        return True
    # a change row's result line ("CHANGE simvastatin -> atorvastatin" then "LDL 4.2 mmol/L, target below 1.8")
    return bool(_ACTION_ROW.match(texts[i]) and re.search(rf"{_LAB_VALUE}[^.;]*\btarget\b", t, re.I))


def wrapped_reason(i: int, texts: Sequence[str]) -> bool:
    """Sentence `i` ends a row begun on the line before it (that line ends in a dash, a comma or an open bracket:
    "Aspirin 75 mg daily (not needed with apixaban) -" then "Status: STOPPED"), and the whole row holds a cause."""
    if i == 0 or _NEW_ITEM.match(texts[i]) or DOSE.search(texts[i]):  # (a row of its own, not a row's tail)
        return False
    before = fold(texts[i - 1])
    return bool(re.search(r"(?:\s[-–—]|,|\()$", before)) and has_cause(before + " " + fold(texts[i]))


# a step taken on a finding: a referral, a request, a medicine added or prescribed, a clinician told
_STEP_TAKEN = re.compile(r"\b(?:referr?(?:al|ed)|requested|added?|prescribed|informed|started|"
                         r"stopped|switched|changed)\b", re.I)
# a finding or an impression: "Comment: calcium raised", "Outcome: referable maculopathy", "consistent with ...",
# "this looks like a wound infection", "HbA1c has gone up"
_FOUND = re.compile(r"^\W*(?:comments?|outcome|impression|conclusion|result|assessment)\s*:\s*\S|"
                    r"\b(?:consistent with|in keeping with|suggestive of|looks? like|likely|showed|shows)\b", re.I)


def found_before(i: int, texts: Sequence[str]) -> bool:
    """Sentence `i` takes a step (`_STEP_TAKEN`: "Referral to the liver nurse is advised") right after a line giving
    the finding it answers (`_FOUND` or a finding word of `firm_answers`: "Comment: hepatitis C RNA detected"), a
    line of no step or order of its own and no heading or new item."""
    if i == 0 or not _STEP_TAKEN.search(texts[i]) or _NEW_ITEM.match(texts[i]):
        return False
    t = fold(texts[i - 1])
    if _NEW_ITEM.match(t) or _HEADING_LINE.match(t) or _OWN_STEP.search(t) or firm.order_share([t])[0] < 1:
        return False
    from archehr.answerability.holds import HOLDS

    # (a finding only: a firm cause on the line before is most often another row's own reason, "Prevents clots")
    return bool(_FOUND.search(t)) or 0 < float(firm.cause_strength([t], HOLDS["why"])[0]) <= firm.W_WEAK


# a field naming what was done: "Procedure: ...", "Operation: ...", "Referral to: ..."
_DONE_FIELD = re.compile(r"^\W*(?:procedures?|operations?|surgery|procedure performed|referral(?: to)?|test|scan|"
                         r"investigations?)\s*:\s*\S", re.I)
_FIELD = re.compile(r"^\W*[A-Za-z][\w /()-]{1,30}:\s*\S")
FIELD_REACH = 3  # the fields of one block a reason field is read across


def field_reason(i: int, texts: Sequence[str]) -> bool:
    """Sentence `i` is a field naming what was done ("Procedure: lumbar fusion") and a reason field of the same block
    of fields follows within `FIELD_REACH` lines ("Date: ...", then "Reason: slipped disc with leg pain")."""
    if not _DONE_FIELD.match(texts[i]):
        return False
    for j in range(i + 1, min(i + 1 + FIELD_REACH, len(texts))):
        t = fold(texts[j])
        if gives_reason(t):
            return True
        if not _FIELD.match(t):
            return False
    return False


# a table's cells: a run of three spaces or more, a tab, or a bar between them (the layout `fold` reads out)
_CELLS = re.compile(r"\s*\|\s*|\t+\s*|\s{3,}")
# a cell telling how or when the medicine is taken, or what comes next, not why: a route, a frequency, a count
# (`holds.SCHEDULE_COMMENT` opening the cell), a review to come, a cell of no change
_SCHEDULE_CELL = re.compile(
    rf"^\W*(?:{SCHEDULE_COMMENT}|po|iv|sc|s/c|im|oral|by mouth|at night|in the morning|as needed|when required|prn|\d)|"
    r"\b(?:once|twice|daily|nightly|weekly|every|hourly|bd|tds|qds|od|mane|nocte|prn|when required|as needed|"
    r"as before|no change|unchanged|see below|review|to follow|to give|new)\b", re.I)
_CELL_WORDS = re.compile(r"\b[A-Za-z]{3,}\b")


def cell_reason(text: str) -> bool:
    """A medicine row opening with its action (`_ACTION_ROW`), laid out as a table's cells, whose cell after the
    medicine's dose is a comment in words ("STOP   Empagliflozin 10 mg once daily   Risk of dehydration with low
    food intake", "CHANGE | Amlodipine 5 mg -> 10 mg | PO once daily | BP persistently high on ward"): a cause. Not a
    cell telling how or when it is taken, or what comes next (`_SCHEDULE_CELL`: "PO once daily", "6 months", "GP to
    review"), nor one naming another dose."""
    if not _ACTION_ROW.match(text):
        return False
    cells = [c.strip() for c in _CELLS.split(text.strip()) if c.strip()]
    dosed = next((k for k, c in enumerate(cells) if DOSE.search(c)), None)
    if dosed is None:
        return False
    return any(len(_CELL_WORDS.findall(c)) >= 2 and not _SCHEDULE_CELL.search(c) and not DOSE.search(c)
               for c in cells[dosed + 1:])
