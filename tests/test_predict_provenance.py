"""run.json provenance: portable paths, flagged low-confidence cases, the flagged line of the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

from archehr.runs import run_record_path


def test_portable_path_is_relative_inside_the_working_directory_else_absolute(tmp_path, monkeypatch):
    inside = tmp_path / "data" / "demo" / "test"
    inside.mkdir(parents=True)
    outside = tmp_path.parent
    monkeypatch.chdir(tmp_path)
    assert run_record_path(inside) == "data/demo/test"
    assert run_record_path("data/demo/test") == "data/demo/test"
    assert run_record_path(outside) == str(outside.resolve()) and os.path.isabs(run_record_path(outside))
    assert run_record_path(None) is None


def test_run_json_holds_no_absolute_path_under_the_working_directory(synthetic_dir, tmp_path, monkeypatch):
    from archehr.cli.main import main

    repo = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(repo)  # the checkout is the working directory, as when a run is committed
    out = tmp_path / "run"
    rc = main(["predict", "--data-dir", str(synthetic_dir), "--split", "dev", "--system", "trained-extractive",
               "-o", str(out), "--no-progress"])
    assert rc in (0, None)
    run = json.loads((out / "run.json").read_text())
    text = json.dumps(run["system"]) + run["data"]
    assert str(repo) not in text
    assert run["system"]["source"] == "configs/systems/trained-extractive.yaml"
    assert run["system"]["selector"]["model_file"].startswith("archehr/relevance/")
    # the shared data lies outside the checkout: kept absolute, so it still resolves
    assert os.path.isabs(run["data"]) == (not Path(synthetic_dir).resolve().is_relative_to(repo))


def test_flagged_cases_are_listed_in_run_json_and_printed(synthetic_dir, tmp_path, capsys):
    from archehr.cli.main import main
    from archehr.data.releases import load_split
    from archehr.pipeline import load_system

    split = load_split(synthetic_dir, "dev")
    system = load_system("trained-extractive")
    expected = [c.case_id for c in split.cases if system.select(c)[0].flagged]
    out = tmp_path / "run"
    main(["predict", "--data-dir", str(synthetic_dir), "--split", "dev", "-o", str(out), "--no-progress"])
    run = json.loads((out / "run.json").read_text())
    assert run["flagged_cases"] == expected
    printed = capsys.readouterr().out
    if expected:
        n = len(expected)
        assert f"{n} case{'s' if n != 1 else ''} flagged for review: {', '.join(expected)}" in printed
    else:
        assert "flagged for review" not in printed


def test_run_json_carries_its_schema_version_and_older_ones_read_as_version_1(tmp_path):
    from archehr.data.releases import load_split
    from archehr.pipeline import load_system
    from archehr.runs import RUN_SCHEMA_VERSION, run_schema_version, run_split

    repo = Path(__file__).resolve().parents[1]
    split = load_split(repo / "data" / "demo", "dev").subset(["1"])
    run_split(load_system("cite-all"), split, "2025", tmp_path / "run")
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run["schema_version"] == RUN_SCHEMA_VERSION == 2 and run_schema_version(run) == 2
    assert run_schema_version({"status": "complete"}) == 1  # written before the field existed
    assert run_schema_version({"schema_version": True}) == 1  # not a version number


def test_leaderboard_and_web_app_read_old_and_new_run_json_alike(tmp_path):
    # the committed runs' run.json predate schema_version; a new run carries it: both read the same way
    from archehr.leaderboard.run_folders import find_runs, provenance_summary
    from archehr.serve.runs_data import RunsIndex

    repo = Path(__file__).resolve().parents[1]
    old = json.loads((repo / "submissions" / "cite-all" / "run.json").read_text())
    assert "schema_version" not in old
    for name, extra in (("old", {}), ("new", {"schema_version": 2})):
        d = tmp_path / "runs" / name
        d.mkdir(parents=True)
        (d / "submission.json").write_bytes((repo / "submissions" / "cite-all" / "submission.json").read_bytes())
        (d / "run.json").write_text(json.dumps({**extra, **old}))
    runs = {r.name: r for r in find_runs([tmp_path / "runs"])}
    assert set(runs) == {"old", "new"} and not any(r.problems for r in runs.values())
    assert provenance_summary(runs["old"].provenance) == provenance_summary(runs["new"].provenance)
    assert provenance_summary(runs["new"].provenance)["system"] == old["system"]["name"]
    index = RunsIndex([tmp_path / "runs"], repo / "data" / "demo")
    assert [(e.task, e.split, e.problems) for e in index.runs] == [(old["task"], old["split"], ())] * 2


def test_an_offline_system_reports_no_llm_statistics():
    from archehr.pipeline import LLMStats, load_system

    assert load_system("cite-all").llm_stats() == LLMStats(None, None)


def test_llm_statistics_count_the_backend_cache_and_carry_its_transport_report(tmp_path, monkeypatch):
    from archehr.llm.base import Backend
    from archehr.llm.registry import BACKENDS
    from archehr.pipeline import System
    from archehr.system_config import load_config

    class Echo(Backend):
        name = "toy-echo"

        def complete(self, prompt, **kwargs):
            return [prompt.upper()]

        def describe(self):
            return {"kind": "toy-echo"}

        def report(self):
            return {"retried_attempts": 0}

    monkeypatch.setitem(BACKENDS._entries, "toy-echo", Echo)
    cfg = tmp_path / "s.yaml"
    cfg.write_text("name: s\nselector: {kind: all}\nbackend: {kind: toy-echo}\n", encoding="utf-8")
    system = System(load_config(str(cfg)), cache_dir=tmp_path / "cache")
    assert system.backend().complete("a") == system.backend().complete("a") == ["A"]  # a miss, then a hit
    stats = system.llm_stats()
    assert stats.cache == {"dir": tmp_path / "cache", "hits": 1, "misses": 1}
    assert stats.transport == {"retried_attempts": 0}
