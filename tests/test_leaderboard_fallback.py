"""A run whose model answered fewer cases than its own --min-model-share is never ranked as the model's result."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO

from archehr.cli.main import main

KEY = REPO / "data" / "demo" / "test" / "archehr-qa_key.json"
OFFLINE = REPO / "submissions" / "trained-extractive"


def _share(answered: int, cases: int, min_share: float | None) -> dict:
    share = answered / cases
    return {"answered": answered, "cases": cases, "share": share, "min_share": min_share,
            "below_min": bool(min_share and share < min_share), "top_fallback_reasons": []}


def _llm_run(folder: Path, name: str, share: dict) -> None:
    """An LLM run whose server was down: every case is the offline fallback's (the same submission as OFFLINE)."""
    (folder / name).mkdir(parents=True)
    shutil.copy(OFFLINE / "submission.json", folder / name / "submission.json")
    run = json.loads((OFFLINE / "run.json").read_text())
    run["system"] = {"name": "some-llm"}
    run["model_share"] = share
    (folder / name / "run.json").write_text(json.dumps(run))


def _board(tmp_path: Path, capsys) -> tuple[list[str], dict]:
    assert main(["leaderboard", str(tmp_path / "runs"), "--key", str(KEY), "--metrics", "factuality",
                 "--resamples", "20", "-q"]) == 0
    table = capsys.readouterr().out.splitlines()
    return table, json.loads((tmp_path / "runs" / "leaderboard.json").read_text())


def test_a_zero_percent_model_run_is_not_ranked_beside_its_fallback(tmp_path, capsys) -> None:
    shutil.copytree(OFFLINE, tmp_path / "runs" / "offline")
    _llm_run(tmp_path / "runs", "llm-server-down", _share(0, 10, 0.9))
    table, board = _board(tmp_path, capsys)
    entries = {e["run"]: e for e in board["entries"]}
    assert entries["offline"]["rank"] == 1 and entries["offline"]["status"] == "ok"
    down = entries["llm-server-down"]
    assert down["rank"] is None and down["status"] == "fallback"  # never "ok", never ranked
    assert down["scores"] == entries["offline"]["scores"]  # its scores are listed: they are the fallback's
    assert "the model answered 0 of 10 cases (0%), below this run's --min-model-share 90%" in \
        down["problems"][-1]["message"]
    head = table[1].split()
    assert head[:2] == ["#", "run"] and "model" in head  # the terminal table has the model share
    row = next(line for line in table if "llm-server-down" in line)
    assert row.startswith("-") and " 0% " in row and "FALLBACK" in row
    assert next(line for line in table if "offline" in line).startswith("1 ")
    md = (tmp_path / "runs" / "LEADERBOARD.md").read_text()
    assert "| - | llm-server-down |" in md and "fallback: the model answered 0 of 10 cases" in md
    assert "fallback: 1 problem" in (tmp_path / "runs" / "leaderboard.html").read_text()


def test_a_run_at_or_above_its_min_share_is_ranked_with_its_share_shown(tmp_path, capsys) -> None:
    shutil.copytree(OFFLINE, tmp_path / "runs" / "offline")
    _llm_run(tmp_path / "runs", "llm-ok", _share(9, 10, 0.9))
    _llm_run(tmp_path / "runs", "llm-accepted", _share(0, 10, None))  # --min-model-share 0 accepted the run
    table, board = _board(tmp_path, capsys)
    assert {e["run"]: e["status"] for e in board["entries"]} == {"offline": "ok", "llm-ok": "ok",
                                                                  "llm-accepted": "ok"}
    rows = {line.split()[1]: line for line in table[2:] if line[:1].isdigit()}
    assert " 90% " in rows["llm-ok"] and " 0% " in rows["llm-accepted"]  # the share is the mark
    assert rows["offline"].split()[-1] == "ok"


def test_no_model_column_for_boards_without_llm_runs(tmp_path, capsys) -> None:
    shutil.copytree(OFFLINE, tmp_path / "runs" / "offline")
    table, _ = _board(tmp_path, capsys)
    assert table[1].split() == ["#", "run", "overall_factuality_score", "95%", "CI", "p", "vs", "#1", "status"]
