"""A question about what goes on from now: the first line tells the plan, not the story of the stay (invented notes)."""

import numpy as np

from archehr.answerability.kind_first import kind_first
from archehr.answerability.story_first import asks_stay, story_first, tells_plan, tells_story

TEXTS = ["She was treated with IV flucloxacillin and paracetamol on the ward.",  # the story of the stay
         "3. Flucloxacillin 500 mg by mouth four times daily for 5 more days, then stop.",  # the plan
         "Temperature 36.9, pulse 80."]
QUESTION = "is she still on the antibiotic now she is home"
RANK = np.array([1.0, 0.9, 0.4])
TOPIC = np.array([0.6, 0.5, 0.0])


def test_story_and_plan_lines() -> None:
    assert tells_story(TEXTS[0])
    assert not tells_story(TEXTS[1])
    assert not tells_story(TEXTS[2])  # a finding with no verb of the story
    assert tells_plan(TEXTS[1])
    assert tells_plan("Aspirin 75 mg once daily")  # a list entry with its dose
    assert tells_plan("START apixaban 5 mg")
    assert not tells_plan(TEXTS[0])
    assert not tells_story("Ibuprofen was stopped permanently because of the bleed.")  # a decision told as done


def test_plan_goes_first() -> None:
    assert story_first("med_change", QUESTION, [0, 1, 2], RANK, TEXTS, TOPIC) == 1
    assert story_first("how_long", "how many more days of the antibiotic", [0, 1, 2], RANK, TEXTS, TOPIC) == 1
    assert kind_first("med_change", QUESTION, [0, 1, 2], RANK, TEXTS, TOPIC) == 1


def test_question_about_the_stay_keeps_the_order() -> None:
    question = "what did they give her for the infection in hospital"
    assert asks_stay(question)
    assert asks_stay("how long have I been on the flucloxacillin")
    assert not asks_stay(QUESTION)
    assert story_first("med_change", question, [0, 1, 2], RANK, TEXTS, TOPIC) is None


def test_other_kinds_and_low_or_off_topic_plans_keep_the_order() -> None:
    assert story_first("why", QUESTION, [0, 1, 2], RANK, TEXTS, TOPIC) is None
    assert story_first("test_result", QUESTION, [0, 1, 2], RANK, TEXTS, TOPIC) is None
    assert story_first("med_change", QUESTION, [0, 1, 2], np.array([1.0, 0.4, 0.3]), TEXTS, TOPIC) is None  # < 0.5
    assert story_first("med_change", QUESTION, [0, 1, 2], RANK, TEXTS, np.array([0.6, 0.0, 0.0])) is None


def test_first_line_with_a_plan_keeps_its_place() -> None:
    texts = ["She was treated with flucloxacillin and will finish the course at home.", TEXTS[1], TEXTS[2]]
    assert story_first("med_change", QUESTION, [0, 1, 2], RANK, texts, TOPIC) is None
