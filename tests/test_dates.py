"""The shared date, clock-time and weekday fragments match each form they name, whole, and not its look-alikes
(invented strings)."""

import re

import pytest

from archehr.answerability.dates import (
    AM_PM,
    CLOCK,
    DATE,
    DAY_MONTH,
    DOTTED_DATE,
    HOUR_MINUTE,
    ISO_DATE,
    MONTH_DAY,
    MONTH_NAME,
    MONTH_STEM,
    MONTH_YEAR,
    MONTHS,
    NAMED_DATE,
    NUMBER_WORD,
    NUMERIC_DATE,
    ORDINAL,
    SLASH_DATE,
    TIME_OF_DAY,
    TOMORROW,
    WEEKDAY,
    WEEKDAY_SHORT,
)


def whole(fragment: str, text: str) -> bool:
    """The fragment matches all of `text`, read as the rules read it (case ignored)."""
    return re.fullmatch(fragment, text, re.I) is not None


@pytest.mark.parametrize("text", ["18/03", "18/03/2026", "3/12/26", "3/12"])
def test_slash_date(text: str) -> None:
    assert whole(SLASH_DATE, text)


def test_slash_date_needs_day_and_month() -> None:
    assert not whole(SLASH_DATE, "18")
    assert not whole(SLASH_DATE, "118/03")


def test_day_month_is_also_the_uk_months_shorthand() -> None:
    # "review in 3/12" (three months) reads as a day and month: a time either way
    assert re.search(rf"\b{DAY_MONTH}\b", "review in 3/12 with bloods", re.I).group(0) == "3/12"
    assert not whole(DAY_MONTH, "18/03/2026")


def test_dotted_date_only_with_its_year() -> None:
    assert whole(DOTTED_DATE, "18.03.2026")
    assert whole(DOTTED_DATE, "1.3.26")
    assert not whole(DOTTED_DATE, "18.03")
    assert re.search(rf"\b{DOTTED_DATE}\b", "tamsulosin 0.4 mg at night", re.I) is None


def test_iso_date() -> None:
    assert whole(ISO_DATE, "2026-03-18")
    assert whole(ISO_DATE, "2026-3-8")
    assert not whole(ISO_DATE, "26-03-18")


@pytest.mark.parametrize("text", ["12/08/2026", "2026.03.18", "18-03-26", "1/2/03"])
def test_numeric_date_any_separator(text: str) -> None:
    assert whole(NUMERIC_DATE, text)


def test_numeric_date_needs_three_parts() -> None:
    assert not whole(NUMERIC_DATE, "26/30")


@pytest.mark.parametrize("text", ["March", "mar", "MARCH", "Sept", "september", "june", "jun", "may"])
def test_month_names(text: str) -> None:
    assert whole(rf"(?:{MONTHS})", text)


def test_month_stem_is_the_first_three_letters() -> None:
    assert whole(rf"{MONTH_STEM}[a-z]*", "November")
    assert not whole(MONTH_STEM, "Mon")


@pytest.mark.parametrize("text", ["1st March", "22nd jan", "3rd Feb", "18th Dec", "18 Dec"])
def test_ordinal_day_before_a_month(text: str) -> None:
    assert whole(rf"\d{{1,2}}{ORDINAL}\s+(?:{MONTHS})", text)


def test_month_first_with_its_ordinal() -> None:
    assert whole(rf"(?:{MONTHS})\s+\d{{1,2}}{ORDINAL}", "March 18th")


@pytest.mark.parametrize("text", ["Monday", "tuesday", "WEDNESDAY", "Thursday", "friday", "Saturday", "sunday"])
def test_weekday_full(text: str) -> None:
    assert whole(WEEKDAY, text)


def test_weekday_full_not_short() -> None:
    assert not whole(WEEKDAY, "Mon")
    assert whole(WEEKDAY_SHORT, "Mon")
    assert whole(WEEKDAY_SHORT, "thu")
    assert not whole(WEEKDAY_SHORT, "thur")


