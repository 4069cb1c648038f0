"""`archehr codabench`: the bundle follows Codabench's v2 contract, and its scoring program, run exactly as
Codabench's compute worker runs it, gives the numbers `archehr score` gives."""

from __future__ import annotations

import datetime as dt
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from archehr.cli.main import main
from archehr.codabench import build_bundle, columns_for, split_metrics, unpack_for_scoring
from archehr.data import load_split

REPO = Path(__file__).resolve().parents[1]
DEMO_TEST = REPO / "data" / "demo" / "test"
KEY = DEMO_TEST / "archehr-qa_key.json"
START = dt.date(2026, 1, 15)
METRICS = {"2025": "factuality,bleu,rouge,sari", "st1": "rouge", "st3": "bleu,rouge,sari"}


@pytest.fixture(scope="module")
def submissions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A demo-test submission per task: the committed 2025 run, and the default system's 2026 predictions."""
    from archehr.pipeline import load_system

    out = tmp_path_factory.mktemp("subs")
    split = load_split(None, "test")
    system = load_system()
    subs = {"2025": REPO / "submissions" / "trained-extractive" / "submission.json"}
    for task in ("st1", "st2", "st3", "st4"):
        rows = [{"case_id": c.case_id, "prediction": system.predict(c, task, split).prediction} for c in split.cases]
        subs[task] = out / f"{task}.json"
        subs[task].write_text(json.dumps(rows))
    return subs


def _bundle(task: str, **kwargs: object) -> bytes:
    return build_bundle(task, DEMO_TEST, start=START, **kwargs)  # type: ignore[arg-type]


