"""What a patient's question asks, as one table of cues read by two classifiers.

- `type`: the coarse question type (should I / why / was my X low / when / will / what), a feature of the
  lexical answerability model (`data.question_type`, `features.py`): its rows must not change without
  refitting the shipped answerability models;
- `kind`: the kind of answer asked for (how long, when, medication change, test result, why, may I), which
  the answer types match to what each note sentence holds (`kinds.ask_kind`).

Each classifier reads its own rows in table order (`cue_table`); the patterns are case-insensitive.
`plain_question` writes out texting spellings of question words before the cues read a question;
`asks_booked_event` and `VISIT` tell a question about an appointment or a visit.
"""

from __future__ import annotations

import re

# everyday words with a drug name's ending ("again", "groin", "someone"): no medicine ("start again", "the groin
# ... now" tell no medication change)
_NOT_MEDS = (r"(?:again|pain|brain|skin|groin|chin|begin|within|origin|margin|cabin|main|plain|rain|train|drain|"
             r"stain|strain|vein|protein|done|one|someone|anyone|everyone|none|gone|bone|alone|phone|stone|tone|"
             r"zone|ozone|cone|line|fine|mine|nine|wine|spine|urine|routine|machine|medicine|discipline|am|exam|"
             r"team|program|diagram|side|inside|outside|aside|wide|guide|decide|ride|tide|beside)\b")
# a medicine in a patient's words, or a drug name by its usual endings (the med_change kind row)
_MED = (r"(?:medicines?|medications?|meds|pills?|drugs?|antibiotics?|blood thinners?|thinners?|inhalers?|insulin|"
        r"steroids?|shots?|tablets?|prescriptions?|patch(?:es)?|vitamins?|supplements?|drips?|infusions?|doses?|"
        r"painkillers?|pain ?killers?|pain (?:meds|medicines?|medications?|relief|relievers?)|"
        r"insulins|puffers?|drops|jabs?|injections?|creams?|hrt|"
        r"\w+ pills?|\w+ medicines?|\w+ meds|chemo\w*|"
        r"aspirin|(?!" + _NOT_MEDS + r")"
        r"[a-z]+(?:pril|sartan|olol|statin|azole|mycin|cillin|floxacin|zepam|pine|done|fen|xaban|parin|"
        r"gliptin|glutide|ide|one|ine|am|in))")
