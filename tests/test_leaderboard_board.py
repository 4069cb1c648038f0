"""Leaderboard: ranking, bad runs kept with their problems, cache, partial scores, staleness check."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from leaderboard_toy import TASK, ToyScorer

from archehr.cli.main import main
from archehr.leaderboard import scorer as scorer_mod
from archehr.leaderboard.board import Entry, build_leaderboard, choose_rank_key
from archehr.leaderboard.cache import ScoreCache, report_from_dict, report_to_dict
from archehr.leaderboard.render import leaderboard_csv, leaderboard_markdown
from archehr.leaderboard.run_folders import Run, find_runs
from archehr_scoring.results import PartialScore, ScoreReport

KEY = [
    {"case_id": "1", "answers": [{"sentence_id": "1", "relevance": "essential"},
                                 {"sentence_id": "2", "relevance": "essential"},
                                 {"sentence_id": "3", "relevance": "not-relevant"}]},
    {"case_id": "2", "answers": [{"sentence_id": "1", "relevance": "essential"},
                                 {"sentence_id": "2", "relevance": "supplementary"}]},
]


def _sub(d: Path, name: str, answers: dict[str, str] | str, run: dict | None = None) -> Path:
    (d / name).mkdir(parents=True)
    f = d / name / "submission.json"
    f.write_text(answers if isinstance(answers, str) else
                 json.dumps([{"case_id": c, "answer": a} for c, a in answers.items()]))
    if run is not None:
        (d / name / "run.json").write_text(json.dumps(run))
    return f


@pytest.fixture
def board_dir(tmp_path: Path) -> tuple[Path, Path]:
    key = tmp_path / "key" / "archehr-qa_key.json"
    key.parent.mkdir()
    key.write_text(json.dumps(KEY))
    subs = tmp_path / "submissions"
    # perfect: tp=3 fp=0 fn=0 -> F1 100
    _sub(subs, "perfect", {"1": "A. |1,2|", "2": "B. |1|"}, {"system": "oracle", "commit": "abcdef1234567890"})
    # half: case 1 cites 1 and 3 (tp1 fp1 fn1), case 2 cites 2 (tp0 fp1 fn1): P=1/3 R=1/3 F1=33.33
    _sub(subs, "half", {"1": "A. |1,3|", "2": "B. |2|"})
    _sub(subs, "broken", "[{")  # invalid JSON
    _sub(subs, "missing-case", {"1": "A. |1|"})  # case 2 missing
    (subs / "no-submission").mkdir()
    (subs / "no-submission" / "run.json").write_text("{}")
    return subs, key


def test_ranks_by_overall_and_lists_failed_runs(board_dir):
    subs, key = board_dir
    lb = build_leaderboard([subs], key, ToyScorer(), cache=ScoreCache(None), n_resamples=50)
    by = {e.name: e for e in lb.entries}
    assert [e.name for e in lb.ranked] == ["perfect", "half"]
    assert by["perfect"].value("overall_score") == pytest.approx(100.0)
    assert by["half"].value("overall_score") == pytest.approx(100 / 3)
    assert by["half"].value("micro_precision") == pytest.approx(100 / 3)
    # every failure is listed with its own problem; none stops the others
    assert by["broken"].status == "invalid" and "not valid JSON" in by["broken"].problems[0].message
    assert by["missing-case"].status == "invalid" and by["missing-case"].problems[0].case_id == "2"
    assert by["no-submission"].status == "invalid"
    assert [e.name for e in lb.entries][2:] == ["broken", "missing-case", "no-submission"]
    assert by["half"].vs_top["overall_score"].delta == pytest.approx(100 - 100 / 3)
    assert "overall_score" not in by["perfect"].vs_top  # the top run is not tested against itself
    md = leaderboard_markdown(lb)
    assert "| 1 | perfect | 100.00" in md and "| oracle | abcdef123456 |" in md
    assert "invalid: not valid JSON" in md and "run folder has no submission.json" in md
    csv_text = leaderboard_csv(lb)
    assert csv_text.splitlines()[0].startswith("rank,run,status,overall_score")
    assert len(csv_text.splitlines()) == 6


def test_second_run_reads_the_cache_and_changes_invalidate_it(board_dir, tmp_path):
    subs, key = board_dir
    cache = ScoreCache(tmp_path / "cache")
    s1 = ToyScorer()
    lb1 = build_leaderboard([subs], key, s1, cache=cache, n_resamples=50)
    assert s1.calls == 4  # the run without a submission is never handed to the scorer
    s2 = ToyScorer()
    lb2 = build_leaderboard([subs], key, s2, cache=ScoreCache(tmp_path / "cache"), n_resamples=50)
    assert s2.calls == 0
    assert leaderboard_markdown(lb1) == leaderboard_markdown(lb2)
    (subs / "half" / "submission.json").write_text(json.dumps([{"case_id": "1", "answer": "A. |1|"},
                                                               {"case_id": "2", "answer": "B. |1|"}]))
    s3 = ToyScorer()
    lb3 = build_leaderboard([subs], key, s3, cache=ScoreCache(tmp_path / "cache"), n_resamples=50)
    assert s3.calls == 1
    assert {e.name: e for e in lb3.entries}["half"].value("micro_precision") == pytest.approx(100.0)
    # a different number of resamples changes the CIs' cache key, not the scores'
    s4 = ToyScorer()
    build_leaderboard([subs], key, s4, cache=ScoreCache(tmp_path / "cache"), n_resamples=60)
    assert s4.calls == 0


def test_damaged_cache_file_is_recomputed(board_dir, tmp_path):
    subs, key = board_dir
    build_leaderboard([subs], key, ToyScorer(), cache=ScoreCache(tmp_path / "c"), n_resamples=20)
    for f in (tmp_path / "c").glob("score-*.json"):
        f.write_text("{half-written")
    s = ToyScorer()
    lb = build_leaderboard([subs], key, s, cache=ScoreCache(tmp_path / "c"), n_resamples=20)
    assert s.calls == 4 and lb.ranked[0].name == "perfect"


def test_report_round_trips_through_the_cache_format():
    r = ScoreReport(TASK, {"overall_score": 50.0}, {"1": {"tp": 1.0, "fp": 1.0, "fn": 0.0}}, {"toy": "toy|v1"},
                    {"m": "why"}, {"overall_score": PartialScore(1.5, ("a",), ("b",))}, (),
                    {"overall_score": (1.0, 2.0)}, {"x": 1})
    assert report_from_dict(json.loads(json.dumps(report_to_dict(r)))) == r


def test_find_runs_accepts_files_run_folders_and_reports_missing_paths(tmp_path):
    f = _sub(tmp_path / "a", "r1", {"1": "x |1|"})
    _sub(tmp_path / "b", "r1", {"1": "x |1|"})
    runs = find_runs([tmp_path / "a", tmp_path / "b" / "r1"])
    assert [r.name for r in runs] == ["a/r1", "b/r1"]  # same folder name twice: disambiguated
    assert find_runs([f])[0].name == "r1"
    from archehr.errors import InputError

    with pytest.raises(InputError, match="no such file"):
        find_runs([tmp_path / "nope"])


def _partial_report(overall: float | None, parts: dict[str, float]) -> ScoreReport:
    # rows hold the part values directly; the toy-free "mean" aggregator below averages them
    return ScoreReport("mean-parts", {**parts, "overall_score": overall}, {"1": parts, "2": parts},
                       {k: k for k in parts}, {"alignscore": "no checkpoint"},
                       {"overall_score": PartialScore(sum(parts.values()) / len(parts), tuple(parts), ("alignscore",))})


@pytest.fixture
def mean_parts_task(monkeypatch):
    from archehr_scoring.tasks import TASKS, Task

    # registered for this test only
    monkeypatch.setitem(TASKS._entries, "mean-parts", Task(
        "mean-parts", "test", "mean of parts", ("bleu", "rougeLsum", "overall_score"), handler=None,
        aggregator=lambda b, ctx: {k: b.mean(k) for k in ("bleu", "rougeLsum") if b.has(k)}))


def test_partial_overall_is_the_mean_of_its_parts_and_marked(mean_parts_task):
    e = Entry(Run("x", Path("x")), "ok", report=_partial_report(None, {"bleu": 10.0, "rougeLsum": 30.0}))
    assert e.value("overall_score") == pytest.approx(20.0) and e.is_partial("overall_score")
    assert e.report.aggregate(["1"], partial=True)["overall_score"] == pytest.approx(20.0)
    key, note = choose_rank_key("st3", [e])
    assert key == "overall_score" and "partial" in note and "alignscore" in note


def test_cli_writes_outputs_and_check_detects_staleness(board_dir, monkeypatch, capsys):
    subs, key = board_dir
    monkeypatch.setattr(scorer_mod, "make_scorer", lambda task, metrics=None, params=None: ToyScorer())
    args = ["leaderboard", str(subs), "--key", str(key), "--task", TASK, "--resamples", "30", "-q"]
    assert main(args) == 0
    for name in ("LEADERBOARD.md", "leaderboard.json", "leaderboard.csv", "leaderboard.html"):
        assert (subs / name).is_file()
    data = json.loads((subs / "leaderboard.json").read_text())
    assert data["entries"][0]["run"] == "perfect" and data["entries"][0]["submission"] == "perfect/submission.json"
    assert str(subs) not in (subs / "LEADERBOARD.md").read_text()  # no machine-specific paths
    assert main(args + ["--check"]) == 0
    shutil.rmtree(subs / "perfect")
    capsys.readouterr()
    assert main(args + ["--check"]) == 1
    assert "stale" in capsys.readouterr().err
    (subs / "LEADERBOARD.md").unlink()
    assert main(args + ["--check"]) == 1


def test_cli_bad_key_and_bad_test_exit_2(board_dir, monkeypatch, capsys):
    subs, key = board_dir
    monkeypatch.setattr(scorer_mod, "make_scorer", lambda task, metrics=None, params=None: ToyScorer())
    assert main(["leaderboard", str(subs), "--key", str(key.parent / "nope.json"), "--task", TASK]) == 2
    assert "key file not found" in capsys.readouterr().err
    assert main(["leaderboard", str(subs), "--key", str(key), "--task", TASK, "--test", "t-test"]) == 2
    assert "unknown significance test" in capsys.readouterr().err


@pytest.fixture
def seen_settings(monkeypatch) -> dict:
    """Replaces the scorer with the toy one and records the metric parameters the CLI asked for."""
    seen: dict = {}

    def fake(task, metrics=None, params=None):
        seen["settings"] = params
        return ToyScorer()

    monkeypatch.setattr(scorer_mod, "make_scorer", fake)
    return seen


def test_cli_passes_model_metric_settings(board_dir, seen_settings):
    subs, key = board_dir
    seen = seen_settings
    base = ["leaderboard", str(subs), "--key", str(key), "--task", TASK, "--resamples", "10", "-q"]
    assert main(base) == 0
    assert seen["settings"] == {}  # every metric on its declared defaults
    assert main(base + ["--bertscore-model", "minilm", "--quickumls", str(subs / "idx")]) == 0
    assert seen["settings"] == {"bertscore": {"model": "minilm"}, "medcon": {"quickumls": str(subs / "idx")}}


def test_compare_cli_passes_model_metric_settings(board_dir, seen_settings):
    subs, key = board_dir
    seen = seen_settings
    args = ["compare", str(subs / "half" / "submission.json"), str(subs / "perfect" / "submission.json"),
            "--key", str(key), "--task", TASK, "--resamples", "10", "--bertscore-model", "minilm"]
    assert main(args) == 0
    assert seen["settings"] == {"bertscore": {"model": "minilm"}}
