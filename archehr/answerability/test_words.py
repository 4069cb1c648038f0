"""The words of tests and their results, shared by the rules that read them (one table, not one per module).

A result question is answered by a sentence that says what a test found, not by one that orders it, plans it,
books it or awaits it. These patterns tell the two apart, in several strengths:

- what a test found: `RESULT` (firm: a value with its lab unit, flag or range, a finding word; the rank of
  `firm_answers`), `RESULT_SAID` and `RESULT_GIVEN` (`archehr.ask`'s review rules), `RESULT_WORDS` (a
  sentence's role, `roles`), `VERDICT` (a value's flag, range or verdict word);
- a test not (yet) done: `PENDING` (a result awaited), `PLANNED` (repeated, scheduled, booked), `REQUESTED` (asked
  for, with `TEST_NAMED` naming a test), `TEST_AGAIN` (an instruction to test again), `NOT_DONE`;
- a result still to come told otherwise: `RESULT_LATER` (a diagnosis left to an addendum, a plan hanging on what a
  test will show, a visit to go over results), read by `result_later`.
"""

from __future__ import annotations

import re

from archehr.answerability.dates import AM_PM
from archehr.answerability.spaces import fold

# a result not back yet: "pending", "awaited", "to follow", "results not back yet", a sample sent to the lab,
# "will call you if ..." (`archehr answer` flags a result question answered by one; a sentence of one does not
# answer a result question first)
# a verdict later in the same clause: a sample "sent" that came back ("were sent and are both normal") is no
# result awaited
_THEN_GIVEN = (r"(?![^.;|]*\b(?:normal|abnormal|negative|positive|clear|unremarkable|showed|shows|came back|"
               r"(?:is|are|was|were) (?:fine|ok|okay|reassuring|satisfactory))\b)")
PENDING = re.compile(r"\b(?:pending|awaiting|awaited|await|to follow|not yet (?:back(?! to\b)|available|resulted|"
                     r"reported)|results? (?:are |is )?not (?:yet )?back)\b|"
                     # "no result is available yet", "no results yet"
                     r"\bno results? (?:(?:is|are) )?(?:yet )?(?:available )?yet\b|"
                     r"\bno results? (?:is |are )?(?:yet )?available\b|"
                     r"\bwill (?:call|contact) (?:you|him|her|them) (?:if|when|with)\b|"
                     # "we are waiting on a repeat sputum culture", "still waiting for the biopsy result"
                     r"\bwaiting (?:on|for) (?:the |a |an |his |her |their |your |my )?(?:[\w-]+ ){0,2}?"
                     r"(?:results?|reports?|cultures?|swabs?|biops(?:y|ies)|histology|pathology|bloods?|samples?)\b|"
                     r"\bresults? (?:will|should|may|can) (?:take|be (?:back|available|ready))\b|"
                     rf"\b(?:was|were|has been|have been) sent\b(?! home){_THEN_GIVEN}|\(sent\b|"
                     r"\bsent (?:off |away )?(?:to|for) (?:the )?"
                     rf"(?:lab|laboratory|pathology|histology|testing|analysis)\b{_THEN_GIVEN}", re.I)
# a result given before the final report ("no growth at 48 hours; final report pending", "Negative at 1 hour, final
# reading to follow"): what the test found so far is said, so its pending word is no result awaited
# (`archehr.answerability.awaited_results.awaited`)
PRELIMINARY = re.compile(r"\b(?:no growth|no organisms?|negative|positive|normal|grew|growing|shows?|showed)\b"
                         r"[^.]{0,60}?"
                         r"\b(?:final|formal|official|full)\s+(?:[\w-]+\s+){0,2}?"
                         r"(?:reports?|results?|reading|read|over-?read|cultures?|sensitivit\w*)\b[^.]{0,30}?"
                         r"\b(?:pending|to follow|awaited|awaiting)\b", re.I)
