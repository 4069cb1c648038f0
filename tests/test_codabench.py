"""`archehr codabench`: every bundle passes what Codabench's own unpacker, models and serializers require, and its
scoring program, run the way Codabench's compute worker runs it, gives the numbers `archehr score` gives, with
every score landing in a column of the leaderboard the phase reaches.

The rules live in tests/codabench_rules.py, each with the codalab/codabench file and lines it comes from
(commit c7dbc756b07b133f8e552ae626fab54817ed93f3)."""

from __future__ import annotations

import datetime as dt
import io
import json
import zipfile
from pathlib import Path

import pytest
import yaml
from codabench_rules import CODABENCH_COMMIT, COLUMN_TITLE_MAX, check_bundle, run_like_worker

from archehr.cli.main import main
from archehr.codabench import (
    build_bundle,
    build_bundles,
    bundle_name,
    check_docker_image,
    columns_for,
    split_metrics,
)
from archehr.data import load_split
from archehr.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]
DEMO_TEST = REPO / "data" / "demo" / "test"
KEY = DEMO_TEST / "archehr-qa_key.json"
START = dt.date(2026, 1, 15)
IMAGE = "ghcr.io/archehr-test/archehr-scoring:0.1.0"
TASKS = ("2025", "st1", "st2", "st3", "st4")
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


def _zip_of(submission: Path, dest: Path) -> Path:
    """The participant's upload: a zip with submission.json at its root (what `archehr package` builds)."""
    with zipfile.ZipFile(dest, "w") as zf:
        zf.write(submission, "submission.json")
    return dest


def _bundle(task: str, **kwargs: object) -> bytes:
    return build_bundle(task, DEMO_TEST, docker_image=IMAGE, start=START, **kwargs)  # type: ignore[arg-type]


def _yaml(bundle: bytes) -> dict:
    return yaml.safe_load(zipfile.ZipFile(io.BytesIO(bundle)).read("competition.yaml"))


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


@pytest.mark.parametrize("task", [*TASKS, "all"])
def test_every_bundle_passes_codabench_upload_rules(task: str) -> None:
    """codabench_rules.check_bundle: competitions/tasks.py L368-392 (zip, competition.yaml at the root, version 2),
    unpackers/v2.py L47-249 (pages, tasks, terms, phases, leaderboards), unpackers/base_unpacker.py L35-71,
    L115-135, L200-206, L315-341 (files exist, logo, phase order, leaderboard and competition serializers),
    leaderboards/models.py L24-65 (Leaderboard.title 64, key 36; Column.title and key 36; choices),
    api/serializers/leaderboards.py L62-103 (columns present, unique indexes and keys, primary column),
    competitions/models.py L36, L49, L295 (title 256, docker_image 128, phase name 256), all at c7dbc756."""
    assert CODABENCH_COMMIT.startswith("c7dbc756")
    bundles = build_bundles(task, DEMO_TEST, docker_image=IMAGE, start=START)
    assert list(bundles) == (list(TASKS) if task == "all" else [task])  # all = one bundle per subtask
    for name, bundle in bundles.items():
        errors, saved = check_bundle(bundle)
        assert errors == [], (name, errors)
        assert saved is not None and len(saved.leaderboard_columns) == 1 and saved.phase_leaderboard == {0: 0}
        assert saved.primary_keys[0] in ("overall_score", "overall_score_partial")
        assert saved.docker_image == IMAGE and saved.task_files[0] == {
            "scoring_program": "scoring_program/", "reference_data": "reference_data/"}
        names = set(zipfile.ZipFile(io.BytesIO(bundle)).namelist())
        assert {"scoring_program/metadata.yaml", "scoring_program/score.py", "reference_data/archehr-qa_key.json",
                "ORGANISERS.md", "docker/Dockerfile", "docker/requirements.txt"} <= names


