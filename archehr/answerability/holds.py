"""What each kind of answer looks like in a note sentence (`archehr.answerability.kinds` reads these).

`HOLDS[kind]` finds a sentence that holds the kind of answer asked for (a duration, a date or interval, a
medication change, a result, a cause, an instruction); `outcome_question` and `OUTCOME` tell a question about how
long an outcome takes (a stone passing, a tablet working) and the sentences that tell it, apart from how long a
course of treatment runs.
"""

from __future__ import annotations

import re

from archehr.answerability.counts import COUNT, COUNT_ASCII
from archehr.answerability.counts import LENGTH_UNIT as _TIME
from archehr.answerability.counts import NUMBER as NUMBER  # re-exported, as are UNIT and SPACING_UNIT (`counts`)
from archehr.answerability.counts import NUMBER as _N
from archehr.answerability.counts import RANGE as _RANGE
from archehr.answerability.counts import SPACING_UNIT as SPACING_UNIT
from archehr.answerability.counts import UNIT as UNIT
from archehr.answerability.counts import UNIT as _UNIT
from archehr.answerability.dates import CALENDAR_DAY, DEID_DATE, NAMED_DATE, NUMBER_WORD, TIME_OF_DAY, TOMORROW, WEEKDAY
from archehr.answerability.test_words import PENDING as PENDING  # re-exported: kinds, ask and roles read it here
from archehr.answerability.test_words import TEST_AGAIN as TEST_AGAIN
from archehr.answerability.test_words import VERDICT as VERDICT

# a day or a month in a date ("14/10", "3/7"): at most 31, so a blood pressure ("92/60") is no date (`dates.DAY_MONTH`
# takes any one or two digits)
_DAY = CALENDAR_DAY
# a length told as a compound before the treatment it measures ("46-hour fluorouracil pump", "a 10-day course", "7-day
# supply", "14-day heart monitor"), or after "for a" ("for a 5-day course"): a length, unlike a compound naming a
# service or a test ("24-hour oncology line", "12-hour trough", "24-hour urine")
LENGTH_COMPOUND = (rf"\b{_N}-(?:hours?|hrs?|days?|weeks?|months?)\s+(?:[\w-]+\s+){{0,2}}?(?:course|pump|infusion|"
                   r"supply|treatment|programme|program|regimen|drip|taper|trial|stay|monitor|patch|break|block)s?\b|"
                   rf"\bfor an?\s+{_N}-(?:hours?|hrs?|days?|weeks?|months?)\b")
# a dose's spacing or a wait around an event, told by its length ("at least 2 hours apart", "30 minutes before food"),
# and its pieces: `asked_time` reads it as a how-long answer, `course_link` takes it out of a line, with more forms,
# before reading a course
SPACING_LEAD = r"at least |about |around |up to "
SPACING_SIDE = r"apart|before|after|later|earlier|from"
SPACING = rf"\b(?:{SPACING_LEAD})?{COUNT}\s*(?:{SPACING_UNIT})\s+(?:{SPACING_SIDE})\b"
# a count in figures or in words, past ten too ("14", "two", "fourteen", "twenty-eight")
_C = rf"(?:{_N}|{NUMBER_WORD})"
_C_RANGE = rf"{_C}(?:\s*(?:-|to|–)\s*{_C})?"
# a time of day after the word that sets it ("at about 11am", "between 09:00 and 11:00", "by 3pm"): a log row's stamp
# ("09:05 Discussed with ...") tells when it was written, not when something is to happen
_AT_TIME = (rf"\b(?:at|by|from|between|and|to|until|till|before|after|around|about|approx\w*|for|@)\s+"
            rf"{TIME_OF_DAY}")
# a date or a time of day in the forms notes write them, and an interval counted from an event or in a programme's
# weeks: "9 June 2026", "Tue Mar 11, 2025", "October 2026", "at about 11am", "between 09:00 and 11:00",
# "16 weeks after the operation", "after 2 weeks", "from week 14", "weeks 3-4", "at 14 days old", "within 2 working
# days", "on the 6th", "monthly"
WHEN_FORMS = (rf"{NAMED_DATE}|{_AT_TIME}|\b{_C_RANGE}\s*{_TIME}\s+(?:after|before|from|post|following)\b|"
              rf"\bafter\s+(?:at least\s+|about\s+|around\s+|another\s+|a further\s+)?{_C_RANGE}\s*{_TIME}\b|"
              rf"\b(?:from\s+)?weeks?\s+{_C_RANGE}\b|\bat\s+(?:about\s+|around\s+)?{_C}\s*{_TIME}\b|"
              rf"\bwithin\s+{_C_RANGE}\s+(?:working|business|clear|calendar)\s+days?\b|"
              rf"\b(?:on|by|from|until|before|after)\s+the\s+\d{{1,2}}(?:st|nd|rd|th)\b|"
              rf"\b(?:weekly|fortnightly|monthly|quarterly|yearly|annual(?:ly)?)\b|\bx\s*{_C}\s*{_TIME}\b")