def _run_like_codabench(bundle: bytes, submission: Path, root: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The compute worker: program, input/ref, input/res, output folders; the metadata command, from the
    program folder, with $input/$output replaced by those folders."""
    program, input_dir, output_dir = unpack_for_scoring(bundle, submission, root)
    command = yaml.safe_load((program / "metadata.yaml").read_text())["command"]
    assert command == "python3 /app/program/score.py /app/input /app/output"
    argv = command.replace("/app/program", str(program)).replace("/app/input", str(input_dir)) \
        .replace("/app/output", str(output_dir)).split()
    argv[0] = sys.executable  # the image's python3; here the test interpreter (numpy, lxml, pyyaml)
    r = subprocess.run(argv, cwd=program, capture_output=True, text=True, check=False,
                       env={"PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"})
    return r, output_dir


def _archehr_score(task: str, submission: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    args = ["score", str(submission), str(KEY), "--task", task, "--format", "json"]
    if task in METRICS:
        args += ["--metrics", METRICS[task]]
    capsys.readouterr()
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def _expected(cli: dict, key: str) -> float:
    if key.endswith("_partial"):
        base = key[: -len("_partial")]
        return cli[base] if cli.get(base) is not None else cli["_meta"]["partial"][base]["value"]
    return cli[key]


@pytest.mark.parametrize("task", ["2025", "st1", "st2", "st3", "st4"])
def test_program_run_as_codabench_matches_archehr_score(task: str, submissions: dict[str, Path], tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    bundle = _bundle(task)
    r, output = _run_like_codabench(bundle, submissions[task], tmp_path)
    assert r.returncode == 0, r.stderr
    # the vendored scorer ran, not the installed one
    assert f"from {tmp_path / 'program' / 'lib' / 'archehr_scoring'}" in r.stdout
    scores = json.loads((output / "scores.json").read_text())
    yml = yaml.safe_load(zipfile.ZipFile(io.BytesIO(bundle)).read("competition.yaml"))
    (board,) = yml["leaderboards"]
    columns = [c["key"] for c in sorted(board["columns"], key=lambda c: c["index"])]
    assert set(scores) == set(columns) and columns[0] in ("overall_score", "overall_score_partial")
    cli = _archehr_score(task, submissions[task], capsys)
    for key, value in scores.items():
        assert value == pytest.approx(_expected(cli, key), rel=1e-12, abs=1e-12), key
    assert json.loads((output / "report.json").read_text())["_meta"]["task"] == task
    if task in ("st2", "st4"):  # no model metric in their official score: the real overall is on the board
        assert columns[0] == "overall_score" and scores["overall_score"] == cli["overall_score"]
    else:  # the image has no models: the ranking column says it is partial, never the official name
        assert columns[0] == "overall_score_partial" and "overall_score" not in scores


def test_bundle_follows_codabench_v2(tmp_path: Path) -> None:
    zf = zipfile.ZipFile(io.BytesIO(_bundle("st2")))
    names = set(zf.namelist())
    yml = yaml.safe_load(zf.read("competition.yaml"))
    assert yml["version"] == 2 and yml["title"] and yml["image"] in names
    assert zf.read(yml["image"]).startswith(b"\x89PNG\r\n\x1a\n")
    for page in yml["pages"] + [{"file": yml["terms"]}]:
        assert zf.read(page["file"]).strip()  # Codabench refuses empty pages
    (phase,) = yml["phases"]
    assert phase["tasks"] == [0] and phase["start"] == START
    (task,) = yml["tasks"]
    assert task["index"] == 0 and task["scoring_program"] == "scoring_program/"
    assert {"scoring_program/score.py", "scoring_program/metadata.yaml"} <= names
    assert {"reference_data/archehr-qa.xml", "reference_data/archehr-qa_key.json"} <= names
    assert zf.read("reference_data/archehr-qa_key.json") == KEY.read_bytes()
    assert "FROM python:3.11" in zf.read("docker/Dockerfile").decode()
    assert any(line.startswith("numpy==") for line in zf.read("docker/requirements.txt").decode().split())
    lib = [n for n in names if n.startswith("scoring_program/lib/")]
    assert "scoring_program/lib/archehr/data/model.py" in lib
    system = ("relevance", "generate", "llm", "pipeline", "runs", "question", "align", "cli", "ask")
    assert not [n for n in lib if n.split("/")[3].removesuffix(".py") in system]
    assert b"archehr.ask" not in zf.read("scoring_program/lib/archehr/__init__.py")
    assert _bundle("st2") == zf.fp.getvalue()  # type: ignore[union-attr]  # reproducible


def test_all_subtasks_bundle_fills_the_detected_board(submissions: dict[str, Path], tmp_path: Path) -> None:
    bundle = _bundle("all")
    yml = yaml.safe_load(zipfile.ZipFile(io.BytesIO(bundle)).read("competition.yaml"))
    boards = {b["key"]: b for b in yml["leaderboards"]}
    assert set(boards) == {"2025", "st1", "st2", "st3", "st4"}
    all_keys = [c["key"] for b in boards.values() for c in b["columns"]]
    assert len(all_keys) == len(set(all_keys))
    r, output = _run_like_codabench(bundle, submissions["st4"], tmp_path)
    assert r.returncode == 0, r.stderr
    scores = json.loads((output / "scores.json").read_text())
    assert set(scores) == {c["key"] for c in boards["st4"]["columns"]}
    assert all(k.startswith("st4_") for k in scores)


def test_bad_submission_fails_with_located_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"case_id": "21", "prediction": 5}]))
    r, output = _run_like_codabench(_bundle("st2"), bad, tmp_path / "run")
    assert r.returncode == 1 and "case 21, field prediction" in r.stderr and "Traceback" not in r.stderr
    assert not (output / "scores.json").exists()


def test_cli_writes_bundle_and_checks_it(tmp_path: Path, submissions: dict[str, Path],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bundle.zip"
    assert main(["codabench", "--task", "st2", "--reference", str(DEMO_TEST), "-o", str(out),
                 "--check-with", str(submissions["st2"]), "--start", "2026-01-15"]) == 0
    assert '"overall_score"' in capsys.readouterr().out and zipfile.is_zipfile(out)
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["codabench", "--task", "st2", "--reference", str(DEMO_TEST), "-o", str(tmp_path / "b.zip"),
                 "--check-with", str(bad)]) == 2
    assert not (tmp_path / "b.zip").exists()


def test_cli_bad_options_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.zip"
    assert main(["codabench", "--task", "st9", "--reference", str(DEMO_TEST), "-o", str(out)]) == 2
    assert "unknown task 'st9'" in capsys.readouterr().err
    no_key = tmp_path / "nokey"
    no_key.mkdir()
    (no_key / "archehr-qa.xml").write_bytes((DEMO_TEST / "archehr-qa.xml").read_bytes())
    assert main(["codabench", "--task", "st2", "--reference", str(no_key), "-o", str(out)]) == 2
    assert "no key file" in capsys.readouterr().err
    base = ["codabench", "--reference", str(DEMO_TEST), "-o", str(out)]
    assert main(["codabench", "--task", "st1", "--reference", str(no_key), "-o", str(out)]) == 0
    assert main(base + ["--task", "all", "--metrics", "rouge"]) == 2
    assert main(base + ["--task", "st3", "--metrics", "nope"]) == 2
    assert "has no metric nope" in capsys.readouterr().err
    assert split_metrics("rouge, bertscore(model=m,layers=4)") == ["rouge", "bertscore(model=m,layers=4)"]
    assert [c.key for c in columns_for("st3", ["bleu", "bertscore(model=m,layers=4)"])][:3] == \
        ["overall_score_partial", "bleu", "bertscore"]  # rouge and sari not asked for: no column
    assert columns_for("st3", None)[0].key == "overall_score"  # every metric run: the official overall
    assert main(["codabench", "--task", "st2", "--reference", str(tmp_path / "missing"), "-o", str(out)]) == 2


def test_which_tasks_need_the_key_comes_from_the_task_registry(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A task declared like st1 (scored against the XML's question) needs no key; one like st2 does."""
    import dataclasses

    from archehr.codabench import _check_reference, task_list
    from archehr.errors import InputError
    from archehr_scoring.tasks import TASKS, get_task

    no_key = tmp_path / "nokey"
    no_key.mkdir()
    (no_key / "archehr-qa.xml").write_bytes((DEMO_TEST / "archehr-qa.xml").read_bytes())
    for name in ("st1", "st2"):
        monkeypatch.setitem(TASKS._entries, f"twin-{name}", dataclasses.replace(get_task(name), name=f"twin-{name}"))
    _check_reference(no_key, ["twin-st1"])
    with pytest.raises(InputError, match="no key file"):
        _check_reference(no_key, ["twin-st1", "twin-st2"])
    assert task_list("all") == ["2025", "st1", "st2", "st3", "st4"]  # the built-in tasks, not the twins