MEDICINE = _MED
CUES: tuple[tuple[str, str, str], ...] = (  # (classifier, name, pattern)
    # type rows, first match wins: "was my potassium low?", "what was my A1c?", "how high was ...": a measured value
    ("type", "value", r"\b(?:was|were|is|are)\s+(?:my|his|her|their|the)\s+[\w -]{2,30}?\s*"
        r"(?:low|high|normal|ok|okay|elevated|abnormal|up|down)\b|\bwhat\s+(?:was|were|is)\s+"
        r"(?:my|his|her|their)\s+[\w -]{2,30}?\s*(?:level|count|number|result|a1c|sugar|"
        r"pressure|potassium|sodium|cholesterol|ldl)\b|\bhow\s+(?:high|low)\b"),
    ("type", "should", r"\b(?:should|can|may|must|do|does)\s+(?:i|he|she|we|they)\b|\bam i\b|"
        r"\b(?:is it|is it ok|is it safe)\b|\bdo i (?:still|need|have)\b"),
    ("type", "why", r"\bwhy\b|\bhow come\b|\bwhat (?:is|was) the reason\b"),
    ("type", "when", r"\bwhen\b|\bhow long\b|\bwhat (?:day|date|time)\b"),
    ("type", "will", r"\b(?:will|could|would|is it going to)\b"),
    ("type", "what", r"\bwhat\b|\bhow\b|\bwhich\b"),
    # kind rows (`kinds.ask_kind`): the kind whose cue comes first in the question wins ("Can she have milk
    # when she takes the antibiotic?" asks may I; "When can he go back to work?" asks when); why and how
    # long cues anywhere win
    ("kind", "why", r"\bwhy\b|\bhow come\b|\bwhat (?:caused|causes|made|is the reason|was the reason|brought)\b|"
        r"\breason (?:for|why)\b|\b(?:for )?what reason\b|\bwhat(?:'s| is| was)? the reason\b|"
        r"\bis (?:that|this|it) the reason\b|\bwhat for\b|\bwhat (?:is|was) (?:it|that|this) for\b|"
        r"\bhow did (?:i|he|she|they|my|his|her)\b.*\b(?:end up|get|got|come to)\b|"
        r"\bin the first place\b|\bwhat (?:is|was) the point\b|\bwhat led to\b|"
        # a purpose or a cause asked in other words: "what is the miralax for", "whats the acamprosate for?", "what
        # was that injection at clinic for?", "whats the point of ...", "whats causing my headaches", "what actually
        # made it start bleeding"
        r"\bwhat(?:'s|s| is| are| was| were)? (?!(?:day|date|time|week|month|year)\b)(?:[\w'-]+ ){1,8}?for\s*"
        r"(?:[?!.,;]|$|(?:nobody|when|if|and|or|anyway|exactly|actually|then|tho|though|again|now|i|he|she|we|they)\b)|"
        r"\bwhat(?:'s|s)? the (?:point|reason|cause)\b|"
        r"\bwhat(?:'s|s| is| are| was| were)? (?:actually |really |even )?(?:causing|giving|making|behind|triggering|"
        r"bringing on)\b|\bwhat (?:actually |really |even )(?:caused|causes|made|brought)\b"),
    # a count of time asked in any unit ("how many years", "how many nights in hospital", "how many sessions")
    ("kind", "how_long", r"\bhow (?:long|many (?:more )?(?:days?|weeks?|months?|hours?|doses?|pills?|more|years?|yrs?|"
        r"nights?|fortnights?|minutes?|mins?|sessions?|cycles?|rounds?))\b|"
        # "is it something I stay on for life", "is the vedo forever now": a course without end asked
        r"\b(?:on (?:it|them|this|that) )?for life\b|"
        r"\bfor how long\b|\buntil when\b|\bhow much longer\b|"
        # the length asked in a noun ("recovery time off work", "course length", "how much time in bed")
        r"\bhow much (?:more )?time\b|\b(?:recovery|healing|recovering) time\b|\bduration\b|"
        r"\blength\b(?! of (?:the )?(?:wound|cut|scar|incision))|\bwhen (?:can|do|does|should|will)"
        r" (?:i|he|she|we|they) (?:stop|finish|come off|be done)\b|\brest of (?:my|his|her|their)"
        r" li(?:fe|ves)\b|\bforever\b|\bpermanent(?:ly)?\b|\bhow many more\b|"
        # "stopped for good" tells which drug was stopped (a medication change), not how long
        r"(?<!stop )(?<!stopped )(?<!quit )(?<!off )\bfor good\b"),
    ("kind", "may_i", r"\b(?:can|could|may|should|must)\s+(?:i|he|she|we|they|you|mom|dad|my \w+)\b|"
        # asked in a statement's order: "I can work nights or no?"
        r"\b(?:i|he|she|we|they) (?:can|could|may)\b[^?.]{0,60}\bor (?:no|not)\b|"
        r"\bis it (?:ok|okay|alright|all right|safe|fine|bad)\b|\ballowed\b|\bok to\b|\bokay to\b|"
        r"\bsafe to\b|\bok for\b|\bokay for\b|\balright for\b|\balright to\b|\bfine to\b|"
        r"\b(?:need|have) to (?:avoid|call|go|come)\b|\bwhat (?:should|can|do) (?:i|we)\b|"
        r"\bcome back\b(?!\s+(?:ok|okay|normal|clean|negative|positive|fine|good|alright|"
        r"all right|abnormal|bad|low|high|clear|down|up|to normal|from|yet|in range|with|showing|saying))|"
        # "is that ok with the new pill", "is this still allowed": a permission, not a result
        r"\bis (?:that|this) (?:still )?(?:ok|okay|alright|all right|safe|fine|permitted|allowed)\b|"
        r"\bgo back to the (?:er|hospital|emergency)\b|\b(?:the )?er\b|"
        r"(?<!in the )(?<!at the )(?<!from the )\bemergency\b|\bcall (?:the|his|her|my|a|911)\b|\bavoid\b|"
        r"\bwatch (?:out )?for\b|"
        # warning signs: "how will I know if she is not eating enough"
        r"\bhow (?:will|would|do|can|should) (?:i|we|you) (?:know|tell)\b|"
        # the emergency in other words ("go to a&e", "ring 999"); a person by name ("can keith have a pint")
        r"\ba\s*&\s*e\b|\b(?:999|911|111)\b|\burgent care\b|\bcasualty\b|"
        r"\b(?:can|could|may)\s+(?!(?:it|this|that|these|those|the|a|an|there|any|anyone|anything|someone)\b)[a-z]+"
        r"\s+(?:have|go|eat|drink|swim|drive|fly|play|bathe|shower|lift|travel)\b|"
        # a permission in a formal frame: "whether Mr Pike is able to shower", "whether she may fly"
        r"\b(?:is|are|am|be) (?:\w+ ){0,3}?(?:able|permitted|fit) to\b|\bpermitted\b|"
        r"\bmay (?:have|go|eat|drink|swim|drive|fly|play|bathe|shower|lift|travel|use|return)\b|"
        # a learner's statement order opening the question: "I can eat normal food now?", "he can go school?"
        r"^\s*(?:i|he|she|we|they|my \w+) (?:can|may) (?!not\b|still\b)\w+"),
    ("kind", "test_result", r"\b(?:did (?:i|he|she|we|they|you|my \w+|his \w+|her \w+) (?:pass|fail)|"
        r"(?:my|his|her|the) score|score on|"
        r"show|shows|showed|shown|find|found|come back|came back|pick up|picked up|grew|grow|growing|"
        r"figure out|figured out|damag\w*|results?|findings?|"
        r"(?:good|ok|okay|normal|fine|bad) or not|still (?:low|high|raised|elevated|abnormal)|"
        r"normal|abnormal|alright|all right|okay|ok|"
        r"how (?:well|low|high|bad|big)|how (?:was|were|is|are) (?:my|his|her|the)|"
        r"(?:was|were|is|are) (?:my|his|her|the|their) [\w' -]{0,30}?(?:low|high|hi|lo|ok|okay|"
        r"normal|alright|fine|good|better|up|down|off|cancer|cancerous|benign|malignant|serious|positive|"
        r"negative|clear|clean)|"
        # "is it too high", "was it cancer or some infection", "his blood count was low", "is that bad"
        r"(?:is|was|are|were) (?:it|that|this|they|these|those) (?:\w+ )?(?:too |very |really |so |a bit )?"
        r"(?:low|high|normal|elevated|abnormal|bad|good|serious|dangerous|cancer\w*|infect\w*|broken|benign|"
        r"malignant|positive|negative|clear|torn)|"
        r"(?:was|were|is|are|been) (?:\w+ )?(?:too |very |really |so |a bit |quite |dangerous(?:ly)? )?"
        r"(?:low|high|elevated|abnormal)|"
        # a value's trend: "did my white count come down", "has it gone up", "is the ulcer getting any better"
        r"(?:come|came|coming|go|gone|going|went)\s+(?:back\s+)?down|(?:it|level|count|number|inr|a1c|sugar|"
        r"pressure)s? (?:has |have )?(?:gone|go|went|shot|come|came) up|getting (?:any )?(?:better|worse)|"
        # "what was her potassium number", "whats my a1c", "what were her sugars like"
        r"what(?:'s| is| was| were| are|s)\s+(?:my|his|her|the|their)\s+[\w' -]{0,30}?(?:numbers?|levels?|"
        r"counts?|scores?|readings?|results?|values?|a1c|cholesterol|potassium|sodium|inr)|"
        r"what (?:was|were) (?:my|his|her|their|the) [\w' -]{0,30}? like|"
        # a flag on the result sheet, a range: "my white cells say L", "in range", "under control", "working"
        # "it was negative or positive": what a test found, in other words
        r"(?:it|that|this|test|result|scan|film|swab|culture)s? (?:was|is|were|came back) (?:\w+ )?"
        r"(?:negative|positive|normal|abnormal|clear|clean)|negative or positive|positive or negative|"
        r"says? (?:l|h|low|high|abnormal)|flagged|in range|out of range|under control|enough weight|"
        r"(?:is|are) (?:the|my|his|her) [\w' -]{0,25}?working|actually working|"
        r"did (?:the|my|his|her) [\w' -]{0,20}?(?:test|scan|results?|culture|biopsy|x-?ray|xray|mri|ct|report|bloods?)"
        r"\s+(?:say|tell|show)|"
        # whether a test was done, what it saw: "did they check me for hepatitis", "did they see anything nasty",
        # "what did the lab say", "how did that blowing test come out", "has it spread", "good or bad"
        r"did (?:they|you|the (?:doctors?|hospital|lab|nurses?|team)) (?:test|check|screen|see|find|do an?|"
        r"x-?ray|scan|swab|biopsy|culture|image)|"
        # "were any of the polyps cancer", "was it melanoma or not": a finding's verdict asked of a sample
        r"(?:was|were|is|are) any of (?:the|them|my|his|her|their) (?:\w+ )?(?:cancer\w*|malignant|benign|"
        r"infected|positive|negative|normal|abnormal)|"
        r"(?:tested|checked|screened) (?:\w+ )?for|what did (?:the|my|his|her) \w+ (?:say|find|show)|"
        r"how did (?:the|that|this|my|his|her|i|he|she) [\w' -]{0,30}?(?:come out|go|do)|"
        r"(?:has|had|did|is) (?:\w+ ){0,3}?(?:spread|got bigger|grown)|good or bad|bad or good|"
        r"(?:was|were|is|are) (?:my|his|her|the|their) [\w'-]+(?: [\w'-]+){0,2}? (?:bad|broken|fractured|scarred))\b"),
    ("kind", "med_change", r"\b(?:which|what) (?:of (?:my|his|her) )?(?:new |regular |other )?" + _MED + r"\b|"
        # the dose asked to move: "make my dose bigger or smaller", "his dose go up or down"
        r"\bdose (?:\w+ ){0,2}(?:bigger|smaller|higher|lower) or (?:bigger|smaller|higher|lower)\b|"
        r"\bdose (?:\w+ ){0,2}up or down\b|"
        r"\b(?:still|keep|stop|stopped|quit|continue|restart|resume|switch|switched|change|"
        r"changed|new|anymore|instead|off|start|started|taking|take|took|on|giving|gave|"
        r"getting|get|send|sent|need|needs|supposed)\b.{0,60}?\b" + _MED + r"\b|"
        r"\b" + _MED + r"\b.{0,60}?\b(?:stopped|stop|started|start|changed|switched|"
        r"anymore|instead|still|now|go back on|restarted|taken off)\b|"
        r"\b(?:am i|is (?:he|she)|are (?:we|they)) (?:still )?on\b|\bon (?:something|anything)\b|"
        # "did they take him off the X", "is she going back on", "the same dose": a change, whatever the drug's name
        r"\b(?:take|took|taken|taking|come|came|coming|get|got|getting|go|going|went|put)\s+(?:\w+\s+)?"
        r"(?:off|back on)\b|\bsame dose\b|"
        # "is she still meant to be taking it": the drug named earlier, a pronoun here
        r"\b(?:still|keep)\s+(?:(?:meant|supposed) to\s+)?(?:be\s+)?(?:taking|using|on)\s+(?:it|them|this|that)\b|"
        # "did they up my moms lipitor dose", "did they lower his metformin", "do i keep taking biktarvy",
        # "is she still suppose to take her prilosec", "what hrt has the dr put me on", "stop the albuterol"
        r"\b(?:up|upped|upping|raise|raised|raising|lower|lowered|lowering|double|doubled|doubling|halve|halved|"
        r"halving|cut down|cutting down|reduce|reduced|reducing|increase|increased|increasing|decrease|decreased|"
        r"decreasing|changing)\s+(?:my|his|her|their|the|mum'?s|mom'?s|moms|dad'?s|dads)\b|"
        r"\b(?:do|does|did|should|shall|will|am|is|are)\s+(?:i|he|she|we|they|you|mum|mom|dad|my \w+)\s+(?:still\s+)?"
        r"(?:keep|carry on|continue|stop|quit)\s+(?:taking|using|with|on)\b|"
        r"\b(?:suppos\w*|meant|ment) to (?:be )?(?:take|taking|use|using|stay on|be on)\b|"
        # "is the norvasc new", "how much of the long-acting insulin do i inject": the medicine's change or dose
        r"\bis (?:the|my|his|her|this|that) [\w-]+(?: [\w-]+)? new\b|"
        r"\bhow (?:much|many) (?:of )?(?:the |my |his |her )?[\w-]+(?: [\w-]+){0,2}? (?:do|does|should|am|is|must) "
        r"(?:i|he|she|we|they) (?:meant to |supposed to )?(?:take|inject|use|give)\b|"
        r"\b(?:restart|resume|start (?:it|that|them|those|this) again)\b|"
        # "I can still take my Aleve?": a medicine kept on, whatever its name
        r"\b(?:still|keep|continue|carry on) (?:to )?(?:take|taking|use|using) (?:my|his|her|their|the) \w+|"
        r"\b(?:put|putting) (?:me|him|her|them|us|you) on\b|\bbeen put on\b|\bdone with (?:my|his|her|their)\b|"
        # "did they change his lantus", "is he coming home with any ativan", "do i still use my spiriva", "how many
        # units": a medicine's change or dose, whatever its name
        r"\bdid (?:they|you|the \w+) (?:give|change|start|add|prescribe|switch|increase|lower|up)\b|"
        r"\b(?:go|goes|going|come|coming|sent|send) home (?:on|with)\b|"
        r"\b(?:still|keep) (?:getting|doing|having)\b|\b(?:what|which|the) dose\b|\bunits of\b|"
        # "have they put the morphine up in his pump", "turned her insulin down": a dose changed
        r"\b(?:put|putting|turn|turned|turning|bump|bumped|knock|knocked)\s+(?:the|my|his|her|their)\s+" + _MED +
        r"\s+(?:up|down)\b|"
        r"\b(?:stop|stops|stopped|stopping|start|started|starting|restart\w*|quit)\s+(?:the|my|his|her|their)\s+"
        r"(?!(?:bleeding|pain|cough|vomiting|fever|seizures?)\b)\w+"),
    # "when she came in" is a clause, not a question about a date
    # a pronoun then a verb other than a modal is a clause ("hurts when i walk", "when hes wheezing"); "when do i",
    # "when can he", "when i can go home" (a learner's order) ask for a time
    ("kind", "when", r"\bwhen\b(?!\s+(?:i|he|she|they|we|you|it|hes|shes|im|(?:he|she|i|it)'[sm])\s+"
        r"(?!(?:can|could|should|will|would|do|does|did|need|needs|have to|has to|must|may|might|gonna|get to|"
        r"going to|am|is|are)\b)\w+)|"
        r"\b(?:what|which) (?:day|date|time)\b|\bhow soon\b|\bhow often\b|"
        # "whens my treadmill test", "liver clinic date?" (not "up to date", a date of birth)
        r"\bnext (?:appointment|visit)\b|\bwhens\b|\b(?<!up to )dates?\b(?! of birth)"),
)
QUESTION_TYPES = ("should", "why", "value", "when", "will", "what", "other")
# a question's words for a visit or an appointment
_VISIT_WORDS = r"appointments?|appts?|visits?|follow[\s-]*ups?|see (?:the|my|his|her|a|dr)\w*"
VISIT = re.compile(rf"\b(?:{_VISIT_WORDS}|clinic)\b", re.I)
# a when question asking for a booked event, not for a permission's condition ("when can he drive")
_BOOKED_Q = re.compile(rf"\b(?:{_VISIT_WORDS}|check[\s-]*ups?|booked|scheduled|what (?:date|day|time)|"
                       r"next (?:session|dose|shot|scan|test))\b", re.I)
# texting spellings of the question words the kind cues read ("wat day is his apt", "wen do i stop")
# ("hi" after a word is "high": "was my tsh hi"; a greeting opens the question or takes a comma)
_TEXTING_WORDS = {"wat": "what", "wot": "what", "wen": "when", "wich": "which", "hw": "how", "y": "why", "hi": "high"}
_TEXTING = re.compile(r"\b(?:wat|wot|wen|wich|hw)\b|^y\b|(?<=\w )hi\b(?!\s*[,!])", re.I)


def cue_table(classifier: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The (name, compiled pattern) rows of one classifier ("type" or "kind"), in table order."""
    return tuple((name, re.compile(pattern, re.I)) for c, name, pattern in CUES if c == classifier)


def plain_question(question: str) -> str:
    """The question with texting spellings of its question words written out ("wat day" -> "what day")."""
    return _TEXTING.sub(lambda m: _TEXTING_WORDS[m.group(0).lower()], question)


def asks_booked_event(question: str) -> bool:
    """The question asks for a booked event (an appointment, a visit, a date, the next session), not for a
    permission's condition ("when can he drive")."""
    return bool(_BOOKED_Q.search(plain_question(question)))
