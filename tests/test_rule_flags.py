"""`benchmarks/rule_flags.py`: which fact rule flags an answer for review, every rule of a chain tried apart."""

from __future__ import annotations

from types import SimpleNamespace

import benchmark_module
import numpy as np

from archehr.answerability import own_lines


def _bench():  # the benchmark script's module
    return benchmark_module.load("rule_flags")


def test_dropped_leaves_out_rules_by_name_or_prefix() -> None:
    rf = _bench()
    assert rf.dropped(["review.why_uncaused"], []) is True
    assert rf.dropped([], []) is False
    # a prefix leaves out every part of a chain; another rule firing still flags
    assert rf.dropped(["fact_missing.no_fact", "fact_missing.awaited"], ["fact_missing"]) is False
    assert rf.dropped(["fact_missing.no_fact", "review.why_uncaused"], ["fact_missing"]) is True


def test_group_of_reads_the_place_in_the_writers() -> None:
    rf = _bench()
    writers = ["A", "B", "CP", "CQ", "CZ", "DK", "DL", "DS", "DT", "DW", "DX", "EA", "EB", "EC", "EE"]
    assert [rf.group_of(w, writers) for w in ("B", "CZ", "DL", "DW", "EA", "EC")] == ["A-CP", "CQ-DK", "DL-DS",
                                                                                       "DT-DW", "DX-EA", "EB-EE"]


def test_fact_missing_parts_are_named_in_order() -> None:
    rf = _bench()
    lines = rf._missing_lines()
    assert list(lines.values()) == list(rf._MISSING_NAMES)
    assert sorted(lines) == list(lines)


def test_probing_records_a_part_and_lets_the_chain_go_on() -> None:
    rf = _bench()
    first = "His son asked whether the tablets could be stopped."
    split = SimpleNamespace(sentences=[SimpleNamespace(text=first), SimpleNamespace(text="Seen in clinic.")])
    named = SimpleNamespace(rows=np.zeros((2, 1), dtype=bool))
    assert own_lines.own_lines_unsaid("other", "can he stop them", split, (first, 0.5), named)
    fired: set[str] = set()
    with rf.probing(fired):
        # while probing the chain answers False (every part tried), the part that fired recorded
        assert not own_lines.own_lines_unsaid("other", "can he stop them", split, (first, 0.5), named)
    assert fired == {"own_lines.reports_question"}
    # and the module's own functions are back afterwards
    assert own_lines.own_lines_unsaid("other", "can he stop them", split, (first, 0.5), named)
