"""Result and medication answers told in common clinical forms (invented lines): a lower-case analyte with its
value, a table row set apart by slashes, a result given beside another test awaited, a medicine held now with its
restart still open, advice to give a medicine only when needed."""

from __future__ import annotations

import pytest

from archehr.answerability.awaited_results import awaited
from archehr.answerability.med_decisions import DECISION, state_decided
from archehr.answerability.result_first import gives_result
from archehr.answerability.test_words import RESULT_GIVEN, awaited_other
from archehr.answerability.undetermined import asked_undetermined


@pytest.mark.parametrize(("text", "given"), [
    ("Home bloods drawn by the district nurse - sodium 141, potassium 4.4, urea 6.0.", True),
    ("Haemoglobin 98 today, up from 91.", True),
    ("Take potassium 2 tablets daily.", False),  # a dose, no value
    ("Check sodium again in 2 weeks.", False),  # a plan, no value
])
def test_a_lower_case_analyte_with_its_value(text: str, given: bool) -> None:
    assert gives_result(text) is given


@pytest.mark.parametrize(("text", "given"), [
    ("Calcium / 2.71 / H / mmol/L / 2.20-2.60", True),  # a flag cell after the value
    ("Albumin / 31 / g/L / 35-50 / L", True),  # a range cell after the unit
    ("Vitamin D / - / Sent to laboratory - result to follow", False),
])
def test_a_slash_table_row(text: str, given: bool) -> None:
    assert bool(RESULT_GIVEN.search(text)) is given
    assert gives_result(text) is given


def test_another_test_awaited_beside_the_asked_result() -> None:
    line = "Clinic bloods show a sodium of 131 (low) and calcium normal; the vitamin B12 level is still awaited."
    assert awaited_other(line, "was my sodium ok at the clinic")
    assert not awaited(line, "was my sodium ok at the clinic")
    assert awaited(line, "is my b12 back yet")  # the awaited clause names the asked test
    assert awaited(line, "were my bloods ok")  # no test named: the pending word still counts
    assert awaited("Sodium result awaited.", "was my sodium ok")


@pytest.mark.parametrize(("text", "held"), [
    ("HOLD bisoprolol - pulse 48; when to restart to be decided at clinic", True),
    ("Amlodipine remains on hold until review by the renal team.", True),
    ("Whether to stop the statin is to be decided at clinic.", False),  # the choice itself open
    ("Statin: to be decided at clinic.", False),
])
def test_a_medicine_held_now_with_its_restart_open(text: str, held: bool) -> None:
    assert state_decided(text, asked_undetermined("med_change", text)) is held


def test_advice_to_give_a_medicine_when_needed_decides() -> None:
    assert DECISION.search("She has had ibuprofen regularly, and I advised that it is now given only when needed.")
    assert not DECISION.search("She has been having ibuprofen regularly for her knee.")


def test_a_test_left_to_book_is_planned() -> None:
    from archehr.answerability.test_words import PLANNED

    assert PLANNED.search("Fasting lipids in 3 months once the diet has settled; patient to book at the front desk.")
    assert not PLANNED.search("Fasting lipids were normal.")


def test_a_pending_clause_naming_no_test_awaits_the_one_before() -> None:
    line = "I have checked a ferritin level today as low iron can cause cramps; the results are not yet available."
    assert not awaited_other(line, "is he low in iron")
    assert awaited(line, "is he low in iron")


def test_a_result_beside_a_plan_to_test_again() -> None:
    from archehr.answerability.test_words import result_beside_plan

    assert result_beside_plan("Sodium mildly low at 131: no change for now, repeat sodium in 1 week.")
    assert not result_beside_plan("Repeat sodium in 1 week, as it can read falsely low after a drip; pt to book.")


@pytest.mark.parametrize(("question", "kind"), [
    ("is my levemir going up or staying the same", "med_change"),
    ("is my potassium going up", "test_result"),  # a blood test's name, though a medicine too
    ("is my INR going up on the warfarin", "test_result"),
])
def test_a_medicine_dose_moving_is_a_medication_question(question: str, kind: str) -> None:
    from archehr.answerability.asked_for import ask_kind

    assert ask_kind(question) == kind


def test_a_medicine_name_asked_but_not_said() -> None:
    from archehr.answerability.med_decisions import name_unsaid

    question = "They started my son on a medicine for the seizures, what is the name of the medicine?"
    assert name_unsaid(question, "He has been started on a preventive medicine by the neurology team.")
    assert not name_unsaid(question, "Start levetiracetam 250 mg twice daily.")
    assert not name_unsaid("should he keep taking it", "He has been started on a preventive medicine.")
