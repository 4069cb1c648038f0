"""The ranking direction comes from the task's declared aggregation (`higher_is_better`), not an assumption.

A toy task whose overall score is the mean number of wrong citations per case (lower is better): the
leaderboard ranks the run with none first, says "lower is better", and compare marks the key.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from leaderboard_toy import ToyScorer

from archehr.leaderboard.board import build_leaderboard
from archehr.leaderboard.cache import ScoreCache
from archehr.leaderboard.compare import compare_reports, comparison_text
from archehr.leaderboard.compare import to_json_dict as comparison_json
from archehr.leaderboard.html_board import leaderboard_html
from archehr.leaderboard.render import leaderboard_markdown
from archehr_scoring.aggregation import Mean
from archehr_scoring.results import ScoreReport
from archehr_scoring.tasks import TASKS, Task

LOWER = "toy-errors"
SPEC = Task(LOWER, "toy", "wrong citations per case", ("overall_score", "recall_hits"), handler=None,
            aggregation=(("overall_score", Mean("fp", higher_is_better=False)), ("recall_hits", Mean("tp"))))
KEY = [{"case_id": "1", "answers": [{"sentence_id": "1", "relevance": "essential"},
                                    {"sentence_id": "2", "relevance": "essential"}]},
       {"case_id": "2", "answers": [{"sentence_id": "1", "relevance": "essential"}]}]


class ErrorsScorer(ToyScorer):
    task = LOWER

    def fingerprint(self) -> str:
        return "toy-errors|v1"

    def score(self, submission: Path, key: Path) -> ScoreReport:
        rows = super().score(submission, key).per_case
        return ScoreReport(LOWER, ScoreReport(LOWER, {}, rows, {}).aggregate(list(rows)), rows, {})


@pytest.fixture
def lower_task(monkeypatch):
    monkeypatch.setitem(TASKS._entries, LOWER, SPEC)
    return SPEC


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    key = tmp_path / "archehr-qa_key.json"
    key.write_text(json.dumps(KEY))
    subs = tmp_path / "subs"
    # "careful": no wrong citation (overall 0); "sloppy": 2 and 1 wrong (overall 1.5), and more right ones.
    for name, answers in (("careful", {"1": "A. |1|", "2": "B. |1|"}),
                          ("sloppy", {"1": "A. |1,2,3,4|", "2": "B. |1,2|"})):
        (subs / name).mkdir(parents=True)
        (subs / name / "submission.json").write_text(
            json.dumps([{"case_id": c, "answer": a} for c, a in answers.items()]))
    return subs, key


def test_the_declaration_is_read(lower_task) -> None:
    assert not lower_task.higher_is_better("overall_score") and lower_task.higher_is_better("recall_hits")


def test_leaderboard_ranks_a_lower_is_better_key_smallest_first(lower_task, runs) -> None:
    subs, key = runs
    lb = build_leaderboard([subs], key, ErrorsScorer(), cache=ScoreCache(None), n_resamples=20)
    by = {e.name: e for e in lb.entries}
    assert by["careful"].value("overall_score") == 0.0 and by["sloppy"].value("overall_score") == 1.5
    # assuming higher is better would put "sloppy" (1.5) first
    assert [e.name for e in lb.ranked] == ["careful", "sloppy"] and not lb.higher_is_better
    assert by["sloppy"].vs_top["overall_score"].delta == pytest.approx(-1.5)  # top - run: the top is lower
    assert "Ranked by `overall_score` (lower is better)." in leaderboard_markdown(lb)
    assert "(lower is better)" in leaderboard_html(lb) and "higher is better" not in leaderboard_html(lb)


def test_rank_by_a_higher_is_better_key_of_the_same_task(lower_task, runs) -> None:
    subs, key = runs
    lb = build_leaderboard([subs], key, ErrorsScorer(), cache=ScoreCache(None), n_resamples=20, rank_by="recall_hits")
    assert [e.name for e in lb.ranked] == ["sloppy", "careful"] and lb.higher_is_better
    assert "(higher is better)" in leaderboard_markdown(lb)


def test_compare_marks_the_lower_is_better_key(lower_task, runs) -> None:
    subs, key = runs
    scorer = ErrorsScorer()
    a, b = (scorer.score(subs / n / "submission.json", key) for n in ("careful", "sloppy"))
    c = compare_reports(a, b, "careful", "sloppy", n_resamples=20, case_key="overall_score")
    assert c.lower_is_better == ["overall_score"]
    text = comparison_text(c)
    assert "lower is better on (marked v): overall_score; higher on the rest" in text
    assert any(line.startswith("overall_score v ") for line in text.splitlines())
    assert comparison_json(c)["lower_is_better"] == ["overall_score"]


def test_built_in_tasks_read_higher_is_better_and_say_so() -> None:
    for name in TASKS.names():
        task = TASKS.get(name)
        assert all(task.higher_is_better(k) for k in task.keys), name
