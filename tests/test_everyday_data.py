"""The everyday-question sets (data/everyday) are well formed: every writer's file, dev and held out.

A benchmark is only as good as its gold: a gold id that is not a sentence of its case, or a raw note's gold
split that drops or invents text, would silently move `benchmarks/everyday.py` and
`benchmarks/raw_note_split.py`. These checks read only the files' structure.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from archehr.answerability.data import read_source_case

EVERYDAY = Path(__file__).resolve().parents[1] / "data" / "everyday"
DEMO_SRC = EVERYDAY.parent / "demo-src"
KINDS = {"how_long", "when", "med_change", "test_result", "why", "may_i"}
UNANSWERABLE = {"absent_topic", "absent_fact"}
# a bullet or checkbox marker at the start of a line: not part of a gold unit (the writers' convention)
# (a checkbox inside a line, "Counseled   [X] Offered   [ ] Declined", may open a unit: layout too)
_SEPARATOR = re.compile(r"(?:(?<=\s)|^)(?:[|/\u00b7\u25b8.]|\[[ xX]?\])(?=\s|$)")
_MARKER = re.compile(r"^\s*(?:[-*\u2022\u00b7\u25aa\u25cf\u25e6]|\[[ xX]?\]|[\u2610\u2611\u2612])(?=\s)")

QUESTION_FILES = sorted(EVERYDAY.glob("**/questions*.yaml"))
RAW_FOLDERS = sorted({p.parent for p in EVERYDAY.glob("**/*.sentences.txt")})


def _items(path: Path) -> list[dict]:
    items = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(items, list) and items, f"{path}: not a non-empty YAML list"
    return items


def _units(path: Path) -> list[str]:
    return [u for u in path.read_text(encoding="utf-8").splitlines() if u.strip()]


def test_there_are_question_sets_and_raw_notes():
    assert len(QUESTION_FILES) >= 4 and len(RAW_FOLDERS) >= 2


@pytest.mark.parametrize("path", QUESTION_FILES, ids=lambda p: str(p.relative_to(EVERYDAY)))
def test_questions_are_well_formed(path):
    items = _items(path)
    ids = [q.get("id") for q in items]
    assert len(set(ids)) == len(ids), f"{path}: duplicate ids"
    cases = {}
    for q in items:
        where = f"{path.name}: {q.get('id')}"
        assert q.get("kind") in KINDS, where
        assert isinstance(q.get("question"), str) and q["question"].strip(), where
        if not q["answerable"]:
            assert q.get("unanswerable") in UNANSWERABLE and q.get("searched"), where
            assert not q.get("gold") and not q.get("gold_lines"), where
        elif "note" in q:  # a raw note beside the questions file
            units = _units(path.parent / f"{Path(str(q['note'])).stem}.sentences.txt")
            lines = q.get("gold_lines") or []
            assert lines and all(1 <= int(n) <= len(units) for n in lines), where
        else:  # a demo case: gold ids are sentences of that case
            case = str(q["case"])
            if case not in cases:
                cases[case] = {s.id for s in read_source_case(DEMO_SRC / f"case-{int(case):03d}.yaml").sentences}
            gold = [str(g) for g in q.get("gold") or []]
            assert gold and set(gold) <= cases[case], where


@pytest.mark.parametrize("folder", RAW_FOLDERS, ids=lambda p: str(p.relative_to(EVERYDAY)))
def test_raw_gold_splits_cover_their_note_exactly(folder):
    for gold in sorted(folder.glob("*.sentences.txt")):
        note = gold.with_name(gold.name.replace(".sentences.txt", ".txt")).read_text(encoding="utf-8")
        # rule lines ("-----", "=====") are layout, not text: the writers leave them out of every unit, and
        # a free-standing separator between a line's fields ("|", "/", "\u00b7", a lone ".") belongs to none
        raw = "".join("".join(_SEPARATOR.sub(" ", _MARKER.sub("", line, count=1)).split())
                      for line in note.splitlines() if any(c.isalnum() for c in line))
        units = "".join("".join(_SEPARATOR.sub(" ", _MARKER.sub("", u, count=1)).split()) for u in _units(gold))
        assert units == raw, f"{gold.name}: the units do not cover the note's text in order"