def test_clock_time() -> None:
    assert whole(HOUR_MINUTE, "09:15")
    assert whole(HOUR_MINUTE, "9:15")
    assert not whole(HOUR_MINUTE, "9.15")
    assert whole(rf"\d{{1,2}}\s*{AM_PM}", "3pm")
    assert whole(rf"{HOUR_MINUTE}\s*{AM_PM}", "10:15 AM")


def test_tomorrow() -> None:
    assert re.search(rf"\b{TOMORROW}\b", "Bloods tomorrow morning", re.I)
    assert not whole(TOMORROW, "today")


@pytest.mark.parametrize("text", ["18/03", "18/03/2026", "18.03.2026", "2026-03-18", "18 March", "18th March 2026",
                                  "March 18", "Mar. 18th, 2026", "3 sept"])
def test_date_any_form(text: str) -> None:
    assert whole(DATE, text)


@pytest.mark.parametrize("text", ["18.03", "0.4", "March", "18"])
def test_date_not_a_look_alike(text: str) -> None:
    assert not whole(DATE, text)


@pytest.mark.parametrize("text", ["09:15", "9.15", "10:15 am", "10.15am", "3pm", "3 PM"])
def test_clock_any_form(text: str) -> None:
    assert whole(CLOCK, text)


def test_clock_needs_minutes_or_am_pm() -> None:
    assert not whole(CLOCK, "3")
    assert not whole(CLOCK, "915")


def test_month_name_is_a_whole_word() -> None:
    assert re.search(MONTH_NAME, "seen in Sept. with", re.I)
    assert not re.search(MONTH_NAME, "markers fell", re.I)
    assert not re.search(MONTH_NAME, "sepsis bundle", re.I)


@pytest.mark.parametrize("text", ["Jan 8", "Tue Mar 11, 2025", "Thu Feb 20", "Friday May 6", "March 18th"])
def test_month_day(text: str) -> None:
    assert whole(MONTH_DAY, text)


@pytest.mark.parametrize("text", ["October 2026", "March of 2026", "Sept 2025", "dec, 2024"])
def test_month_year(text: str) -> None:
    assert whole(MONTH_YEAR, text)


def test_month_year_needs_a_year() -> None:
    assert not whole(MONTH_YEAR, "March 18")
    assert not whole(MONTH_YEAR, "March 2")


@pytest.mark.parametrize("text", ["booked for 9 June 2026, 10:15", "Tue Mar 11, 2025 10:20 AM", "STOP on Jan 8",
                                  "test on 8 september 2025", "mammogram in October 2026", "first session 9 November",
                                  "Mon 3 May"])
def test_named_date_in_a_sentence(text: str) -> None:
    assert re.search(NAMED_DATE, text, re.I)


@pytest.mark.parametrize("text", ["14 markers were raised", "Sepsis 6 given", "Option 1 may help", "2 may be needed",
                                  "decreased 2 points", "Marked 3 cm swelling"])
def test_named_date_not_a_look_alike(text: str) -> None:
    assert not re.search(NAMED_DATE, text, re.I)


@pytest.mark.parametrize(("text", "time"), [("collect him at about 11am", "11am"), ("between 09:00 and", "09:00"),
                                            ("arrive 9:15 AM sharp", "9:15 AM"), ("at 8.30 am on", "8.30 am"),
                                            ("by 3 p.m. today", "3 p.m.")])
def test_time_of_day(text: str, time: str) -> None:
    assert re.search(TIME_OF_DAY, text, re.I).group(0) == time


@pytest.mark.parametrize("text", ["creatinine 1.25 today", "tamsulosin 0.4 mg", "dilute 1:1000", "room 12"])
def test_time_of_day_not_a_decimal(text: str) -> None:
    assert not re.search(TIME_OF_DAY, text, re.I)


@pytest.mark.parametrize("text", ["eleven", "fourteen", "twenty", "twenty-eight", "thirty one", "a dozen"])
def test_number_words_past_ten(text: str) -> None:
    assert whole(NUMBER_WORD, text)


def test_number_words_not_other_words() -> None:
    assert not whole(NUMBER_WORD, "twentieth")
    assert not re.search(rf"\b{NUMBER_WORD}\b", "the plenty of fluids", re.I)
