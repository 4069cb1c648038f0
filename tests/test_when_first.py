"""A when question's first line dates the asked event, not the entry's own stamp nor today's visit (invented notes)."""

import numpy as np

from archehr.answerability.when_first import books_time, dates_to_come, stamps_only, undated_first, when_first

TEXTS = ["12/03/2026 09:15 Drain dressing changed, site clean.",  # a log entry's stamp, no date to come
         "Drain to stay until the antibiotics finish on 18/03, then remove.",  # the asked event, to come
         "Encourage fluids."]
QUESTION = "when is the drain coming out"


def test_stamp_of_an_entry_dates_only_its_writing() -> None:
    assert stamps_only(TEXTS[0])
    assert not dates_to_come(TEXTS[0])


def test_today_visit_without_a_date_to_come_stamps_only() -> None:
    assert stamps_only("I saw Mr Lane in clinic today, two weeks after his operation.")
    assert not stamps_only("I saw Mr Lane today and will see him again on 4 May.")


def test_stamped_entry_with_a_booking_is_not_only_a_stamp() -> None:
    line = "10/03/2026 14:00 Scan booked for 21/04/2026 at 09:30."
    assert not stamps_only(line)
    assert dates_to_come(line)


def test_stamp_yields_to_the_line_dating_the_event() -> None:
    rank = np.array([1.0, 0.7, 0.2])
    topic = np.array([0.8, 0.6, 0.0])
    assert when_first(QUESTION, [0, 1, 2], rank, TEXTS, topic) == 1


def test_line_ranked_too_far_below_keeps_the_order() -> None:
    rank = np.array([1.0, 0.2, 0.1])  # 0.2 is under SHARE (0.25) of the first
    topic = np.array([0.8, 0.6, 0.0])
    assert when_first(QUESTION, [0, 1, 2], rank, TEXTS, topic) is None


def test_line_naming_nothing_asked_is_not_put_first() -> None:
    rank = np.array([1.0, 0.7, 0.2])
    topic = np.array([0.8, 0.0, 0.0])
    assert when_first(QUESTION, [0, 1, 2], rank, TEXTS, topic) is None


def test_first_line_with_a_past_date_keeps_its_place() -> None:
    texts = ["Drain inserted on 02/03/2026.", TEXTS[1], TEXTS[2]]  # another event's date: not a stamp
    rank = np.array([1.0, 0.7, 0.2])
    topic = np.array([0.8, 0.6, 0.0])
    assert when_first(QUESTION, [0, 1, 2], rank, texts, topic) is None


def test_question_asking_the_past_keeps_the_order() -> None:
    rank = np.array([1.0, 0.7, 0.2])
    topic = np.array([0.8, 0.6, 0.0])
    assert when_first("when did they change the drain dressing", [0, 1, 2], rank, TEXTS, topic) is None


def test_listed_booked_slot_is_no_stamp() -> None:
    assert not stamps_only("17/12/2026 3:20 PM Jo Bell, MD Lakeshore Surgery Clinic, 2nd floor")
    assert stamps_only("17/12/2026 15:20 Seen by Dr Bell in clinic.")  # a log entry told done


# a first line giving no time, a line below booking the asked event (`undated_first`; invented notes)
UNDATED = ["Use a barrier method until the device is placed and for 7 days after.",  # no time of its own
           "1. Options talked through; she chose the hormonal device.",  # names the device: the heading
           "Placement booked with the practice nurse on 14/05/2026.",  # the booking, naming none of the question
           "Encourage fluids."]


def test_a_booking_under_the_line_naming_the_thing_is_put_first() -> None:
    rank = np.array([1.0, 0.5, 0.4, 0.1])
    topic = np.array([0.3, 0.3, 0.0, 0.0])
    assert undated_first("when are they putting the device in", [0, 1, 2, 3], rank, UNDATED, topic,
                         [1, 1, 1, 2]) == 2


def test_a_condition_asked_keeps_the_order() -> None:
    rank = np.array([1.0, 0.5, 0.4, 0.1])
    topic = np.array([0.3, 0.3, 0.0, 0.0])
    assert undated_first("when can I stop the barrier method", [0, 1, 2, 3], rank, UNDATED, topic) is None
    assert undated_first("when I can stop the barrier method?", [0, 1, 2, 3], rank, UNDATED, topic) is None


def test_a_first_line_with_its_own_date_or_an_unset_date_keeps_its_place() -> None:
    rank = np.array([1.0, 0.5, 0.4, 0.1])
    topic = np.array([0.3, 0.3, 0.0, 0.0])
    for first in ("Device to be placed in 3 weeks.",
                  "Referral for the device sent; first appointment not yet offered."):
        texts = [first, *UNDATED[1:]]
        assert undated_first("when are they putting the device in", [0, 1, 2, 3], rank, texts, topic) is None


def test_a_slot_under_its_heading_in_a_paragraph_of_its_own() -> None:
    texts = ["Frequency: every 4 weeks, not sooner than 25 days after the last one.",
             "2. Next depot", "Thursday 09/07/2026 at 11:15, Birch Unit.", "Encourage fluids."]
    rank = np.array([1.0, 0.8, 0.4, 0.1])
    topic = np.array([0.4, 0.4, 0.0, 0.0])
    assert undated_first("whens my next depot", [0, 1, 2, 3], rank, texts, topic, [1, 2, 3, 3]) == 2


def test_a_stamp_or_a_result_with_its_sampling_time_books_nothing() -> None:
    assert not books_time("09/04/2026 10:20 Ward nurse A. Reid RN", True)
    assert not books_time("Serum ferritin 09/04/2026 10:20: 8 ug/L, low.", True)
    assert books_time("Friday 11/04/2026 at 09:30, Day Unit.", True)
    assert not books_time("Friday 11/04/2026 at 09:30, Day Unit.")  # a slot alone needs its heading
    assert books_time("Repeat bone density scan after 2 years.")
