"""A Codabench competition bundle whose scoring program is archehr's scorer (one subtask, or all of them).

Codabench's contract (competition.yaml `version: 2`; the compute worker): each task names a scoring
program folder and a reference-data folder; at scoring time the worker unzips the reference data in
`/app/input/ref` and the participant's zip in `/app/input/res`, runs the `command` of the program's
`metadata.yaml` with `/app/program` as working folder, in the competition's `docker_image`, and reads
`/app/output/scores.json`: {column key: number} for the leaderboard columns (a key left out shows N/A).

How the program gets the scorer: the scorer is pure Python, so its modules are copied into the program
folder (`scoring_program/lib/`: `archehr_scoring` and the few `archehr` modules it imports, found by
reading their imports: `archehr.codabench_vendor`), and `score.py` puts that folder first on `sys.path`. The
image then only needs Python >= 3.11 with numpy, lxml and pyyaml: `docker/Dockerfile` in the bundle builds one
(an organiser pushes it to a registry Codabench can pull and names it with `--docker-image`). Nothing is downloaded
at scoring time. Model-based metrics (BERTScore, AlignScore, MEDCON) are left out by default, since the
image has no models: the overall scores that need them are then shown as clearly named partial means
(`overall_score_partial`), never as the official number.

Codabench's own limits (read in codalab/codabench at c7dbc756, see tests/codabench_rules.py): a column's
title and key hold at most 36 characters and a leaderboard's title 64 (`leaderboards/models.py`); the v2
unpacker links every phase to the first leaderboard (`unpackers/base_unpacker.py` `_save_competition`),
and only scores whose key is a column of the phase's leaderboard are kept (`api/views/submissions.py`
`upload_submission_scores`). So one bundle holds one subtask, with one leaderboard: `--task all` writes
one bundle (one competition) per subtask, each with its own ranking column and Force_Last rule.
"""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import io
import json
import re
import struct
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archehr.atomic import write_bytes
from archehr.codabench_local import program_argv, run_program_locally, unpack_for_scoring  # noqa: F401
from archehr.codabench_vendor import vendored_files
from archehr.errors import ConfigError, InputError, Problem
from archehr.templating import render
from archehr_scoring.metrics.registry import MODEL_METRICS

PROGRAM_SOURCE = Path(__file__).with_name("codabench_program.py")
CONFIG_NAME = "archehr_program.json"
IMAGE_PACKAGES = ("numpy", "lxml", "PyYAML")
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # reproducible zips
# Codabench's field limits (codalab/codabench at c7dbc756): src/apps/leaderboards/models.py Column.title and
# Column.key max_length=36, Leaderboard.title 64; src/apps/competitions/models.py Competition.title 256,
# Competition.docker_image 128. The serializers the unpacker saves through refuse longer values.
COLUMN_MAX = 36
LEADERBOARD_TITLE_MAX = 64
TITLE_MAX = 256
DOCKER_IMAGE_MAX = 128


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    sorting: str = "desc"


def _task(name: str) -> Any:
    from archehr_scoring.tasks import get_task

    return get_task(name)


def task_list(task: str) -> list[str]:
    from archehr_scoring.tasks import BUILTIN, task_names

    names = task_names()
    if task == "all":  # the shared task's own subtasks, not whatever else a program registered
        return [t.name for t in BUILTIN if t.name in names]
    if task not in names:
        raise ConfigError(Problem(f"unknown task {task!r}; expected one of {', '.join(names)} or all",
                                  field="--task", code="option"))
    return [task]


def metrics_for(task: str, metrics: Sequence[str] | None) -> list[str] | None:
    """The metrics the program runs: `metrics` when given, else the task's own minus the model-based ones."""
    t = _task(task)
    if metrics:
        names = [m.split("(", 1)[0].strip() for m in metrics]
        unknown = sorted(set(names) - set(t.metrics)) if t.metrics else sorted(names)
        if unknown:
            known = ", ".join(t.metrics) or "none to choose: its scores need no metric option"
            raise ConfigError(Problem(f"task {task} has no metric {', '.join(unknown)} (its metrics: {known})",
                                      field="--metrics", code="option"))
        return list(metrics)
    if not t.metrics:
        return None
    return [m for m in t.metrics if m not in MODEL_METRICS]


def split_metrics(text: str) -> list[str]:
    """"rouge,bertscore(model=m,layers=4)" -> ["rouge", "bertscore(model=m,layers=4)"]: the scorer's spec grammar."""
    from archehr_scoring.metrics.spec import parse_metric_specs

    return [str(s) for s in parse_metric_specs(text)]


def _metric_of(task: Any, key: str) -> str | None:
    """The metric that produces an output key (None: the task's scores need no metric choice)."""
    if key.startswith("rouge"):
        return "rouge"
    if key in ("bleu", "sari") + MODEL_METRICS:
        return key
    if "factuality" in task.metrics and (key.startswith(("strict_", "lenient_")) or key == "overall_factuality_score"):
        return "factuality"
    return None