# a sentence telling a test to be done again ("3. Please repeat thyroid function tests after the dose change"): it
# answers a medication question less than the change itself does
TEST_AGAIN = re.compile(r"^\W*(?:\d+[.)]\s*)?(?:please\s+)?(?:repeat|recheck|re-check|check)\b[^.;]{0,40}?"
                         r"\b(?:tests?|bloods?|levels?|labs?|"
                         r"function|counts?|panel|scan|x-?ray|ecg|ekg)\b", re.I)
# a result line's verdict: a flag after a value ("K 5.7 H", "Hgb 10.4 L", "ALT-64*"), a reference range
# ("(3.5-5.1)"), or a verdict word ("normal", "within range", "high")
VERDICT = re.compile(r"\d\s*\*|\d\s+(?:H|L|HH|LL|HIGH|LOW)\b|\b(?:H|L)\s*(?:\(|\d)|"
                     r"\(\s*(?:<|>)?\s*\d+(?:\.\d+)?\s*[-–]\s*\d+(?:\.\d+)?|"
                     r"(?i:\b(?:normal|abnormal|high|low|elevated|raised|within|in range|out of range|above|below|"
                     r"target|goal|unremarkable|negative|positive|stable|improv\w+|satisfactory|reassuring|"
                     r"severe|mild|moderate)\b)")
# a request for a test, not its result: "I have also requested an HIV test", "bloods sent", "please book"
REQUESTED = re.compile(r"\b(?:requested|ordered|have arranged|has arranged|been arranged|will arrange|"
                       r"(?:have|has) (?:also )?(?:sent|taken)|please book|to be (?:done|taken|arranged)|"
                       r"will (?:check|request|order|send))\b", re.I)
TEST_NAMED = re.compile(r"\b(?:tests?|bloods?|scan|x-?ray|cxr|ultrasound|mri|ct|swab|cultures?|samples?|biopsy|ecg|ekg|"
                        r"echo\w*|levels?|panel|counts?|screen\w*|smear|urine|function)\b", re.I)
RESULT_WORDS = re.compile(r"\b(?:normal|abnormal|negative|positive|showed|shows|revealed|confirm\w*|"
                          r"no (?:sign|evidence)|unremarkable|came back|are back|is back|"
                          r"results? (?:was|were|is|are))\b|"
                          r"\d\s*(?:%|mmol|mg/dl|g/l|kpa)", re.I)
# a lab unit after a value ("8.9 mg/dL", "212 K/uL", "2.01 mmol/L", "6.1 kPa", "45%")
LAB_UNIT = (r"(?:%|mg/d[l]|g/d[l]|g/l|mmol|umol|µmol|nmol|pmol|meq|mu/l|miu|iu/l|u/l|k/ul|x ?10|ng|pg|mcg/l|ug/l|"
            r"ug/ml|mcg/ml|ml/min|mmhg|kpa|cells|cfu|copies|mm/h|sec|seconds|bpm|/min|cm|mm|kg|lb|g\b|%ile|"
            r"centile|percentile)")
# a common blood test's name in lower case ("sodium 136, potassium 3.9, creatinine 118" in a running line, no unit
# given): with its value, a result said, as a capitalised name is ("Na 136")
ANALYTE = (r"sodium|potassium|creatinine|urea|ha?emoglobin|platelets?|ferritin|calcium|magnesium|phosphate|"
           r"albumin|bilirubin|cholesterol|triglycerides?|egfr|crp|esr|inr|tsh|t4|wbc|white (?:cell )?count|"
           r"neutrophils?|lymphocytes?|alt|ast|alp|ggt|iron|folate|psa|troponin|lactate|a1c|hba1c|ldl|hdl|bnp")
# after a number: no more digits (a date, a time, "31,000" read whole), no range of time ("4-6 wks", "1 to 2
# weeks"), no dose, time or count unit
NOT_A_DOSE = (r"(?![A-Za-z\d])(?![\d/:.,]\d)(?!\s*(?:-|–|to|or|and)\s*\d)(?!(?i:\s*(?:mg|mcg|micrograms?|g|"
              r"units?|ml|tablets?|capsules?|puffs?|sachets?|doses?|cycles?|days?|d|weeks?|wks?|months?|years?|hours?|hrs?|"
              r"min(?:utes)?|am|pm|x|times|yo|y/o|year-old)\b))")