def test_upload_rules_refuse_what_codabench_refuses() -> None:
    """The check is not vacuous: each mutation is one Codabench refuses (leaderboards/models.py L59 Column.title
    max_length=36; base_unpacker.py L324 only leaderboards[0] reachable; v2.py L57-58 empty page; v2.py L104-107
    no scoring program; serializers/leaderboards.py L72-74 duplicate keys)."""
    good = _bundle("st3")

    def mutated(change: object) -> list[str]:
        with zipfile.ZipFile(io.BytesIO(good)) as zf:
            files = {n: zf.read(n) for n in zf.namelist()}
        comp = yaml.safe_load(files["competition.yaml"])
        change(comp, files)  # type: ignore[operator]
        files["competition.yaml"] = yaml.safe_dump(comp).encode()
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            for n, data in files.items():
                zf.writestr(n, data)
        return check_bundle(buf.getvalue())[0]

    def long_title(c: dict, f: dict) -> None:
        c["leaderboards"][0]["columns"][0]["title"] = "x" * (COLUMN_TITLE_MAX + 1)

    def second_board(c: dict, f: dict) -> None:
        c["leaderboards"].append(dict(c["leaderboards"][0], key="other"))

    def empty_page(c: dict, f: dict) -> None:
        f["pages/data.md"] = b""

    def no_program(c: dict, f: dict) -> None:
        del c["tasks"][0]["scoring_program"]

    def duplicate_key(c: dict, f: dict) -> None:
        cols = c["leaderboards"][0]["columns"]
        cols[1]["key"] = cols[0]["key"]

    assert any("max_length=36" in e for e in mutated(long_title))
    assert any("reachable by no phase" in e for e in mutated(second_board))
    assert any("is empty" in e for e in mutated(empty_page))
    assert any("does not have a scoring program" in e for e in mutated(no_program))
    assert any("unique keys" in e for e in mutated(duplicate_key))


