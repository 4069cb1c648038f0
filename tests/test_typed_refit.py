"""`benchmarks/typed_refit.py`: `archehr answer`'s decline, flag and confidence shown, applied to recorded inputs
under a refitted typed confidence; and `fit_typed`'s shrinkage setting."""

from __future__ import annotations

import json
import math

import benchmark_module
import numpy as np
import pytest

from archehr.answerability.typed import L2, TypedConfidence, fit_typed
from archehr.relevance.logistic import LogisticModel, Scaler


def _bench():  # the benchmark script's module
    return benchmark_module.load("typed_refit")


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


# P = sigmoid(first column): threshold 0.1, review level 0.5
MODEL = TypedConfidence(Scaler(np.zeros(1), np.ones(1)), LogisticModel(np.ones(1), 0.0), 0.1, 0.5, {})


def _q(p: float, **kw):
    tr = _bench()
    base = dict(writer="W", answerable=True, row=np.array([_logit(p), 0.0]), pruned=None, lexical_p=0.2,
                absent=False, held=False, ruled=False, given=False, generator_declined=False)
    return tr.Inputs(**{**base, **kw})


def test_decide_declines_flags_and_shows_as_answer_does() -> None:
    tr = _bench()
    cols = np.array([0])
    # the note never names the asked thing: declined, the lexical P shown
    assert tr.decide(MODEL, _q(0.9, absent=True), cols) == (True, False, 0.2)
    # below the threshold: declined, unless a sentence holds the asked kind (then answered and flagged)
    declined, flagged, shown = tr.decide(MODEL, _q(0.05), cols)
    assert declined and not flagged and abs(shown - 0.05) < 1e-9
    assert tr.decide(MODEL, _q(0.05, held=True), cols)[:2] == (False, True)
    # between threshold and review level: flagged at its P, unless the first line gives the asked fact (then not
    # flagged, shown at the review level)
    declined, flagged, shown = tr.decide(MODEL, _q(0.3), cols)
    assert (declined, flagged) == (False, True) and abs(shown - 0.3) < 1e-9
    assert tr.decide(MODEL, _q(0.3, given=True), cols) == (False, False, 0.5)
    # a rule flags a confident answer: its P scaled from threshold..1 into threshold..halfway to the review level
    declined, flagged, shown = tr.decide(MODEL, _q(0.9, ruled=True), cols)
    assert (declined, flagged) == (False, True) and abs(shown - (0.1 + 0.2 * 0.8 / 0.9)) < 1e-9
    # the generator declining declines
    assert tr.decide(MODEL, _q(0.9, generator_declined=True), cols)[0] is True


def test_decide_reads_the_columns_fitted_on() -> None:
    tr = _bench()
    q = _q(0.9, row=np.array([0.0, _logit(0.9)]))
    assert abs(tr.decide(MODEL, q, np.array([1]))[2] - 0.9) < 1e-9
    # the first column says P 0.5: at the review level, so not flagged
    declined, flagged, shown = tr.decide(MODEL, q, np.array([0]))
    assert (declined, flagged) == (False, False) and abs(shown - 0.5) < 1e-9


def test_fit_typed_shrinks_more_with_a_larger_l2() -> None:
    rng = np.random.default_rng(0)
    rows = rng.normal(size=(60, 2))
    y = (rows[:, 0] + 0.3 * rng.normal(size=60) > 0).astype(float)
    groups = np.array(["A", "B", "C"] * 20)
    loose, tight = fit_typed(rows, y, groups, l2=0.1), fit_typed(rows, y, groups, l2=100.0)
    assert abs(tight.head.weights[0]) < abs(loose.head.weights[0])
    assert fit_typed(rows, y, groups).head.weights.tolist() == fit_typed(rows, y, groups, l2=L2).head.weights.tolist()


