"""The official keys are declared per key (scoring/aggregation.py rules in scoring/tasks.py): every key of every
built-in task has one rule, and the rules give the official numbers (the golden parity tests check them bit for
bit; here, small hand-computed cases)."""

from __future__ import annotations

import numpy as np
import pytest

from archehr_scoring.aggregation import Mean, MeanOf, MicroPRF, aggregate, prf_rules
from archehr_scoring.stats import Batch
from archehr_scoring.tasks import TASKS, AggregationContext

CTX = AggregationContext(frozenset({"factuality"}))


def _batch(**cols: list[float]) -> Batch:
    return Batch({k: np.array(v, dtype=float).reshape(-1, 1) for k, v in cols.items()})


@pytest.mark.parametrize("name", ["2025", "st1", "st2", "st3", "st4"])
def test_every_official_key_has_exactly_one_declared_rule(name: str) -> None:
    task = TASKS.get(name)
    declared = [k for k, _ in task.aggregation]
    assert sorted(declared) == sorted(task.keys) and len(set(declared)) == len(declared)
    assert all(task.higher_is_better(k) for k in task.keys)


def test_micro_and_macro_prf_from_counts() -> None:
    b = _batch(tp=[1, 0], n_pred=[2, 0], n_gold=[1, 3])
    out = aggregate(prf_rules("", "tp", "n_pred", "n_gold"), b, CTX)
    # micro: tp 1, predicted 2, gold 4 -> P 50, R 25, F1 33.3; macro: case 1 P 50 R 100, case 2 P 0 R 0
    assert [float(out[f"micro_{m}"][0]) for m in ("precision", "recall")] == [50.0, 25.0]
    assert float(out["micro_f1"][0]) == pytest.approx(100 / 3)
    assert [float(out[f"macro_{m}"][0]) for m in ("precision", "recall")] == [25.0, 50.0]


def test_missing_statistics_give_none_never_a_partial_mean() -> None:
    b = _batch(bleu=[10, 20])
    out = aggregate((("bleu", Mean()), ("sari", Mean()), ("overall", MeanOf(("bleu", "sari")))), b, CTX)
    assert float(out["bleu"][0]) == 15.0 and out["sari"] is None and out["overall"] is None


def test_nothing_predicted_and_nothing_to_find_is_perfect_only_when_declared() -> None:
    b = _batch(tp=[0], n_pred=[0], n_gold=[0])
    assert float(MicroPRF("f1", "tp", "n_pred", "n_gold", empty_is_perfect=True).compute("k", b, {}, CTX)[0]) == 100
    assert float(MicroPRF("f1", "tp", "n_pred", "n_gold").compute("k", b, {}, CTX)[0]) == 0
