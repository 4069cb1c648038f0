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