# a length of time in the forms notes write them, where it tells a length and not when ("review in 3 months"): a count
# of time with what it measures ("28 days in total", "2 weeks off school", "1 hour at a time"), after a verb or a bound
# of length ("wait 1 hour", "can take six months", "lasts 4 hrs", "max 2 weeks", "longer than 3 hours"), a dose's
# spacing ("1 hour before sex"), "every 14 days" (not a dose's "every 6 hours"), "up to 5 nights", "for the next two
# nights", "for the first week", "for the rest of the day", "long term", and the UK shorthand "1-2/52" (weeks), "for
# 3/12" (months), "x 5/7" (days: without its "for" or "x", "3/12" is as likely a date)
_LENGTH_BOUND = (r"max(?:imum)?\.?|min(?:imum)?\.?|no (?:more|longer|earlier|later) than|(?:longer|more|less) than|"
                 r"wait(?:ing)?|tak(?:e|es|ing)|last(?:s|ing)?|needs?|for|over|up to|about|around|at least|"
                 r"(?:in )?the (?:first|next|last|coming)|length(?: of \w+)?:?|duration:?|treatment:?")
LENGTH_FORMS = (rf"\b{_C_RANGE}[\s-]*(?:more\s+|extra\s+|further\s+|additional\s+)?{_TIME}\s+(?:in total|total|"
                rf"off|at a time|of (?:treatment|the course|therapy)|course|left|remaining)\b|"
                rf"\b(?:{_LENGTH_BOUND})\s+{_C_RANGE}[\s-]*(?:more\s+|extra\s+|further\s+)?{_TIME}\b|{SPACING}|"
                rf"\bevery\s+{_C}\s+(?:days|nights|weeks|months)\b|\blong[\s-]term\b|"
                rf"\bfor\s+(?:a|an|one|another|a further|the (?:first|next|last|coming|following))\s+"
                rf"(?:few\s+|couple of\s+)?(?:days?|nights?|weeks?|fortnight|months?|years?)\b|"
                rf"\bfor the rest of (?:the |this )?(?:day|night|week|month|year|today)\b|"
                rf"\b\d{{1,2}}(?:\s*-\s*\d{{1,2}})?/52\b(?!/\d|\s*ago)|"
                rf"\b(?:for|over|x)\s*\d{{1,2}}(?:\s*-\s*\d{{1,2}})?/(?:12|7)\b(?!/\d)")
# a dose in the other units notes write ("400 micrograms", "1,000 IU", "2 puffs", "4 drops", "1 tablet"), a medicine not
# needed or carried on ("no further antibiotics are needed", "not required", "carry on with"), one given or discussed
MED_FORMS = (r"\b\d[\d,.]*\s*(?:micrograms?|iu|puffs?|sprays?|drops?|tablets?|tabs?|capsules?|caps?|sachets?|"
             r"patch(?:es)?|%)(?!\w)|\b(?:not (?:required|needed|indicated)|no (?:[\w-]+ ){0,3}?(?:needed|required)|"
             r"(?:does|do|did) not need|no need|carry on|keep (?:taking|using|on)|as before|as usual|finish\w*|given|"
             r"discussed|as needed|if needed|when needed)\b")
# a value in a table's cell ("TSH | 1.9 | mU/L"), a finding in other words ("not detected", "undetectable", "NOT
# immune", "passed", "clear response", "no foreign body seen", "no shocks delivered", "healed well")
RESULT_FORMS = (r"^\W*[A-Za-z][\w ./&()'-]{0,40}\|\s*[<>]?\d|\b(?:not detected|undetectable|detected|immune|passed|"
                r"failed|clear|healed|valid|"
                r"no (?:[\w-]+ ){0,3}?(?:seen|detected|found|recorded|delivered|identified))\b")
