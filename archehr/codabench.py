"""A Codabench competition bundle whose scoring program is archehr's scorer (one subtask, or all of them).

Codabench's contract (competition.yaml `version: 2`; the compute worker): each task names a scoring
program folder and a reference-data folder; at scoring time the worker unzips the reference data in
`/app/input/ref` and the participant's zip in `/app/input/res`, runs the `command` of the program's
`metadata.yaml` with `/app/program` as working folder, in the competition's `docker_image`, and reads
`/app/output/scores.json`: {column key: number} for the leaderboard columns (a key left out shows N/A).

How the program gets the scorer: the scorer is pure Python, so its modules are copied into the program
folder (`scoring_program/lib/`: `archehr_scoring` and the few `archehr` modules it imports, found by
reading their imports), and `score.py` puts that folder first on `sys.path`. The image then only needs
Python >= 3.11 with numpy, lxml and pyyaml: `docker/Dockerfile` in the bundle builds one (an organiser
pushes it to a registry Codabench can pull and names it with `--docker-image`). Nothing is downloaded
at scoring time. Model-based metrics (BERTScore, AlignScore, MEDCON) are left out by default, since the
image has no models: the overall scores that need them are then shown as clearly named partial means
(`overall_score_partial`), never as the official number.
"""

from __future__ import annotations

import ast
import datetime as _dt
import importlib.metadata
import io
import json
import shutil
import struct
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archehr.atomic import write_bytes
from archehr.errors import ConfigError, InputError, Problem
from archehr_scoring.metrics.registry import MODEL_METRICS

PROGRAM_SOURCE = Path(__file__).with_name("codabench_program.py")
CONFIG_NAME = "archehr_program.json"
IMAGE_PACKAGES = ("numpy", "lxml", "PyYAML")
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # reproducible zips
# system code never goes into a scoring program (tests/test_layers.py keeps the scorer free of it)
_SYSTEM = ("archehr.relevance", "archehr.generate", "archehr.llm", "archehr.pipeline", "archehr.runs",
           "archehr.question", "archehr.align", "archehr.cli", "archehr.ask")


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
    """Leaderboard columns: the task's headline keys that can be computed; the first is the ranking one."""
    t = _task(task)
    cols: list[Column] = []
    for key in t.headline or t.keys:
        official, partial = _computable(t, key, metrics)
        if official:
            cols.append(Column(key, key))
        elif partial:
            missing = [m for m in MODEL_METRICS if not _computable(t, m, metrics)[0]]
            cols.append(Column(f"{key}_partial", f"{key} (partial: without {', '.join(missing)})"))
    return cols


# --- the vendored scorer ------------------------------------------------------------------------------

def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    return out


def _module_file(root: Path, module: str) -> Path | None:
    """The file of `module` under package folder `root` (whose name is the first part), if it is a module."""
    rel = Path(*module.split(".")[1:])
    for candidate in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def vendored_files() -> dict[str, bytes]:
    """{path under lib/: bytes}: every module of archehr_scoring and the archehr modules they import."""
    import archehr
    import archehr_scoring

    scoring_root = Path(archehr_scoring.__file__).parent
    archehr_root = Path(archehr.__file__).parent
    files: dict[str, bytes] = {}
    todo: list[Path] = []
    for f in sorted(scoring_root.rglob("*.py")):
        if "__pycache__" not in f.parts:
            files[f"archehr_scoring/{f.relative_to(scoring_root).as_posix()}"] = f.read_bytes()
            todo.append(f)
    # the real archehr/__init__ re-exports system code lazily: the program gets a bare package instead
    files["archehr/__init__.py"] = (f'"""archehr modules the scorer needs (vendored by archehr codabench)."""\n\n'
                                    f'__version__ = "{archehr.__version__}"\n').encode()
    seen: set[Path] = set()
    while todo:
        for module in sorted(_imported_modules(todo.pop())):
            if not module.startswith("archehr."):  # the package itself is the bare stub above
                continue
            if module.startswith(_SYSTEM):
                raise ConfigError(f"the scorer imports system code ({module}); it cannot be vendored")
            f = _module_file(archehr_root, module)
            if f is None or f in seen:
                continue
            seen.add(f)
            todo.append(f)
            rel = f.relative_to(archehr_root)
            files[f"archehr/{rel.as_posix()}"] = f.read_bytes()
            for parent in rel.parents:  # every package on the way needs its __init__
                init = archehr_root / parent / "__init__.py"
                if parent != Path(".") and init.is_file() and init not in seen:
                    seen.add(init)
                    todo.append(init)
                    files[f"archehr/{(parent / '__init__.py').as_posix()}"] = init.read_bytes()
    return files


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


