"""A wrapped line's tail cited with it (`archehr.answerability.split_unit`); texts written for the test."""

from __future__ import annotations

from dataclasses import dataclass

from archehr.answerability.split_unit import split_units, wraps_into


@dataclass(frozen=True)
class _S:
    text: str
    paragraph_id: int = 0


def test_line_cut_mid_clause_brings_its_tail() -> None:
    lines = [_S("Ferric carboxymaltose 500 mg IV at each of the next"), _S("3 clinic visits."), _S("BP 130/80.")]
    assert split_units([0], lines) == [1]


def test_whole_line_or_long_or_listed_next_brings_nothing() -> None:
    assert not wraps_into("Take 1 tablet daily.", "3 clinic visits.")
    assert not wraps_into("Review with the", "results of the scan and the bloods taken today on the ward.")
    assert not wraps_into("Continue on", "- Aspirin 75 mg")
    assert not wraps_into("Seen by the", "Plan: discharge")


def test_tail_chosen_already_is_not_repeated() -> None:
    lines = [_S("Dressing change every other day for the"), _S("next two weeks.")]
    assert split_units([0, 1], lines) == []
