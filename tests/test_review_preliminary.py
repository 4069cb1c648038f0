"""A result given so far with the final report to follow answers a result question: the pending rules of
`review.fact_missing` and `awaited_results.result_awaited` do not flag it, unless the question asks for the final
result."""

from types import SimpleNamespace

import numpy as np

from archehr.answerability.awaited_results import awaited, result_awaited
from archehr.answerability.review import fact_missing


def _types(kind: str = "test_result", topic: tuple[float, ...] = (0.5,)) -> SimpleNamespace:
    return SimpleNamespace(kind=kind, best_typed=0.5, best_firm=0.5, missing_drugs=0, missing_activities=0,
                           topic=np.array(topic))


def test_a_result_so_far_is_no_result_awaited() -> None:
    for line in ("Wound swab: no growth at 72 hours, final report pending.",
                 "Joint fluid culture negative at 48 hours; the final result is to follow.",
                 "Breath test positive at 30 minutes, final reading at 2 hours to follow."):
        assert not awaited(line)
        assert not fact_missing(_types(), (line, 0.5), "did the swab from his foot grow anything")


def test_a_result_awaited_still_flags() -> None:
    for line in ("Wound swab sent, result pending.", "Sputum culture: awaited.",
                 "We will call you with the final report once the culture is back."):
        assert awaited(line)
        assert fact_missing(_types(), (line, 0.5), "did the swab from his foot grow anything")


def test_a_question_asking_for_the_final_result_still_flags() -> None:
    line = "Wound swab: no growth at 72 hours, final report pending."
    assert awaited(line, "they said the final report comes next week, is it clear?")
    split = SimpleNamespace(sentences=[SimpleNamespace(text=line)])
    assert result_awaited(_types(), split, "has the final culture result come back clear")
    assert not result_awaited(_types(), split, "did the swab from his foot grow anything")


def test_a_line_wrapped_inside_the_pending_phrase_still_awaits() -> None:
    line = "Her ALT was 41 U/L; the hepatitis serology has been sent but is not yet\nback."
    assert awaited(line)
    assert fact_missing(_types(), (line, 0.5), "did the hepatitis one come back ok")
