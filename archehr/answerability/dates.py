"""Dates, clock times and weekdays as notes and patients write them: regular-expression fragments the answerability
rules build their patterns from, so that "a date" means the same forms wherever it is read.

Each name is a fragment (a string, not a compiled pattern, with no word boundaries of its own), to be put inside a
larger pattern and compiled with `re.I`, as every rule that reads them does. The forms:

- `SLASH_DATE`: a day and month, with or without its year, "18/03", "18/03/2026", "3/12/26"; in UK notes "3/12" is
  also shorthand for three months ("review in 3/12"): either way a time, which is how the when rules read it;
- `DOTTED_DATE`: "18.03.2026", only with its year ("0.4 mg" and "12.5" are no dates);
- `ISO_DATE`: "2026-03-18";
- `NUMERIC_DATE`: any day, month and year joined by "/", "." or "-" ("12/08/2026", "2026.03.18", "18-03-26");
- `MONTH_STEM` (a month's first three letters: "Mar" in "March", "Mar.", "MARCH"), `MONTHS` (a month's name
  whole or in its usual short forms, an alternation to group: "march", "mar", "sept");
- `ORDINAL`: the suffix a day may carry, "1st", "22nd", "3rd", "18th" (optional);
- `WEEKDAY`: a weekday's full name, "Monday", "wednesday"; `WEEKDAY_SHORT`: its three letters, "Mon", "tue";
- `HOUR_MINUTE`: "09:15", "9:15"; `AM_PM`: "am", "pm" (as in "3pm", "10:15 am");
- `TOMORROW`: the day after the note's, "tomorrow";
- `DEID_DATE`: the opening of a de-identified date, "[**2190-3-1**]" (as far as its year and dash: what follows varies);
- `CALENDAR_DAY`: a day or a month number that can stand in a date, 1 to 31 ("14/10", "3/7"), where a blood pressure
  ("92/60") must not read as a date: narrower than `DAY_MONTH`'s any one or two digits on purpose;
- `WORD_DATE`: a day and a month's name, with a weekday before it or a year after it ("Monday 14 April 2025");
- `MONTH_NAME`: a month's name as a whole word, "March", "Mar.", "sept" (no "14 markers", "sepsis 6");
  `MONTH_DAY`: a month's name and its day, the weekday before it when given, "Jan 8", "Tue Mar 11, 2025", "Thu Feb 20";
  `MONTH_YEAR`: a month's name and its year, "October 2026", "March of 2026"; `NAMED_DATE`: a day or a month told
  with a month's name in any of these forms or `WORD_DATE`'s ("9 June 2026", "Jan 8", "October 2026");
- `TIME_OF_DAY`: a clock time that cannot be a decimal, "09:15", "9:15 AM", "8.30 am", "11am", "3 p.m." (`CLOCK`'s
  "9.15" also reads a value's "1.25");
- `NUMBER_WORD`: a count in words past ten, "eleven", "fourteen", "twenty-eight", "thirty", "a dozen" (one to ten
  and twelve are `counts.NUMBER`'s);
- `DATE`: a date in any of these forms ("18/03", "18.03.2026", "2026-03-18", "18th March 2026", "March 18, 2026");
  `CLOCK`: a clock time, "09:15", "9.15", "10:15 am", "3pm".

The rules that read them: `when_first` (a log stamp, a time to come), `when_answers` (a booked slot, a date of
something done, the note's own date), `result_first` and `asked_thing.DATE_TIME` (with `WORD_DATE`: a date or a
clock time read out before looking for a value), `date_unset` (a firm date), `asked_time` (a when answer), `kinds`
(a booked slot, the strong form of a when answer), `holds` and `review.WHEN_GIVEN` (a date or an interval given),
`course_link` (an end, "until Monday"), `firm_answers` (a "since" of time, a log row's time),
`asked_detail.CALENDAR` (a day asked for), `test_words.PLANNED` (a booked test's time), `med_decisions` (a log
entry's stamp). The note splitter's own stamp patterns (`archehr.data.note_stamps`) stay apart: the data layer
imports nothing of the answerability rules; so do the relevance features' (`archehr.relevance.everyday`: the
answerability rules import the relevance package, and its features are the shipped model's, not to move with these).
"""

from __future__ import annotations