# a result said: a value with a lab unit, a flag after a value or a reference range (`VERDICT`'s forms),
# a test's value in a table or a dot leader ("Uric acid ........ 8.9", "Hemoglobin (10/03) | 10.1"), or a
# finding word ("positive", "no growth", "healed well", "showed", "within the normal range")
RESULT = re.compile(
    rf"\d(?:\.\d+)?\s*{LAB_UNIT}|\d\s*\*|\d\s+(?:H|L|HH|LL|HIGH|LOW)\b|"
    r"\(\s*(?:<|>)?\s*\d+(?:\.\d+)?\s*[-–]\s*\d+(?:\.\d+)?|\b\d+(?:\.\d+)?\s*[-–]\s*\d+(?:\.\d+)?\s*(?:$|[|\s]*$)|"
    # a test's name (a word with a capital, "Na", "TSH", or a word for a measure, "trough") and its value, not a
    # dose, a time or a count of days ("Na 134 on day of discharge", "Tac trough 9.4")
    r"(?:(?:\b(?=[A-Za-z0-9-]*[A-Z])[A-Za-z][A-Za-z0-9-]{0,14}|(?i:\b(?:level|trough|count|score|reading|ratio|"
    r"index|sugar|glucose|pressure|sats?|saturation|value|" + ANALYTE + r")))"
    r"\s*(?::|=|-|\bof\b|\bwas\b|\bis\b|\bat\b)?|"
    # a labelled value ("LDL cholesterol: 171"), a value after a verb ("was 4,000", "rose to 88,000")
    r"^\W*[A-Za-z][\w ()/-]{0,30}:|(?i:\b(?:was|were|is|are|of|at|to|from|reached|peaked at)))\s*"
    rf"[<>]?\d+(?:[.,]\d+)?{NOT_A_DOSE}|"
    r"(?i:\b(?:goal|target)\s*(?:under|below|over|above|<|>|of|is)\s*\d)|"
    r"(?i:\b(?:show(?:ed|s|n)?|reveal\w*|demonstrat\w*|negative|positive|detected|not detected|normal|abnormal|"
    r"unremarkable|no growth|ngtd|grew|growing|no (?:sign|signs|evidence|bacteria|organisms)|consistent with|"
    r"suggestive of|intact|healed|healing well|benign|malignant|cancerous|precancerous|satisfactory|reassuring|"
    r"within (?:the )?(?:normal |reference |target )?(?:range|limits)|in range|out of range|(?:above|below) "
    r"(?:the )?(?:goal|target|range|normal|threshold)|adequate|unchanged|improved|stable|resolved|normali[sz]ed|"
    r"elevated|raised|confirm\w*|diagnos\w+|tear|torn|fracture|no (?:acute|significant|focal)|"
    r"(?:is|was|were|are) (?:too |very |mildly |slightly |a little |still )?(?:high|low)|high at|low at)\b)")
# a test not done ("Chest x-ray: not obtained (no focal findings)", "Liver ultrasound requested, not yet done"): it
# gives no result, whatever else it says
NOT_DONE = re.compile(r"\bnot (?:yet )?(?:been )?(?:obtained|done|performed|sent|checked|repeated|"
                      r"carried out|ordered)\b", re.I)
# a test still to be done: a plan to test ("repeat CT in 3 months", "will check") or a booked test ("Monday
# 12/08/2026 at 1:30 PM - Chest X-ray"), as opposed to a result said ("showed", "normal", a value)
PLANNED = re.compile(r"\b(?:repeat|recheck|re-check|will (?:have|need|check|repeat|get)|schedul\w+|"
                     # ... or left for the patient to book ("bloods in 6 weeks; pt to book with reception")
                     r"to be (?:done|repeated|checked)|planned|(?:to|please) book)\b|"
                     r"\bat\s+\d{1,2}(?::\d{2})?\s*" + AM_PM + r"\b", re.I)
