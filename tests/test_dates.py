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
    MONTH_STEM,
    MONTHS,
    NUMERIC_DATE,
    ORDINAL,
    SLASH_DATE,
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
