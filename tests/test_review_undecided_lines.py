"""First lines that name the asked thing but leave the asked fact undecided: a how-long line giving only a dose's
frequency or daily limit (`course_link.rates_out`), a result line leaving the result to come
(`test_words.result_later`), a medication-change line passing the decision on in a request or a referral
(`med_decisions.requested_only`). The lines are written for these tests (fictional); "zoxamab" is an invented
medicine."""

from types import SimpleNamespace

import numpy as np
import pytest

from archehr.answerability.course_link import rates_out
from archehr.answerability.med_decisions import requested_only, undecided
from archehr.answerability.review import fact_missing
from archehr.answerability.test_words import result_later


def _types(kind: str) -> SimpleNamespace:
    return SimpleNamespace(kind=kind, best_typed=0.5, best_firm=0.5, missing_drugs=0, missing_activities=0,
                           topic=np.array([0.5]))


@pytest.mark.parametrize("line", [
    "Zoxamab syrup 5 ml every 4 hours when needed, no more than 6 doses in 24 hours.",
    "Zoxamab spray 2 puffs every 2 to 4 hours as needed for the sore mouth.",
    "Zoxamab 200 mg 8-hourly when required, maximum 3 doses a day.",
])
def test_a_dose_rate_or_daily_limit_is_no_course_length(line: str) -> None:
    assert fact_missing(_types("how_long"), (line, 0.5), "how many days can he keep having the zoxamab")


@pytest.mark.parametrize("line", [
    "Zoxamab 10 mg every 6 hours for 5 days, then stop.",
    "Zoxamab 10 mg every 6 hours as needed until the pain settles.",
    "Zoxamab patch: change every 3 days for 2 weeks.",
    "Week 2: zoxamab 5 mg every 6 hours as needed.",  # a schedule's step: its weeks give the course
    "Zoxamab injection every 14 days.",  # days apart, not a dose's hours: left to the other rules
])
def test_a_course_beside_a_rate_is_still_a_length(line: str) -> None:
    assert not fact_missing(_types("how_long"), (line, 0.5), "how many days can he keep having the zoxamab")


def test_rates_out_leaves_the_rest_of_the_line() -> None:
    assert rates_out("Zoxamab every 6 hours, max 4 doses in 24 hours, for 3 days.").endswith("for 3 days.")
    assert "24 hours" not in rates_out("Up to 8 tablets in any 24 hours.")


@pytest.mark.parametrize("line", [
    "Histology: definitive diagnosis to follow in an addendum.",
    "Review in clinic in 4 months, earlier if the biopsy shows anything worrying.",
    "Outpatient visit on 14 March at 09:30 to go over the MRI results.",
    "Further treatment depending on the histology results.",
])
def test_a_result_left_to_come_flags_a_result_question(line: str) -> None:
    assert result_later(line)
    for kind in ("test_result", "other"):
        assert fact_missing(_types(kind), (line, 0.5), "was the lump on his arm cancer or not")


@pytest.mark.parametrize("line", [
    "Biopsy shows a benign fibroma; to discuss the results at the next visit.",
    "Histology: benign naevus, no atypia.",
    "The scan was clear, and we will only call you if the blood results show anything else.",
])
def test_a_result_given_beside_a_later_step_answers(line: str) -> None:
    assert not result_later(line)


def test_a_result_left_to_come_does_not_flag_a_when_question() -> None:
    line = "Clinic on 14/03 at 09:30 to go over the MRI results."
    assert not fact_missing(_types("when"), (line, 0.5), "when is my next clinic visit")


@pytest.mark.parametrize("line", [
    "Repeat prescription for the inhalers requested from the GP.",
    "Refer to dermatology for assessment of the rash.",
    "Referred to the pain team; letter sent.",
])
def test_a_request_or_referral_decides_nothing(line: str) -> None:
    assert requested_only(line)
    assert undecided([line], ["clinician"], 0)


@pytest.mark.parametrize("line", [
    "Stop zoxamab; referral sent to the eye clinic.",
    "Start zoxamab 5 mg daily and refer to physiotherapy.",
    "Zoxamab continued; bloods requested in 2 weeks.",
    "Reference range 3.5-5.0.",  # no request: "reference" is not "refer"
])
def test_a_decision_beside_a_request_still_decides(line: str) -> None:
    assert not requested_only(line)