def _pages(tasks: list[str], metrics: dict[str, list[str] | None], columns: dict[str, list[Column]],
           docker_image: str, all_tasks: bool) -> dict[str, str]:
    from archehr_scoring import __version__

    titles = {t: _task(t).title for t in tasks}
    listing = "\n".join(f"- **{t}**: {titles[t]}" for t in tasks)
    overview = (f"# ArchEHR-QA: grounded patient-question answering over clinical notes\n\n"
                f"Subtask{'s' if len(tasks) > 1 else ''} of this competition:\n\n{listing}\n\n"
                "Submit a zip holding `submission.json` at its root (`archehr package submission.json` builds it "
                "for a 2026 subtask; for 2025, zip the file yourself).\n")
    lines = []
    for t in tasks:
        cols = ", ".join(f"`{c.key}`" for c in columns[t])
        ran = ", ".join(metrics[t]) if metrics[t] else "all of the subtask's scores (no model needed)"
        lines.append(f"## {t}: {titles[t]}\n\nMetrics computed: {ran}.\n\nLeaderboard columns (ranked by the "
                     f"first): {cols}.\n")
    evaluation = ("# Evaluation\n\nSubmissions are scored by archehr's scorer (version "
                  f"{__version__}), numerically identical to the organisers' official scripts on every golden "
                  "fixture, run offline. Scores are on a 0-100 scale. A column ending in `_partial` is the mean "
                  "of the parts computed here (the model-based metrics BERTScore, AlignScore and MEDCON are not "
                  "run in this scoring image), never the official overall score. The scoring output "
                  "(`report.json`) holds every score, its signature, warnings and per-case rows.\n\n"
                  + "\n".join(lines)
                  + ("\nOne submission is one subtask: the program detects which from its shape and fills that "
                     "subtask's leaderboard (columns prefixed with the subtask name); the others show N/A.\n"
                     if all_tasks else "")
                  + f"\nScoring image: `{docker_image}` (see `docker/Dockerfile` in the bundle).\n")
    data = ("# Data\n\nThe ArchEHR-QA data are credentialed (PhysioNet): obtain them under their data use agreement. "
            "The reference data of this bundle were provided by the organisers and are visible to them only.\n")
    terms = ("# Terms\n\nParticipants agree to the data use agreement of the ArchEHR-QA data, not to share the data "
             "or text derived from them, and to describe their system in a paper.\n")
    return {"pages/overview.md": overview, "pages/evaluation.md": evaluation, "pages/data.md": data,
            "pages/terms.md": terms}


