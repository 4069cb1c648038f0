"""`archehr package sub.json [-o OUT.zip]`: validate a 2026 submission, then build its upload zip.

The zip holds exactly one member, `submission.json`, at its root (what the 2026 submission site
expects), with the file's bytes unchanged. It is written atomically and with a fixed timestamp,
so the same submission always gives the same zip and a failure leaves no partial zip behind.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import err, print_problems
from archehr.errors import Problem

MEMBER = "submission.json"
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the zip format's epoch: reproducible archives


def build_zip(submission_bytes: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        info = zipfile.ZipInfo(MEMBER, date_time=_FIXED_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        zf.writestr(info, submission_bytes)
    return buf.getvalue()


def package(
    submission: Annotated[Path, typer.Argument(help="The submission.json of one 2026 subtask.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Zip to write (default: beside the submission, "
                                                                 "same name with .zip).", show_default=False)] = None,
    task: Annotated[str | None, typer.Option("--task", help="st1 | st2 | st3 | st4 (default: detected from the "
                                                            "submission's shape).", show_default=False)] = None,
    key: Annotated[Path | None, typer.Option("--key", help="Also check case and sentence ids against this key "
                                                           "JSON, XML or split folder.", show_default=False)] = None,
) -> None:
    """Validate a 2026 submission (every problem at once) and build the upload zip with submission.json at its root."""
    from archehr.atomic import write_bytes
    from archehr.errors import SubmissionError
    from archehr_scoring import api
    from archehr_scoring.tasks import get_task, tasks_with

    obj, _, _ = api.read_submission(submission)
    name = task or api.detect_task(obj)
    spec = get_task(name)
    if not spec.upload_zip:
        raise SubmissionError(Problem(f"{name} submissions have no upload zip: `archehr package` builds those of "
                                      f"{', '.join(tasks_with(lambda t: t.upload_zip))}", str(submission),
                                      code="detect" if task is None else "option"))
    if task is None:
        err(f"subtask: {name} ({spec.title}), detected from the submission's shape; pass --task to choose")
    _, errors, warnings = api.validate(name, submission, key=key)
    print_problems(warnings)
    if errors:
        raise SubmissionError(errors)  # the CLI prints each problem and exits 2; no zip is written
    target = out if out is not None else submission.with_suffix(".zip")
    if target.resolve() == submission.resolve():
        raise SubmissionError(f"the output {target} would overwrite the submission itself; pass -o OUT.zip")
    write_bytes(target, build_zip(submission.read_bytes()))
    checked = "checked against the key" if key is not None else "shape checked only (pass --key to check ids)"
    print(f"wrote {target} ({MEMBER}, {len(obj)} cases, {name}; {checked}; {len(warnings)} warnings)")


def register(app: typer.Typer) -> None:
    app.command("package", short_help="Validate a 2026 submission and zip it for upload.",
                help="Validate a 2026 submission and build its upload zip (submission.json at the root).",
                no_args_is_help=True)(package)
