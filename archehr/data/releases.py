"""Find releases on disk (--data-dir, ARCHEHR_DATA, the bundled demo) and load their splits.

Layout of a release: `<root>/<split>/archehr-qa.xml` plus optional `archehr-qa_key.json` and
`archehr-qa_mapping.json`; the root may also hold several version folders (`1.1/`, `1.5/`, ...).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from archehr.atomic import write_bytes, write_text
from archehr.data.json_io import key_to_json, mapping_to_json, read_key, read_mapping
from archehr.data.model import SPLITS, Release, Split
from archehr.data.xml_io import cases_to_xml, read_cases_xml
from archehr.errors import DataError, Problem, ReleaseNotFoundError

XML_NAME = "archehr-qa.xml"
KEY_NAME = "archehr-qa_key.json"
MAPPING_NAME = "archehr-qa_mapping.json"
VOICES_NAME = "voices.json"  # our demo release only: case id -> the writer's voice (not an official file)
_VOICE_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
ENV_VAR = "ARCHEHR_DATA"
_VERSION_RE = re.compile(r"(\d+(?:\.\d+)+)")


def demo_dir() -> Path:
    """The bundled fictional demo release, in a source checkout or an installed package."""
    here = Path(__file__).resolve()
    checkout = here.parents[2] / "data" / "demo"
    if (checkout / "dev" / XML_NAME).is_file():
        return checkout
    installed = here.parents[1] / "_demo"  # setup.py ships data/demo as archehr/_demo
    if (installed / "dev" / XML_NAME).is_file():
        return installed
    raise ReleaseNotFoundError(f"the bundled demo release is missing (looked in {checkout} and {installed})")


def resolve_data_dir(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """--data-dir, else $ARCHEHR_DATA, else the bundled demo."""
    if data_dir:
        return Path(data_dir)
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    return demo_dir()


def _splits_in(d: Path) -> list[str]:
    if not d.is_dir():
        return []
    found = [s for s in SPLITS if (d / s / XML_NAME).is_file()]
    extra = sorted(c.name for c in d.iterdir() if c.is_dir() and c.name not in SPLITS and (c / XML_NAME).is_file())
    return found + extra


def _version_key(name: str) -> tuple[int, ...]:
    m = _VERSION_RE.search(name)
    return tuple(int(x) for x in m.group(1).split(".")) if m else ()


def find_release(data_dir: str | os.PathLike[str] | None = None, version: str | None = None) -> Release:
    """Locate a release under `data_dir` and detect its version.

    Accepts a release folder (holding split folders), a folder of version folders (the newest is
    taken unless `version` is given), or a single split folder holding the XML itself.
    """
    root = resolve_data_dir(data_dir)
    if not root.exists():
        raise ReleaseNotFoundError(Problem("data directory does not exist", str(root)))
    if (root / XML_NAME).is_file():
        return Release(str(root.parent), _detect_version(root.parent), (root.name,))
    splits = _splits_in(root)
    if splits and version is None:
        return Release(str(root), _detect_version(root), tuple(splits))
    versions = sorted((c for c in root.iterdir() if c.is_dir() and _splits_in(c)),
                      key=lambda c: (_version_key(c.name), c.name))
    if version is not None:
        versions = [c for c in versions if c.name == version or _VERSION_RE.search(c.name) and
                    _VERSION_RE.search(c.name).group(1) == version]  # type: ignore[union-attr]
    if not versions:
        listing = ", ".join(sorted(c.name for c in root.iterdir())) or "nothing"
        want = f"version {version}" if version else f"split folders ({', '.join(SPLITS)}) holding {XML_NAME}"
        raise ReleaseNotFoundError(Problem(f"no {want} found; the folder holds: {listing}", str(root)))
    chosen = versions[-1]
    return Release(str(chosen), _detect_version(chosen), tuple(_splits_in(chosen)))


def _detect_version(d: Path) -> str | None:
    for part in (d.name, d.parent.name):
        m = _VERSION_RE.search(part)
        if m:
            return m.group(1)
    return None


def split_dir(release: Release, split: str) -> Path:
    if split not in release.split_names:
        raise ReleaseNotFoundError(Problem(
            f"split {split!r} not found; this release has: {', '.join(release.split_names) or 'no splits'}",
            release.root))
    root = Path(release.root)
    return root if (root / XML_NAME).is_file() and root.name == split else root / split


def load_voices(data_dir: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """Case id -> writer's voice from the release's `voices.json` (data/build_demo.py writes it for the demo).

    Official releases have no such file: a missing file raises DataError naming it, as does a malformed one.
    """
    from archehr.data.json_io import read_json

    p = resolve_data_dir(data_dir) / VOICES_NAME
    if not p.is_file():
        raise DataError(Problem("no voices manifest (case id -> voice); only the demo release has one "
                                "(python data/build_demo.py writes it)", str(p), code="missing-file"))
    d = read_json(p)
    if not isinstance(d, dict) or not d:
        raise DataError(Problem("expected a non-empty JSON object of case id -> voice", str(p)))
    for cid, voice in d.items():
        if not (isinstance(voice, str) and _VOICE_RE.fullmatch(voice)):
            raise DataError(Problem(f"voice must be a lower-case name like v01-terse-resident, got {voice!r}",
                                    str(p), case_id=cid))
    return dict(d)


def load_split(data_dir: str | os.PathLike[str] | None = None, split: str = "dev", version: str | None = None,
               require_key: bool = False) -> Split:
    """Load one split (XML plus key and mapping when present), checking the files agree."""
    release = find_release(data_dir, version)
    d = split_dir(release, split)
    return load_split_dir(d, split, release.version, require_key=require_key)


def load_split_dir(d: str | os.PathLike[str], name: str | None = None, version: str | None = None,
                   require_key: bool = False) -> Split:
    d = Path(d)
    xml = d / XML_NAME
    if not xml.is_file():
        held = ", ".join(sorted(p.name for p in d.iterdir())) if d.is_dir() else "nothing"
        raise ReleaseNotFoundError(Problem(f"missing {XML_NAME}; the folder holds: {held}", str(d)))
    cases = read_cases_xml(xml)
    key = read_key(d / KEY_NAME) if (d / KEY_NAME).is_file() else None
    if key is None and require_key:
        raise ReleaseNotFoundError(Problem(f"this split has no {KEY_NAME} (labels are needed here)", str(d)))
    mapping = read_mapping(d / MAPPING_NAME) if (d / MAPPING_NAME).is_file() else None
    split = Split(name or d.name, cases, key, mapping, version, str(d))
    problems = cross_check(split, str(d / KEY_NAME))
    if problems:
        raise DataError(problems)
    return split


def cross_check(split: Split, key_file: str) -> list[Problem]:
    """Problems between the key and the XML: unknown cases or sentence ids."""
    problems: list[Problem] = []
    if split.key is None:
        return problems
    for entry in split.key:
        try:
            case = split.case(entry.case_id)
        except KeyError:
            problems.append(Problem("key case is missing from the XML", key_file, entry.case_id, "case_id",
                                    code="unknown-case"))
            continue
        if case.sentences:
            ids = set(case.sentence_ids)
            for a in entry.answers:
                if a.sentence_id not in ids:
                    problems.append(Problem(f"labels sentence {a.sentence_id}, which the note does not have",
                                            key_file, entry.case_id, "answers[].sentence_id", code="unknown-sentence"))
            for s in entry.clinician_answer_sentences or ():
                for c in s.citations:
                    if c not in ids:
                        problems.append(Problem(f"answer sentence {s.id} cites {c}, which the note does not have",
                                                key_file, entry.case_id, "clinician_answer_sentences[].citations",
                                                code="unknown-sentence"))
    return problems


def write_split(split: Split, d: str | os.PathLike[str]) -> None:
    """Write a split in the official layout (each file atomically)."""
    d = Path(d)
    write_bytes(d / XML_NAME, cases_to_xml(split.cases))
    if split.key is not None:
        write_text(d / KEY_NAME, key_to_json(split.key))
    if split.mapping is not None:
        write_text(d / MAPPING_NAME, mapping_to_json(split.mapping))


def check_split_dir(d: str | os.PathLike[str]) -> list[Problem]:
    """Every problem in one split folder (errors and warnings), for `archehr data check`."""
    from archehr.data.json_io import load_json_text, parse_key, parse_mapping, read_text
    from archehr.data.xml_io import parse_cases_xml

    d = Path(d)
    problems: list[Problem] = []
    xml = d / XML_NAME
    if not xml.is_file():
        return [Problem(f"missing {XML_NAME}", str(d), code="missing-file")]
    cases, ps = parse_cases_xml(xml.read_bytes(), str(xml))
    problems += ps
    key = None
    for name, parser in ((KEY_NAME, parse_key), (MAPPING_NAME, parse_mapping)):
        f = d / name
        if not f.is_file():
            continue
        try:
            text = read_text(f)
            entries, ps = parser(load_json_text(text, str(f)), str(f), text)
        except DataError as e:
            problems += e.problems
            continue
        problems += ps
        if name == KEY_NAME:
            key = entries
    split = Split(d.name, cases, key, None)
    problems += cross_check(split, str(d / KEY_NAME))
    problems += _content_warnings(split, str(xml), str(d / KEY_NAME))
    return problems


def _content_warnings(split: Split, xml_file: str, key_file: str) -> list[Problem]:
    out: list[Problem] = []
    for case in split.cases:
        narrative = case.patient_narrative or ""
        for ph in case.patient_question:
            if narrative and narrative[ph.start_char_index:ph.start_char_index + len(ph.text)] != ph.text:
                out.append(Problem(f"phrase {ph.id} does not start at offset {ph.start_char_index} of the narrative",
                                   xml_file, case.case_id, "patient_question/phrase", code="warning-offset"))
        if case.note_excerpt is not None and case.sentences:
            paragraphs = case.note_excerpt.split("\n\n")
            for s in case.sentences:
                para = paragraphs[s.paragraph_id - 1] if 0 < s.paragraph_id <= len(paragraphs) else ""
                if para[s.start_char_index:s.start_char_index + len(s.text)] != s.text:
                    out.append(Problem(f"sentence {s.id} text not found at offset {s.start_char_index} of paragraph "
                                       f"{s.paragraph_id}", xml_file, case.case_id, "note_excerpt_sentences",
                                       code="warning-offset"))
    if split.key is not None:
        keyed = {k.case_id for k in split.key}
        for case in split.cases:
            if case.case_id not in keyed:
                out.append(Problem("case has no key entry", key_file, case.case_id, "case_id",
                                   code="warning-unlabelled"))
            elif case.sentences:
                labelled = {a.sentence_id for a in split.key_for(case.case_id).answers}
                missing = [s.id for s in case.sentences if s.id not in labelled]
                if missing:
                    out.append(Problem(f"sentences without a label: {', '.join(missing)}", key_file, case.case_id,
                                       "answers", code="warning-unlabelled"))
    return out