# a permission or a rule in other words: "swimming is fine", "OK if she keeps warm", "no need to repeat", "does not need
# to fast", "nil by mouth from 07:00", "no waxing", "no more than 14 units", "keep alcohol below 7 units", "with
# assistance only", "supervised", "not with tea", "away from"
MAY_FORMS = (r"\b(?:fine|ok|okay|no need|need not|(?:does|do|did) not need|no reason|nil by mouth|nothing (?:to eat|by "
             r"mouth|in)|supervised|with assistance|aim to|no more than|at most|away from|rather than|not with|"
             r"keep (?:[\w-]+ ){0,3}?(?:below|under|away|steady|to a minimum)|cut (?:down|[\w-]+ to)|no \w+ing|only)\b")
# a reason in other words: a clause after "as" ("as thiazides can push the calcium up", "as pain was well controlled",
# "as not perforated"), a purpose ("to settle the palpitations", "to stop her turning the forearm", "to make sure"),
# "for infection prevention", "not suitable", "common after", "usually settle", "expected at this stage"
WHY_FORMS = (r"(?<!such )(?<!so )\bas (?!well\b|needed\b|soon\b|long\b|per\b|directed\b|before\b|usual\b|much\b|far\b|"
             r"of\b|a\b|an\b|required\b|tolerated\b|advised\b|above\b|below\b|follows\b|prescribed\b)"
             r"(?:[\w-]+ ){0,4}?(?:is|was|are|were|has|have|had|can|could|may|might|will|would|does|did|not|remains?|"
             r"needs?)\b|\bto (?:stop|settle|remove|support|bring|give|keep|make sure|ease|relieve|ensure|find out|"
             r"see if|look for|manage|replace|boost|clear|thin)\b|"
             r"\bfor (?:[\w-]+ )?(?:prevention|control|protection|relief|management)\b|"
             r"\bnot (?:suitable|safe|reliable|appropriate|recommended|indicated)\b|\bcommon\b|"
             r"\bexpected\b|\btypical\w*|"
             # a precaution and a means: "keep at home in case of overdose", "as an additional way of lowering the
             # pressure", "on account of", "owing to", "in view of"
             r"\bin case\b|\bas (?:a|an|one|another) (?:[\w-]+ )?(?:way|means|method|measure) (?:of|to)\b|"
             r"\b(?:on account of|owing to|in view of|in light of)\b")
# a medicine row's comment after a dash that gives its schedule or restates the action, no reason: "CHANGE omeprazole
# 20 mg - now once daily (was twice daily)", "START hydroxocobalamin 1 mg IM - alternate days for 2 weeks", "HOLD
# amitriptyline - hold until pharmacist review", "START naloxone nasal spray - keep at home"; or an order not to take it
# ("HOLD naproxen 220 mg - do not take until you see your doctor": what to do, not why)
SCHEDULE_COMMENT = (r"(?:now|then|alternate|once|twice|three times|every|each|daily|weekly|nightly|take|keep|hold|"
                    r"held|start|started|continue|restart|until|was|see|review|reviewed|do not|don't)\b")
# words that give a cause in one sense only: "given" a reason ("given her age", not "heparin 3000 units IV given",
# "was given at 13:30"), "from" a source ("is from the stunning", "comes from mucus", "from long-term use", not "from
# tomorrow", "from home", "from granddaughter"), "pending" what is awaited ("kept in pending the MRI", not "level:
# pending"), "felt" a judgement ("was felt to be", "we felt that", not "felt a sudden pull"), "trigger" a cause ("can
# trigger a flare", "triggered by", not "the day of your trigger"), "usually" what is usual (not a time or a count:
# "usually 3 to 5 days", "usually between day 5 and day 10", "(usually twice)")
# "from" a source, not a "from" of time, place, person or the start of a change: the word before it is no motion,
# call, change or move ("Call from granddaughter", "Returned from bronchoscopy suite", "up 1.2 kg from yesterday"),
# the words after it no time, number or place ("from tomorrow", "from every 8 weeks to every 6", "from home")
_FROM_NOT_AFTER = (r"call|calls|called|letter|message|referral|referred|return|returned|returning|discharge|discharged|"
                   r"presented|presents|transfer|transferred|moved|move|seen|visible|up|down|rose|fell|risen|dropped|"
                   r"change|changed|changing|increase|increased|reduce|reduced|decrease|decreased|lowered|raised|"
                   r"switch|switched|away|out|off|back|apart|different|differs|separate|home|remove|removed|taken|take|"
                   r"drained|start|starting|started|starts|wean|weaned|go|went|going|far|free|"
                   r"recover|recovering|recovery|cover|covered|only|available|collect|order|ordered|obtained|sent|"
                   r"received|made|made up|range|ranges|ranging|run|runs|running|bleeding|leaking|drainage|discharge|"
                   r"arrived|arrive|walk|walked|travel|travelled|traveled|flew|fly|driven|drive|stay|stayed|away")
