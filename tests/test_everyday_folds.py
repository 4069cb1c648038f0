"""`benchmarks/everyday.py --writer-folds K`: writers dealt into K folds, each fold scored by a typed confidence
model fitted on the other folds' writers only, figures per writer, their mean and pooled."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import benchmark_module
import pytest


def _bench():  # the benchmark script's module
    return benchmark_module.load("everyday")


def test_writers_are_dealt_into_folds_in_order() -> None:
    ev = _bench()
    assert ev.writer_folds(("A", "B", "C", "D", "E"), 2) == (("A", "C", "E"), ("B", "D"))
    assert ev.writer_folds(("A", "B", "C"), 3) == (("A",), ("B",), ("C",))
    # every writer of the benchmark in exactly one fold
    folds = ev.writer_folds(tuple(ev.WRITERS), 6)
    assert sorted(w for f in folds for w in f) == sorted(ev.WRITERS) and len(folds) == 6


@pytest.mark.parametrize("k", [0, 1, 4])
def test_a_fold_count_out_of_range_is_refused(k: int) -> None:
    ev = _bench()
    with pytest.raises(SystemExit, match="2 to 3 folds"):
        ev.writer_folds(("A", "B", "C"), k)


def test_an_unknown_writer_is_refused() -> None:
    ev = _bench()
    with pytest.raises(SystemExit, match="--writers"):
        ev._known(("A", "NOPE"))
    with pytest.raises(SystemExit, match="--writers"):
        ev._known(("A",))


def test_each_fold_is_scored_by_a_model_fitted_without_it(monkeypatch, tmp_path, capsys) -> None:
    ev = _bench()
    # three writers of one questions file each: A two answerable, B one of each, C one unanswerable
    files = {"A": ("a.yaml",), "B": ("b.yaml",), "C": ("c.yaml",)}
    answerable = {"a.yaml": [True, True], "b.yaml": [True, False], "c.yaml": [False]}
    monkeypatch.setattr(ev, "WRITERS", files)

    def load(paths):
        name = paths[0].name
        return [SimpleNamespace(qid=f"{name}-{i}", source=name, answerable=a) for i, a in enumerate(answerable[name])]

    fitted: dict[str, set[str]] = {}

    def fit(qs, out, cache=None, review_share=None):
        fitted[out.name] = {q.source for q in qs}

    def run(q, system, typed):
        # the model a question is scored with; answerable ones confident, unanswerable ones declined
        return {"source": q.source, "model": Path(typed).name, "kind": "when", "answerable": q.answerable,
                "gold": ["1"] if q.answerable else [], "cited": ["1"] if q.answerable else [],
                "first": ["1"] if q.answerable else [], "abstained": not q.answerable, "flagged": False,
                "confidence": 0.9 if q.answerable else 0.1}

    monkeypatch.setattr(ev, "load_questions", load)
    monkeypatch.setattr(ev, "fit_typed_model", fit)
    monkeypatch.setattr(ev, "run_one", run)
    dump = tmp_path / "dump.jsonl"
    ev.grouped_folds(None, tmp_path, ev.writer_folds(("A", "B", "C"), 2), dump)
    # fold 0 = A and C, fitted on B's questions only; fold 1 = B, fitted on A's and C's
    assert fitted == {"typed-fold-0.json": {"b.yaml"}, "typed-fold-1.json": {"a.yaml", "c.yaml"}}
    import json

    scored = [json.loads(line) for line in dump.read_text().splitlines()]
    assert {(r["writer"], r["model"]) for r in scored} == {("A", "typed-fold-0.json"), ("C", "typed-fold-0.json"),
                                                            ("B", "typed-fold-1.json")}
    out = capsys.readouterr().out
    # pooled over the five questions (three answerable): all answered first, both unanswerable declined
    assert "| pooled | 5 (3) | 100.0% | 100.0% | 100.0% | 0.0% | 100.0% | 0.0% | 1.000 |" in out
    assert "fitted on the writers of the other 1 fold(s)" in out


def test_forward_folds_fit_each_writer_on_those_before_it() -> None:
    ev = _bench()
    assert ev.forward_folds(("A", "B", "C", "D"), "C") == ((("A", "B"), ("C",)), (("A", "B", "C"), ("D",)))
    assert ev.forward_folds(("A", "B", "C"), "C") == ((("A", "B"), ("C",)),)
    for start in ("B", "NOPE"):  # one writer before it is too few to fit and set levels on; NOPE is no writer
        with pytest.raises(SystemExit, match="--forward-from"):
            ev.forward_folds(("A", "B", "C"), start)


def test_a_questions_file_belongs_to_its_writer() -> None:
    ev = _bench()
    assert ev.writer_of("data/everyday/questions-a.yaml") == "A"
    assert ev.writer_of("data/everyday/raw-a/questions.yaml") == "A"  # a writer's raw-note questions too
    assert ev.writer_of("data/everyday/heldout-c/raw/questions.yaml") == "C"
    assert ev.writer_of("mine.yaml") == "mine.yaml"  # a file of no writer is a group of its own


def test_forward_folds_score_each_writer_with_a_model_of_the_writers_before_it(monkeypatch, tmp_path, capsys) -> None:
    ev = _bench()
    files = {"A": ("a.yaml",), "B": ("b.yaml",), "C": ("c.yaml",), "D": ("d.yaml",)}
    monkeypatch.setattr(ev, "WRITERS", files)

    def load(paths):
        name = paths[0].name
        return [SimpleNamespace(qid=f"{name}-0", source=name, answerable=True),
                SimpleNamespace(qid=f"{name}-1", source=name, answerable=False)]

    fitted: dict[str, tuple[set[str], float | None]] = {}

    def fit(qs, out, cache=None, review_share=None):
        fitted[out.name] = ({q.source for q in qs}, review_share)

    def run(q, system, typed):
        return {"source": q.source, "model": Path(typed).name, "kind": "when", "answerable": q.answerable,
                "gold": ["1"] if q.answerable else [], "cited": ["1"], "first": ["1"], "abstained": False,
                "flagged": not q.answerable, "confidence": 0.9 if q.answerable else 0.4}

    monkeypatch.setattr(ev, "load_questions", load)
    monkeypatch.setattr(ev, "fit_typed_model", fit)
    monkeypatch.setattr(ev, "run_one", run)
    chained = ev.forward_folds(("A", "B", "C", "D"), "C")
    ev.grouped_folds(None, tmp_path, tuple(h for _, h in chained), None, tuple(b for b, _ in chained), 0.2)
    # C fitted on A and B, D on A, B and C, each at the review share given; A and B are scored by none
    assert fitted == {"typed-fold-0.json": ({"a.yaml", "b.yaml"}, 0.2),
                      "typed-fold-1.json": ({"a.yaml", "b.yaml", "c.yaml"}, 0.2)}
    out = capsys.readouterr().out
    assert "(typed model fitted on the writers before it)" in out
    assert "| pooled | 4 (2) |" in out and "| A |" not in out
