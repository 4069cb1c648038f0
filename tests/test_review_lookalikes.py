"""Note lines that only look like the asked fact: a why line whose marker is a condition, a prognosis or the change
itself; a how-long line whose length is a taper's pace, a titration's step or a time before the asked event; a
"till when" answered by a duration; a may-I line allowing another drink than the asked one; an answer still to
come from someone asked.

The questions and note lines are written for these tests (fictional).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from archehr.answerability.length_forms import before_only, course_length
from archehr.answerability.may_answers import asked_thing_taken, other_activity
from archehr.answerability.review import FACT_MIN, cause_given, fact_missing, first_gives_fact
from archehr.answerability.undetermined import asked_undetermined
from archehr.answerability.why_causes import cause_read, has_cause
from archehr.glossary import load_lexicon


@pytest.mark.parametrize("line", [
    "His cough is worse at night, which is expected to settle over a few weeks.",
    "Fine to go to the wedding, as long as he has had the booster first.",
    "CHANGE   Ferrous fumarate tablet - from twice daily to once daily.",
])
def test_what_only_looks_like_a_cause_is_none(line: str) -> None:
    assert not has_cause(line)
    assert not cause_given(line, 1.0)


def test_a_cause_beside_a_look_alike_still_counts() -> None:
    assert has_cause("Fine to travel as long as he rests, because the fracture is stable.")
    assert has_cause("CHANGE Ferrous fumarate - from twice daily to once daily, as it upset her stomach.")
    assert "expected" not in cause_read("The rash is expected to clear in a week.")


@pytest.mark.parametrize("line", [
    "Bisoprolol stopped on day 3 as heart rate low.",
    "Physiotherapy referral for knee stiffness made.",
])
def test_a_state_in_shorthand_and_a_referrals_purpose_are_causes(line: str) -> None:
    assert has_cause(line)


def test_a_tapers_pace_is_no_course_length_unless_it_ends() -> None:
    assert not course_length("Reduce the prednisolone by 5 mg every 2 weeks.")
    assert course_length("Reduce the prednisolone by 5 mg every 2 weeks then stop.")
    assert course_length("Change the sensor every 10 days.")  # a thing's life, not a taper
    assert course_length("Amoxicillin 500 mg three times a day for 5 days.")


def test_a_titrations_steps_answer_a_step_asked_not_the_whole_course() -> None:
    line = "Pregabalin 25 mg at night for 4 nights, then 25 mg twice a day."
    assert not course_length(line, "how long will I be on the pregabalin, is it for life")
    assert course_length(line, "how long do I stay on the small dose before it goes up")
    assert course_length("Hold the ramipril for 3 days, then restart.", "how long is he off the ramipril")


def test_a_length_before_the_event_is_none_after_it() -> None:
    q = "how many days does he have to fast after the scan?"
    assert before_only(q, "No food for 2 days before the scan.")
    assert not before_only(q, "No food for 2 days before and 1 day after the scan.")
    assert not before_only("how many days before the scan does he fast?", "No food for 2 days before the scan.")


def test_a_till_when_question_is_answered_by_a_duration() -> None:
    line = ("Hold the naproxen for 10 days to let the stomach settle.", 0.6)
    assert first_gives_fact("when", line, "till when do I hold the naproxen")
    assert not first_gives_fact("when", line, "when is the next clinic")


def test_a_share_equal_to_the_fact_level_read_as_a_float_sum_is_not_below_it() -> None:
    types = SimpleNamespace(kind="how_long", best_typed=sum([0.1] * 2) - 1e-12, best_firm=0.0, missing_drugs=0,
                            missing_activities=0, topic=np.zeros(1))
    assert types.best_typed < FACT_MIN
    assert not fact_missing(types, ("Use the cream for 2 weeks.", 0.5), "how long do I use the cream")


def test_a_may_i_line_allowing_another_drink_than_the_asked_one() -> None:
    lex = load_lexicon()
    q = "can I drink alcohol while on the new tablets"
    assert asked_thing_taken(q, lex) == "alcohol"
    assert other_activity(q, "You can keep drinking tea, but avoid fizzy drinks.", lex)
    assert not other_activity(q, "Avoid drinking alcohol while on metronidazole.", lex)
    assert not other_activity(q, "Do not drink alcohol with these tablets.", lex)
    assert not other_activity("can he drive to work", "You can keep drinking tea.", lex)  # no drink asked


def test_an_answer_still_to_come_from_someone_asked_is_no_decision() -> None:
    assert asked_undetermined("may_i", "We have asked the pharmacist whether it is safe; we will ring you with the "
                                       "answer.")
    assert not asked_undetermined("may_i", "The pharmacist says it is safe with breastfeeding.")
