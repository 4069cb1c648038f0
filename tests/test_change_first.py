"""A question about a medicine's change: the first line tells the change, not only the medicine (invented notes)."""

import numpy as np

from archehr.answerability.change_first import asks_change, change_first, tells_no_decision

TEXTS = ["Sotalol 80 mg twice daily.",  # the list entry: no change told
         "Sotalol reduced to 40 mg twice daily because of the slow pulse.",  # the change
         "Pulse 48 at rest."]
QUESTION = "did they lower the sotalol"


def test_question_asking_a_change() -> None:
    assert asks_change(QUESTION)
    assert asks_change("is my water tablet dose going up")
    assert not asks_change("which inhaler do I use for the wheeze")
    assert not asks_change("what dose of sotalol is he going home on")


def test_list_entry_tells_no_decision() -> None:
    assert tells_no_decision(TEXTS[0])
    assert not tells_no_decision(TEXTS[1])
    assert not tells_no_decision("Keep taking the sotalol at the same dose.")
    assert not tells_no_decision("Sotalol 80 mg BID -> 40 mg BID.")


def test_line_telling_the_change_goes_first() -> None:
    rank = np.array([1.0, 0.9, 0.4])
    topic = np.array([0.6, 0.6, 0.0])
    assert change_first(QUESTION, [0, 1, 2], rank, TEXTS, topic) == 1


def test_first_line_with_a_decision_keeps_its_place() -> None:
    texts = ["Continue sotalol 80 mg twice daily for now.", TEXTS[1], TEXTS[2]]
    rank = np.array([1.0, 0.9, 0.4])
    topic = np.array([0.6, 0.6, 0.0])
    assert change_first(QUESTION, [0, 1, 2], rank, texts, topic) is None


def test_a_decision_put_off_keeps_its_place() -> None:
    texts = ["Whether to move him to a tablet without blood tests will be discussed at his next clinic.",
             "Told not to stop the warfarin before the dentist.", TEXTS[2]]
    assert not tells_no_decision(texts[0])
    assert change_first("Are they switching him to a new blood thinner instead?", [0, 1, 2],
                        np.array([1.0, 0.9, 0.4]), texts, np.array([0.6, 0.6, 0.0])) is None


def test_question_not_asking_a_change_keeps_the_order() -> None:
    rank = np.array([1.0, 0.9, 0.4])
    topic = np.array([0.6, 0.6, 0.0])
    assert change_first("what is the sotalol for", [0, 1, 2], rank, TEXTS, topic) is None


def test_change_line_ranked_too_low_keeps_the_order() -> None:
    topic = np.array([0.6, 0.6, 0.0])
    assert change_first(QUESTION, [0, 1, 2], np.array([1.0, 0.3, 0.2]), TEXTS, topic) is None  # under SHARE 0.5
