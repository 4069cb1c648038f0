"""Shapes of a first line that answers the question's words but not its asked fact (invented lines): a result
awaited to a question asking one in words of another kind, a when line whose date sits only in a condition of
symptoms not settling, a medicine line naming only the medicine taken while another is asked."""

from archehr.answerability.med_decisions import other_medicine_only
from archehr.answerability.test_words import asks_result
from archehr.answerability.when_other import call_to_schedule, conditional_only, dates_other_event, other_step


def test_a_question_asking_a_result_in_its_words():
    assert asks_result("did her thyroid come back high? is that why she can't sleep")
    assert asks_result("could you let me know the outcome of the stool sample please")
    assert not asks_result("why did they stop his statin")
    assert not asks_result(None)


def test_a_date_only_inside_a_condition_sets_no_visit():
    assert conditional_only("Review with the practice nurse if no better in 5-7 days.")
    assert conditional_only("4. See GP if symptoms persist after 2 weeks or if fever returns.")
    assert dates_other_event("what day is his check with the GP", "See GP if not improving within 72 hours.")
    # a date before the condition stands; a politeness is no condition; no date at all is for the other rules
    assert not conditional_only("Restart the tablets on Friday 12/09 if there is no bleeding.")
    assert not conditional_only("I would be grateful if you could repeat the bloods in 2 weeks.")
    assert not conditional_only("See GP if not better.")


def test_the_medicine_taken_while_another_is_asked():
    question = "should I stop my inhaler while I'm on the prednisolone"
    assert other_medicine_only(question, "Prednisolone 30 mg once daily for 5 days.")
    assert not other_medicine_only(question, "Keep using the brown inhaler twice a day.")
    assert not other_medicine_only(question, "Inhaler and prednisolone both to continue.")
    assert not other_medicine_only("should I stop my inhaler", "Prednisolone 30 mg once daily for 5 days.")
    assert not other_medicine_only(None, "Prednisolone 30 mg once daily for 5 days.")


def test_a_call_to_come_sets_no_date():
    line = "Dermatology - the clinic will phone you to arrange a visit, normally within 4 weeks."
    assert call_to_schedule(line)
    assert dates_other_event("what date is my skin appointment", line)
    # a date before the call is the visit's; a question asking no booked event is for the other rules
    assert not call_to_schedule("Review in 6 weeks; the office will call you to schedule.")
    assert not dates_other_event("when can I swim again", line)


def test_a_condition_of_no_return_is_no_symptom():
    assert not conditional_only("If she does not come back: staff to phone her daughter within 2 hours.")
    assert conditional_only("Physio review if no improvement within 6 weeks.")


def test_another_step_of_a_series():
    line = "Rabies vaccine course begun: first jab given today, second jab due in 3 days."
    assert other_step("when is the 4th rabies jab", line)
    assert dates_other_event("when is the 4th rabies jab", line)
    assert not other_step("when is the second rabies jab", line)
    assert not other_step("when is my rabies jab", line)
    # a floor is no step: "dose 3" is the one asked
    assert not other_step("when is my third infusion", "Infusion (dose 3) Monday 09:00, 2nd floor day unit")


def test_a_date_sent_later_is_undetermined():
    from archehr.answerability.undetermined import asked_undetermined

    assert asked_undetermined("when", "Knee replacement: on the waiting list, a date will be sent to you.")
