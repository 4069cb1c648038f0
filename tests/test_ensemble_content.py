"""The content support of a 2025 vote: a cited id's vote share plus `content` x the highest ROUGE-L F1 between
its note sentence and a voter line citing it; the note sentences come from the members' data folder."""

from __future__ import annotations

import pytest

from archehr.ensemble.combine import Settings, Voter, compose_answer, ensemble_predictions
from archehr.ensemble.members import Member
from archehr.ensemble.vote import weighted_vote
from archehr.errors import InputError
from archehr_scoring.answer_format import parse_answer, render_line

NOTE = {"1": "alpha beta gamma", "2": "delta epsilon zeta", "3": "unrelated words here"}


def _voter(k: int, second: str) -> Voter:
    answer = "\n".join([render_line("alpha beta gamma", ["1"]), render_line("delta epsilon zeta", [second])])
    return Voter(f"m{k}", 1.0, (k,), answer)


def _cited(answer: str) -> set[str]:
    return {c.strip() for ln in parse_answer("", answer).lines for c in ln.citations}


def test_a_bonus_adds_to_the_share_before_the_threshold():
    got = weighted_vote([(1.0, ["a"]), (1.0, ["a", "b"]), (1.0, ["c"])], 0.9, {"b": 0.6, "c": 0.5})
    # a 2/3 < 0.9; b 1/3 + 0.6 = 0.93 passes; c 1/3 + 0.5 = 0.83 does not; the support stays the vote share
    assert got.chosen == ("b",) and got.support == pytest.approx({"a": 2 / 3, "b": 1 / 3, "c": 1 / 3})


def test_the_content_support_keeps_a_minority_citation_that_matches_and_drops_a_majority_one_that_does_not():
    vs = [_voter(0, "2"), _voter(1, "3"), _voter(2, "3")]
    plain, _ = compose_answer(vs, 0.5)
    assert _cited(plain) == {"1", "3"}  # 3/3 and 2/3 of the votes; "2" has 1/3
    # content 1: "1" 1 + 1.0, "2" 1/3 + 1.0 (its line is its sentence), "3" 2/3 + 0.0 (no word in common)
    answer, rec = compose_answer(vs, 1.0, content=1.0, note=NOTE)
    assert _cited(answer) == {"1", "2"}
    assert rec["content"] == {"1": 1.0, "2": 1.0, "3": 0.0}


def test_content_zero_is_the_vote_alone():
    vs = [_voter(0, "2"), _voter(1, "3"), _voter(2, "3")]
    assert compose_answer(vs, 0.5, content=0.0, note=NOTE)[0] == compose_answer(vs, 0.5)[0]


def test_the_content_support_without_the_members_data_folder_is_one_clear_error():
    preds = {"1": render_line("alpha beta gamma", ["1"])}
    ms = [Member(f"run{k}", f"sys{k}", f"c{k}", f"h{k}", "2025", "test", "no/such/folder", {"1": "x"}, ("1",),
                 preds, {}) for k in range(2)]
    with pytest.raises(InputError) as err:
        ensemble_predictions(ms, Settings(content=1.0))
    assert err.value.problems[0].field == "data" and "no/such/folder" in str(err.value)
    assert _cited(ensemble_predictions(ms, Settings())[0]["1"]) == {"1"}  # without content, no note is read
