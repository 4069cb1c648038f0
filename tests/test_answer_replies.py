"""A question the note reports ("Patient asked if he can go hiking.") and the line that replies to it ("Advised
yes, ..."): the reply answers, the reported question only names the topic (`archehr.answerability.roles`).

The notes and sentences are written for these tests (fictional).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from conftest import Line

import archehr
from archehr.answerability.roles import ROLE_FACTOR, reply_lines, reported_question, sentence_roles, weigh_by_role

PHONE = """Telephone encounter
12/03/2026 10:14 (Sam Lee, RN) Patient called about the rash on his leg.
Rash is fading, no fever.
Patient asked if he can go camping again this weekend.
Advised yes, using an insect repellent and a full tick check every evening.
Continue doxycycline 100 mg twice daily for 10 days in all.
"""


@pytest.mark.parametrize("text", [
    "Patient asked if he can go camping again this weekend.",
    "Mum asked whether she can bath him.",
    "09:20 Wife asked about his tablets.",
    "11:40 Patient emailed asking whether he still needs ramipril on his repeat list.",
    "Asking when she can eat solid food.",
    "Father wanted to know when the stitches come out.",
])
def test_a_reported_question_without_its_reply(text: str) -> None:
    assert reported_question(text)
    assert sentence_roles([Line(text)]) == ("reported",)


@pytest.mark.parametrize("text", [
    "He asked whether he can go back to cycling; I have told him he can.",  # the reply is in the sentence
    "She asked about her dental visit, and I advised her to postpone it for a month.",
    "His partner asked about diet, and a referral to the dietitian has been placed.",
    "GP asked to remove it from repeats.",  # asked to do, not a question
    "Advised yes, he asked whether it matters and it does not.",  # a reply that mentions the asking
    "Can I go camping this weekend?",  # the patient's own question, not a reported one
])
def test_near_misses_are_not_reported_questions(text: str) -> None:
    assert not reported_question(text)


def test_the_reply_is_the_next_line_when_it_opens_with_the_reply() -> None:
    texts = ["Mum asked whether she can bath him.", "Told to wait until the cord falls off.",
             "He asked about driving.", "Blood pressure 128/80.",  # no reply after this one
             "Wife asked about his tablets.", "Advised to stop the dexamethasone.",
             "Dad asked whether he can fly.", "Can he fly next month?"]  # a question is no reply
    assert reply_lines([Line(t) for t in texts]) == ((0, 1), (4, 5))
    assert reply_lines([Line("Mum asked whether she can bath him.")]) == ()  # the last line has no reply


def test_the_reply_takes_the_question_score_and_the_question_loses() -> None:
    sents = [Line("Mum asked whether she can bath him."), Line("Told to wait until the cord falls off."),
             Line("Weight 3.4 kg.")]
    score = np.array([0.8, 0.1, 0.3])
    out = weigh_by_role(score, sents, "may_i")
    factor = ROLE_FACTOR["reported"]["may_i"]
    assert out.tolist() == pytest.approx([0.8 * factor, 0.8, 0.3])
    # a reply scoring more on its own keeps its own score
    assert weigh_by_role(np.array([0.2, 0.9, 0.3]), sents, "may_i").tolist() == pytest.approx([0.2 * factor, 0.9, 0.3])


def test_the_reply_is_cited_first() -> None:
    r = archehr.answer(PHONE, "is it ok i go camping this weekend with my friends?", splitter="rules")
    assert not r.abstained
    by_id = {s.id: s.text for s in r.note.sentences}
    assert by_id[r.lines[0].citations[0]].startswith("Advised yes")


TAPER = ["Prednisolone taper schedule", "Day | Dose", "Days 1-3 | 40 mg once daily", "Days 4-6 | 30 mg once daily",
         "Review in clinic after the taper."]


def test_schedule_rows_under_their_title() -> None:
    from archehr.answerability.roles import schedule_rows

    assert schedule_rows([Line(t) for t in TAPER]) == ((0, 2), (0, 3))
    # a title with a colon and no column header row
    plan = ("Reducing dose plan:", "Week 1: 20 mg", "Week 2: 10 mg")
    assert schedule_rows([Line(t) for t in plan]) == ((0, 1), (0, 2))


@pytest.mark.parametrize("texts", [
    ("Prednisolone taper schedule was explained to him.", "Days 1-3 | 40 mg once daily"),  # a sentence, no title
    ("Prednisolone taper schedule", "Review in clinic in 2 weeks."),  # no row opening with a period
    ("Medications", "Days 1-3 | 40 mg once daily"),  # no schedule named
    ("Prednisolone taper schedule", "Blood pressure 128/80", "Day 1: 40 mg"),  # the rows must follow the title
])
def test_near_misses_are_no_schedule_rows(texts: tuple[str, ...]) -> None:
    from archehr.answerability.roles import schedule_rows

    assert schedule_rows([Line(t) for t in texts]) == ()


def test_a_row_adds_its_title_score() -> None:
    from archehr.answerability.roles import carry_over

    out = carry_over(np.array([0.3, 0.0, 0.1, 0.0, 0.2]), [Line(t) for t in TAPER])
    assert out.tolist() == pytest.approx([0.3, 0.0, 0.4, 0.3, 0.2])


@dataclass(frozen=True)
class _P:
    text: str
    paragraph_id: int


def test_a_how_to_take_line_adds_its_entry_score() -> None:
    from archehr.answerability.roles import carry_over

    entry = "START Lamivir 150 mg tablet"  # an invented drug
    line = "Take 1 tablet by mouth once a day for 28 days"
    out = carry_over(np.array([0.5, 0.2]), [_P(entry, 1), _P(line, 1)])
    assert out.tolist() == pytest.approx([0.5, 0.7])
    # near misses: another paragraph; an entry without a dose; a line that is no how-to-take
    assert carry_over(np.array([0.5, 0.2]), [_P(entry, 1), _P(line, 2)]).tolist() == [0.5, 0.2]
    assert carry_over(np.array([0.5, 0.2]), [_P("START Lamivir", 1), _P(line, 1)]).tolist() == [0.5, 0.2]
    assert carry_over(np.array([0.5, 0.2]), [_P(entry, 1), _P("Review in 4 weeks.", 1)]).tolist() == [0.5, 0.2]