RESULT_SAID = re.compile(r"\b(?:show(?:ed|s)?|reveal\w*|normal|abnormal|negative|positive|unremarkable|benign|"
                         r"no evidence|found|grew|consistent with|confirm\w*|result\w*|came back|was|were)\b|"
                         r"\b[A-Za-z]{1,10}\s*[-:=]\s*\d|\d\s*%", re.I)
# a table row's value with its flag or its reference range, the cells apart ("TSH | 1.9 | mU/L | 0.3 - 4.2",
# "Hemoglobin A1c | 8.4 | H | 4.0-5.6"): a result given with no flag beside the value
TABLE_RESULT = (r"\|\s*[<>]?\d+(?:\.\d+)?\s*(?:\|[^|\n\d]{0,15}){0,3}\|\s*[<>]?\d+(?:\.\d+)?\s*[-–]\s*\d+(?:\.\d+)?|"
                r"\|\s*[<>]?\d+(?:\.\d+)?\s*\|\s*(?-i:H|L|HH|LL|HIGH|LOW)\s*(?:\||$)|"
                # ... or its cells set apart by slashes ("Ferritin / 2,860 / H / ug/L / 30-400", "Platelets / 24 /
                # x10^9/L / 150-400 / L"): a flag cell after the value, or a range cell after its unit
                r"(?:^|\s)/\s*[<>]?\d[\d,]*(?:\.\d+)?\s+/\s*(?-i:H|L|HH|LL|HIGH|LOW)\s*(?:/|$)|"
                r"(?:^|\s)/\s*[<>]?\d[\d,]*(?:\.\d+)?\s+/[^|\n]{1,20}?\s/\s*\d+(?:\.\d+)?\s*[-–]\s*\d+(?:\.\d+)?"
                r"\s*(?:/|$)")
# a finding ruled out: "no fracture", "no bleeding, no skull fracture", "no significant stenosis", "no sign of a lump",
# "nothing worrying" (a finding's noun, not an activity: "no driving" rules nothing out of a test)
_NO_FINDING = (r"\bno (?:(?:acute|significant|obvious|focal|new|definite|evidence of|signs? of|further|residual|"
               r"abnormal|active|visible|major|serious|worrying|concerning)\s+)*(?:an? )?(?:bleed\w*|h(?:a|e)?morrhage|"
               r"fractures?|breaks?|broken|clots?|dvt|pe|tumou?rs?|mass(?:es)?|lumps?|lesions?|stones?|blockages?|"
               r"obstruction|narrowing|stenosis|infection|pneumonia|consolidation|collapse|pneumothorax|effusion|"
               r"fluid|vegetations?|abscess|growth|spread|cancer|malignan\w+|metastas[ie]s|tears?|rupture|damage|"
               r"scarring|cirrhosis|disease|abnormalit\w+|change|concerns?|problems?|polyps?|ulcers?|inflammation|"
               r"dislocation|injur(?:y|ies)|swelling|enlargement|cancerous|blood|protein|sugar|bacteria|organisms|"
               r"shocks?|pauses?|arrhythmias?|fibrillation|af|afib|ischa?emia|infarct\w*|bleeding)\b|"
               r"\bnothing (?:abnormal|worrying|concerning|of concern|serious|sinister|significant|to worry about|"
               r"found|seen)\b")
