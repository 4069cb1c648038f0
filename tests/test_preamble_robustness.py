"""`benchmarks/preamble_robustness.py`: questions wrapped in courtesy, the wrappers dealt and the changes counted."""

from __future__ import annotations

from pathlib import Path

import benchmark_module
import pytest


def _bench():  # the benchmark script's module
    return benchmark_module.load("preamble_robustness")


def test_a_wrapper_goes_around_the_question() -> None:
    b = _bench()
    assert b.wrapped(" When is the scan? ", {"prefix": "Hello,"}) == "Hello, When is the scan?"
    assert b.wrapped("When is the scan?", {"suffix": "thanks, Ann"}) == "When is the scan? thanks, Ann"
    assert b.wrapped("When?", {"prefix": "Hi,", "suffix": "x"}) == "Hi, When? x"


def test_wrappers_are_dealt_in_turn() -> None:
    b = _bench()
    # question i gets wrappers 2i and 2i+1 (mod 5): each wrapper used about as often, none twice for a question
    assert b.dealt(3, 5, 2) == [[0, 1], [2, 3], [4, 0]]
    assert b.dealt(2, 2, 3) == [[0, 1], [0, 1]]  # never more than there are


def _row(first: list[str], conf: float, abstained: bool = False, flagged: bool = False) -> dict:
    return {"first": first, "confidence": conf, "abstained": abstained, "flagged": flagged}


def test_changes_are_counted_over_pairs() -> None:
    b = _bench()
    pairs = [(_row(["3"], 0.8), _row(["3"], 0.7)),  # same first line and state, 0.1 moved
             (_row(["3"], 0.6), _row(["5"], 0.6, flagged=True)),  # another first line, flagged
             (_row([], 0.1, abstained=True), _row([], 0.1, abstained=True)),  # declined both times
             (_row(["2"], 0.5), _row(["2"], 0.5))]
    c = b.changes(pairs)
    assert c["first_changed"] == pytest.approx(0.25)
    assert c["state_changed"] == pytest.approx(0.25)
    assert c["conf_change"] == pytest.approx(0.1 / 4)
    assert c["conf_moved"] == pytest.approx(0.25)


def test_the_wrappers_file_has_two_halves(tmp_path: Path) -> None:
    b = _bench()
    halves = b.load_wrappers()
    assert set(halves) == {"tune", "held_out"} and all(halves.values())
    ids = [w["id"] for h in halves.values() for w in h]
    assert len(ids) == len(set(ids))  # no wrapper in both halves
    bad = tmp_path / "w.yaml"
    bad.write_text("tune:\n  - {id: empty}\nheld_out: []\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="neither prefix nor suffix"):
        b.load_wrappers(bad)
