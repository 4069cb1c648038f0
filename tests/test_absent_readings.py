"""The note names what is asked about but not the asked fact, in forms read generally: a time of day asked and only a
date given (`asked_detail.time_unsaid`), a booked event named by what is done at it whose date is yet to be set
(`date_unset`), a result awaited to a question of no
kind read (`review.fact_missing`), and the question readings behind them (`asked_for.ask_kind`).

The notes are written for these tests (fictional), a few lines each.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from archehr.answerability.asked_detail import time_unsaid
from archehr.answerability.asked_for import ask_kind
from archehr.answerability.asked_thing import concept_rows
from archehr.answerability.date_unset import date_unset
from archehr.answerability.review import fact_missing
from archehr.glossary import load_lexicon


def _named(question: str, sentences: list[str]) -> np.ndarray:
    return concept_rows(question, sentences, load_lexicon())


def _paras(sentences: list[str]) -> list[str]:
    return ["p"] * len(sentences)


@pytest.mark.parametrize(("question", "sentences", "first", "unsaid"), [
    # a date and a place, no hour: the time asked is not there
    ("what time is the kidney scan on friday", ["Kidney scan booked for Friday 14/03/2025 in radiology."], 0, True),
    ("what time is the kidney scan on friday", ["Kidney scan booked for Friday 14/03/2025, time to follow."], 0, True),
    # a clock time, a part of the day, or the time in the first line: given
    ("what time is the kidney scan on friday", ["Kidney scan booked for Friday 14/03/2025 at 10:30."], 0, False),
    ("what time is the kidney scan on friday", ["Kidney scan on Friday morning in radiology."], 0, False),
    ("what time is the kidney scan on friday", ["Kidney scan booked for Friday.", "Arrive 9am at the desk."], 1,
     False),
    # a log entry's own stamp is when it was written, not the scan's time
    ("what time is the kidney scan on friday", ["12/03/2025 14:15 Kidney scan booked for Friday."], 0, True),
    # no time asked: the rule is silent
    ("when is the kidney scan", ["Kidney scan booked for Friday 14/03/2025 in radiology."], 0, False),
])
def test_a_time_of_day_asked_and_only_a_date_given(question: str, sentences: list[str], first: int,
                                                   unsaid: bool) -> None:
    assert time_unsaid(question, sentences, _paras(sentences), _named(question, sentences), first) is unsaid


@pytest.mark.parametrize(("question", "unset"), [
    # a booked event named by what is done at it: its date is yet to be set
    ("when is his 3 month tube check", True),
    ("when does physio start for his hand", True),
])
def test_a_booked_check_whose_date_is_yet_to_be_set(question: str, unset: bool) -> None:
    sentences = ["Tube check and hand physio at 3 months (to be booked by the nutrition team)."]
    named = _named(question, sentences)
    assert date_unset("when", question, sentences, _paras(sentences), named) is unset


def test_a_booked_check_with_its_date_is_no_unset_date() -> None:
    q = "when is his 3 month tube check"
    sentences = ["Tube check to be booked by the nutrition team.", "Tube check booked for Monday 02/06/2025."]
    assert not date_unset("when", q, sentences, _paras(sentences), _named(q, sentences))


def _types(kind: str) -> SimpleNamespace:
    return SimpleNamespace(kind=kind, best_typed=0.0, best_firm=0.0, missing_drugs=(), missing_activities=(),
                           topic=np.array([0.5]))


@pytest.mark.parametrize(("kind", "best", "missing"), [
    # a question of no kind read ("any news on that swab") whose first line, naming the topic, awaits the result
    ("other", ("Swab taken from the leg, result pending.", 0.5), True),
    # naming little of the topic, or saying a result: not flagged by this rule
    ("other", ("Swab taken from the leg, result pending.", 0.1), False),
    ("other", ("Swab from the leg grew no bacteria.", 0.5), False),
    # a why question is left to its own rules
    ("why", ("Swab taken from the leg, result pending.", 0.5), False),
])
def test_a_result_awaited_in_the_first_line_of_a_question_of_no_kind(kind: str, best: tuple[str, float],
                                                                     missing: bool) -> None:
    assert fact_missing(_types(kind), best, "any news on that swab from his leg") is missing


@pytest.mark.parametrize(("question", "kind"), [
    # a count of time in any unit asks how long
    ("how many years does she have to stay on the bone tablet", "how_long"),
    ("if he has the operation how many nights would he be in hospital", "how_long"),
    ("is the inhaler something i stay on for life or just a few months", "how_long"),
    # a test asked to confirm or rule out a finding asks its result
    ("did the ct scan confirm the narrowing", "test_result"),
    ("has the blood test ruled out an infection", "test_result"),
    # near misses: a person confirming is no test, a plain count is no length of time
    ("did the doctor confirm my appointment", "other"),
])
def test_question_readings(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


@pytest.mark.parametrize(("best", "missing"), [
    # the first line names the therapy and holds no length of time in any form
    (("Hand therapy to start after the stitches are out.", 0.5), True),
    # a length, an end or an "until": given, for the other rules to read
    (("Hand therapy for 6 weeks.", 0.5), False),
    (("Hand therapy until the grip is back.", 0.5), False),
])
def test_a_how_long_first_line_with_no_length_at_all(best: tuple[str, float], missing: bool) -> None:
    types = _types("how_long")
    types.best_typed = 1.0  # a sentence about the topic holds a length: the first line is what is read
    assert fact_missing(types, best, "how long will the hand therapy take") is missing
