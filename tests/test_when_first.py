"""A when question's first line dates the asked event, not the entry's own stamp nor today's visit (invented notes)."""

import numpy as np

from archehr.answerability.when_first import dates_to_come, stamps_only, when_first

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


def test_a_line_booking_the_asked_test_goes_before_one_dating_what_follows_it() -> None:
    from archehr.answerability.when_first import books_with_time

    texts = ["If the scan shows a clot we will start treatment; if clear, we will see her in 6 months.",
             "A CT scan of the chest has been requested and should take place within the next 2 weeks.",
             "She was told about the scan."]
    assert books_with_time(texts[1]) and not books_with_time(texts[0])
    rank, topic = np.array([1.0, 0.5, 0.3]), np.array([0.3, 0.3, 0.3])
    assert when_first("when is her scan", [0, 1, 2], rank, texts, topic) == 1
    assert when_first("when did she have the scan", [0, 1, 2], rank, texts, topic) is None  # the past asked
    # the booking names less of the topic, or the first books something itself: the first stays
    assert when_first("when is her scan", [0, 1, 2], rank, texts, np.array([0.3, 0.2, 0.3])) is None
    booked = ["Scan booked for next week.", texts[1]]
    assert when_first("when is her scan", [0, 1], rank[:2], booked, topic[:2]) is None


def test_a_visit_asked_keeps_its_line_before_a_booked_test() -> None:
    texts = ["[ ] Attend the kidney clinic with Dr Vale on 12/05/2026 at 10:00.",
             "[ ] Book blood tests at the GP surgery in 3 weeks, before the clinic."]
    rank, topic = np.array([1.0, 0.6]), np.array([0.3, 0.3])
    assert when_first("kidney clinic date?", [0, 1], rank, texts, topic) is None
