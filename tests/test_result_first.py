"""A result question's first answer line must say what the asked test found (`result_first`).

The sentences are invented for these tests, a few lines each.
"""

from __future__ import annotations

import pytest

from archehr.answerability.asked_thing import concept_rows
from archehr.answerability.result_first import first_unresulted, gives_result
from archehr.glossary import load_lexicon


def _unresulted(question: str, sentences: list[str], first: int, kind: str = "test_result") -> bool:
    return first_unresulted(kind, first, sentences, concept_rows(question, sentences, load_lexicon()))


@pytest.mark.parametrize(("text", "given"), [
    ("Ultrasound of the gallbladder showed two small stones.", True),
    ("Ferritin 12 ug/L (low).", True),
    ("The chest x-ray was clear.", True),
    ("Hernia repair with mesh under general anaesthetic.", False),  # the operation, no result
    ("A bone density scan has been requested; start calcium if it shows thinning.", False),  # a condition
    ("Chest x-ray: not obtained.", False),  # not done
])
def test_a_sentence_giving_a_result(text: str, given: bool) -> None:
    assert gives_result(text) is given


def test_a_first_line_booking_the_test_gives_no_result() -> None:
    sentences = ["Bone density scan booked for 14 March at the imaging centre.", "Knee pain is improving."]
    assert _unresulted("what did the bone density scan show", sentences, 0)


def test_a_first_line_giving_the_asked_tests_result_is_left_alone() -> None:
    sentences = ["Bone density scan booked last month.", "Bone density scan: T-score -2.8, osteoporosis."]
    assert not _unresulted("what did the bone density scan show", sentences, 1)


@pytest.mark.parametrize(("text", "given"), [
    ("Free T4 | 14.2 | pmol/L | 9.0 - 19.0", True),  # a table row's value and its range, no flag
    ("Ferritin | 9 | L |", True),  # ... its flag in a cell of its own
    ("Holter 48 hours: sinus rhythm without pauses.", True),  # a finding ruled out after the label
    ("Memory test: score 27/30.", True),  # a score
    ("MRI LEFT HIP WITHOUT CONTRAST", False),  # how the scan was done, no finding
    ("Ultrasound booked on 14/03 at the clinic.", False),  # a day and month, no score
])
def test_results_in_table_rows_labels_and_scores(text: str, given: bool) -> None:
    assert gives_result(text) is given


def test_other_kinds_and_no_answer_are_left_alone() -> None:
    sentences = ["Bone density scan booked for 14 March."]
    assert not _unresulted("when is the bone density scan", sentences, 0, kind="when")
    assert not first_unresulted("test_result", None, sentences, concept_rows("what did the scan show", sentences,
                                                                             load_lexicon()))


def test_a_written_date_is_no_value_and_a_test_not_yet_done_gives_no_result() -> None:
    from archehr.answerability.result_first import gives_result

    assert not gives_result("- Blood test (clotting) at the surgery on Monday 14 April.")
    assert not gives_result("Bloods booked Tuesday 3 June 2031, 9:10 AM")
    assert gives_result("CRP 14 decreasing")  # a value then a word starting like a month ("dec")
    assert not gives_result("Kidney ultrasound requested, not yet done.")


def test_waiting_on_a_sample_is_a_result_awaited() -> None:
    from archehr.answerability.test_words import PENDING

    assert PENDING.search("we are waiting on a repeat urine culture sent yesterday")
    assert PENDING.search("still waiting for the biopsy result")
    assert not PENDING.search("waiting for a bed on the ward")