_FROM_NOT_BEFORE = (r"\d|[<>~]|(?:today|tomorrow|yesterday|tonight|now|then|next|last|this|that|these|those|every|each|"
                    r"home|work|school|hospital|(?:the|his|her|their|your|my|our) (?:next|last|first|start|beginning|"
                    r"end|day|week|month|year|morning|evening|night|date|time|hospital|ward|clinic|practice|pharmacy|"
                    r"lab|team|gp|surgery|unit|suite|department|community|district|son|daughter|wife|husband|mother|"
                    r"mum|mom|father|dad|partner|family|carer|friend|nurse|doctor|consultant|pharmacist|surgeon|home|"
                    r"floor|bed|chair|car|house)|dr|mr|mrs|ms|miss|monday|tuesday|"
                    r"wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|"
                    r"september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b")
# "from" a source: "is from the stunning", "comes from mucus", "SIADH from sertraline", "(from the gas used ...)"
FROM_SOURCE = rf"(?:\b(?!(?:{_FROM_NOT_AFTER})\s)[\w'-]+\s+|[(,;:]\s*)from\s+(?!{_FROM_NOT_BEFORE})"
CAUSE_SENSES = (r"(?<!was )(?<!were )(?<!been )(?<!be )(?<!is )(?<!are )(?<!\d )(?<!iv )(?<!po )\bgiven "
                r"(?!\d|(?:on|at|in|to|today|yesterday|tonight|iv|po|im|sc|by|x|as|with|for|over|once|twice|daily|"
                r"every|after|before|during|until|via|and|or|here)\b)\w|"
                rf"{FROM_SOURCE}|"
                r"\bpending (?:the |his |her |a |an |further |repeat )?[a-z]|"
                r"\b(?:was|were|is|are|we|i|team|doctor|surgeon|consultant) felt\b|\bfelt (?:to|that|this|it|likely|"
                r"probably|unlikely|most)\b|\btrigger(?:s|ed|ing)? (?:by|an?|the|his|her|their|your|attacks?|flares?|"
                r"symptoms?)\b|\btrigger(?:ed|ing)\b|\btriggers\b|"
                r"\busually (?!\d|in\b|within\b|between\b|about\b|around\b|after\b|by\b|once\b|twice\b|for\b|"
                r"(?:one|two|three|four|five|six|seven|eight|nine|ten|a few)\b)\w|"
                # a clause of result after "so" with no comma: "penicillin allergy so amoxicillin/Augmentin not used"
                r"\bso (?:[\w/-]+ ){1,2}(?:not|was|were|is|are|has|had|have|can|cannot|will|would|could|should|must|"
                r"needs?)\b")
# a "for" that gives no reason: a length, a time or a person ("for 3 months", "for the next week", "for now", "for
# life", "for him"), what follows it read as the reason otherwise ("for anemia", "for sleep")
NOT_FOR_A_REASON = (r"(?!\d|(?:a |an |the next |another |up to |about |at least |now|life|one|two|three|four|five|six|"
                    r"seven|ten|several|the (?:past|last|whole|rest|first|next|time|moment|day|night|week|month|year)|"
                    r"him|her|you|them|me|us|patients?|children|adults|review|(?:the )?\w+ (?:days?|weeks?|months?|"
                    r"years?|hours?|nights?|doses?))\b)")
