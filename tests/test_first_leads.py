"""A how-long or when answer whose first line names the most of a long message's topic and gives the asked length or
date (`first_leads.leads_with_fact`; invented lines and questions)."""

import numpy as np

from archehr.answerability.first_leads import leads_with_fact, same_medicine, visit_dated
from archehr.answerability.review import _given_pattern

LONG_Q = ("Good evening, I am writing about my brother Alfred who came home on Friday and is staying with us. The "
          "doctor gave him some antibiotic tablets for his chest and I want to know for how many days he keeps on "
          "with them, as he forgets things.")


def _leads(kind: str, line: str, share: float, topic: list[float], question: str = LONG_Q) -> bool:
    return leads_with_fact(kind, (line, share), np.array(topic), question, _given_pattern(kind, question))


def test_a_course_naming_the_most_of_a_long_message_leads_with_the_fact() -> None:
    line = "Clarithromycin 500 mg twice daily for 5 days."  # an antibiotic: the question's class
    assert _leads("how_long", line, 0.08, [0.08, 0.05, 0.0])


def test_a_line_naming_less_than_another_sentence_does_not() -> None:
    line = "Clarithromycin 500 mg twice daily for 5 days."
    assert not _leads("how_long", line, 0.08, [0.08, 0.12, 0.0])


def test_a_line_naming_nothing_of_the_topic_does_not() -> None:
    assert not _leads("how_long", "Paracetamol as needed for 3 days.", 0.0, [0.0, 0.0])


def test_a_line_giving_no_length_does_not() -> None:
    assert not _leads("how_long", "Clarithromycin 500 mg twice daily.", 0.08, [0.08, 0.05])


def test_another_drugs_course_does_not() -> None:
    q = "Hello, my mum is on the thyroid tablets, levothyroxine, since March. How long does she stay on them?"
    # an antibiotic's course, to a question about levothyroxine
    assert not _leads("how_long", "Doxycycline 100 mg daily for 7 days.", 0.1, [0.1, 0.05], q)
    assert _leads("how_long", "Levothyroxine 50 micrograms daily for 6 weeks, then recheck.", 0.3, [0.3, 0.05], q)


def test_the_asked_drug_by_a_brand_or_a_misspelling_is_the_same_medicine() -> None:
    assert same_medicine("how long do I keep on the Lipitor", "Atorvastatin 20 mg at night for 12 months.")
    assert same_medicine("how long is the doxycyline for", "Doxycycline 100 mg daily for 7 days.")
    assert same_medicine("how long do I wear the sling", "Wear the sling for 3 weeks.")  # no drug named
    assert not same_medicine("how long is the ramipril for", "Amoxicillin 500 mg three times daily for 5 days.")


def test_a_when_line_with_a_booked_slot_leads() -> None:
    q = ("Hi, it's Joan, Bert's wife. He keeps asking and I've lost the letter with all the details on it, so "
         "when is his next appointment at the eye place?")
    assert _leads("when", "Eye clinic review on 14/03/2027 at 09:20.", 0.1, [0.1, 0.0], q)


def test_a_when_lines_length_after_an_event_dates_nothing() -> None:
    q = "My son is having his grommets done soon and I need to ask for the time off work, which date is the op?"
    assert not _leads("when", "He should not swim for 2 weeks after the operation.", 0.1, [0.1, 0.0], q)
    assert _leads("when", "Operation booked in 3 weeks.", 0.1, [0.1, 0.0], q)


def test_a_blanked_date_is_no_date() -> None:
    q = "when is the follow up with the foot clinic, the letter is lost and we want to plan the week ahead"
    assert not _leads("when", "Foot clinic review on ___.", 0.2, [0.2, 0.1], q)


def test_other_kinds_are_not_read() -> None:
    assert not leads_with_fact("test_result", ("Sodium 131.", 0.5), np.array([0.5]), "what was my sodium", None)


def test_a_visit_asked_in_words_no_sentence_names_is_led_by_a_dated_visit_line() -> None:
    q = "whens my video appt with dr quellington"
    assert visit_dated(q, "I will see you again by video on 03/02/2027 at 11:15.")
    assert _leads("when", "I will see you again by video on 03/02/2027 at 11:15.", 0.0, [0.0, 0.0, 0.0], q)
    # ... not when another sentence names some of the topic, nor by a line stamped with a date and no visit
    assert not _leads("when", "I will see you again by video on 03/02/2027 at 11:15.", 0.0, [0.0, 0.2, 0.0], q)
    assert not visit_dated(q, "Letter typed 03/02/2027 09:10.")


def test_a_visit_line_does_not_answer_a_past_visit_nor_a_step() -> None:
    assert not visit_dated("when did I last see the doctor", "Review in clinic in 6 weeks.")
    assert not visit_dated("when can I take the plaster off", "Review in clinic in 6 weeks.")


def test_a_date_of_what_was_done_does_not_lead_a_question_about_what_comes() -> None:
    q = "when is the scan of my knee going to happen, no one has rung me and I keep waiting by the phone all day"
    assert not _leads("when", "Knee X-ray on 02/11 showed mild arthritis.", 0.2, [0.2, 0.1], q)
    assert _leads("when", "Knee MRI to be booked in 6 weeks.", 0.2, [0.2, 0.1], q)


def test_a_day_asked_is_answered_by_a_slot_not_an_interval() -> None:
    from archehr.answerability.review import _slot_if_asked

    q = "My boss wants the exact day off in writing, which day is the scope appointment?"
    assert not _slot_if_asked("Scope within 6 weeks, letter to follow.", q)
    assert _slot_if_asked("Scope on 09/05/2027 at 08:30.", q)
    assert _slot_if_asked("Follow-up with me in 3 weeks.", "when does the doctor want to see him back")


def test_a_when_allowed_question_is_led_by_an_interval_not_a_bare_date() -> None:
    q = "when can she go swimming again after the hernia repair, the pool membership is due"
    assert not _leads("when", "Laparoscopic hernia repair on 14/06/2027.", 0.3, [0.3, 0.1], q)
    assert _leads("when", "She may swim again after 4 weeks.", 0.3, [0.3, 0.1], q)
