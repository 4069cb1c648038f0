"""A test's result recognised as given in the forms notes write it (a verdict word, a finding ruled out, a value's
flag or reference range, a report's verdict field), and a result still awaited recognised as not given.

The sentences are written for these tests (fictional).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from archehr.answerability.asked_fact import fact_unsaid
from archehr.answerability.asked_thing import concept_rows
from archehr.answerability.review import fact_given
from archehr.answerability.test_words import PENDING, RESULT_GIVEN
from archehr.glossary import load_lexicon


@pytest.mark.parametrize("sentence", [
    "The chest film showed some air trapping without any patch of pneumonia.",
    "Scan of the head: no bleed, no fracture.",
    "Nothing worrying was seen on the camera test.",
    "Her bloods came back fine.",
    "Thyroid tests within normal limits.",
    "Bone scan unremarkable.",
    "Sodium 129 L (133-146)",
    "Platelets    96    150-400 x10^9/L   L",
    "Neutrophils 12.1 x10^9/L (H)",
    "Impression: small left-sided effusion.",
    "Knee MRI: no ligament injury or cartilage loss.",
    "Findings: torn lateral meniscus.",
    "Swab grew group A streptococcus.",
    "Scan shows the kidney stone has passed.",
    "Free T4 | 14.2 | pmol/L | 9.0 - 19.0",  # a table row: the value, its unit, its range, no flag
    "Ferritin | 9 | L | 15-300",
])
def test_a_result_in_words_a_flag_a_range_or_a_verdict_field_is_given(sentence: str) -> None:
    assert RESULT_GIVEN.search(sentence)


@pytest.mark.parametrize("sentence", [
    "Chest film: not done (no cough, no fever).",  # a test not done: its words rule out symptoms, not findings
    "We will phone you only if the swab shows an infection.",  # a result as a condition
    "Start vitamin D if the bone scan shows thinning.",
    "Plan: no driving for two weeks.",  # an instruction after a label, no finding ruled out
    "Results: to follow.",
    "Take one tablet every 8 h.",  # a dose's spacing: "h" after a number is hours, not a high flag
    "Ultrasound of the liver booked for next month.",
    "Clinic | 14 | May | Room 3",  # a table row with a number and no range or flag
])
def test_no_result_in_a_test_not_done_a_condition_a_plan_or_an_empty_field(sentence: str) -> None:
    assert not RESULT_GIVEN.search(sentence)


@pytest.mark.parametrize(("sentence", "pending"), [
    ("Urine sample sent to the lab.", True),
    ("Swabs were sent; results to follow.", True),
    ("Biopsy result not yet back.", True),
    ("Coeliac and thyroid bloods were sent and are both normal.", False),  # sent, and came back
    ("His kidney function is not yet back to baseline.", False),  # a verdict, not a result awaited
])
def test_a_result_awaited_is_told_from_one_that_came_back(sentence: str, pending: bool) -> None:
    assert bool(PENDING.search(sentence)) is pending


def test_a_first_line_giving_the_result_is_thefact_given() -> None:
    # the review rule of `archehr answer`: a result question whose first line names the topic and gives a result
    types = SimpleNamespace(kind="test_result")
    assert fact_given(types, ("Potassium 6.1 H (3.5-5.3)", 0.6))
    assert fact_given(types, ("CT chest: no clot in the lungs.", 0.6))
    assert not fact_given(types, ("CT chest booked for Friday.", 0.6))
    assert not fact_given(types, ("Potassium 6.1 H (3.5-5.3)", 0.1))  # names too little of the topic


def test_a_test_named_with_its_verdict_is_no_result_unsaid_and_an_awaited_one_is() -> None:
    lexicon = load_lexicon()
    question = "did the knee mri show anything torn"
    given = ["Knee MRI done on Monday.", "Knee MRI: no ligament injury; torn medial meniscus."]
    awaited = ["Knee MRI done on Monday.", "Knee MRI report awaited."]
    for sentences, unsaid in ((given, False), (awaited, True)):
        named = concept_rows(question, sentences, lexicon)
        assert fact_unsaid("test_result", question, sentences, ["1", "2"], named) is unsaid
