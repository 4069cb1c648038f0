"""`review.names_asked`: a question whose asked thing the note names (most of its topic in one sentence, no medicine,
test or activity of it missing) is flagged, not declined, when the confidence is low; one about a thing the note
never names is still declined. The note is a few invented lines."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from archehr.answerability.kinds import answer_types
from archehr.answerability.review import TOPIC_NAMED, names_asked
from archehr.data.note_split import note_case
from archehr.glossary import load_lexicon

NOTE = ("Discharge summary.\n\nOxycodone 5 mg by mouth every 6 hours as needed for pain.\n\n"
        "Walk twice a day and keep the wound dry.")


def _types(question: str):  # noqa: ANN202 - AnswerTypes
    case, _ = note_case(NOTE, question)
    return answer_types(case, load_lexicon())


@pytest.mark.parametrize(("question", "named"), [
    ("how long do i keep taking the oxycodone", True),  # named, no duration given: flag
    ("can i take nurofen with the oxycodone", False),  # nurofen never named: decline
    ("can i go skiing next month", False),  # nothing of it named
])
def test_the_note_names_the_asked_thing(question: str, named: bool) -> None:
    assert names_asked(_types(question)) is named


def test_the_level_and_the_lexicon_condition() -> None:
    def types(top: float, missing: int) -> SimpleNamespace:
        return SimpleNamespace(topic=np.array([0.1, top]), missing_known=missing)

    assert names_asked(types(TOPIC_NAMED, 0))
    assert not names_asked(types(TOPIC_NAMED - 0.01, 0))
    assert not names_asked(types(1.0, 1))
    assert not names_asked(SimpleNamespace(topic=np.array([]), missing_known=0))
