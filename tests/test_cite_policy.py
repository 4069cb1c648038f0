"""`benchmarks/cite_rules.py`: citation policies replayed on recorded candidates, and their figures."""

from __future__ import annotations

import benchmark_module


def _rules():
    return benchmark_module.load("cite_rules")


def _cand(cid: str, pos: int, rank: float, typed: float, topic: float = 1.0, partners: list[str] | None = None):
    return {"i": pos, "id": cid, "pos": pos, "rank": rank, "typed": typed, "topic": topic, "holds": True,
            "firm": True, "para": 0, "kind": "text", "entry": "", "header": False, "words": 8,
            "partners": partners or []}


def _row(writer: str, gold: list[str], cands: list[dict], chosen: list[str], cited: list[str]) -> dict:
    return {"writer": writer, "id": "q", "answerable": True, "gold": gold, "first": [cands[0]["id"]],
            "abstained": False, "chosen": chosen, "cited": cited, "candidates": cands}


def test_shares_cut_the_lines_after_a_firm_first_by_the_strong_share():
    r = _rules()
    row = _row("A", ["1"], [_cand("1", 0, 1.0, 0.8), _cand("2", 1, 0.6, 0.8), _cand("3", 2, 0.3, 0.8)],
               ["1", "2"], ["1", "2"])
    assert r.shares(0.25, 0.35)(row) == ["1", "2"]
    assert r.shares(0.25, 0.7)(row) == ["1"]
    # a weak first (answer type 0.3) reads the weak share
    weak = _row("A", ["1"], [_cand("1", 0, 1.0, 0.3), _cand("2", 1, 0.6, 0.3), _cand("3", 2, 0.3, 0.3)],
                ["1", "2"], ["1", "2"])
    assert r.shares(0.25, 0.7)(weak) == ["1", "2", "3"]
    assert r.shares(0.4, 0.7)(weak) == ["1", "2"]


def test_cited_adds_the_lines_going_on_and_drops_what_the_generator_dropped():
    r = _rules()
    cands = [_cand("1", 0, 1.0, 0.8, partners=["9"]), _cand("2", 1, 0.9, 0.8), _cand("3", 2, 0.8, 0.8)]
    # the recorded answer chose 1, 2, 3 (and 9 going on from 1) but showed 1, 9 and 2 only: 3 was dropped
    row = _row("A", ["1", "9"], cands, ["1", "2", "3"], ["1", "9", "2"])
    assert r.cited(row, r.shares(0.25, 0.35)) == ["1", "2", "9"]
    f = r.figures([row], r.shares(0.25, 0.95))  # 1 and 9 cited, both gold
    assert (f["recall"], f["precision"], f["first"]) == (100.0, 100.0, 100.0)
    declined = {**row, "abstained": True}
    assert r.figures([declined], r.shares())["recall"] == 0.0
