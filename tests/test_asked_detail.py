"""A detail asked that the note leaves out: a day on the calendar (only an interval given), a dose (the medicine named
without one), a result still awaited in a question read as another kind (`asked_detail`).

The notes are written for these tests (fictional), a few lines each.
"""

from __future__ import annotations

import numpy as np
import pytest

from archehr.answerability.asked_detail import date_undated, dose_unsaid, medicine_rows, result_pending
from archehr.answerability.asked_thing import concept_rows
from archehr.answerability.review import unsaid_in_note
from archehr.data.note_split import split_note
from archehr.glossary import load_lexicon


def _named(question: str, sentences: list[str]) -> np.ndarray:
    return concept_rows(question, sentences, load_lexicon())


def _paras(sentences: list[str]) -> list[str]:
    return ["p"] * len(sentences)


CLINIC = ["Date of clinic: 14/03/2025", "I saw Mr Stone in the kidney clinic today.",
          "I will see him again in the kidney clinic in 4 months."]


@pytest.mark.parametrize(("question", "sentences", "undated"), [
    # an interval, and the record's own date field: no day for the next visit
    ("what date is my next appointment at the kidney clinic", CLINIC, True),
    # a weekday asked of a weekly tablet given only as "once a week"
    ("which day of the week should i take the bone tablet", ["Start the bone tablet once a week."], True),
    # a blank and an interval: "on ___" gives no day; the letter's "(we will call with a date)" neither
    ("what day is the heart scan", ["Heart scan in 3 months (we will call with a date)."], True),
    # a date given in the sentence about it, or in the next one: not flagged
    ("what date is my next appointment at the kidney clinic",
     CLINIC[:2] + ["I will see him again in the kidney clinic on 12/07/2025."], False),
    ("which day of the week should i take the bone tablet", ["Start the bone tablet once a week.",
                                                             "Take it on Sunday mornings."], False),
    # near miss: "which day" ending its clause is a story, not an ask; and a plain "when" asks no day
    ("she forgets which day. is she still meant to take the bone tablet", ["Start the bone tablet once a week."],
     False),
    ("when is my next appointment at the kidney clinic", CLINIC, False),
])
def test_a_day_asked_and_only_an_interval_given(question: str, sentences: list[str], undated: bool) -> None:
    assert date_undated("when", question, sentences, _paras(sentences), _named(question, sentences)) is undated


def test_a_day_asked_of_a_thing_the_note_never_names_is_left_to_the_decline_rules() -> None:
    s = ["Knee pain for 2 weeks."]
    q = "what date is the colonoscopy"
    assert not date_undated("when", q, s, _paras(s), _named(q, s))


GOUT = ["We will not start allopurinol today, because it can make the flare worse.",
        "amlodipine 5 mg tablet: take 1 tablet daily.", "Review in clinic to start allopurinol."]


@pytest.mark.parametrize(("question", "sentences", "unsaid"), [
    # the medicine named twice, never with an amount; the next sentence's dose is another medicine's
    ("what dose of allopurinol will he be starting on", GOUT, True),
    ("what dose of allopurinol will he be starting on",
     GOUT[:2] + ["Review in clinic to start allopurinol 100 mg daily."], False),
    # the dose in the next sentence, which names no other medicine: given
    ("what dose of warfarin do i take from friday", ["Omit warfarin tonight.", "From Friday take 5 mg daily."],
     False),
    # no dose asked: not this rule's question
    ("when will he start allopurinol", GOUT, False),
])
def test_a_dose_asked_and_the_medicine_named_without_one(question: str, sentences: list[str], unsaid: bool) -> None:
    lex = load_lexicon()
    assert dose_unsaid(question, sentences, _paras(sentences), _named(question, sentences), lex) is unsaid


def test_the_medicine_rows_are_the_sentences_naming_the_asked_medicine() -> None:
    q = "what dose of allopurinol will he be starting on"
    assert medicine_rows(q, GOUT, _named(q, GOUT), load_lexicon()).tolist() == [True, False, True]


# metformin named twice, B12 once: the B12 line names the rarer, so most, of the question's topic
LABS = ["Potassium | 4.3 | 3.5-5.2 | mmol/L", "Vitamin B12 | PENDING | 232-1245 | pg/mL",
        "Metformin since 2019.", "Continue metformin 1000 mg twice daily."]


@pytest.mark.parametrize(("kind", "sentences", "pending"), [
    ("med_change", LABS, True),
    # the value is back: not pending
    ("med_change", [LABS[0], "Vitamin B12 | 180 | 232-1245 | pg/mL (low)", *LABS[2:]], False),
    # a result or when question has its own rules (`asked_fact.fact_unsaid`, `awaited_results.result_awaited`)
    ("test_result", LABS, False),
    ("when", LABS, False),
])
def test_a_result_awaited_in_a_question_read_as_another_kind(kind: str, sentences: list[str], pending: bool) -> None:
    q = "what was my B12? I've been on metformin for ages"
    assert result_pending(kind, q, sentences, _named(q, sentences)) is pending


def test_a_result_given_before_its_final_report_is_no_result_pending() -> None:
    q = "what did the swab show? I've been on the flucloxacillin"
    # (flucloxacillin named twice, the swab once: the swab line names the most of the topic)
    rest = ["On flucloxacillin since Monday.", "Continue flucloxacillin 500 mg."]
    sentences = ["Wound swab: no growth at 48 hours, final report to follow.", *rest]
    assert not result_pending("med_change", q, sentences, _named(q, sentences))
    sentences = ["Wound swab: result pending.", *rest]
    assert result_pending("med_change", q, sentences, _named(q, sentences))


def test_no_result_asked_no_pending_rule() -> None:
    q = "should I keep taking the metformin, is the B12 thing a worry"
    assert not result_pending("med_change", q, LABS, _named(q, LABS))


def test_ask_reads_the_detail_rules() -> None:
    split = split_note("I will see him again in the kidney clinic in 4 months.\n")
    assert unsaid_in_note("when", "what date is my next kidney clinic appointment", split)
    split = split_note("I will see him again in the kidney clinic on Tuesday 12/07/2025.\n")
    assert not unsaid_in_note("when", "what date is my next kidney clinic appointment", split)
