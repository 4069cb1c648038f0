"""An ensemble (`archehr ensemble`) listed beside runs is marked as one on every board, from its run.json."""

from __future__ import annotations

import json
import shutil

from conftest import REPO

from archehr.cli.main import main
from archehr.leaderboard.run_folders import ensemble_summary, system_cell

KEY = REPO / "data" / "demo" / "test" / "archehr-qa_key.json"
MEMBERS = [REPO / "submissions" / n for n in ("trained-extractive", "lexical-extractive", "trained-plain")]


def test_summary_reads_the_kind_and_the_members_from_run_json():
    assert ensemble_summary({"system": {"name": "x"}}) == {"kind": "run", "ensemble": ""}
    assert ensemble_summary({}) == {"kind": "run", "ensemble": ""}
    record = {"system": {"name": "ensemble(a+b)", "kind": "ensemble"}, "ensemble": {"members": [{}, {}]}}
    assert ensemble_summary(record) == {"kind": "ensemble", "ensemble": "ensemble of 2 runs"}
    assert ensemble_summary({"system": {"kind": "ensemble"}})["ensemble"] == "ensemble"  # no member list
    assert system_cell({"system": "ensemble(a+b)", "ensemble": "ensemble of 2 runs"}) == \
        "[ensemble of 2 runs] ensemble(a+b)"
    assert system_cell({"system": "x", "ensemble": ""}) == "x"


def test_the_board_marks_an_ensemble_beside_runs(tmp_path, capsys):
    runs = tmp_path / "runs"
    for m in MEMBERS[:2]:
        shutil.copytree(m, runs / m.name)
    assert main(["ensemble", *map(str, MEMBERS), "-o", str(runs / "ens")]) == 0
    capsys.readouterr()
    assert main(["leaderboard", str(runs), "--key", str(KEY), "--metrics", "factuality", "--resamples", "20",
                 "-q"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert "kind" in table[1].split()
    rows = {line.split()[1]: line for line in table[2:] if line.split() and line.split()[1] in
            ("ens", "trained-extractive", "lexical-extractive")}
    assert "ensemble of 3 runs" in rows["ens"]
    assert " run " in rows["trained-extractive"] and "ensemble" not in rows["trained-extractive"]
    board = json.loads((runs / "leaderboard.json").read_text())
    prov = {e["run"]: e["provenance"] for e in board["entries"]}
    assert prov["ens"]["kind"] == "ensemble" and prov["ens"]["ensemble"] == "ensemble of 3 runs"
    assert prov["lexical-extractive"]["kind"] == "run"
    html = (runs / "leaderboard.html").read_text()
    assert html.count('<small class="kind">(ensemble of 3 runs)</small>') == 1
    md = (runs / "LEADERBOARD.md").read_text()
    assert md.count("ensemble of 3 runs") == 1  # in the system column


def test_a_board_without_ensembles_has_no_kind_column(tmp_path, capsys):
    shutil.copytree(MEMBERS[0], tmp_path / "runs" / "one")
    assert main(["leaderboard", str(tmp_path / "runs"), "--key", str(KEY), "--metrics", "factuality",
                 "--resamples", "20", "-q"]) == 0
    assert "kind" not in capsys.readouterr().out.splitlines()[1].split()