def _dockerfile() -> tuple[str, str]:
    pins = []
    for name in IMAGE_PACKAGES:
        try:
            pins.append(f"{name}=={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            pins.append(name)
    dockerfile = ("# The scoring image: Python 3.11 and the scorer's three compiled/parsing dependencies; the scorer\n"
                  "# itself travels in the scoring program (lib/). Build and push, then name it in competition.yaml:\n"
                  "#   docker build -t ORG/archehr-scoring:TAG docker/ && docker push ORG/archehr-scoring:TAG\n"
                  "FROM python:3.11-slim\n"
                  "COPY requirements.txt /tmp/requirements.txt\n"
                  "RUN pip install --no-cache-dir -r /tmp/requirements.txt\n")
    return dockerfile, "\n".join(pins) + "\n"


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


def build_bundle(task: str, reference: str | Path, *, metrics: Sequence[str] | None = None,
                 docker_image: str = "YOUR_ORG/archehr-scoring:0.1.0", title: str | None = None,
                 start: _dt.date | None = None) -> bytes:
    """The bundle zip's bytes (competition.yaml, logo, pages, scoring program, reference data, docker/)."""
    import yaml

    from archehr_scoring import __version__

    tasks = task_list(task)
    all_tasks = task == "all"
    reference = Path(reference)
    files = _reference_files(reference)
    _check_reference(reference, tasks)
    if metrics and all_tasks:
        raise ConfigError(Problem("--metrics applies to one subtask; an all-subtasks bundle runs each subtask's "
                                  "model-free metrics", field="--metrics", code="option"))
    chosen = {t: metrics_for(t, metrics) for t in tasks}
    columns = {t: columns_for(t, chosen[t]) for t in tasks}
    program = {
        "scoring_program/score.py": PROGRAM_SOURCE.read_bytes(),
        "scoring_program/metadata.yaml": b"command: python3 /app/program/score.py /app/input /app/output\n",
        f"scoring_program/{CONFIG_NAME}": (json.dumps({
            "task": "auto" if all_tasks else tasks[0], "scorer_version": __version__,
            "metrics": chosen, "columns": {t: [c.__dict__ for c in columns[t]] for t in tasks},
        }, indent=2) + "\n").encode(),
    }
    program |= {f"scoring_program/lib/{k}": v for k, v in vendored_files().items()}
    files |= program
    pages = _pages(tasks, chosen, columns, docker_image, all_tasks)
    files |= {k: v.encode() for k, v in pages.items()}
    dockerfile, requirements = _dockerfile()
    files |= {"docker/Dockerfile": dockerfile.encode(), "docker/requirements.txt": requirements.encode(),
              "logo.png": _logo_png()}
    name = "all subtasks" if all_tasks else f"{tasks[0]} ({_task(tasks[0]).title})"
    leaderboards = []
    for i, t in enumerate(tasks):
        prefix = f"{t}_" if all_tasks else ""
        leaderboards.append({
            "index": i, "title": f"{t}: {_task(t).title}", "key": t if all_tasks else "main",
            "submission_rule": "Force_Last",
            "columns": [{"index": j, "title": c.title, "key": prefix + c.key, "sorting": c.sorting}
                        for j, c in enumerate(columns[t])],
        })
    competition = {
        "version": 2,
        "title": title or f"ArchEHR-QA: {name}",
        "description": "Grounded patient-question answering over clinical notes, scored by archehr's scorer.",
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
        "leaderboards": leaderboards,
    }
    files["competition.yaml"] = yaml.safe_dump(competition, sort_keys=False, allow_unicode=True).encode()
    return _zip(files)


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o755 if name.endswith("score.py") else 0o644) << 16
            zf.writestr(info, files[name])
    return buf.getvalue()


def write_bundle(out: str | Path, task: str, reference: str | Path, **kwargs: Any) -> int:
    """Build and write the bundle atomically; returns its size in bytes."""
    data = build_bundle(task, reference, **kwargs)
    write_bytes(out, data)
    return len(data)


def unpack_for_scoring(bundle: bytes, submission: str | Path, root: str | Path) -> tuple[Path, Path, Path]:
    """Lay out a bundle the way Codabench's compute worker does: (program, input, output) folders under root.

    For local checks of the contract (and the tests): program = scoring_program/, input/ref = the
    reference data, input/res = the submission file as `submission.json`.
    """
    root = Path(root)
    with zipfile.ZipFile(io.BytesIO(bundle)) as zf:
        zf.extractall(root / "bundle")
    program = root / "program"
    shutil.copytree(root / "bundle" / "scoring_program", program)
    (root / "input").mkdir(parents=True)
    shutil.copytree(root / "bundle" / "reference_data", root / "input" / "ref")
    (root / "input" / "res").mkdir()
    shutil.copyfile(submission, root / "input" / "res" / "submission.json")
    (root / "output").mkdir()
    return program, root / "input", root / "output"


def run_program_locally(bundle: bytes, submission: str | Path, python: str | None = None) -> tuple[int, str, str]:
    """Run the bundle's scoring program on a submission exactly as Codabench would, in a temporary folder:
    `python3 <program>/score.py <input> <output>` from the program folder. Returns (exit code, scores.json
    text or "", the program's stdout + stderr)."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory(prefix="archehr-codabench-") as tmp:
        program, input_dir, output_dir = unpack_for_scoring(bundle, submission, tmp)
        r = subprocess.run([python or sys.executable, str(program / "score.py"), str(input_dir), str(output_dir)],
                           cwd=program, capture_output=True, text=True, check=False,
                           env={"PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"})
        scores = output_dir / "scores.json"
        return r.returncode, scores.read_text(encoding="utf-8") if scores.is_file() else "", r.stdout + r.stderr
