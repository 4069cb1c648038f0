"""Run a Codabench bundle's scoring program here, the way Codabench's compute worker does (`archehr codabench
--check-with`): the bundle laid out in program/input/output folders, the program's metadata.yaml command run in
a subprocess."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path


def unpack_for_scoring(bundle: bytes, submission: str | Path, root: str | Path) -> tuple[Path, Path, Path]:
    """Lay out a bundle the way Codabench's compute worker does: (program, input, output) folders under root.

    For local checks of the contract (and the tests): program = scoring_program/'s files, input/ref = the
    reference data's files, input/res = the participant's zip unzipped (a bare JSON file is taken as the zip's
    `submission.json`).
    """
    root = Path(root)
    with zipfile.ZipFile(io.BytesIO(bundle)) as zf:
        zf.extractall(root / "bundle")
    program = root / "program"
    shutil.copytree(root / "bundle" / "scoring_program", program)
    (root / "input").mkdir(parents=True)
    shutil.copytree(root / "bundle" / "reference_data", root / "input" / "ref")
    res = root / "input" / "res"
    res.mkdir()
    if zipfile.is_zipfile(submission):
        with zipfile.ZipFile(submission) as zf:
            zf.extractall(res)
    else:
        shutil.copyfile(submission, res / "submission.json")
    (root / "output").mkdir()
    return program, root / "input", root / "output"


def program_argv(program: Path, input_dir: Path, output_dir: Path, python: str | None = None) -> list[str]:
    """The program's metadata.yaml command as the worker runs it (split like a shell would, no shell), with the
    container's /app folders mapped to these folders and `python3` to `python` (default: this interpreter)."""
    import shlex
    import sys

    import yaml

    command = yaml.safe_load((program / "metadata.yaml").read_text(encoding="utf-8"))["command"]
    mapping = {"/app/program": str(program), "/app/input": str(input_dir), "/app/output": str(output_dir)}
    argv = [mapping.get(a, a) for a in shlex.split(command)]
    argv = [str(program / a[len("/app/program/"):]) if a.startswith("/app/program/") else a for a in argv]
    if argv[0] == "python3":
        argv[0] = python or sys.executable
    return argv


def run_program_locally(bundle: bytes, submission: str | Path, python: str | None = None) -> tuple[int, str, str]:
    """Run the bundle's scoring program on a submission as Codabench's worker would, in a temporary folder: its
    metadata.yaml command from the program folder. Returns (exit code, scores.json text or "", the program's
    stdout + stderr)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="archehr-codabench-") as tmp:
        program, input_dir, output_dir = unpack_for_scoring(bundle, submission, tmp)
        r = subprocess.run(program_argv(program, input_dir, output_dir, python), cwd=program, capture_output=True,
                           text=True, check=False, env={"PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"})
        scores = output_dir / "scores.json"
        return r.returncode, scores.read_text(encoding="utf-8") if scores.is_file() else "", r.stdout + r.stderr
