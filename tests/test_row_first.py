"""A question naming a medicine: the first line is its own list row, not its neighbour's (invented notes)."""

import numpy as np

from archehr.answerability.row_first import is_row, row_first

TEXTS = ["CONTINUE  Paracetamol 1 g four times a day as needed for back pain",
         "STOP      Ibuprofen 400 mg as needed - kidney function is down",
         "Back pain improving with physiotherapy."]
QUESTION = "can he keep taking the ibuprofen for his back or is that stopped"
RANK = np.array([1.0, 0.8, 0.3])


def test_rows() -> None:
    assert is_row(TEXTS[0]) and is_row(TEXTS[1])
    assert is_row("2. Amlodipine 5 mg once daily")
    assert not is_row(TEXTS[2])
    assert not is_row("He was given ibuprofen 400 mg in the department.")


def test_asked_medicine_row_goes_first() -> None:
    assert row_first(QUESTION, [0, 1, 2], RANK, TEXTS) == 1


def test_first_row_naming_the_asked_medicine_keeps_its_place() -> None:
    assert row_first("is the paracetamol still ok", [0, 1, 2], RANK, TEXTS) is None


def test_question_naming_no_medicine_or_prose_first_keeps_the_order() -> None:
    assert row_first("what do I take for my back now", [0, 1, 2], RANK, TEXTS) is None
    texts = ["Use paracetamol rather than anti-inflammatories for the pain.", TEXTS[1], TEXTS[2]]
    assert row_first(QUESTION, [0, 1, 2], RANK, texts) is None


def test_asked_row_ranked_too_low_keeps_the_order() -> None:
    assert row_first(QUESTION, [0, 1, 2], np.array([1.0, 0.4, 0.3]), TEXTS) is None  # under SHARE 0.5