# a result said: a result word, a verdict ("within normal limits", "satisfactory", "detected", "healed well",
# "nothing worrying", "clear", "came back fine"), a finding ruled out or seen ("no fracture", "showed a tear"), a
# value's flag or reference range ("K 5.7 H (3.5-5.1)", "WCC 3.9 4.0-11.0 x10^9/L L", "WBC 12.8 K/uL (H)") or a
# measured value ("eGFR 84 mL/min", "BP 145/90", "SpO2 > 94", "6.1 kPa")
_GIVEN = (
    r"\b(?:normal|abnormal|negative|positive|unremarkable|benign|malignant|cancerous|in range|out of range|"
    r"within (?:the )?(?:normal |reference |target )?(?:range|limits)|wnl|nad|no evidence|no growth|not present|"
    r"clear|all clear|stable|high|low|raised|elevated|reduced|preserved|improv\w+|reassuring|satisfactory|adequate|"
    r"acceptable|intact|healed|healing well|detected|not detected|reactive|non-?reactive|sensitive to|resistant to|"
    # ... not in a condition ("start calcium if it shows thinning")
    r"(?<!\bif it )(?<!\bif )(?<!\bunless )(?<!\bwhen it )(?<!\bif they )show(?:ed|s|n)|reveal\w*|demonstrat\w+|"
    r"found|grew|consistent with|in keeping with|suggestive of|"
    r"(?:is|are|was|were|looks?|looked|came back|come back) (?:fine|ok|okay|good|healthy|alright|all right)|"
    r"(?:above|below) (?:the )?(?:goal|target|range|normal|threshold|our threshold))\b|"
    rf"{_NO_FINDING}|"
    # a finding seen ("a complex tear", "torn medial meniscus"), a test's label then a finding ruled out ("MRI
    # L-spine: no discitis or epidural abscess"), a report's verdict field ("Impression: ...", "Findings: ...")
    r"\b(?:tear|torn|ruptured?|fractured?|stenosis|narrowing)\b|"
    r"^(?!\W*(?:plan|advice|instructions?|activity|diet|follow[- ]?up|medications?|allergies)\b)[^:\n]{2,60}:"
    r"[^.;]*\bno\s+[a-z]{3,}|"
    r"^\W*(?:findings?|impression|conclusions?|results?|outcome|interpretation|opinion|report)\s*:\s*"
    r"(?!(?:pending|awaited|awaiting|to follow|not yet|tbc|tba|n/?a|none|not (?:done|available))\b)\w|"
    r"\d\s*(?:%|mg|mmol|umol|µmol|g/dl|g/l|ml/min|mmhg|iu|u/l|mcg|ng|pg|cm|mm|kg|bpm|/min|kpa|k/ul|x ?10)|"
    r"\b\d{2,3}/\d{2,3}\b|[<>≥≤]\s*\d|"
    # a value's flag or reference range
    r"\d\s*\*|(?-i:\d\s+(?:H|L|HH|LL|HIGH|LOW)\b|\(\s*(?:H|L)\s*\))|"
    r"\(\s*(?:<|>)?\s*\d+(?:\.\d+)?\s*[-–]\s*\d+(?:\.\d+)?|\d\s+\d+(?:\.\d+)?\s*[-–]\s*\d+(?:\.\d+)?|"
    + TABLE_RESULT)
# ... in a sentence that does not say the test was not done ("Chest x-ray: not obtained (no focal findings)") nor
# tell a result only as a condition ("we will call you only if the culture shows resistance")
RESULT_GIVEN = re.compile(r"^(?!.*\bnot (?:obtained|done|performed|carried out)\b)"
                          r"(?!.*\b(?:if|unless|until|in case)\b[^.;]{0,40}\bshows?\b).*?" rf"(?:{_GIVEN})",
                          re.I | re.S)
# a result still to come told otherwise than as awaited: a diagnosis left to a later report ("final diagnosis to
# follow in an addendum"), a plan hanging on what a test will show ("sooner if the biopsy shows cancer", "depending
# on the results"), a visit booked to go over results ("clinic on 3/6 to review the scan results")
RESULT_LATER = re.compile(
    r"\baddendum\b|\bdiagnosis\s+to\s+follow\b|"
    r"\b(?:if|when|once|unless)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:biopsy|biopsies|results?|reports?|histology|"
    r"pathology|scans?|cultures?|tests?)\s+(?:shows?|comes?\s+back|are\s+back|is\s+back|confirms?|finds?|"
    r"(?:is|are)\s+(?:abnormal|positive))\b|"
    r"\bdepending\s+on\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:results?|findings|reports?)\b|"
    r"\bto\s+(?:review|discuss|go\s+(?:over|through)|explain)\s+(?:the\s+|your\s+|his\s+|her\s+|their\s+)?"
    r"(?:[\w-]+\s+){0,3}?(?:results?|reports?|findings|histology|pathology)\b", re.I)


