"""When "The note does not say." comes outright: the note names nothing the question asks about and the lexical model
declines firmly (below `typed.ABSENT_DECLINE`), or the question asks for a result of a test the note never names;
otherwise the typed confidence decides (`archehr.ask._judge`)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import archehr.answerability.typed as typed
from archehr.ask import _judge


class _Lexical:
    feature_set = "lexical"

    def abstains(self, p: float) -> bool:
        return p < 0.157


class _Typed:
    def probability(self, row: np.ndarray, pruned: np.ndarray | None = None) -> float:
        return 0.42


def _types(kind: str) -> SimpleNamespace:
    # a question whose concepts the note names none of (coverage 0)
    return SimpleNamespace(concepts=("plaster",), note_coverage=0, missing_known=False, kind=kind)


@pytest.fixture(autouse=True)
def _row(monkeypatch) -> None:
    monkeypatch.setattr(typed, "typed_row", lambda p, types: np.zeros(3))
    monkeypatch.setattr("archehr.ask._typed_model", lambda t: t)


@pytest.mark.parametrize("kind", ["when", "how_long", "med_change", "why", "may_i"])
def test_a_firm_lexical_decline_declines_outright(kind: str) -> None:
    _, p, reason = _judge(_Lexical(), _Typed(), typed.ABSENT_DECLINE / 2, _types(kind))
    assert reason.startswith("the note does not name") and p == typed.ABSENT_DECLINE / 2


@pytest.mark.parametrize("kind", ["when", "how_long", "med_change", "why", "may_i"])
def test_a_doubtful_lexical_decline_leaves_it_to_the_typed_confidence(kind: str) -> None:
    judge, p, reason = _judge(_Lexical(), _Typed(), 0.1, _types(kind))
    assert reason == "" and p == 0.42 and isinstance(judge, _Typed)


def test_a_result_of_a_test_the_note_never_names_declines_outright_at_any_declining_p() -> None:
    _, _, reason = _judge(_Lexical(), _Typed(), 0.1, _types("test_result"))
    assert reason.startswith("the note does not name")


def test_no_outright_decline_where_the_lexical_model_answers() -> None:
    _, p, reason = _judge(_Lexical(), _Typed(), 0.3, _types("test_result"))
    assert reason == "" and p == 0.42
