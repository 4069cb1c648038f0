"""Load what a submission is scored against: the key JSON, the data XML, or the split folder holding them.

One loader for every task and tool (score, validate, package, leaderboard, compare, report), because
the official scripts differ in what they need: st2/st4 read only the key JSON, st1 only the XML's
clinician questions, st3 the key plus the XML's narratives (SARI source), 2025 both. So the loader
takes whatever is given, reads the other file when it sits beside it, and leaves it to each task to
say what is missing (`require_notes`, `score_2025`, `reference_case_ids`).
"""

from __future__ import annotations

import os
from pathlib import Path

from archehr.data.json_io import read_key
from archehr.data.model import Split
from archehr.data.releases import KEY_NAME, XML_NAME, cross_check, load_split_dir
from archehr.data.xml_io import read_cases_xml
from archehr.errors import DataError, Problem, ReleaseNotFoundError

PathLike = str | os.PathLike[str]
NO_NOTES_CODE = "warning-no-notes"


def resolve_reference_file(path: PathLike) -> Path:
    """The file that names a reference: the key JSON or XML itself, or the split folder's key (else its XML)."""
    p = Path(path)
    if p.is_dir():
        for name in (KEY_NAME, XML_NAME):
            if (p / name).is_file():
                return p / name
        raise DataError(Problem(f"key file not found: neither {KEY_NAME} nor {XML_NAME} in this folder", str(p),
                                code="missing-file"))
    if not p.is_file():
        raise DataError(Problem(f"key file not found: this path does not exist (give {KEY_NAME}, {XML_NAME} or "
                                "their split folder)", str(p), code="missing-file"))
    return p


def reference_files(path: PathLike) -> list[Path]:
    """The files a score depends on: the given key (or XML) and its partner beside it, present or not."""
    p = resolve_reference_file(path)
    partner = p.parent / (KEY_NAME if p.suffix.lower() == ".xml" else XML_NAME)
    return [p, partner]


def load_reference(path: Split | PathLike, data: PathLike | None = None) -> Split:
    """A Split from a Split, a split folder, a key JSON (XML beside it, or `data`, read when present) or an XML
    (key beside it read when present). Key and XML are cross-checked when both are there."""
    if isinstance(path, Split):
        return path
    given = Path(path)
    if given.is_dir() and data is None and (given / XML_NAME).is_file():
        return load_split_dir(given)
    p = resolve_reference_file(given)
    if p.suffix.lower() == ".xml":
        if data is not None:
            raise DataError(Problem("--data names the XML; give the key JSON (or the folder) as the key", str(data),
                                    field="--data", code="option"))
        xml, key_file = p, p.parent / KEY_NAME
    else:
        xml, key_file = (Path(data) if data is not None else p.parent / XML_NAME), p
        if data is not None and not xml.is_file():
            raise ReleaseNotFoundError(Problem("data XML not found", str(xml), field="--data", code="missing-file"))
    cases = read_cases_xml(xml) if xml.is_file() else ()
    key = read_key(key_file) if key_file.is_file() else None
    split = Split(p.parent.name, cases, key, None, None, str(given))
    if cases and key is not None:
        problems = cross_check(split, str(key_file))
        if problems:
            raise DataError(problems)
    return split


def require_notes(split: Split, why: str) -> None:
    """Raise when the split has no XML (cases, notes) but the task needs it; `why` says what for."""
    if not split.cases:
        raise ReleaseNotFoundError(Problem(f"no {XML_NAME} found: {why}; put it beside the key or pass "
                                           f"--data path/to/{XML_NAME}", split.source, code="missing-file"))


def no_notes_warning(split: Split | None) -> list[Problem]:
    """A warning when only the key was found: cited sentence ids cannot be checked against the notes."""
    if split is None or split.key is None or split.cases:
        return []
    return [Problem(f"no {XML_NAME} beside the key: sentence ids are not checked against the clinical note (only "
                    f"against the key's labels where the task has them); pass --data path/to/{XML_NAME} to check "
                    "them", split.source, code=NO_NOTES_CODE)]
