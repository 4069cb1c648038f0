"""Counts, ranges of counts and units of time as notes and patients write them: regular-expression fragments the
answerability rules build their patterns from ("3", "two", "2-4 weeks", "five to seven days", "x5d"), kept here so
that each form is written once.

Each name is a fragment (a string, not a compiled pattern, with no word boundaries of its own), to be put inside a
larger pattern and compiled with `re.I`, as every rule that reads them does (`dates` holds the dates and clock times,
and `dates.NUMBER_WORD` the counts in words past ten). The forms:

- `NUMBER`: a count in figures or words, "3", "2.5", "two", "twelve", "several", "a few", "a couple of";
- `TO` and `TO_ASCII`: what joins a range's two ends, "-", "to" and, in `TO` only, the en dash "–";
- `RANGE`: two counts so joined, "2-4", "5 to 7", "3–5"; `RANGE_ASCII` without the en dash;
- `COUNT`: a count or a range, "3", "2-4", "two to three", "3–5"; `COUNT_ASCII` without the en dash;
- the units of time, each rule's own on purpose (what each was measured with):
  `UNIT` (days to minutes, doses, "d" and "h": `holds`, `kinds`, `course_link`),
  `COURSE_UNIT` (a course's length: cycles and sessions too, no bare "h": `asked_time`),
  `GIVEN_UNIT` (a date or a duration an answer line gives: no "d", "h", "yrs", doses, minutes: `review`),
  `LENGTH_UNIT` (a length of time: nights and fortnights too, no doses nor "d", "h": `holds`),
  `SPACING_UNIT` (a dose's spacing or a wait, hours and minutes, an alternation to group: `holds`, `asked_time`,
  `course_link`), `SPAN_UNIT` (an interval before a step, minutes to months: `when_answers`),
  `AHEAD_UNIT` (an interval ahead, days to months: `when_first`).

The rules reading `TO_ASCII` (`kinds`, `review`, `when_answers`, `when_first` and some of `holds`') were measured
without the en dash; reading "3–5" there too is a change to measure, not a tidying. `date_unset.FIRM` and the
relevance features (`archehr.relevance.everyday`, whose counts differ: the shipped model's features must not move)
keep their own.
"""

from __future__ import annotations

# a count, in figures or words ("3", "2.5", "two", "a couple of"), before a unit of time
NUMBER = r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|several|a few|a couple of)"
# what joins a range's two ends: "2-4", "5 to 7", "3–5"; `TO_ASCII` leaves out the en dash (see above)
TO = r"\s*(?:-|to|–)\s*"
TO_ASCII = r"\s*(?:-|to)\s*"
# a range of counts ("2-4", "5 to 7", "two to three")
RANGE = rf"{NUMBER}{TO}{NUMBER}"
RANGE_ASCII = rf"{NUMBER}{TO_ASCII}{NUMBER}"
# a count or a range of counts ("3", "2-4", "two to three")
COUNT = rf"{NUMBER}(?:{TO}{NUMBER})?"
COUNT_ASCII = rf"{NUMBER}(?:{TO_ASCII}{NUMBER})?"

# a unit of time, or of doses ("days", "d", "wks", "mos", "doses", "h", "mins")
UNIT = r"(?:days?|d|weeks?|wks?|wk|months?|mos?|years?|yrs?|doses?|hours?|hrs?|h|minutes?|mins?)"
# units of a course's length or a time: not `UNIT`, as a course is also counted in cycles and sessions ("6 cycles"),
# and a bare "h" is left out (with `UNIT`, 53 sentences of the writers' notes would give a course's length and 198 a
# time differently: "x24 h", "stable 24h")
# nights too: a stay or a course counted in nights ("for 3 nights")
COURSE_UNIT = (r"(?:days?|nights?|d|weeks?|wks?|wk|months?|mos?|years?|yrs?|hours?|hrs?|minutes?|mins?|doses?|cycles?|"
               r"sessions?)")
# units of a date or a duration an answer line gives: narrower than `UNIT` (no "d", "h", "yrs", "doses", "minutes"):
# with `UNIT`, 110 sentences of the writers' notes would give a date and 466 a duration differently (hours and
# minutes of dosing and waiting: "stable 24h", "15 minutes before the first dose")
GIVEN_UNIT = r"(?:days?|nights?|weeks?|wks?|wk|months?|mos?|years?|hours?|hrs?)"
# a length of time's unit, doses aside ("nights", "a fortnight" too)
LENGTH_UNIT = r"(?:hours?|hrs?|days?|nights?|weeks?|wks?|fortnights?|months?|mos|years?|yrs?|minutes?|mins?)"
# a dose's spacing or a wait's unit ("2 hours apart", "30 minutes before food"): an alternation, to group
SPACING_UNIT = r"hours?|hrs?|minutes?|mins?"
# an interval that tells when a step falls ("after 30 minutes", "in 2 weeks")
SPAN_UNIT = r"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?)"
# an interval ahead ("in 2 weeks", "within 10 days")
AHEAD_UNIT = r"(?:days?|weeks?|wks?|months?)"