HOLDS: dict[str, re.Pattern[str]] = {kind: re.compile(pattern, re.I) for kind, pattern in {
    "how_long": (
        rf"\bx\s*{_N}\s*(?:more\s+|additional\s+)?{_UNIT}\b|"
        rf"\b(?:up to|around|about|at least)\s+{COUNT_ASCII}\s*{_UNIT}\b|"
        rf"\b(?:for|over|within|after|total of)\s+(?:a\s+|another\s+|"
        rf"the\s+(?:next|first|last|coming)\s+|at\s+least\s+|an?\s+additional\s+)?(?:total\s+(?:of\s+)?)?{COUNT_ASCII}[\s-]*"
        rf"(?:more\s+|additional\s+)?{_UNIT}\b|\b{_N}[\s-]+(?:more\s+)?{_UNIT}\s+(?:course|total|more|left|of)\b|"
        rf"\b\d+-(?:day|week|month)\b|{LENGTH_COMPOUND}|\buntil\b|\bthrough\b|\bthru\b|\bindefinitely\b|\blifelong\b|\blife-long\b|"
        rf"\bfor life\b|\bpermanent\w*\b|\blast dose\b|\bthen stop\b|\bend date\b|\bcomplete (?:a|the)\b|"
        rf"\btaper\w*\b|\bplanned for\b|\blong-term\b|\bstop date\b|\bduration\b|"
        # shorthand and spoken durations: "14d", "x 2 yrs", "2-4 weeks", "days-weeks", "while on lenalidomide",
        # "lasts 5-7 days", "may take 2-4 wks", "reassess need daily", "for now", "3 more doses"
        rf"\b\d+\s*d\b|\b{_RANGE}\s*{_UNIT}\b|\b(?:days?|weeks?|months?)\s*(?:-|to|or)\s*(?:weeks?|months?|years?)\b|"
        rf"\bwhile (?:on|taking|receiving|in|getting)\b|\bas long as\b|\blast(?:s|ing)?\b|\bmay take\b|"
        rf"\breassess\w*\b|\bre-?evaluat\w*\b|\bfor now\b|\bongoing\b|\bchronic(?:ally)?\b|\bmaintenance\b|"
        rf"\b{_N}\s+(?:more\s+)?(?:cycles?|doses?|sessions?|treatments?|infusions?|rounds?)\b|\bresolv\w+ within\b|"
        rf"\b(?:every|q)\s*{_N}?\s*(?:weeks?|wks?|months?)\b|\b(?:pod|dol|day)\s*#?\d+\b|{LENGTH_FORMS}"),
    "when": (
        # a schedule tells when the next one falls: "then 40 mg every other week starting 02/06"
        rf"\bevery\s+(?:other\s+)?(?:{_N}\s*)?(?:days?|weeks?|wks?|months?)\b|\bstarting\b|"
        rf"\bfollow(?:ed)?[\s-]*up\b|\bf/u\b|\bappointment\b|\bappt\b|\bscheduled\b|\bclinic\b|\bvisit\b|"
        rf"\bin\s+{COUNT_ASCII}\s*{_UNIT}\b|\bwithin\s+{_N}?\s*{_UNIT}\b|\bon\s+\[\*\*|{DEID_DATE}|"
        rf"\b{_DAY}/{_DAY}\b|\b{TOMORROW}\b|\bnext\s+(?:week|month|visit)\b|\brepeat\b|\bsee\s+(?:dr|your|you)\b|"
        rf"\b{WEEKDAY}\b|\bplanned\b|\btentative\w*\b|\banticipat\w+\b|"
        rf"\bexpect\w*\b|\bdue\b|\bnext\b|\buntil\b|\bonce\b|\bwhen:|\b(?:about|approximately|around|~)\s*{_N}\s*{_UNIT}\b|"
        rf"\(\s*{_N}\s*{_UNIT}\s*\)|\bhd\s*#?\d+|\bpod\s*#?\d+|\bwill (?:be|have|see|review|call)\b|"
        # shorthand dates and intervals: "~2-3 wk after", "in 24-48 h", "on ___", "DOL 5", "today", "before discharge"
        rf"\b{_RANGE}\s*{_UNIT}\b|\bon\s+_{{2,}}|\b(?:dol|day)\s*#?\d+\b|\btoday\b|\btonight\b|"
        rf"\bthis (?:morning|afternoon|evening|week)\b|\brtc\b|"
        rf"\b(?:before|prior to|at|after|until) (?:discharge|delivery|surgery)\b|"
        # a permission with its condition answers "when can he ...": "May return to work when fever-free"
        rf"\b(?:may|can|ok to|okay to|cleared to)\s+(?:return|resume|go back|restart|drive|shower|bathe|swim|lift)\b|"
        rf"\bat\s+{_N}\s*(?:weeks?|wks?)\b|"
        # a restriction with its length answers "when can he drive": "No driving for 1 week", "avoid baths until healed"
        rf"\b(?:no|avoid\w*|do not|don't|not to)\s+(?:[\w-]+,?\s+){{0,4}}?(?:for\s+(?:at least\s+|another\s+|"
        rf"the next\s+)?{_N}\s*{_UNIT}\b|until\b)|{WHEN_FORMS}"),
    "med_change": (
        r"\b(?:start(?:ed|ing)?|initiat\w+|begun|began|new(?:ly)?|add(?:ed)?|stop(?:ped)?|discontinu\w+|d/c|"
        r"held|hold|resum\w+|restart\w*|continu\w+|switch\w*|chang\w+|transition\w*|replac\w+|increas\w+|"
        r"decreas\w+|reduc\w+|titrat\w+|instead|no longer|taper\w*|converted|prescribed|placed on|put on|"
        r"changed to|dose)\b|\b\d+(?:\.\d+)?\s*(?:mg|mcg|units?|g|ml)\b(?!/)|"
        # shorthand changes: "CTX -> PO cipro", "d/c'd", "dc'd", "uptitrate", "weaned off", "renally dosed", "on hold"
        r"->|→|=>|\bd/?c'?(?:e?d)?\b|\b(?:up-?)?titrat\w*|\bwean\w*|\badjust\w*|\bdos(?:ed|ing)\b|\bon hold\b|"
        r"\bdischarge (?:medications?|meds)\b|\bincr\b|\bdecr\b|\bswap\w*|\bcontinu\w*|\bcont\b|" + MED_FORMS),
    "test_result": (
        r"\b(?:show(?:ed|s)?|reveal\w*|demonstrat\w*|found|negative|positive|normal|abnormal|unremarkable|"
        r"no evidence|without evidence|within normal|elevated|low|high|improv\w+|resolved|stable|grew|"
        r"no growth|consistent with|notable for|significant for|confirm\w*|ruled out|was|were|returned|"
        r"came back|result\w*|level|count|ef)\b|\b[A-Za-z]{1,10}\s*[-:]?\s*\d+(?:\.\d+)?\*?|\d+\s*%|"
        # a finding ruled out in a result line's shorthand: "CT head: no bleed, no fracture"
        # a result line: a test's label, a colon, what it found ("CXR: streaky densities, no consolidation")
        r"^\W*[A-Za-z][\w ./&()-]{0,30}:\s*\w|"
        r"\bno (?:acute |signs? of )?(?:bleed\w*|h(?:a|e)?morrhage|fractures?|mass(?:es)?|clots?|dvt|infection|"
        r"pneumonia|obstruction|blockages?|tumou?rs?|stones?|abnormalit\w+|change)\b|" + RESULT_FORMS),
    "why": (
        r"\b(?:because|due to|secondary to|attributed|caused|cause|likely|in the setting of|"
        r"as a result|since|so that|in order to|to (?:prevent|reduce|treat|lower|protect|help|control|cover|"
        r"avoid|allow|confirm|rule out|check|evaluate|assess|improve)|for (?:treatment|prophylaxis|"
        r"concern|possible|presumed|suspected)|reason|which (?:is|was|can|could|may)|risk|thought|"
        r"concern(?:ing)? for|consistent with|related to|contribut\w+|provoked|indicat\w+|"
        r"recommended|decided|elected|can cause|may cause|raise|increase|"
        # reasons in shorthand and in plain words: "as thromboprophylaxis", "empiric", "pending culture", "would not
        # tolerate", "considered less likely", "may slow weight regain", "not needed"
        r"\w*prophyla\w*|ppx|empiric\w*|suspect\w*|presum\w*|considered|tolerat\w*|not needed|"
        r"(?:may|can|could|would) (?:slow|worsen|delay|make|help|lower|reduce|harm|injure|damage|affect)|"
        r"evidence-based|benefit|so (?:she|he|they|that|the|it)|therefore|hence)\b|"
        # words that give a cause in one sense only (`CAUSE_SENSES`): "given her age" (not "heparin given"), "comes
        # from the mucus" (not "from tomorrow"), "pending the MRI" (not "level: pending"), "was felt to be"
        rf"{CAUSE_SENSES}|"
        # "now your stomach has settled"; a medication instruction and its reason after a dash ("CHANGE omeprazole
        # 40mg daily to 20mg daily - lower dose is enough now"), not its schedule ("- now once daily")
        r"\bnow (?:that|your|you|his|her|the|it'?s)\b|\bas (?:it|this|that|they|she|he|there|the|his|her) "
        r"(?:is|was|were|are|has|had)\b|^\W*(?:\d+[.)]\s*)?(?:stop|start|change|reduce|increase|hold|"
        rf"continue|switch|lower|raise|decrease)\b[^.;]*?\s[-–—]\s+(?!{SCHEDULE_COMMENT})\w|" + WHY_FORMS),
    "may_i": (
        r"\b(?:do not|don't|avoid|no\s+(?:lifting|driving|heavy|baths?|swimming|strenuous|alcohol|nsaids?)|"
        r"may|can|should|must|ok to|okay to|allowed|advised|counsel\w*|instruct\w*|recommend\w*|"
        r"return|come back|call|seek|go to|emergency|ed|er|911|until|resume|restrict\w*|limit\w*|"
        r"refrain|encouraged|please|if you|unless|safe|permitted|cleared|not\s+to|"
        # instructions and warnings in other words: "return precautions", "signs of", "keep pt safe", "only for"
        r"precautions?|signs? of|warning signs|compatible with|contraindicat\w*|wbat|nwb|weight[ -]bearing|"
        r"only (?:for|if|when)|as needed|prn|instructed|educated|told to)\b|"
        # an activity ruled out or a care rule: "no showers, baths or swimming", "keep the dressing dry"
        r"\bno\s+(?:showers?|showering|bath(?:s|ing)?|sex|intercourse|(?:contact\s+)?sports?|running|jogging|flying|"
        r"work|school|exercise|gym|caffeine|coffee|tampons?|hot tubs?|saunas?|soaking|golf|cycling)\b|"
        r"\bkeep (?:the |your |his |her |it )?[\w -]{0,30}?\b(?:dry|clean|covered)\b|" + MAY_FORMS),
}.items()}
# a course already over: "completed", "finished", "was given for the first 14 days and has now STOPPED"
DONE = re.compile(r"\b(?:completed|finished|(?:has|have)\s+(?:now\s+)?(?:stopped|discontinued)|"
                  r"(?:was|were) given for)\b", re.I)