@pytest.mark.parametrize("task", TASKS)
def test_program_run_as_codabench_matches_archehr_score(task: str, submissions: dict[str, Path], tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """codabench_rules.run_like_worker: the program and reference data take the unpacker's zip and the worker's
    unzip (unpackers/utils.py L15-27; compute_worker/compute_worker.py L1148-1163, L660-663), the participant's
    files reach input/res through the prediction step with its `metadata` status file (L847-860, L1344-1372), the
    metadata.yaml command runs split like a shell from /app/program (L847-888, L264-286, L1036-1050), and
    scores.json keeps only keys of the phase's leaderboard (api/views/submissions.py L578-587), at c7dbc756.
    Every key must land."""
    bundle = _bundle(task)
    run = run_like_worker(bundle, _zip_of(submissions[task], tmp_path / "upload.zip"), tmp_path / "run")
    assert run.returncode == 0, run.stderr
    # the vendored scorer ran, not the installed one
    assert f"from {tmp_path / 'run' / 'program' / 'lib' / 'archehr_scoring'}" in run.stdout
    (board,) = _yaml(bundle)["leaderboards"]
    columns = [c["key"] for c in sorted(board["columns"], key=lambda c: c["index"])]
    assert run.dropped == [] and set(run.kept) == set(columns)  # every key lands, every column filled
    assert columns[0] in ("overall_score", "overall_score_partial")
    cli = _archehr_score(task, submissions[task], capsys)
    for key, value in run.kept.items():
        assert value == pytest.approx(_expected(cli, key), rel=1e-12, abs=1e-12), key
    assert json.loads((run.root / "output" / "report.json").read_text())["_meta"]["task"] == task
    if task in ("st2", "st4"):  # no model metric in their official score: the real overall is on the board
        assert columns[0] == "overall_score" and run.kept["overall_score"] == cli["overall_score"]
    else:  # the image has no models: the ranking column says it is partial, never the official name
        assert columns[0] == "overall_score_partial" and "overall_score" not in run.kept


def test_all_subtasks_each_land_on_their_own_board(submissions: dict[str, Path], tmp_path: Path) -> None:
    """`--task all` gives one competition per subtask: each subtask's submission, run as the worker runs it in
    its own bundle, has every score kept (api/views/submissions.py L578-587 at c7dbc756), none dropped."""
    bundles = build_bundles("all", DEMO_TEST, docker_image=IMAGE, start=START)
    for task, bundle in bundles.items():
        run = run_like_worker(bundle, _zip_of(submissions[task], tmp_path / f"{task}.zip"), tmp_path / task)
        assert run.returncode == 0, (task, run.stderr)
        assert run.kept and run.dropped == [], task
        assert set(run.kept) == {c["key"] for c in _yaml(bundle)["leaderboards"][0]["columns"]}, task


def test_bundle_contents(tmp_path: Path) -> None:
    zf = zipfile.ZipFile(io.BytesIO(_bundle("st2")))
    names = set(zf.namelist())
    yml = yaml.safe_load(zf.read("competition.yaml"))
    assert yml["version"] == 2 and yml["docker_image"] == IMAGE
    (phase,) = yml["phases"]
    assert phase["tasks"] == [0] and phase["start"] == START
    assert zf.read("reference_data/archehr-qa_key.json") == KEY.read_bytes()
    assert "FROM python:3.11" in zf.read("docker/Dockerfile").decode()
    assert any(line.startswith("numpy==") for line in zf.read("docker/requirements.txt").decode().split())
    notes = zf.read("ORGANISERS.md").decode()
    assert f"docker build -t {IMAGE} docker/" in notes and f"docker push {IMAGE}" in notes
    assert "one competition per subtask" in notes.lower()
    lib = [n for n in names if n.startswith("scoring_program/lib/")]
    assert "scoring_program/lib/archehr/data/model.py" in lib
    system = ("relevance", "generate", "llm", "pipeline", "runs", "question", "align", "cli", "ask")
    assert not [n for n in lib if n.split("/")[3].removesuffix(".py") in system]
    assert b"archehr.ask" not in zf.read("scoring_program/lib/archehr/__init__.py")
    assert _bundle("st2") == zf.fp.getvalue()  # type: ignore[union-attr]  # reproducible


def test_partial_scores_short_titles_and_explained_on_the_evaluation_page() -> None:
    bundle = _bundle("2025")
    (board,) = _yaml(bundle)["leaderboards"]
    titles = {c["key"]: c["title"] for c in board["columns"]}
    assert titles["overall_score_partial"] == "overall_score (partial)"
    assert titles["overall_relevance_score_partial"] == "overall_relevance_score (partial)"
    evaluation = zipfile.ZipFile(io.BytesIO(bundle)).read("pages/evaluation.md").decode()
    assert "without bertscore, alignscore, medcon" in evaluation and "overall_relevance_score_partial" in evaluation


def test_bad_submission_fails_with_located_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"case_id": "21", "prediction": 5}]))
    run = run_like_worker(_bundle("st2"), _zip_of(bad, tmp_path / "bad.zip"), tmp_path / "run")
    assert run.returncode == 1 and "case 21, field prediction" in run.stderr and "Traceback" not in run.stderr
    assert run.scores is None


def test_a_submission_for_another_subtask_is_told_where_it_belongs(submissions: dict[str, Path],
                                                                    tmp_path: Path) -> None:
    run = run_like_worker(_bundle("st2"), _zip_of(submissions["st4"], tmp_path / "st4.zip"), tmp_path / "run")
    first = run.stderr.splitlines()[0]
    assert run.returncode == 1 and run.scores is None
    assert "this competition scores st2" in first and "submit it to the st4 competition" in first


@pytest.mark.parametrize("image", ["ghcr.io/myorg/archehr-scoring:0.1.0", "myorg/archehr-scoring",
                                   "localhost:5000/a/b_c:latest", "registry.example.com/a__b/c-d--e:v1.2",
                                   "docker.io/library/python:3.11-slim", "myorg/scorer@sha256:" + "ab" * 32])
