"""A result question's first line gives a result when a sentence close below the first gives one (invented notes)."""

import numpy as np

from archehr.answerability.first_fact import fact_first

TEXTS = ["Bloods for liver tests requested at the surgery.",  # names the test, gives no result
         "ALT 140 (H), bilirubin normal.",  # the result
         "Follow up with the practice nurse."]


def test_result_question_leads_with_the_result_line() -> None:
    rank = np.array([1.0, 0.6, 0.2])
    topic = np.array([0.8, 0.5, 0.0])
    assert fact_first("test_result", [0, 1, 2], rank, TEXTS, topic) == 1


def test_result_line_ranked_too_far_below_keeps_the_order() -> None:
    rank = np.array([1.0, 0.4, 0.2])  # 0.4 is under SHARE (0.5) of the first
    topic = np.array([0.8, 0.5, 0.0])
    assert fact_first("test_result", [0, 1, 2], rank, TEXTS, topic) is None


def test_first_line_giving_a_result_is_kept() -> None:
    rank = np.array([0.6, 1.0, 0.2])
    topic = np.array([0.8, 0.5, 0.0])
    assert fact_first("test_result", [1, 0, 2], rank, TEXTS, topic) is None


def test_result_line_naming_nothing_asked_is_not_put_first() -> None:
    rank = np.array([1.0, 0.6, 0.2])
    topic = np.array([0.8, 0.0, 0.0])
    assert fact_first("test_result", [0, 1, 2], rank, TEXTS, topic) is None


def test_other_kinds_keep_the_order() -> None:
    rank = np.array([1.0, 0.6, 0.2])
    topic = np.array([0.8, 0.5, 0.0])
    assert fact_first("when", [0, 1, 2], rank, TEXTS, topic) is None


def test_first_line_advising_yields_to_the_result_line() -> None:
    # the first names a value only in passing, inside advice; the result line just below goes first
    texts = ["Advised to keep drinking well as her sodium was low last month.",
             "Bloods today: sodium 138, potassium 4.1, both normal.",
             "Keep taking the tablets until the sodium is checked again."]
    rank = np.array([1.0, 0.7, 0.6])
    topic = np.array([0.6, 0.5, 0.5])
    assert fact_first("test_result", [0, 1, 2], rank, texts, topic) == 1
    # advice below a first line of advice is no result: nothing goes first
    assert fact_first("test_result", [0, 2], rank, texts, topic) is None


def test_first_line_reporting_a_result_in_an_order_shape_is_kept() -> None:
    texts = ["Check X-ray on day 2 showed the plate in a good position.", "Bone density normal."]
    rank = np.array([1.0, 0.8])
    topic = np.array([0.5, 0.5])
    assert fact_first("test_result", [0, 1], rank, texts, topic) is None


def test_advice_shapes() -> None:
    from archehr.answerability.result_advice import gives_advice

    assert gives_advice("2. Check his sugar every 4 hours until the ketones are below 0.6.")
    assert gives_advice("Tom must keep eating bread until the clinic has seen him.")
    assert gives_advice("It is normal to feel a little sore for a day after the test.")
    assert gives_advice("She was advised to repeat the swab in a week.")
    assert not gives_advice("No change to the dose is advised for now.")  # the decision, not advice to the patient
    assert not gives_advice("Swab result: no growth after 48 hours.")


def test_sentence_going_on_by_a_pronoun() -> None:
    from archehr.answerability.first_fact import goes_on

    texts = ["The steroid injection was given in the knee.", "It usually works for about 3 months.",
             "It is a safe treatment.", "This lasts 2 hours."]
    assert goes_on(1, 0, texts)
    assert not goes_on(2, 1, texts)  # "It is a ...": says what the thing is, not more about it
    assert not goes_on(3, 0, texts)  # not right after the first
