"""A labelled reason field read as a field (`archehr.data.reason_fields`) and put first for a why question whose
asked thing it gives the reason for (`archehr.answerability.why_fields`).

Each note line here is written for these tests (fictional).
"""

from __future__ import annotations

import numpy as np
import pytest

from archehr.answerability.why_causes import has_cause
from archehr.answerability.why_fields import field_first, tied, why_clause
from archehr.data.reason_fields import reason_field
from archehr.relevance.text import tokens


@pytest.mark.parametrize(("line", "subject", "value"), [
    ("Reason for referral: Wheeze on exertion since the spring.", "referral", "Wheeze on exertion since the spring."),
    ("RFR: ?coeliac disease", "referral", "?coeliac disease"),
    ("Reason for admission: Fall at home, unable to stand.", "admission", "Fall at home, unable to stand."),
    ("Presenting complaint: Left loin pain", "visit", "Left loin pain"),
    ("Reason for gastrostomy: Unsafe swallow after a stroke.", "", "Unsafe swallow after a stroke."),
    ("Reason for procedure explained again: a polyp seen on the scan.", "", "a polyp seen on the scan."),
    ("Clinical indication: Raised ALP, ?gallstones", "", "Raised ALP, ?gallstones"),
    ("- Indications: Painful hip, failed physiotherapy", "", "Painful hip, failed physiotherapy"),
])
def test_a_reason_label_opening_its_line_is_a_field_with_its_subject(line: str, subject: str, value: str) -> None:
    field = reason_field(line)
    assert field is not None and (field.subject, field.value) == (subject, value)


@pytest.mark.parametrize("line", [
    "Review: 14/02/2027",  # a date is no reason
    "The reason for the scan was explained to her.",  # the label must open the line
    "Reason:",  # no value
    "cc: Dr Ana Lowe",  # a letter's copy list
    "Procedure: Flexible cystoscopy",
])
def test_a_line_that_is_no_reason_field(line: str) -> None:
    assert reason_field(line) is None


def test_the_why_clause_leaves_out_a_not_told_beside_it() -> None:
    question = "sorry but why did I need the scope? I dont even have pain"
    assert why_clause(question) == "sorry but why did I need the scope"
    assert why_clause("I dont get it") == "I dont get it"


TEXTS = ["Procedure: Flexible cystoscopy", "Consultant: Dr Ana Lowe", "Indication: Blood seen in the urine once.",
         "Findings: Normal bladder lining.", "Reason for referral: Blood seen in the urine once.",
         "Sedation: none.", "Observations stable.", "Advised to drink plenty of fluids."]


def _topic(**at: float) -> np.ndarray:
    """A topic score for each line of `TEXTS`: the given lines (l0 ... l7), 0 elsewhere."""
    return np.array([at.get(f"l{i}", 0.0) for i in range(len(TEXTS))])


def test_a_field_of_no_fixed_subject_is_tied_by_a_line_near_it_naming_the_asked_thing() -> None:
    field = reason_field(TEXTS[2])
    assert field is not None
    # "the camera in my bladder" names line 0, two lines above the indication
    assert tied(field, 2, set(), _topic(l0=0.8, l7=0.2))
    # the only mention five lines below: too far
    assert not tied(field, 2, set(), _topic(l7=0.8))
    # a mention below 0.75 of the note's best score names no asked thing
    assert not tied(field, 2, set(), _topic(l0=0.5, l7=0.8))


def test_a_field_with_its_own_subject_is_tied_by_the_question_naming_it_not_by_its_neighbours() -> None:
    field = reason_field(TEXTS[4])
    assert field is not None
    topic = _topic(l3=0.8)  # line 3 names the asked thing, one line above
    assert not tied(field, 4, set(tokens("why did i have the camera test")), topic)
    assert tied(field, 4, set(tokens("why was I referred to the clinic")), topic)


def test_the_tied_field_goes_first_for_a_why_question() -> None:
    topic = _topic(l0=0.8, l7=0.2)
    order = [0, 7, 3, 2, 4]  # the hand ranking: the procedure line, the advice, ..., the indication 4th
    assert field_first("why did I need the camera in my bladder", order, TEXTS, topic) == 2
    # a why-not question asks the reason for something else: the order stays
    assert field_first("why didn't they give me antibiotics", order, TEXTS, topic) is None
    # a field already first stays
    assert field_first("why did I need the camera in my bladder", [2, 0, 7], TEXTS, topic) is None
    # no field tied to the asked thing: none put first (the advice line, far from both fields, is the only mention)
    assert field_first("why drink fluids", [7, 0, 3, 2, 4], TEXTS, _topic(l7=0.8)) is None


def test_a_first_line_saying_a_cause_gives_way_only_to_a_field_of_a_fixed_subject() -> None:
    texts = ["Reason for referral: Blood seen in the urine once.", "Procedure: Flexible cystoscopy",
             "Indication: Blood seen in the urine once.", "Cystoscopy done because of the blood in the urine."]
    topic = np.array([0.0, 0.8, 0.0, 0.8])
    # the first line says why ("because"): the indication near the procedure line stays below it
    assert field_first("why did I need the camera test", [3, 1, 2, 0], texts, topic) is None
    # the question names the referral: its field goes first all the same
    assert field_first("why was I referred for the camera test", [3, 1, 2, 0], texts, topic) == 0


def test_a_visit_s_complaint_is_never_put_first() -> None:
    texts = ["Presenting complaint: Cough for three weeks.", "Chest X-ray ordered.", "Advised rest."]
    assert field_first("why did I come in for the X-ray", [1, 2, 0], texts, np.array([0.0, 0.8, 0.0])) is None


@pytest.mark.parametrize(("line", "cause"), [
    ("Reason for gastrostomy: Unsafe swallow after a stroke.", True),
    ("Reason for procedure explained again: a polyp seen on the scan.", True),
    ("Presenting complaint: Cough for three weeks.", False),  # the complaint restated
    ("Procedure: Flexible cystoscopy", False),
])
def test_a_reason_field_for_what_was_done_holds_a_cause(line: str, cause: bool) -> None:
    assert has_cause(line) is cause


def test_a_bare_why_takes_what_went_before_it() -> None:
    assert why_clause("The nurse said to stop the cream. Why? It helped") == "The nurse said to stop the cream. Why"
    assert why_clause("why did I need the camera? it was fine") == "why did I need the camera"


def test_a_change_or_a_cancelling_before_a_bare_why_puts_no_field_first() -> None:
    topic = _topic(l0=0.8, l7=0.2)
    order = [0, 7, 3, 2, 4]
    # the change is told before the bare "why": its reason sits beside the change, not in the indication
    assert field_first("They told me to switch the camera test to a scan. Why?", order, TEXTS, topic) is None
    assert field_first("the camera test next week is cancelled, why??", order, TEXTS, topic) is None
    # a bare why after a plain mention still reads the field
    assert field_first("I had the camera in my bladder. Why?", order, TEXTS, topic) == 2