def test_docker_image_references_accepted(image: str) -> None:
    assert check_docker_image(image) == image


@pytest.mark.parametrize(("image", "why"), [
    (None, "required"), ("", "required"), ("YOUR_ORG/archehr-scoring:0.1.0", "lower-case"),
    ("your_org/archehr-scoring:0.1.0", "placeholder"), ("ghcr.io/your-org/scorer", "placeholder"),
    ("My/Image", "lower-case"), ("a//b", "not a Docker image"), ("-a/b", "not a Docker image"),
    ("a/b:t:u", "not a Docker image"), ("a/b_", "not a Docker image"), ("a b/c", "not a Docker image"),
    ("myorg/" + "a" * 130, "128"),
])
def test_docker_image_references_refused(image: str | None, why: str) -> None:
    with pytest.raises(ConfigError, match=why) as e:
        check_docker_image(image)
    assert e.value.problems[0].field == "--docker-image"


def test_cli_requires_a_real_docker_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.zip"
    base = ["codabench", "--task", "st2", "--reference", str(DEMO_TEST), "-o", str(out)]
    capsys.readouterr()
    assert main(base) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--docker-image" in err[0] and "required" in err[0]
    assert main(base + ["--docker-image", "YOUR_ORG/archehr-scoring:0.1.0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--docker-image" in err[0]
    assert not out.exists()


def test_cli_writes_bundle_and_checks_it(tmp_path: Path, submissions: dict[str, Path],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bundle.zip"
    assert main(["codabench", "--task", "st2", "--reference", str(DEMO_TEST), "-o", str(out), "--docker-image",
                 IMAGE, "--check-with", str(submissions["st2"]), "--start", "2026-01-15"]) == 0
    assert '"overall_score"' in capsys.readouterr().out and zipfile.is_zipfile(out)
    assert check_bundle(out.read_bytes())[0] == []
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["codabench", "--task", "st2", "--reference", str(DEMO_TEST), "-o", str(tmp_path / "b.zip"),
                 "--docker-image", IMAGE, "--check-with", str(bad)]) == 2
    assert not (tmp_path / "b.zip").exists()


def test_cli_all_writes_one_bundle_per_subtask(tmp_path: Path, submissions: dict[str, Path],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    base = ["codabench", "--task", "all", "--reference", str(DEMO_TEST), "--docker-image", IMAGE]
    assert main(base + ["-o", str(tmp_path / "one.zip")]) == 2  # a folder, not a zip
    assert "-o names a folder" in capsys.readouterr().err and not (tmp_path / "one.zip").exists()
    out = tmp_path / "bundles"
    assert main(base + ["-o", str(out), "--title", "Demo", "--check-with", str(submissions["st4"])]) == 0
    assert '"overall_score"' in capsys.readouterr().out  # the st4 bundle ran on the st4 submission
    assert sorted(p.name for p in out.iterdir()) == sorted(bundle_name(t) for t in TASKS)
    for t in TASKS:
        bundle = (out / bundle_name(t)).read_bytes()
        assert check_bundle(bundle)[0] == [] and _yaml(bundle)["title"] == f"Demo: {t}"


def test_cli_model_metrics_need_an_image_with_models(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.zip"
    base = ["codabench", "--task", "st3", "--reference", str(DEMO_TEST), "-o", str(out), "--docker-image", IMAGE,
            "--metrics", "rouge,bertscore(model=m,layers=4)"]
    capsys.readouterr()
    assert main(base) == 2
    err = capsys.readouterr().err
    assert "bertscore" in err and "--image-has-models" in err and not out.exists()
    assert main(base + ["--image-has-models"]) == 0
    bundle = out.read_bytes()
    assert check_bundle(bundle)[0] == []
    assert "bertscore" in [c["key"] for c in _yaml(bundle)["leaderboards"][0]["columns"]]
    assert "--image-has-models" in zipfile.ZipFile(io.BytesIO(bundle)).read("ORGANISERS.md").decode()


def test_cli_bad_options_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.zip"
    base = ["codabench", "--reference", str(DEMO_TEST), "-o", str(out), "--docker-image", IMAGE]
    assert main(base + ["--task", "st9"]) == 2
    assert "unknown task 'st9'" in capsys.readouterr().err
    no_key = tmp_path / "nokey"
    no_key.mkdir()
    (no_key / "archehr-qa.xml").write_bytes((DEMO_TEST / "archehr-qa.xml").read_bytes())
    with_no_key = ["codabench", "--reference", str(no_key), "-o", str(out), "--docker-image", IMAGE]
    assert main(with_no_key + ["--task", "st2"]) == 2
    assert "no key file" in capsys.readouterr().err
    assert main(with_no_key + ["--task", "st1"]) == 0
    assert main(base + ["--task", "all", "--metrics", "rouge"]) == 2
    assert main(base + ["--task", "st3", "--metrics", "nope"]) == 2
    assert "has no metric nope" in capsys.readouterr().err
    assert main(base + ["--task", "st2", "--title", "t" * 257]) == 2
    assert split_metrics("rouge, bertscore(model=m,layers=4)") == ["rouge", "bertscore(model=m,layers=4)"]
    assert [c.key for c in columns_for("st3", ["bleu", "bertscore(model=m,layers=4)"])][:3] == \
        ["overall_score_partial", "bleu", "bertscore"]  # rouge and sari not asked for: no column
    assert columns_for("st3", None)[0].key == "overall_score"  # every metric run: the official overall
    assert main(["codabench", "--task", "st2", "--reference", str(tmp_path / "missing"), "-o", str(out),
                 "--docker-image", IMAGE]) == 2
    capsys.readouterr()
    assert main(base + ["--task", "st2", "--check-with", str(tmp_path / "missing.json")]) == 2
    assert "field --check-with: no such file" in capsys.readouterr().err


def test_which_tasks_need_the_key_comes_from_the_task_registry(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A task declared like st1 (scored against the XML's question) needs no key; one like st2 does."""
    import dataclasses

    from archehr.codabench import _check_reference, task_list
    from archehr.errors import InputError
    from archehr_scoring.tasks import TASKS as REGISTRY
    from archehr_scoring.tasks import get_task

    no_key = tmp_path / "nokey"
    no_key.mkdir()
    (no_key / "archehr-qa.xml").write_bytes((DEMO_TEST / "archehr-qa.xml").read_bytes())
    for name in ("st1", "st2"):
        monkeypatch.setitem(REGISTRY._entries, f"twin-{name}",
                            dataclasses.replace(get_task(name), name=f"twin-{name}"))
    _check_reference(no_key, ["twin-st1"])
    with pytest.raises(InputError, match="no key file"):
        _check_reference(no_key, ["twin-st1", "twin-st2"])
    assert task_list("all") == ["2025", "st1", "st2", "st3", "st4"]  # the built-in tasks, not the twins


def test_a_registered_task_with_too_long_a_column_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A column key or title over Codabench's 36 characters (leaderboards/models.py L59-60 at c7dbc756) is refused
    when the bundle is built, not at upload."""
    import dataclasses

    from archehr_scoring.tasks import TASKS as REGISTRY
    from archehr_scoring.tasks import get_task

    st2 = get_task("st2")
    long_key = "a_headline_score_with_a_very_long_name"
    monkeypatch.setitem(REGISTRY._entries, "twin-st2", dataclasses.replace(
        st2, name="twin-st2", headline=(long_key,), keys=(*st2.keys, long_key)))
    with pytest.raises(ConfigError, match="Codabench allows 36"):
        columns_for("twin-st2", None)
