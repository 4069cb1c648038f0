"""The first line `archehr answer`'s rank gives a medication, result or why question
(`archehr.answerability.kinds`, `firm_answers`, `roles`, `cues`): a keep-or-stop question is answered by the line
deciding the asked drug, a result question by the value row, a why question by a leading purpose.

Each note here is a few lines written for these tests (fictional).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import Line

from archehr.answerability.firm_answers import cause_strength
from archehr.answerability.holds import HOLDS
from archehr.answerability.kinds import answer_types, ask_kind
from archehr.answerability.roles import sentence_roles
from archehr.data.note_split import note_case


def _first(note: str, question: str) -> str:
    case, _ = note_case(note, question, splitter="rules")
    return case.sentences[int(np.argmax(answer_types(case).ranking))].text


def test_keep_or_stop_is_answered_by_the_stop_line_not_the_start_of_the_other_drug() -> None:
    note = ("Plan:\nSTART apixaban 5 mg by mouth twice a day.\n"
            "STOP enoxaparin injections after this morning's dose.\n")
    assert _first(note, "once i start the tablets do i still do the blood thinner shots or not").startswith("STOP")


def test_keep_taking_is_answered_by_the_continue_line_not_the_usual_medicines_list() -> None:
    note = ("Usual medicines: donepezil 10 mg at night, ramipril 2.5 mg daily.\n"
            "Plan:\n1. Withhold ramipril until kidney function is back to baseline.\n"
            "2. Continue donepezil 10 mg at night.\n")
    assert "Continue donepezil" in _first(note, "is she still getting her donepezil tablet while she is in hospital")


def test_the_drug_beside_the_asked_one_is_background() -> None:
    note = ("1. Stop lymecycline now.\n2. Start isotretinoin 20 mg once daily with food.\n")
    assert "lymecycline" in _first(note, "do i keep taking the lymecycline as well as the isotretinoin")
    note = ("He has started prednisolone 30 mg once daily for 5 days.\n"
            "He should carry on with his metformin as normal.\n")
    assert "metformin" in _first(note, "does he keep taking his metformin while he is on the prednisolone")


def test_a_result_question_puts_the_value_row_first() -> None:
    note = ("Bloods today:\nCreatinine 1.4 mg/dL   eGFR 48\n"
            "The lower dose is not needed, as his creatinine is below 1.5.\n")
    assert _first(note, "what were his creatinine numbers on the blood test").startswith("Creatinine 1.4")


def test_a_result_question_puts_a_plan_every_few_months_below_the_result() -> None:
    note = ("His PSA today is 0.08 ng/mL, compared with 0.11 ng/mL in June, so it remains undetectable.\n"
            "Plan:\n2. PSA and testosterone every 6 months, next due in June.\n")
    assert _first(note, "is dads psa ok").startswith("His PSA today")


@pytest.mark.parametrize(("text", "strength"), [
    ("For the hot flushes I have started megestrol acetate 20 mg twice daily.", 1.0),
    ("For 4 weeks he took it.", 0.0),  # a length of time, no purpose, no cause
])
def test_a_leading_purpose_says_a_cause(text: str, strength: float) -> None:
    assert float(cause_strength([text], HOLDS["why"])[0]) == strength


@pytest.mark.parametrize(("text", "role"), [
    ("Reviewed by: Sister H. Brennan, Chemotherapy Nurse Specialist", "title"),
    ("Usual medicines: donepezil 10 mg at night, ramipril 2.5 mg daily.", "history"),
    ("Care home staff report she has been pulling at her clothes.", "history"),
    ("Redness spreading beyond the wound edge, so a wound swab was taken.", "request"),
    ("Swab grew Staphylococcus aureus.", "clinician"),
    ("Report: CT showed a clot in the left leg.", "clinician"),  # a report's label is no one's story
])
def test_roles(text: str, role: str) -> None:
    assert sentence_roles([Line(text)]) == (role,)


@pytest.mark.parametrize(("question", "kind"), [
    ("have they put the morphine up in his pump", "med_change"),
    ("did they turn her insulin down", "med_change"),
    ("did they put the heating up", "other"),
])
def test_a_dose_put_up_is_a_medication_change(question: str, kind: str) -> None:
    assert ask_kind(question) == kind