# "how long till the stone comes out", "how long before the tablet starts working": the time an outcome takes
# (a stone passing, a drug working, a symptom settling), not how long a course runs; a permission ("how long
# before I can drive") is asked in other words
_OUTCOME_Q = re.compile(r"\bhow (?:long|soon)\b(?:\s+\w+){0,2}?\s+(?:till|til|until|before|will it take|does it take|"
                        r"for (?:the|it|this|that|my|his|her)\b)", re.I)
_PERMIT_Q = re.compile(r"\b(?:can|could|allowed|able|ok to|okay to|safe to|cleared|go back|get back|"
                       r"back (?:to|at|on|up))\b", re.I)
# a sentence telling how long an outcome takes: "may take 2-4 weeks", "response expected within 1-2 wks", "pass on
# their own within 1 to 4 weeks", "resolve within 3-6 months", "until the methotrexate takes effect"
OUTCOME = re.compile(rf"\btak(?:es?|ing) (?:\w+ )?effect\b|\b(?:may|can|could|will|should|usually|often|typically|to) "
                      rf"take\b|\btakes? (?:about |around |up to |at least )?{COUNT_ASCII}\s*{_UNIT}\b|"
                      r"\bexpect\w*|\busually\b|"
                      r"\btypically\b|\bresolv\w*|\bimprov\w*|\bon (?:its|their) own\b|\bfull (?:effect|benefit)\b|"
                      r"\bkicks? in\b|\bstarts? (?:to )?work\w*|\bsettl\w+|\bheal\w*|\bget(?:s|ting)? better\b|"
                      r"\bgo(?:es)? away\b|\bwear\w* off\b|\brecover\w*|\bfad(?:e|es|ing)\b|\bresponse\b|\bbenefit\b",
                      re.I)