def test_decide_applies_another_outright_decline_level_to_inputs_recording_it() -> None:
    tr = _bench()
    cols = np.array([0])
    # the note names nothing the question asks about; the lexical P 0.2 (recorded: not declined outright)
    q = _q(0.9, names_nothing=True)
    assert tr.decide(MODEL, q, cols)[0] is False
    assert tr.decide(MODEL, q, cols, absent_decline=0.3) == (True, False, 0.2)
    assert tr.decide(MODEL, q, cols, absent_decline=0.1)[0] is False
    # a result question is declined outright at any level
    assert tr.decide(MODEL, _q(0.9, names_nothing=True, result_kind=True), cols, absent_decline=0.1)[0] is True
    # inputs recorded without it keep their recorded decision
    assert tr.decide(MODEL, _q(0.9, absent=True), cols, absent_decline=0.0)[0] is True


def test_shards_hold_every_writer_once() -> None:
    tr = _bench()
    writers = ["A", "B", "C", "D", "E"]
    shards = [tr.shard_of(writers, f"{k}/2") for k in (1, 2)]
    assert shards == [["A", "C", "E"], ["B", "D"]]
    assert tr.shard_of(writers, "1/1") == writers
    for bad in ("0/2", "3/2", "half"):
        with pytest.raises(SystemExit):
            tr.shard_of(writers, bad)


def test_fit_from_shards_is_the_fit_of_all_rows(tmp_path) -> None:
    import json

    tr = _bench()
    rng = np.random.default_rng(0)
    lines = []
    for i in range(120):
        answerable = bool(i % 3)
        row = [float(rng.normal(1.0 if answerable else -1.0)), float(rng.normal())]
        lines.append({"writer": "ABCD"[i % 4], "source": f"q-{'abcd'[i % 4]}.yaml", "id": str(i),
                      "answerable": answerable, "row": row, "pruned": None, "lexical_p": 0.5, "absent": False,
                      "held": True, "ruled": False, "given": False, "generator_declined": False})
    halves = [tmp_path / "1.jsonl", tmp_path / "2.jsonl"]
    for k, path in enumerate(halves):
        path.write_text("".join(json.dumps(x) + "\n" for x in lines[k::2]), encoding="utf-8")
    out = tmp_path / "model.json"
    assert tr.main(["--inputs", *map(str, halves), "--fit", str(out)]) == 0
    got = json.loads(out.read_text(encoding="utf-8"))
    want = fit_typed(np.array([x["row"] for x in lines]), np.array([x["answerable"] for x in lines], dtype=float),
                     np.array([x["writer"] for x in lines]))
    assert got["threshold"] == want.threshold and got["review"] == want.review
    assert np.allclose(got["weights"], want.head.weights) and got["training"]["questions"] == [
        "q-a.yaml", "q-b.yaml", "q-c.yaml", "q-d.yaml"]


def test_record_from_an_unknown_writer_is_refused(tmp_path) -> None:
    tr = _bench()
    with pytest.raises(SystemExit, match="no such writer"):
        tr.main(["--record", str(tmp_path / "r.jsonl"), "--writers-from", "no-such-writer"])
    assert not (tmp_path / "r.jsonl").exists()


def test_a_later_record_replaces_its_writers_rows(tmp_path) -> None:
    tr = _bench()

    def line(writer: str, qid: str, ruled: bool) -> str:
        return json.dumps({"writer": writer, "source": "s", "id": qid, "answerable": True, "row": [0.0],
                           "pruned": None, "lexical_p": 0.5, "absent": False, "held": False, "ruled": ruled,
                           "given": False, "generator_declined": False})

    full, again = tmp_path / "full.jsonl", tmp_path / "again.jsonl"
    full.write_text("\n".join([line("A", "a1", False), line("B", "b1", False), line("B", "b2", False)]) + "\n")
    again.write_text(line("B", "b1", True) + "\n")
    got = tr.merged([full, again])
    assert [(q.writer, q.ruled) for q in got] == [("A", False), ("B", True)]
