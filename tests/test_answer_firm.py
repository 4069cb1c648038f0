"""How firmly a sentence gives a why answer or a result (`archehr.answerability.firm_answers`), and the first line
`archehr answer`'s rank gives a why or a result question with it.

Each note here is a few lines written for these tests (fictional); the strengths are the module's constants (1 for a
firm answer, `W_SOFT` for a softer reason, `W_WEAK` for a weak cue, 0 for none).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from archehr.answerability.firm_answers import (
    W_ORDER,
    W_SOFT,
    W_WEAK,
    cause_strength,
    order_share,
    result_strength,
)
from archehr.answerability.holds import HOLDS
from archehr.answerability.kinds import answer_types
from archehr.answerability.roles import sentence_roles
from archehr.data.note_split import note_case
from archehr.glossary import load_lexicon


def _cause(text: str) -> float:
    return float(cause_strength([text], HOLDS["why"])[0])


@pytest.mark.parametrize(("text", "strength"), [
    # a cause said outright
    ("The ulcer was attributed to NSAID injury.", 1.0),
    ("Mateo received nirsevimab (Beyfortus) on 06/16/2026 to protect against RSV.", 1.0),
    ("START apixaban 5 mg twice daily -- for stroke prevention with atrial fibrillation.", 1.0),
    ("Racemic epinephrine 0.5 mL nebulized for stridor at rest.", 1.0),
    ("Indication: Recurrent tonsillitis, seven episodes in the past 12 months.", 1.0),
    ("Started tiotropium once daily given frequent exacerbations.", 1.0),
    # a softer reason: a clause after "as", what is usual, what a drug can do
    ("Dihydrocodeine was stopped before discharge as pain was well controlled.", W_SOFT),
    ("Swelling of the scrotum is common in the first week.", W_SOFT),
    ("Gabapentin can cause drowsiness.", W_SOFT),
    # a "since" of time, a visit's reason label, "given" of a dose: no cause
    ("His sugars have been normal since 05/04.", 0.0),
    ("His wife says he is back to himself since the hospital stay.", 0.0),
    ("Reason for visit: Two falls in the past month and dizziness on standing.", 0.0),
    ("His 2-month vaccines were given on 06/03/2026.", 0.0),
    ("Keep using CPAP every night, for the whole night if possible.", 0.0),
])
def test_how_firmly_a_sentence_says_a_cause(text: str, strength: float) -> None:
    assert _cause(text) == pytest.approx(strength)


@pytest.mark.parametrize(("text", "strength"), [
    ("Uric acid ........ 8.9 mg/dL   H   (3.5-7.2)", 1.0),
    ("Na 134 on day of discharge, mental status at baseline.", 1.0),
    ("Hemoglobin (10/03) | 10.1 g/dL | 11.5 - 15.5", 1.0),
    ("LDL cholesterol: 171 (goal under 100)", 1.0),
    ("Respiratory viral panel: Rhinovirus DETECTED", 1.0),
    ("Repeat BCx 03/08: NGTD x 72h.", 1.0),
    ("The perineum has healed well with no tenderness.", 1.0),
    # a test named, a length of time, a range of weeks: the weak form only
    ("EXAM: MRI LEFT KNEE WITHOUT CONTRAST", W_WEAK),
    ("No driving for 1 to 2 weeks after the operation.", W_WEAK),
    ("Heart rates settled in the 70s to 80s by the second day.", W_WEAK),
    # a test not done gives no result, whatever else the line says
    ("Chest x-ray: not obtained (no focal findings, no fever)", W_WEAK),
])
def test_how_firmly_a_sentence_gives_a_result(text: str, strength: float) -> None:
    assert float(result_strength([text], np.array([True]))[0]) == pytest.approx(strength)


def test_a_sentence_not_holding_a_result_gives_none() -> None:
    assert float(result_strength(["Thank you for seeing her."], np.array([False]))[0]) == 0.0


@pytest.mark.parametrize(("text", "share"), [
    ("START atorvastatin 80 mg nightly -- to lower cholesterol.", W_ORDER),
    ("Enoxaparin 40 mg injection under the skin once daily for 28 days.", W_ORDER),
    ("Amara can restart the mometasone 0.1% ointment once daily.", W_ORDER),
    ("- If temperature 38.0 or above, come straight to the Emergency Department.", W_ORDER),
    ("LDL 142.", 1.0),
    ("Potassium 6.1 mmol/L HIGH", 1.0),
])
def test_an_order_or_a_dose_line_keeps_a_share_for_a_result_question(text: str, share: float) -> None:
    assert float(order_share([text])[0]) == pytest.approx(share)


def _first(note: str, question: str) -> str:
    case, _ = note_case(note, question, splitter="rules")
    return case.sentences[int(np.argmax(answer_types(case).ranking))].text


def test_why_stopped_is_answered_by_the_sentence_giving_the_reason_not_a_neighbours_purpose() -> None:
    note = ("Medications on discharge: Enoxaparin 40 mg once daily for 6 weeks to reduce the risk of blood clots. "
            "Dihydrocodeine was stopped before discharge as pain was well controlled.\n")
    assert _first(note, "why did they stop her dihydrocodeine").startswith("Dihydrocodeine")


def test_a_since_of_time_beside_the_topic_gives_no_cause() -> None:
    note = ("His wife says he is back to himself since the hospital stay. "
            "Hepatic encephalopathy: continue lactulose 30 mL three times daily, goal 2-3 soft stools a day.\n")
    assert "lactulose" in _first(note, "why does he have to take the lactulose so often")


def test_was_it_high_is_answered_by_the_value_not_the_medicine_for_it() -> None:
    note = "Labs:\nLDL 142.\nPlan:\nSTART atorvastatin 80 mg nightly -- to lower cholesterol (goal LDL under 70).\n"
    assert _first(note, "was her cholesterol high") == "LDL 142."


def test_a_result_line_comes_before_a_plan_to_repeat_the_test() -> None:
    note = ("Results:\nUric acid ........ 8.9 mg/dL   H   (3.5-7.2)\n\n"
            "Get a repeat uric acid blood test in 4 to 6 weeks, after the flare is over.\n")
    assert _first(note, "was his uric acid high").startswith("Uric acid")


def test_a_line_of_identity_fields_and_a_pharmacists_name_are_titles() -> None:
    case, _ = note_case("MRN: 80-441-2297 Date of Birth: 07/21/1998\nPharmacist: Dorothea Nwachukwu, PharmD\n"
                        "Department: SURGERY When: Monday 9am\n", "was my blood count ok", splitter="rules")
    assert sentence_roles(case.sentences) == ("title", "title", "clinician")


@pytest.mark.parametrize(("term", "expansion"), [
    ("torn", "tear"), ("scarred", "fibrosis"), ("nose swab", "viral panel"),
])
def test_a_finding_and_a_swab_in_patients_words_are_in_the_lexicon(term: str, expansion: str) -> None:
    e = load_lexicon().get(term)
    assert e is not None and expansion in e.expansions


def test_a_result_comes_before_the_next_test_planned_years_ahead() -> None:
    note = ("Pathology:\nPolyp: tubular adenoma, benign.\n\n"
            "Because a polyp was removed and your mother had colon cancer, your next colonoscopy should be in "
            "5 years.\n")
    assert _first(note, "was the polyp they removed cancer?").startswith("Polyp:")


@pytest.mark.parametrize(("text", "strength"), [
    # a dose line's indication after a comma is a cause said outright
    ("5. Ferrous sulfate 325 mg by mouth once daily for 3 months, for anemia.", 1.0),
    # a length after the comma is no cause
    ("Ferrous sulfate 325 mg once daily, for 3 months.", 0.0),
    ("Ferrous sulfate 325 mg once daily, for the next three months.", 0.0),
    # a dose with a decimal point between the step and its condition ends no sentence: the condition is a cause
    ("Start amlodipine 2.5 mg daily for blood pressure.", 1.0),
    ("Increase warfarin to 7.5 mg for the clot in his leg.", 1.0),
    # ... while a length after it is still none, and a full stop still ends the step's reach
    ("Start amlodipine 2.5 mg daily for 2 weeks.", 0.0),
    ("Started amlodipine 2.5 mg. For now keep going.", 0.0),
])
def test_a_dose_lines_indication(text: str, strength: float) -> None:
    assert cause_strength([text], re.compile(r"(?!)")).tolist() == [strength]


@pytest.mark.parametrize(("text", "strength"), [
    # a finding a step answers is a weak why answer; a plain statement is none
    ("Foot exam: monofilament sensation reduced at both great toes.", W_WEAK),
    ("Carotid doppler: 60-69% stenosis of the left internal carotid artery.", W_WEAK),
    ("Together these suggest you need a little more fludrocortisone.", W_WEAK),
    ("The foot exam was done today.", 0.0),
])
def test_a_finding_is_a_weak_why_answer(text: str, strength: float) -> None:
    assert cause_strength([text], re.compile(r"(?!)")).tolist() == [strength]
