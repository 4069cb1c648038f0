"""The bundled demo release: complete, in the official layout, and in sync with its YAML sources."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from archehr.data import Relevance, demo_dir, load_split
from archehr.data.releases import check_split_dir

REPO = Path(__file__).resolve().parents[1]


def _splits():
    return {s: load_split(demo_dir(), s) for s in ("dev", "test", "test-2026")}


def test_demo_is_the_default_and_has_three_splits() -> None:
    splits = _splits()
    assert sum(len(s) for s in splits.values()) >= 30
    assert all(s.has_key and s.mapping is not None for s in splits.values())
    assert all(1 <= int(c) <= 20 or 201 <= int(c) <= 299 for c in splits["dev"].case_ids)  # 201+: added dev cases
    assert all(21 <= int(c) <= 120 for c in splits["test"].case_ids)
    assert all(121 <= int(c) <= 167 for c in splits["test-2026"].case_ids)


def test_demo_shape_and_label_mix() -> None:
    counts = {r: 0 for r in Relevance}
    for split in _splits().values():
        for case in split:
            assert 15 <= len(case.sentences) <= 50, case.case_id
            assert case.patient_question and case.clinician_question and case.clinical_specialty
            key = split.key_for(case.case_id)
            assert len(key.answers) == len(case.sentences)
            for a in key.answers:
                counts[a.relevance] += 1
            assert len(key.clinician_answer_without_citations.split()) <= 75
            assert "[" in key.clinician_answer
            cited = {c for s in key.clinician_answer_sentences for c in s.citations}
            assert set(key.essential_ids) <= cited, case.case_id
    total = sum(counts.values())
    assert 0.22 <= counts[Relevance.ESSENTIAL] / total <= 0.36
    assert 0.08 <= counts[Relevance.SUPPLEMENTARY] / total <= 0.16


def test_demo_checks_clean() -> None:
    for s in ("dev", "test", "test-2026"):
        assert check_split_dir(demo_dir() / s) == []


def test_demo_in_sync_with_sources(tmp_path: Path) -> None:
    # Rebuild from data/demo-src into a copy and compare with the committed data/demo.
    import shutil
    work = tmp_path / "data"
    shutil.copytree(REPO / "data" / "demo-src", work / "demo-src")
    shutil.copy(REPO / "data" / "build_demo.py", work / "build_demo.py")
    r = subprocess.run([sys.executable, str(work / "build_demo.py")], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    for f in sorted((REPO / "data" / "demo").rglob("*.*")):
        rel = f.relative_to(REPO / "data" / "demo")
        assert (work / "demo" / rel).read_bytes() == f.read_bytes(), f"{rel} is stale: run python data/build_demo.py"


def test_voices_manifest_covers_every_case() -> None:
    # voices.json (written by data/build_demo.py; its bytes are checked by test_demo_in_sync_with_sources) names
    # the writer of every case of every split: what leave-one-voice-out CV groups by.
    from archehr.data.releases import load_voices

    voices = load_voices(demo_dir())
    ids = [c for s in ("dev", "test", "test-2026", "train") for c in load_split(demo_dir(), s).case_ids]
    assert sorted(voices, key=int) == sorted(ids, key=int)
    assert len(set(voices.values())) >= 10
    assert {voices[c] for c in load_split(demo_dir(), "test").case_ids} == {"legacy-r1-test"}


def test_voices_manifest_problems(tmp_path: Path) -> None:
    import pytest

    from archehr.data.releases import load_voices
    from archehr.errors import DataError

    with pytest.raises(DataError, match="no voices manifest"):
        load_voices(tmp_path)
    (tmp_path / "voices.json").write_text('{"1": "Bad Voice"}', encoding="utf-8")
    with pytest.raises(DataError, match="lower-case name"):
        load_voices(tmp_path)