def outcome_question(question: str) -> bool:
    """A how-long question asking how long an outcome takes ("how long till the stone comes out"), not how long
    to go on with something or before a permission ("how long before I can drive")."""
    return bool(_OUTCOME_Q.search(question)) and not _PERMIT_Q.search(question)


GOES_ON = re.compile(r"\b(?:then|continue\w*|until|more|another|additional|remaining|through|thru)\b", re.I)

# The rank's cues, each a word list (case-insensitive, whole words), by what it tells:
RANK_CUES: dict[str, re.Pattern[str]] = {name: re.compile(rf"\b(?:{words})\b", re.I) for name, words in (
    # a question about what is current: a sentence telling only of a drug stopped answers it less
    ("current_q", r"now|currently|current|new|on now|switched to|moved to|instead|which|what"),
    ("stopped", r"stop(?:ped)?|discontinu\w+|d/c|held|no longer"),
    ("started", r"start\w*|initiat\w+|continu\w+|switch\w*|transition\w*|changed to|new|resum\w+|restart\w*"),
    # a medication question asking what was stopped, or what was started: sentences telling that change gain
    ("asks_stop", r"stop\w*|off|quit|discontinu\w*|anymore|not allowed|no longer|cut out|take away"),
    # what a question asking for the new medicine is answered by: a drug begun, not one continued
    ("begun", r"start\w*|initiat\w+|commenc\w+|switch\w*|transition\w*|changed to|new(?:ly)?|add(?:ed)?|prescrib\w*|"
              r"begun|began|placed on|put on"),
    ("continued", r"continu\w*|unchanged|same dose|carry on|keep taking|as before|remain\w* on"),
    # "why didn't they just fix my rhythm": answered by the sentence telling it was not done, deferred or weighed
    ("asks_not", r"why (?:didn'?t|don'?t|doesn'?t|can'?t|couldn'?t|won'?t|wouldn'?t|not|isn'?t|aren'?t|wasn'?t|"
                 r"weren'?t|did(?:n'?t)? they not|cant|dont|doesnt|didnt|wont|wouldnt|couldnt|isnt|arent)"),
    ("not_done", r"deferred|defer|no need|(?:does|do|did) not need|"
                 r"not (?:chosen|performed|done|recommended|needed|indicated|pursued|offered|"
                 r"a candidate|given|started|safe|possible|appropriate)|elected not|decided against|"
                 r"declined|held off|postpon\w+|considered but|rather than|instead of|"
                 r"contraindicat\w*|too (?:high|risky|early|soon)"),
    ("asks_start", r"start\w*|new|put (?:me|him|her|them|us) on|go(?:ing)? on|instead|switch\w*|added|"
                   r"gave|give|given|prescrib\w*|sent (?:me|him|her) home on"),
    # a result question about how things ended ("was her sodium ok by the time she left", "did my white count
    # come down"): sentences telling the later value gain, and a later lab line beats the admission one
    ("asks_later", r"by the time|when (?:she|he|i|they|we) (?:left|went home)|at discharge|back to normal|"
                   r"come down|came down|go down|went down|get better|got better|improv\w*|normali[sz]\w*|"
                   r"now|anymore|still|in the end"),
    ("later", r"improv\w+|resolv\w+|normali[sz]\w+|on discharge|at discharge|day of discharge|down to|"
              r"decreas\w+|trended down|back to|at baseline|recover\w*"),
    # a result question is answered by what was found, not by a plan to test again ("Repeat BMP in 1 week",
    # "Return to clinic in 3 months", "We will call you if the culture shows ...")
    ("plan", r"repeat|recheck|re-check|will (?:have|be|need|call|check|repeat|see|follow)|"
             r"follow[\s-]*up (?:with|in|appointment)|return to|schedul\w+|"
             r"in \d+\s*(?:-\s*\d+\s*)?(?:days?|weeks?|wks?|months?)"),
)}
# what a result question asks of the value: its verdict ("was it too high", "is my a1c in range", "is that bad")
ASKS_VERDICT = re.compile(r"\b(?:high|low|normal|ok|okay|alright|all right|fine|good|bad|in range|elevated|abnormal|"
                          r"too|worse|better|dangerous|serious|enough|worry)\b", re.I)
# a question's words for tests in general ("the blood test", "my bloods", "labs"): beside an analyte or a test
# named ("my potassium on the blood test") they say where it was measured, not what is asked about
GENERIC_TESTS = ("blood test", "blood tests", "bloods", "blood work", "bloodwork", "labs", "lab", "lab results",
                 "test", "tests", "results", "blood")
