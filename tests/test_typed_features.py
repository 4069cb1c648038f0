"""The typed confidence's feature row (`archehr.answerability.typed.typed_row`): each column by hand, the per-kind
columns among them, and a model file of the older feature list refused."""

from __future__ import annotations

import math

import numpy as np
import pytest

from archehr.answerability.kinds import KINDS, AnswerTypes
from archehr.answerability.typed import FEATURES, FORMAT, FORMAT_VERSION, parse_typed, typed_row
from archehr.errors import DataError


def _types(kind: str) -> AnswerTypes:
    # two sentences: the first names half the topic and holds the asked kind, the second names all of it and does
    # not; the second scores best as the answer
    return AnswerTypes(kind=kind, topic=np.array([0.5, 1.0]), holds=np.array([True, False]),
                       score=np.array([0.4, 0.9]), note_coverage=0.75, concepts=3, missing_top=0.25,
                       missing_known=3, missing_drugs=1)


def test_the_row_by_hand() -> None:
    row = dict(zip(FEATURES, typed_row(0.8, _types("when")), strict=True))
    assert len(row) == len(FEATURES)
    assert row["p_logit"] == pytest.approx(math.log(0.8 / 0.2))
    assert row["coverage"] == 0.75 and row["missing_top"] == 0.25
    assert row["best_typed"] == 0.5 and row["best_topic"] == 1.0 and row["typed_gap"] == 0.5
    assert row["best_score"] == 0.9 and row["log_concepts"] == pytest.approx(math.log(4))
    assert row["missing_known"] == 2.0 and row["missing_drug"] == 1.0  # known misses capped at 2
    assert row["kind_when"] == 1.0 and row["kind_why"] == 0.0
    # the best-scoring sentence (the second) does not hold the asked kind and names all of the topic
    assert (row["top_holds"], row["top_firm"], row["top_topic"], row["top_gap"]) == (0.0, 0.0, 1.0, 0.0)


@pytest.mark.parametrize("kind", KINDS)
def test_the_per_kind_columns_are_the_asked_kinds_only(kind: str) -> None:
    row = dict(zip(FEATURES, typed_row(0.5, _types(kind)), strict=True))
    for k in KINDS:
        assert row[f"typed_{k}"] == (0.5 if k == kind else 0.0)
        assert row[f"coverage_{k}"] == (0.75 if k == kind else 0.0)


def test_a_question_of_no_kind_has_no_per_kind_column_set() -> None:
    row = dict(zip(FEATURES, typed_row(0.5, _types("other")), strict=True))
    assert all(row[f"typed_{k}"] == 0.0 and row[f"coverage_{k}"] == 0.0 for k in KINDS)


def test_an_empty_note_gives_zeros_not_errors() -> None:
    empty = AnswerTypes(kind="why", topic=np.zeros(0), holds=np.zeros(0, dtype=bool), score=np.zeros(0),
                        note_coverage=0.0, concepts=1, missing_top=1.0)
    row = dict(zip(FEATURES, typed_row(0.5, empty), strict=True))
    assert row["best_typed"] == 0.0 and row["typed_why"] == 0.0 and row["top_holds"] == 0.0


def test_a_model_of_the_older_feature_list_is_refused() -> None:
    old = [f for f in FEATURES if not f.startswith(("typed_", "coverage_"))]
    with pytest.raises(DataError, match="refit"):
        parse_typed({"format": FORMAT, "format_version": FORMAT_VERSION - 1, "features": old}, "<mem>")
    with pytest.raises(DataError, match="refit"):
        parse_typed({"format": FORMAT, "format_version": FORMAT_VERSION, "features": old}, "<mem>")


def test_unsettled_is_the_types_value_and_zero_by_default() -> None:
    from dataclasses import replace

    assert dict(zip(FEATURES, typed_row(0.5, _types("when")), strict=True))["unsettled"] == 0.0
    row = dict(zip(FEATURES, typed_row(0.5, replace(_types("when"), unsettled=0.75)), strict=True))
    assert row["unsettled"] == 0.75


def _unsettled(note: str, question: str) -> tuple[float, float]:
    from archehr.answerability.kinds import answer_types
    from archehr.data.note_split import note_case

    case, _ = note_case(note, question, splitter="rules")
    types = answer_types(case)
    return types.unsettled, float(types.topic.max())


def test_a_sentence_naming_the_topic_and_saying_the_fact_is_still_to_come_sets_unsettled() -> None:
    # the scan is named by the sentence saying its report is to follow: unsettled is that sentence's topic score
    unsettled, best = _unsettled("Plan:\n- Drink plenty of fluids.\n- Kidney scan report to follow.\n",
                                 "what did the kidney scan show")
    assert unsettled > 0 and unsettled == best
    # the report given: nothing says it is still to come
    assert _unsettled("Plan:\n- Drink plenty of fluids.\n- Kidney scan showed no stones.\n",
                      "what did the kidney scan show")[0] == 0.0


def test_unsettled_reads_the_asked_kinds_missing_fact_only() -> None:
    note = "Plan:\n- Knee clinic appointment letter to follow.\n- Keep icing the knee.\n"
    assert _unsettled(note, "when is my knee clinic appointment")[0] > 0  # a date to come, to a when question
    assert _unsettled(note, "why do I need the knee clinic")[0] == 0.0  # a cause has no "not known yet" form