def result_later(text: str) -> bool:
    """The line leaves a result to come (`RESULT_LATER`) and gives none in its other words (`RESULT_GIVEN`)."""
    plain = fold(text)
    return bool(RESULT_LATER.search(plain)) and not RESULT_GIVEN.search(RESULT_LATER.sub(" ", plain))


# a question asking in its words what a test found, whatever kind its other words read ("did my iron come back low?
# wondering if that's why ..." reads as a why; "could you advise me of the outcome of the urine test" as none):
# the review rule that flags a first line awaiting a result reads it (`asks_result`)
ASKS_RESULT = re.compile(r"\b(?:results?|outcome|(?:come|came|comes) back|back yet|levels?|low|high|normal|clear)\b",
                         re.I)


def asks_result(question: str | None) -> bool:
    """The question asks what a test found in words of its own (`ASKS_RESULT`)."""
    return bool(question) and bool(ASKS_RESULT.search(fold(question)))


# the clauses of a line ("potassium 3.4 (low); thyroid function still awaited"): a semicolon or a sentence's stop
_CLAUSE_BREAK = re.compile(r";|\.\s+(?=[A-Za-z])")
# words of a question that name no test ("result", "blood", "ok", "clinic"): shared by the awaited and the resulted
# clause alike, they cannot tell which test each speaks of
_NO_TEST_WORDS = frozenset(("result", "test", "blood", "bloods", "back", "clinic", "check", "level", "sample",
                            "taken", "show", "alright", "okay", "normal", "done", "still", "week", "today"))

# a test named in a clause: a test word, a common analyte, or an acronym ("TSH", "HbA1c", "PCR")
_OTHER_TEST = re.compile(rf"{TEST_NAMED.pattern}|\b(?:{ANALYTE}|thyroid|vitamin|coeliac|celiac)\b|"
                         r"\b(?-i:[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)\b", re.I)


def awaited_other(text: str, question: str | None) -> bool:
    """The line gives a result of the asked test in one clause and awaits another test in another ("Bloods show
    a potassium of 3.4 (low); his thyroid function is still awaited" to "was my potassium ok"): the clause awaiting
    a result names none of the question's words, and a clause giving a result (`RESULT_GIVEN`) names one. The
    pending word is then no sign the asked result is missing."""
    from archehr.relevance.text import tokens

    if not question:
        return False
    asked = {t for t in tokens(question) if len(t) > 2} - set(tokens(" ".join(_NO_TEST_WORDS)))
    clauses = [c for c in _CLAUSE_BREAK.split(fold(text)) if c.strip()]
    if not asked or len(clauses) < 2:
        return False
    names = [bool(asked & set(tokens(c))) for c in clauses]
    pending = [bool(PENDING.search(c)) for c in clauses]
    # each awaiting clause names a test of its own: "the results are not yet available" after "I have checked a
    # vitamin D level" awaits the test named before it
    if not all(_OTHER_TEST.search(c) for c, p in zip(clauses, pending, strict=True) if p):
        return False
    return (not any(n and p for n, p in zip(names, pending, strict=True))
            and any(n and not p and RESULT_GIVEN.search(c) for n, p, c in zip(names, pending, clauses, strict=True)))


# what a test might show, not what it showed ("as urate can read falsely low during a flare")
_MAY_SHOW = re.compile(r"\b(?:can|may|might|could|would)\b[^.;,]*", re.I)


def result_beside_plan(text: str) -> bool:
    """A line planning a test again that also says what the last one found ("ALT mildly high: no change, repeat
    liver tests in 2 weeks", "Low potassium; GP to recheck this week"): a result given (`RESULT_GIVEN`, outside what
    a test may show), so the plan is no sign the result is missing."""
    return bool(RESULT_GIVEN.search(_MAY_SHOW.sub(" ", fold(text))))
