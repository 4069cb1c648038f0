"""`archehr leaderboard` as a new user meets it: an empty folder, a run of another task, the terminal table and
the HTML page's columns. On the bundled demo release and the committed runs: nothing beside the clone."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from archehr.cli.main import main

REPO = Path(__file__).resolve().parents[1]
KEY = REPO / "data" / "demo" / "test" / "archehr-qa_key.json"
GOLDEN = REPO / "tests" / "golden" / "demo"
FAST = ["--metrics", "factuality", "--resamples", "50"]


def _run(subs: Path, name: str, submission: Path, run_json: dict | None = None) -> Path:
    d = subs / name
    d.mkdir(parents=True)
    shutil.copy(submission, d / "submission.json")
    if run_json is not None:
        (d / "run.json").write_text(json.dumps(run_json), encoding="utf-8")
    return d


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """Two 2025 runs (the committed baselines), an st2 run and a broken one."""
    subs = tmp_path / "submissions"
    for name in ("trained-extractive", "cite-all"):
        _run(subs, name, REPO / "submissions" / name / "submission.json")
    _run(subs, "lexical-st2", GOLDEN / "2026" / "st2-lexical" / "submission.json")
    (subs / "broken").mkdir()
    (subs / "broken" / "submission.json").write_text("[{", encoding="utf-8")
    return subs


def test_no_runs_is_one_line_exit_2_and_nothing_written(tmp_path, capsys):
    empty = tmp_path / "empty"
    (empty / "not-a-run").mkdir(parents=True)  # a folder without submission.json or run.json is not a run
    assert main(["leaderboard", str(empty), "--key", str(KEY)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"error: {empty}: no runs found: a run is a folder holding submission.json (or "
                                "run.json), given itself or inside a submissions folder, or a submission file"]
    assert sorted(p.name for p in empty.rglob("*")) == ["not-a-run"]  # no board files, no cache
    assert main(["leaderboard", str(empty), "--key", str(KEY), "--check"]) == 2  # --check too
    assert "no runs found" in capsys.readouterr().err


def test_a_run_of_another_task_is_named_with_the_option_to_use(mixed, capsys):
    assert main(["leaderboard", str(mixed), "--key", str(KEY), *FAST, "-q"]) == 0
    board = json.loads((mixed / "leaderboard.json").read_text(encoding="utf-8"))
    by = {e["run"]: e for e in board["entries"]}
    assert [e["run"] for e in board["entries"] if e["rank"]] == ["trained-extractive", "cite-all"]
    assert by["lexical-st2"]["status"] == "other-task" and by["lexical-st2"]["scores"] == {}
    assert [p["message"] for p in by["lexical-st2"]["problems"]] == ["st2 run: use --task st2"]
    assert by["broken"]["status"] == "invalid"
    md = (mixed / "LEADERBOARD.md").read_text(encoding="utf-8")
    st2_row = next(ln for ln in md.splitlines() if ln.startswith("| - | lexical-st2 |"))
    assert st2_row.endswith("| st2 run: use --task st2 |") and "missing answer" not in md
    rows = {r["run"]: r for r in csv.DictReader(io.StringIO((mixed / "leaderboard.csv").read_text()))}
    assert rows["lexical-st2"]["problems"] == "st2 run: use --task st2"
    # and the other way round: on the st2 board the 2025 runs are the other task
    assert main(["leaderboard", str(mixed), "--key", str(KEY), "--task", "st2", "--resamples", "50", "-q",
                 "-o", str(mixed.parent / "st2-board")]) == 0
    out = capsys.readouterr().out
    st2 = json.loads((mixed.parent / "st2-board" / "leaderboard.json").read_text(encoding="utf-8"))
    by = {e["run"]: e for e in st2["entries"]}
    assert by["lexical-st2"]["rank"] == 1 and by["lexical-st2"]["status"] == "ok"
    assert by["cite-all"]["status"] == "other-task" and "2025 run: use --task 2025" in out


def test_run_json_names_the_task_when_the_shape_cannot(tmp_path):
    """Short st3 answers look like st1 questions: the shape alone never calls a text run the other text task,
    run.json's `task` does."""
    subs = tmp_path / "subs"
    short = [{"case_id": it["case_id"], "prediction": " ".join(it["prediction"].split()[:12])}
             for it in json.loads((GOLDEN / "2026" / "st3-clinician" / "submission.json").read_text())]
    sub = tmp_path / "short.json"
    sub.write_text(json.dumps(short), encoding="utf-8")
    _run(subs, "st3-recorded", sub, {"task": "st3"})
    _run(subs, "st3-unrecorded", sub)
    assert main(["leaderboard", str(subs), "--key", str(KEY), "--task", "st1", "--metrics", "rouge",
                 "--resamples", "20", "-q"]) == 0
    by = {e["run"]: e for e in json.loads((subs / "leaderboard.json").read_text())["entries"]}
    assert by["st3-recorded"]["status"] == "other-task"
    assert [p["message"] for p in by["st3-recorded"]["problems"]] == ["st3 run: use --task st3"]
    assert by["st3-unrecorded"]["status"] == "ok"  # scored as asked


def test_terminal_output_is_a_short_ranked_table(mixed, capsys):
    assert main(["leaderboard", str(mixed), "--key", str(KEY), "--metrics", "factuality,rouge", "--resamples", "50",
                 "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Leaderboard (2025): 4 runs, 2 scored"
    assert out[1].split() == ["#", "run", "overall_score", "95%", "CI", "p", "vs", "#1", "status"]
    body = out[2:6]
    assert [ln.split()[:2] for ln in body] == [["1", "trained-extractive"], ["2", "cite-all"], ["-", "broken"],
                                               ["-", "lexical-st2"]]
    assert body[2].endswith("invalid (1 problem)") and body[3].endswith("st2 run: use --task st2")
    assert out[6:] == ["* partial: the mean of the parts that could run, not the official score "
                       "(see LEADERBOARD.md)"]
    assert max(len(ln) for ln in out) <= 100 and not any("|" in ln or "signature" in ln.lower() for ln in out)


def test_html_shows_the_headline_columns_and_hides_the_rest_behind_a_checkbox(mixed):
    assert main(["leaderboard", str(mixed), "--key", str(KEY), *FAST, "-q"]) == 0
    html = (mixed / "leaderboard.html").read_text(encoding="utf-8")
    assert '<input type="checkbox" id="more-cols">' in html and "body:has(#more-cols:checked)" in html
    assert '<th class="num"><button>overall_<wbr>factuality_<wbr>score</button></th>' in html  # headline: shown
    assert '<th class="num x"><button>strict_<wbr>macro_<wbr>precision</button></th>' in html  # the rest: hidden
    assert '<th class="x"><button>commit</button></th>' in html
    assert '<td class="bad nw">st2 run: use --task st2</td>' in html