SLASH_DATE = r"\d{1,2}/\d{1,2}(?:/\d{2,4})?"
DAY_MONTH = r"\d{1,2}/\d{1,2}"  # "18/03", "3/12": a day and month, or the UK shorthand for a count of months
DOTTED_DATE = r"\d{1,2}\.\d{1,2}\.\d{2,4}"
ISO_DATE = r"\d{4}-\d{1,2}-\d{1,2}"
NUMERIC_DATE = r"\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}"
MONTH_STEM = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
MONTHS = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|" \
         r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
ORDINAL = r"(?:st|nd|rd|th)?"
WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
WEEKDAY_SHORT = r"(?:mon|tue|wed|thu|fri|sat|sun)"
HOUR_MINUTE = r"\d{1,2}:\d{2}"
AM_PM = r"(?:am|pm)"
TOMORROW = r"tomorrow"
DEID_DATE = r"\[\*\*\d{4}-"
CALENDAR_DAY = r"(?:0?[1-9]|[12]\d|3[01])"

# a month named in a date, by its first three letters and any more, with or without a full stop ("Mar", "March",
# "Sept.")
MONTH_WORD = rf"{MONTH_STEM}[a-z]*\.?"
# a date in any of the forms above: "18/03", "18/03/2026", "18.03.2026", "2026-03-18", "18 March", "18th March 2026",
# "March 18", "Mar 18th, 2026"
DATE = (rf"(?:{SLASH_DATE}|{DOTTED_DATE}|{ISO_DATE}|"
        rf"\d{{1,2}}{ORDINAL}\s+{MONTH_WORD}(?:\s+\d{{4}})?|{MONTH_WORD}\s+\d{{1,2}}{ORDINAL}(?:,?\s+\d{{4}})?)")
# a day and a month's name, the weekday before it and the year after it when given ("14 April", "Monday 14 April",
# "Monday 16 September 2024", "3rd Mar"): whole month words only, so that a value's unit is no month ("14 markers")
WORD_DATE = rf"(?:{WEEKDAY},?\s+)?\d{{1,2}}{ORDINAL}\s+(?:{MONTHS})\b\.?(?:,?\s+\d{{4}})?"
# a clock time: "09:15", "9.15", "10:15 am", "3pm"
CLOCK = rf"(?:\d{{1,2}}[:.]\d{{2}}(?:\s*{AM_PM})?|\d{{1,2}}\s*{AM_PM})"
# a month's name as a whole word ("March", "Mar.", "sept"), so that a word beginning with a month's letters is no month
# ("14 markers", "sepsis 6", "decreased 2")
MONTH_NAME = rf"\b(?:{MONTHS})\b\.?"
# a month's name and its day, the weekday before it when given ("Jan 8", "Tue Mar 11, 2025", "Thu Feb 20", "March 18th")
MONTH_DAY = (rf"(?:\b(?:{WEEKDAY}|{WEEKDAY_SHORT})\b\.?,?\s+)?{MONTH_NAME}\s+{CALENDAR_DAY}{ORDINAL}\b"
             rf"(?:,?\s+\d{{4}}\b)?")
# a month's name and its year, a date told to the month ("October 2026", "March of 2026", "Sept 2025")
MONTH_YEAR = rf"{MONTH_NAME},?\s+(?:of\s+)?(?:19|20)\d{{2}}\b"
# a day or a month told with a month's name: "9 June 2026", "Monday 14 April", "Jan 8", "Tue Mar 11, 2025",
# "October 2026"; a number before the verb "may" is no date ("step 1 may help", "2 may be needed")
_MODAL_MAY = r"\d{1,2}\s+may\s+(?:be|not|have|need|help|also|take|cause|require|still|well)\b"
NAMED_DATE = rf"(?:\b(?!{_MODAL_MAY}){WORD_DATE}|{MONTH_DAY}|{MONTH_YEAR})"
# a clock time that cannot be a decimal ("09:15", "9:15 AM", "8.30 am", "11am", "3 p.m."): `CLOCK` also reads "9.15",
# which in a result line is a value ("creatinine 1.25")
_AM_PM_DOTTED = r"(?:[ap]\.?m\b\.?)"
TIME_OF_DAY = (rf"(?:\b{HOUR_MINUTE}\b(?:\s*{_AM_PM_DOTTED})?|"
               rf"\b\d{{1,2}}(?:[:.]\d{{2}})?\s*{_AM_PM_DOTTED})")
# a count in words past ten ("eleven", "fourteen", "twenty-eight", "thirty", "a dozen"); one to ten and twelve are
# `counts.NUMBER`'s
NUMBER_WORD = (r"(?:eleven|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|a dozen|"
               r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[\s-](?:one|two|three|four|five|six|"
               r"seven|eight|nine))?)")
