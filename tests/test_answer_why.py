"""Where a why answer sits when it does not repeat the asked thing's words (`archehr.answerability.why_answers`), and
the first line `archehr answer`'s rank gives a why question with it.

Each note here is a few lines written for these tests (fictional).
"""

from __future__ import annotations

import numpy as np
import pytest

from archehr.answerability.kinds import answer_types
from archehr.answerability.why_answers import (
    W_DIAGNOSIS,
    asks_change,
    diagnosis_carry,
    diagnosis_lines,
    list_items,
)
from archehr.data.note_split import note_case


def _first(note: str, question: str) -> str:
    case, _ = note_case(note, question, splitter="rules")
    return case.sentences[int(np.argmax(answer_types(case).ranking))].text


def test_the_note_s_diagnosis_is_a_label_and_its_value_or_the_lines_under_its_heading() -> None:
    texts = ["Procedure: Left knee arthroscopy", "Indication: Locked knee from a torn meniscal flap.",
             "Assessment: 04/11/2026 10:20 (telephone)", "Impression:", "Gout of the right big toe.",
             "Uric acid raised at 9.1.", "Plan:", "Start colchicine 500 micrograms twice daily."]
    # the label with a value, not one holding a date; the lines under "Impression:" up to the next heading
    assert diagnosis_lines(texts).tolist() == [False, True, False, False, True, True, False, False]


def test_a_diagnosis_line_takes_a_share_of_the_best_topic_only_when_no_mention_is_explained() -> None:
    texts = ["Procedure: Left knee arthroscopy", "Indication: Locked knee from a torn meniscal flap."]
    topic = np.array([0.8, 0.0])
    # the mention (line 0) says no cause and none is beside it: the indication takes W_DIAGNOSIS of 0.8
    carried = diagnosis_carry(texts, topic, np.array([0.0, 0.0]), [1, 2])
    assert carried.tolist() == pytest.approx([0.0, W_DIAGNOSIS * 0.8])
    # a cause beside the mention in its paragraph explains it where it stands: nothing is carried
    assert diagnosis_carry(texts, topic, np.array([0.0, 1.0]), [1, 1]).tolist() == [0.0, 0.0]


@pytest.mark.parametrize(("question", "change"), [
    ("why did they stop his ramipril", True),
    ("why didn't they keep her in overnight", True),
    ("why did they switch him to tablets", True),
    ("why did she need the knee operation", False),
    ("why was he given a brace", False),
])
def test_a_why_question_asking_a_change_or_a_thing_not_done(question: str, change: bool) -> None:
    assert asks_change(question) is change


def test_why_a_procedure_is_answered_by_its_indication_in_other_words() -> None:
    note = ("Procedure: Left knee arthroscopy and partial meniscectomy\nAnaesthetic: General\n"
            "Indication: Locked joint from a torn meniscal flap, not settling after 3 months of physiotherapy.\n\n"
            "Findings:\nBucket-handle tear of the medial meniscus.\n")
    assert _first(note, "why did he need the arthroscopy").startswith("Indication:")


def test_why_stopped_is_still_answered_beside_the_stop_not_by_the_diagnosis() -> None:
    note = ("Diagnosis: Viral gastroenteritis with dehydration.\n\n"
            "Plan:\nRamipril was stopped as her kidney function fell with the vomiting.\n")
    assert _first(note, "why did they stop her ramipril").startswith("Ramipril")


def test_a_list_item_takes_no_reason_from_the_item_before_it() -> None:
    assert list_items(["1. Increase citalopram.", "- Crutches given.", "Plan:", "Bloods 2 weeks."]).tolist() == \
        [True, True, False, False]
    note = ("Plan:\n1. Increase citalopram to 20 mg daily for low mood.\n"
            "2. Avoid ibuprofen and naproxen while on warfarin.\n")
    assert _first(note, "why can't she take ibuprofen").startswith("2.")
