"""A how-long question's first line gives a length, not only the asked thing's name (invented notes)."""

import numpy as np

from archehr.answerability.length_first import gives_no_length, length_first

TEXTS = ["Swallow the capsules whole with a glass of water.",  # names the medicine, no length
         "Cefalexin 500 mg four times a day for 7 days.",  # the course's length
         "Keep the arm in the sling."]
QUESTION = "how many days do i take the cefalexin"


def test_line_without_a_length_gives_none() -> None:
    assert gives_no_length(TEXTS[0])
    assert not gives_no_length(TEXTS[1])


def test_end_told_in_words_is_a_length() -> None:
    assert not gives_no_length("Iron tablets to continue throughout the pregnancy.")
    assert not gives_no_length("No further blood tests are needed for this.")
    assert not gives_no_length("She can stop the injections once the baby is born.")
    assert not gives_no_length("He may stop checking his blood pressure every morning at home now.")
    assert not gives_no_length("Booked onto eight weekly sessions of physiotherapy.")


def test_line_giving_the_length_goes_first() -> None:
    rank = np.array([1.0, 0.8, 0.3])
    topic = np.array([0.5, 0.5, 0.0])
    assert length_first(QUESTION, [0, 1, 2], rank, TEXTS, topic) == 1


def test_first_line_with_a_length_keeps_its_place() -> None:
    texts = ["Sling for 2 weeks, then gentle movement.", TEXTS[1], TEXTS[2]]
    rank = np.array([1.0, 0.8, 0.3])
    topic = np.array([0.2, 0.5, 0.0])
    assert length_first(QUESTION, [0, 1, 2], rank, texts, topic) is None


def test_length_line_ranked_too_low_or_off_topic_keeps_the_order() -> None:
    topic = np.array([0.5, 0.5, 0.0])
    assert length_first(QUESTION, [0, 1, 2], np.array([1.0, 0.4, 0.3]), TEXTS, topic) is None  # under SHARE 0.5
    assert length_first(QUESTION, [0, 1, 2], np.array([1.0, 0.8, 0.3]), TEXTS, np.array([0.5, 0.0, 0.0])) is None


def test_length_only_before_the_asked_event_is_passed_over() -> None:
    texts = ["Ramipril 5 mg once daily.", "Stop the ramipril for 2 days before the scan.",
             "Kidney blood test 2 weeks after the dose goes up."]
    rank = np.array([1.0, 0.9, 0.8])
    topic = np.array([0.5, 0.5, 0.5])
    question = "how long after the ramipril goes up is the blood test"
    assert length_first(question, [0, 1, 2], rank, texts, topic) == 2


def test_length_of_a_thing_named_less_than_the_first_keeps_the_order() -> None:
    texts = ["Cefalexin capsules collected from the pharmacy.", "Paracetamol for up to 5 days.", TEXTS[2]]
    rank = np.array([1.0, 0.8, 0.3])
    topic = np.array([0.6, 0.2, 0.0])  # the paracetamol line names less of the question than the first
    assert length_first(QUESTION, [0, 1, 2], rank, texts, topic) is None


def test_length_told_of_the_first_by_a_pronoun_goes_first() -> None:
    # the length line names the treatment only as "It", right after the first line, so it names no topic word
    texts = ["The weekly injection in the tummy was started in March.", "It is planned for 6 months to begin with.",
             "Bloods every 4 weeks at the surgery."]
    rank = np.array([1.0, 0.8, 0.6])
    topic = np.array([0.5, 0.0, 0.2])
    question = "how long does she keep having the injection"
    assert length_first(question, [0, 1, 2], rank, texts, topic) == 1
    # the same line elsewhere in the note (not right after the first) names nothing asked: the order is kept
    assert length_first(question, [0, 2, 1], rank, [texts[0], texts[2], texts[1]],
                        np.array([0.5, 0.0, 0.2])) is None
