"""What Codabench itself requires of a competition bundle, and how its compute worker runs a scoring program.

Written (not copied) from codalab/codabench at commit c7dbc756b07b133f8e552ae626fab54817ed93f3 (2026-03-13),
read through the search tool's snapshot. Each rule names the file and lines it comes from; paths are under
`src/apps/` unless they start with `compute_worker/`. Kept apart from archehr/codabench.py on purpose: the
check must not share the assumptions of the code it checks.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

CODABENCH_COMMIT = "c7dbc756b07b133f8e552ae626fab54817ed93f3"

# leaderboards/models.py L24-28 (Leaderboard) and L57-65 (Column); competitions/models.py L36, L49 (Competition),
# L295 (Phase.name), L759 (Page.title); tasks/models.py L9 (Task.name)
LEADERBOARD_TITLE_MAX = 64
LEADERBOARD_KEY_MAX = 36
COLUMN_TITLE_MAX = 36
COLUMN_KEY_MAX = 36
COMPETITION_TITLE_MAX = 256
DOCKER_IMAGE_MAX = 128
PHASE_NAME_MAX = 256
PAGE_TITLE_MAX = 255
TASK_NAME_MAX = 256
SUBMISSION_RULES = {"Add", "Add_And_Delete", "Add_And_Delete_Multiple", "Force_Last", "Force_Latest_Multiple",
                    "Force_Best"}  # leaderboards/models.py L7-20
SORTING = {"desc", "asc"}  # leaderboards/models.py L45-48
COMPUTATIONS = {"avg", "sum", "min", "max"}  # leaderboards/models.py L35-44
IMAGE_TYPES = {"jpeg", "jpg", "png", "gif", "webp"}  # drf_extra_fields Base64ImageField, used by api/fields.py L12
# SubmissionScore.score = DecimalField(max_digits=20, decimal_places=10): leaderboards/models.py L80
SCORE_ABS_MAX = 10 ** 10
FILE_TYPES = ("ingestion_program", "input_data", "scoring_program", "reference_data")  # unpackers/v2.py L96


@dataclass(frozen=True)
class SavedCompetition:
    """What the save step would store, as far as scoring needs it."""

    phase_leaderboard: dict[int, int]  # phase index -> leaderboard position (always 0: base_unpacker.py L324)
    leaderboard_columns: list[list[str]]  # column keys of each saved leaderboard, in yaml order
    primary_keys: list[str]  # the ranking column's key of each leaderboard
    task_files: dict[int, dict[str, str]]  # task index -> {file type: folder or file in the bundle}
    docker_image: str


def _text(value: Any, name: str, max_length: int, errors: list[str], required: bool = True) -> None:
    """A DRF CharField built from a model CharField/TextField: required, not blank, at most max_length."""
    if value is None or value == "":
        if required:
            errors.append(f"{name}: this field is required and may not be blank")
        return
    if not isinstance(value, str):
        errors.append(f"{name}: not a string ({type(value).__name__})")
    elif len(value) > max_length:
        errors.append(f"{name}: {len(value)} characters, max_length={max_length}")


def _positive_int(value: Any, name: str, errors: list[str]) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        errors.append(f"{name}: not a positive integer ({value!r})")


def _datetime(value: Any) -> dt.datetime | None:
    """unpackers/utils.py L30-38 get_datetime: None, a date (midnight), a datetime or a parsable string."""
    if not value:
        return None
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time())
    return dt.datetime.fromisoformat(str(value))  # dateutil's parser there accepts more; ISO is what we write


def _image_type(data: bytes) -> str | None:
    try:
        from PIL import Image
    except ImportError:  # Pillow is optional here: recognise the PNG signature at least
        return "png" if data.startswith(b"\x89PNG\r\n\x1a\n") else None
    try:
        with Image.open(io.BytesIO(data)) as im:
            im.verify()
            return (im.format or "").lower()
    except Exception:  # noqa: BLE001 - any decoding failure means Codabench refuses the logo
        return None


def check_bundle(bundle: bytes) -> tuple[list[str], SavedCompetition | None]:
    """Every reason Codabench would refuse this bundle at upload ([] = accepted), and what it would save."""
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="codabench-unpack-") as tmp:
        root = Path(tmp)
        # competitions/tasks.py L368-371: the upload is a zip, extracted as is
        try:
            with zipfile.ZipFile(io.BytesIO(bundle)) as zf:
                zf.extractall(root)
        except zipfile.BadZipFile:
            return ["Bad zip file uploaded."], None
        # competitions/tasks.py L375-392: competition.yaml at the zip's root, version 2 picks V2Unpacker
        yaml_path = root / "competition.yaml"
        if not yaml_path.is_file():
            return ["competition.yaml is missing from zip (it must be at the root)"], None
        comp = yaml.safe_load(yaml_path.read_text())
        if not isinstance(comp, dict):
            return ["competition.yaml is not a mapping"], None
        if str(comp.get("version", "1")) != "2":
            return [f"version {comp.get('version')!r}: these rules are the v2 unpacker's"], None

        def exists(rel: Any) -> bool:
            return isinstance(rel, str) and os.path.exists(os.path.join(root, rel))

        def content(rel: Any) -> str | None:
            return (root / rel).read_text() if exists(rel) and (root / rel).is_file() else None

        # unpackers/v2.py L47-64: every page file exists and is not empty; Page.title (competitions/models.py L759)
        pages = comp.get("pages")
        if not isinstance(pages, list):  # v2.py L50 enumerates it: a missing list is a crash
            errors.append("pages: a list is required")
            pages = []
        for i, page in enumerate(pages):
            if not exists(page.get("file")):
                errors.append(f"Unable to find page: {page.get('file')}")
            elif not content(page["file"]):
                errors.append(f"Page '{page['file']}' is empty, it must contain content.")
            _text(page.get("title"), f"pages[{i}].title", PAGE_TITLE_MAX, errors)

        # unpackers/v2.py L66-108: tasks, each with a unique index and a scoring program (or an existing key)
        tasks = comp.get("tasks")
        task_files: dict[int, dict[str, str]] = {}
        if not tasks:
            errors.append("No tasks listed in this competition")
            tasks = []
        for task in tasks:
            if "index" not in task:
                errors.append(f"ERROR: No index for task: {task.get('name')}")
                continue
            if task["index"] in task_files:
                errors.append(f"ERROR: Duplicate task indexes. Index: {task['index']}")
            if "key" in task:
                errors.append(f"task {task['index']} names an existing task key: not checkable offline")
                continue
            if "scoring_program" not in task:
                errors.append(f'ERROR: Task "{task.get("name")}" does not have a scoring program')
            # tasks/models.py L9 Task.name; api/serializers/tasks.py L47-78 TaskSerializer
            _text(task.get("name"), f"tasks[{task['index']}].name", TASK_NAME_MAX, errors)
            files = {}
            for file_type in FILE_TYPES:
                if file_type in task:
                    # unpackers/base_unpacker.py L35-59 _get_data_key: the path must exist (else a Data UUID)
                    if not exists(task[file_type]):
                        errors.append(f'Cannot find dataset: "{task[file_type]}"')
                    files[file_type] = task[file_type]
            task_files[task["index"]] = files
            program = task.get("scoring_program")
            # unpackers/utils.py L15-27 zip_if_directory zips a folder's *contents*; compute_worker.py L847-864
            # looks for metadata.yaml (or metadata) at the top of the unzipped program
            if exists(program) and (root / program).is_dir() and not any(
                    (root / program / m).is_file() for m in ("metadata.yaml", "metadata")):
                errors.append(f"{program}: no metadata.yaml at the top of the scoring program folder")

        # unpackers/v2.py L110-158: solutions point at existing task indexes
        for sol in comp.get("solutions") or []:
            if "index" not in sol or "tasks" not in sol:
                errors.append(f"solution {sol.get('name')}: index and tasks are required")
            elif not all(t in task_files for t in sol["tasks"]):
                errors.append(f"ERROR: Solution: {sol.get('key')} missing task index pointers")
            elif "key" not in sol and not exists(sol.get("path")):
                errors.append(f"Solution {sol.get('name')} missing \"path\" (or the file)")

        # unpackers/v2.py L160-179: the terms file exists and is not empty
        if "terms" not in comp:
            errors.append("A file containing the terms of this competition has not been supplied")
        elif not content(comp["terms"]):
            errors.append(f"Unable to find (or empty) terms: {comp['terms']}")

        # unpackers/base_unpacker.py L200-206 and L61-71; CompetitionSerializer.logo (serializers/competitions.py
        # L238, L305-307): a logo is required and must decode as an allowed image type
        if not exists(comp.get("image")):
            errors.append(f"Unable to find image: {comp.get('image')}")
        elif _image_type((root / comp["image"]).read_bytes()) not in IMAGE_TYPES:
            errors.append(f"{comp['image']}: not a jpeg/png/gif/webp image")

        # unpackers/v2.py L181-239: phases sorted by index, each with tasks; base_unpacker.py L115-135 ordering
        phases = sorted(comp.get("phases") or [], key=lambda p: p.get("index", 0))
        if not phases:  # v2.py L186-188; CompetitionSerializer.validate_phases (serializers/competitions.py L278-285)
            errors.append("Competitions must have at least one phase")
        parsed = []
        for i, phase in enumerate(phases):
            _text(phase.get("name"), f"phases[{i}].name", PHASE_NAME_MAX, errors)  # competitions/models.py L295
            if "tasks" not in phase:
                errors.append("Phases must contain at least one task to be valid")
            else:
                for t in phase["tasks"]:  # base_unpacker.py L323: every task index must exist
                    if t not in task_files:
                        errors.append(f"phase {i}: task index {t} is not a task of the bundle")
            try:
                start, end = _datetime(phase.get("start")), _datetime(phase.get("end"))
            except ValueError:
                errors.append(f"phase {i}: start/end not a date")
                continue
            if start is None:  # Phase.start = DateTimeField() (competitions/models.py L293), required
                errors.append(f"phase {i}: start is required")
            limit = phase.get("execution_time_limit")
            if limit is not None:
                _positive_int(limit, f"phases[{i}].execution_time_limit", errors)
            parsed.append((start, end))
        for (_, end1), (start2, _) in zip(parsed, parsed[1:], strict=False):
            if end1 is None:
                errors.append("a phase must have an end time because it has a phase after it")
            elif start2 is not None and start2 <= end1:
                errors.append("Phases must be sequential (start after the previous phase's end)")
        if len(phases) == 1 and phases[0].get("auto_migrate_to_this_phase"):
            errors.append("You cannot auto migrate in a competition with one phase")

        # unpackers/v2.py L241-249, then base_unpacker.py L315-319 saves each through LeaderboardSerializer
        # (serializers/leaderboards.py L14-88) on the models of leaderboards/models.py
        boards = comp.get("leaderboards")
        if not boards:
            errors.append("Could not find leaderboards in the competition yaml")
            boards = []
        columns_of: list[list[str]] = []
        primary: list[str] = []
        for b, board in enumerate(boards):
            _text(board.get("title"), f"leaderboards[{b}].title", LEADERBOARD_TITLE_MAX, errors)
            _text(board.get("key"), f"leaderboards[{b}].key", LEADERBOARD_KEY_MAX, errors)
            if board.get("submission_rule", "Add") not in SUBMISSION_RULES:
                errors.append(f"leaderboards[{b}].submission_rule: {board.get('submission_rule')!r} not a choice")
            columns = board.get("columns") or []
            if not columns:
                errors.append(f"leaderboards[{b}]: Leaderboards require at least 1 column")
            indexes = [c.get("index") for c in columns]
            keys = [c.get("key") for c in columns]
            if len(set(indexes)) != len(columns):
                errors.append(f"leaderboards[{b}]: Columns must have unique indexes!")
            if len(set(keys)) != len(columns):
                errors.append(f"leaderboards[{b}]: Columns must have unique keys!")
            for c in columns:
                name = f"leaderboards[{b}].columns[{c.get('index')}]"
                _text(c.get("title"), f"{name}.title", COLUMN_TITLE_MAX, errors)
                _text(c.get("key"), f"{name}.key", COLUMN_KEY_MAX, errors)
                _positive_int(c.get("index"), f"{name}.index", errors)
                if c.get("sorting", "desc") not in SORTING:
                    errors.append(f"{name}.sorting: {c.get('sorting')!r} not a choice")
                if c.get("computation") is not None:
                    if c["computation"] not in COMPUTATIONS:
                        errors.append(f"{name}.computation: {c['computation']!r} not a choice")
                    refs = str(c.get("computation_indexes") or "").split(",")
                    if not c.get("computation_indexes") or str(c.get("index")) in refs or \
                            not all(r.strip().isdigit() and int(r) in indexes for r in refs):
                        errors.append(f"{name}.computation_indexes: must name other columns of the board")
            # serializers/leaderboards.py L103: the ranking column is the column whose index is primary_index
            primary_index = board.get("primary_index", 0)
            _positive_int(primary_index, f"leaderboards[{b}].primary_index", errors)
            ranking = [c.get("key") for c in columns if c.get("index") == primary_index]
            if not ranking:
                errors.append(f"leaderboards[{b}]: no column has index primary_index={primary_index}")
            columns_of.append([str(k) for k in keys])
            primary.append(str(ranking[0]) if ranking else "")
        # base_unpacker.py L322-324: every phase is linked to leaderboards[0]; any other board is saved but
        # reachable by no phase, so no score ever lands in it (api/views/submissions.py L578-582)
        for b in range(1, len(boards)):
            errors.append(f"leaderboards[{b}] ({boards[b].get('key')}) is reachable by no phase: the v2 unpacker "
                          "links every phase to leaderboards[0]")

        # base_unpacker.py L321-341 CompetitionSerializer (serializers/competitions.py L230-285) on competitions/
        # models.py L36 (title) and L49 (docker_image)
        _text(comp.get("title"), "title", COMPETITION_TITLE_MAX, errors)
        image = comp.get("docker_image", "codalab/codalab-legacy:py37")  # unpackers/v2.py L15
        _text(image, "docker_image", DOCKER_IMAGE_MAX, errors)

        saved = SavedCompetition(phase_leaderboard={i: 0 for i in range(len(phases))},
                                 leaderboard_columns=columns_of, primary_keys=primary,
                                 task_files=task_files, docker_image=str(image))
        return errors, saved


# --- the compute worker ----------------------------------------------------------------------------------

def _legacy_substitutions(command: str) -> str:
    """compute_worker/compute_worker.py L264-286 replace_legacy_metadata_command, for a scoring program."""
    for old, new in (("$input", "/app/input"), ("$output", "/app/output"), ("$program", "/app/program"),
                     ("$ingestion_program", "/app/program"), ("$hidden", "/app/input/ref"), ("$shared", "/app/shared"),
                     ("$submission_program", "/app/ingested_program"), ("$tmp", "/app/output"),
                     ("$predictions", "/app/input/res")):
        command = command.replace(old, new)
    return command


def _as_worker_data(folder: Path, dest: Path) -> None:
    """The path a folder takes: the unpacker zips its contents (unpackers/utils.py L15-27, make_archive), and the
    worker unzips that into its destination (compute_worker.py L1148-1163, _get_bundle L660-663)."""
    archive = shutil.make_archive(str(dest.parent / f"{dest.name}-upload"), "zip", folder)
    with zipfile.ZipFile(archive) as zf:
        zf.extractall(dest)
    os.remove(archive)


@dataclass(frozen=True)
class WorkerRun:
    returncode: int
    stdout: str
    stderr: str
    scores: dict[str, Any] | None  # scores.json as pushed (compute_worker.py L1307-1322), None when absent
    kept: dict[str, float]  # the scores Codabench stores: keys of the phase's leaderboard (submissions.py L578-587)
    dropped: list[str]  # keys silently dropped (not a column of the phase's leaderboard)
    root: Path


def run_like_worker(bundle: bytes, submission_zip: Path, root: Path, python: str | None = None,
                    phase: int = 0) -> WorkerRun:
    """Score a participant's zip as Codabench would: save the bundle, lay out a fresh run folder the way the
    worker does, run the scoring program's metadata.yaml command, then keep the scores as the API keeps them."""
    errors, saved = check_bundle(bundle)
    if errors or saved is None:
        raise AssertionError("bundle refused at upload: " + "; ".join(errors))
    with tempfile.TemporaryDirectory(prefix="codabench-bundle-") as tmp:
        with zipfile.ZipFile(io.BytesIO(bundle)) as zf:
            zf.extractall(tmp)
        comp = yaml.safe_load((Path(tmp) / "competition.yaml").read_text())
        (task_index,) = sorted(comp["phases"], key=lambda p: p.get("index", 0))[phase]["tasks"]
        files = saved.task_files[task_index]
        # compute_worker.py L1148-1157: program -> program/, reference data -> input/ref/, prediction -> input/res/
        root.mkdir(parents=True, exist_ok=True)
        _as_worker_data(Path(tmp) / files["scoring_program"], root / "program")
        if "reference_data" in files:
            _as_worker_data(Path(tmp) / files["reference_data"], root / "input" / "ref")
    # A results-only submission goes through a prediction step first: the worker finds no metadata in it, copies
    # its files to the output (compute_worker.py L847-860), writes the v1.5 `metadata` status file there and
    # pushes that folder as the prediction result (L1344-1372), which the scoring step unzips into input/res.
    res = root / "input" / "res"
    with zipfile.ZipFile(submission_zip) as zf:
        if any(Path(n).name in ("metadata", "metadata.yaml") for n in zf.namelist()):
            raise AssertionError("a results zip holding metadata would be run as a program (L847-888)")
        zf.extractall(res)
    (res / "metadata").write_text(yaml.dump({"exitCode": None, "elapsedTime": None, "ingestionExitCode": None,
                                             "ingestionElapsedTime": None}, default_flow_style=False))
    for d in ("output", "shared"):  # compute_worker.py L360-363 (output_dir), L926-935 (shared)
        (root / d).mkdir(exist_ok=True)
    # compute_worker.py L847-888: metadata.yaml (or metadata) holds the command
    meta = root / "program" / ("metadata.yaml" if (root / "program" / "metadata.yaml").is_file() else "metadata")
    command = _legacy_substitutions(yaml.safe_load(meta.read_text())["command"])
    # L1036-1050: the container gets the command as a string, which the docker client splits like a shell
    # (shlex, no shell), runs it with working_dir /app/program and PYTHONUNBUFFERED=1; the /app mounts are
    # L889-944. Here /app/X becomes root/X, and the image's python3 this interpreter.
    argv = shlex.split(command)
    argv = [a.replace("/app/", f"{root}/", 1) if a.startswith("/app/") or a == "/app" else a for a in argv]
    if argv[0] in ("python3", "python"):
        argv[0] = python or sys.executable
    r = subprocess.run(argv, cwd=root / "program", capture_output=True, text=True, check=False,
                       env={"PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"})
    if (root / "output" / "metadata").exists():  # L1359-1363: the worker then fails the submission
        raise AssertionError("the scoring program wrote output/metadata, which the worker refuses")
    scores_file = root / "output" / "scores.json"
    scores = json.loads(scores_file.read_text()) if scores_file.is_file() else None
    columns = saved.leaderboard_columns[saved.phase_leaderboard[phase]]
    kept: dict[str, float] = {}
    dropped: list[str] = []
    for key, value in (scores or {}).items():
        if key not in columns:  # api/views/submissions.py L580-582: `continue`, no error anywhere
            dropped.append(key)
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or abs(value) >= SCORE_ABS_MAX:
            raise AssertionError(f"score {key}={value!r} does not fit SubmissionScore.score (Decimal 20,10)")
        kept[key] = float(value)
    return WorkerRun(r.returncode, r.stdout, r.stderr, scores, kept, dropped, root)