def _computable(task: Any, key: str, metrics: list[str] | None, seen: tuple[str, ...] = ()) -> tuple[bool, bool]:
    """(official value computable, partial mean computable) of one output key with these metrics."""
    rule = next((r for r in task.partial if r.key == key), None)
    if rule is None or key in seen:
        metric = _metric_of(task, key)
        ok = metric is None or metrics is None or metric in {m.split("(", 1)[0].strip() for m in metrics}
        return ok, ok
    parts = [_computable(task, p, metrics, seen + (key,)) for p in rule.parts]
    return all(o for o, _ in parts), any(p for _, p in parts)


def columns_for(task: str, metrics: list[str] | None) -> list[Column]:
    """Leaderboard columns: the task's headline keys that can be computed; the first is the ranking one.

    A partial mean is titled `<key> (partial)`: a column title holds 36 characters on Codabench, so what the
    partial mean leaves out is said on the evaluation page (`missing_metrics`), not in the title."""
    t = _task(task)
    cols: list[Column] = []
    for key in t.headline or t.keys:
        official, partial = _computable(t, key, metrics)
        if official:
            cols.append(Column(key, key))
        elif partial:
            cols.append(Column(f"{key}_partial", f"{key} (partial)"))
    for c in cols:
        for what, text in (("key", c.key), ("title", c.title)):
            if len(text) > COLUMN_MAX:
                raise ConfigError(Problem(f"task {task}: leaderboard column {what} {text!r} has {len(text)} "
                                          f"characters; Codabench allows {COLUMN_MAX}", field="--task",
                                          code="option"))
    return cols


def missing_metrics(task: str, metrics: list[str] | None) -> list[str]:
    """The model-based metrics a partial mean of this task leaves out with these metrics."""
    t = _task(task)
    return [m for m in MODEL_METRICS if m in (t.metrics or ()) and not _computable(t, m, metrics)[0]]


# --- the docker image ---------------------------------------------------------------------------------
# Docker's image reference grammar (distribution/reference, reference.go): name [":" tag] ["@" digest];
# name = [domain "/"] path-component ("/" path-component)*; a path component is lower-case alphanumerics
# joined by ".", "_", "__" or dashes; the first part is a domain only when it holds "." or ":" or is
# "localhost". Written from the published grammar, not copied.
_PATH_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_DOMAIN_COMPONENT = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
_DOMAIN = re.compile(rf"{_DOMAIN_COMPONENT}(?:\.{_DOMAIN_COMPONENT})*(?::[0-9]+)?")
_REMOTE = re.compile(rf"(?P<path>{_PATH_COMPONENT}(?:/{_PATH_COMPONENT})*)(?::(?P<tag>[\w][\w.-]{{0,127}}))?"
                     r"(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?")
_PLACEHOLDER = re.compile(r"your[-_.]?(?:org|organi[sz]ation|name|user|registry)|org|example", re.IGNORECASE)
DOCKER_IMAGE_HELP = ("the image Codabench runs the scoring program in: build it from the bundle's docker/Dockerfile, "
                     "push it to a registry Codabench can pull, and name it here (e.g. ghcr.io/myorg/"
                     "archehr-scoring:0.1.0)")


def check_docker_image(image: str | None) -> str:
    """`image` when it is a valid Docker reference naming a real repository; else a ConfigError on --docker-image."""
    def bad(why: str) -> ConfigError:
        return ConfigError(Problem(why, field="--docker-image", code="option"))

    if not image:
        raise bad(f"required: {DOCKER_IMAGE_HELP}")
    first, _, rest = image.partition("/")
    domain, remote = (first, rest) if rest and ("." in first or ":" in first or first == "localhost") else ("", image)
    m = _REMOTE.fullmatch(remote)
    if (domain and not _DOMAIN.fullmatch(domain)) or m is None:
        hint = " (the repository must be lower-case)" if image != image.lower() else ""
        raise bad(f"{image!r} is not a Docker image reference{hint}: [REGISTRY/]ORG/NAME[:TAG], e.g. "
                  "ghcr.io/myorg/archehr-scoring:0.1.0")
    if len(image) > DOCKER_IMAGE_MAX:
        raise bad(f"{image!r} has {len(image)} characters; Codabench stores at most {DOCKER_IMAGE_MAX}")
    if any(_PLACEHOLDER.fullmatch(part) for part in m.group("path").split("/")):
        raise bad(f"{image!r} is a placeholder: {DOCKER_IMAGE_HELP}")
    return image


# --- the bundle -----------------------------------------------------------------------------------------

def _logo_png(size: int = 64) -> bytes:
    """A small plain PNG (Codabench requires a logo image); drawn here rather than shipped as a binary."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b""
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            inside = size // 4 <= x < 3 * size // 4 and size // 4 <= y < 3 * size // 4
            row += bytes((255, 255, 255) if inside else (32, 96, 160))
        rows += bytes(row)
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def _pages(task: str, metrics: list[str] | None, columns: list[Column], docker_image: str) -> dict[str, str]:
    """The participants' pages (Markdown templates in archehr/templates/codabench/)."""
    from archehr_scoring import __version__

    values = {"task": task, "title": _task(task).title, "upload_zip": _task(task).upload_zip, "columns": columns,
              "ran": ", ".join(metrics) if metrics else "all of the subtask's scores (no model needed)",
              "partial": [c for c in columns if c.key.endswith("_partial")],
              "missing": ", ".join(missing_metrics(task, metrics)), "version": __version__,
              "docker_image": docker_image}
    return {f"pages/{name}.md": render(f"codabench/{name}.md", **values)
            for name in ("overview", "evaluation", "data", "terms")}


def _dockerfile() -> tuple[str, str]:
    pins = []
    for name in IMAGE_PACKAGES:
        try:
            pins.append(f"{name}=={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            pins.append(name)
    dockerfile = ("# The scoring image: Python 3.11 and the scorer's three compiled/parsing dependencies; the scorer\n"
                  "# itself travels in the scoring program (lib/). Build and push commands: ORGANISERS.md.\n"
                  "FROM python:3.11-slim\n"
                  "COPY requirements.txt /tmp/requirements.txt\n"
                  "RUN pip install --no-cache-dir -r /tmp/requirements.txt\n")
    return dockerfile, "\n".join(pins) + "\n"


def _organiser_notes(task: str, docker_image: str, metrics: list[str] | None, image_has_models: bool) -> str:
    """ORGANISERS.md: what Codabench does not show participants (it reads only what competition.yaml names)."""
    models = [m for m in metrics or () if m.split("(", 1)[0].strip() in MODEL_METRICS]
    return render("codabench/ORGANISERS.md", task=task, docker_image=docker_image,
                  models=", ".join(models) if image_has_models and models else "")


def _reference_files(reference: Path) -> dict[str, bytes]:
    from archehr.data.releases import KEY_NAME, XML_NAME

    if not reference.is_dir():
        raise InputError(Problem("--reference must be a split folder (holding archehr-qa.xml and/or "
                                 "archehr-qa_key.json)", str(reference), field="--reference", code="missing-file"))
    out = {f"reference_data/{n}": (reference / n).read_bytes() for n in (XML_NAME, KEY_NAME)
           if (reference / n).is_file()}
    if not out:
        raise InputError(Problem(f"neither {XML_NAME} nor {KEY_NAME} in this folder", str(reference),
                                 field="--reference", code="missing-file"))
    return out


def _check_reference(reference: Path, tasks: list[str]) -> None:
    """Fail now, not at the first submission, when the reference cannot serve a subtask."""
    from archehr_scoring.api import load_key_split
    from archehr_scoring.score2026 import QUESTION_REFERENCE

    split, _ = load_key_split(reference)
    # only a task scored against the XML's clinician question (st1) does without the key
    if split.key is None and any(_task(t).references != (QUESTION_REFERENCE,) for t in tasks):
        raise InputError(Problem("the reference has no key file (archehr-qa_key.json), which every subtask but "
                                 "st1 needs", str(reference), field="--reference", code="missing-key"))


def _check_model_metrics(metrics: list[str] | None, image_has_models: bool) -> None:
    models = [m.split("(", 1)[0].strip() for m in metrics or () if m.split("(", 1)[0].strip() in MODEL_METRICS]
    if models and not image_has_models:
        raise ConfigError(Problem(
            f"{', '.join(models)} need{'s' if len(models) == 1 else ''} models the scoring image built from the "
            "bundle's docker/Dockerfile does not have (numpy, lxml, PyYAML only), so the column would stay N/A; "
            "pass --image-has-models if your --docker-image holds them", field="--metrics", code="option"))


def build_bundle(task: str, reference: str | Path, *, docker_image: str, metrics: Sequence[str] | None = None,
                 image_has_models: bool = False, title: str | None = None, start: _dt.date | None = None) -> bytes:
    """The bytes of one subtask's bundle zip (competition.yaml, logo, pages, scoring program, reference data,
    docker/, ORGANISERS.md). One bundle = one competition = one leaderboard: see build_bundles for all."""
    import yaml

    from archehr_scoring import __version__

    if task == "all":
        raise ConfigError(Problem("one bundle holds one subtask; build_bundles writes one per subtask for 'all'",
                                  field="--task", code="option"))
    (task,) = task_list(task)
    docker_image = check_docker_image(docker_image)
    reference = Path(reference)
    files = _reference_files(reference)
    _check_reference(reference, [task])
    chosen = metrics_for(task, metrics)
    _check_model_metrics(chosen, image_has_models)
    columns = columns_for(task, chosen)
    program = {
        "scoring_program/score.py": PROGRAM_SOURCE.read_bytes(),
        "scoring_program/metadata.yaml": b"command: python3 /app/program/score.py /app/input /app/output\n",
        f"scoring_program/{CONFIG_NAME}": (json.dumps({
            "task": task, "scorer_version": __version__, "metrics": chosen,
            "columns": [c.__dict__ for c in columns],
        }, indent=2) + "\n").encode(),
    }
    program |= {f"scoring_program/lib/{k}": v for k, v in vendored_files().items()}
    files |= program
    pages = _pages(task, chosen, columns, docker_image)
    files |= {k: v.encode() for k, v in pages.items()}
    dockerfile, requirements = _dockerfile()
    files |= {"docker/Dockerfile": dockerfile.encode(), "docker/requirements.txt": requirements.encode(),
              "ORGANISERS.md": _organiser_notes(task, docker_image, chosen, image_has_models).encode(),
              "logo.png": _logo_png()}
    name = f"{task} ({_task(task).title})"
    competition_title = title or f"ArchEHR-QA: {name}"
    board_title = f"ArchEHR-QA {name}"[:LEADERBOARD_TITLE_MAX]
    if len(competition_title) > TITLE_MAX:
        raise ConfigError(Problem(f"{len(competition_title)} characters; Codabench allows {TITLE_MAX}",
                                  field="--title", code="option"))
    competition = {
        "version": 2,
        "title": competition_title,
        "description": f"ArchEHR-QA {name}: grounded patient-question answering over clinical notes, scored by "
                       "archehr's scorer.",
        "image": "logo.png",
        "docker_image": docker_image,
        "registration_auto_approve": False,
        "make_programs_available": True,
        "terms": "pages/terms.md",
        "pages": [{"title": k.split("/")[-1][:-3].capitalize(), "file": k} for k in pages],
        "phases": [{"index": 0, "name": "Evaluation", "description": f"Submit predictions for {name}.",
                    "start": start or _dt.date.today(), "tasks": [0]}],
        "tasks": [{"index": 0, "name": name, "description": f"Scored by archehr_scoring {__version__}.",
                   "scoring_program": "scoring_program/", "reference_data": "reference_data/"}],
        "leaderboards": [{
            "index": 0, "title": board_title, "key": "main", "submission_rule": "Force_Last",
            "columns": [{"index": j, "title": c.title, "key": c.key, "sorting": c.sorting}
                        for j, c in enumerate(columns)],
        }],
    }
    files["competition.yaml"] = yaml.safe_dump(competition, sort_keys=False, allow_unicode=True).encode()
    return _zip(files)


def build_bundles(task: str, reference: str | Path, **kwargs: Any) -> dict[str, bytes]:
    """{subtask: bundle bytes}: one bundle for a subtask, one per subtask for 'all' (a `--title` then gets the
    subtask appended). Everything is built before anything is written."""
    tasks = task_list(task)
    if task == "all" and kwargs.get("metrics"):
        raise ConfigError(Problem("--metrics applies to one subtask; the bundles of 'all' run each subtask's "
                                  "model-free metrics", field="--metrics", code="option"))
    title = kwargs.pop("title", None)
    return {t: build_bundle(t, reference, title=f"{title}: {t}" if title and task == "all" else title, **kwargs)
            for t in tasks}


def bundle_name(task: str) -> str:
    """The file name of a subtask's bundle inside the folder `--task all` writes."""
    return f"archehr-{task}-codabench.zip"


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o755 if name.endswith("score.py") else 0o644) << 16
            zf.writestr(info, files[name])
    return buf.getvalue()


def write_bundles(out: str | Path, bundles: dict[str, bytes], all_tasks: bool) -> list[tuple[Path, int]]:
    """Write one bundle to `out`, or (all) one per subtask into the folder `out`, each atomically."""
    out = Path(out)
    if not all_tasks:
        (data,) = bundles.values()
        write_bytes(out, data)
        return [(out, len(data))]
    if out.suffix.lower() == ".zip" or out.is_file():
        raise ConfigError(Problem("with --task all, -o names a folder: one bundle per subtask is written into it "
                                  f"({bundle_name('st2')}, ...), each its own competition", str(out), field="--out",
                                  code="option"))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for t, data in bundles.items():
        write_bytes(out / bundle_name(t), data)
        written.append((out / bundle_name(t), len(data)))
    return written


def write_bundle(out: str | Path, task: str, reference: str | Path, **kwargs: Any) -> int:
    """Build and write one subtask's bundle atomically; returns its size in bytes."""
    data = build_bundle(task, reference, **kwargs)
    write_bytes(out, data)
    return len(data)
