from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from archehr.atomic import write_json, write_text


def test_atomic_write_mode_and_content(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_text(tmp_path / "a" / "x.txt", "hi")
    finally:
        os.umask(old)
    p = tmp_path / "a" / "x.txt"
    assert p.read_text() == "hi"
    assert stat.S_IMODE(p.stat().st_mode) == 0o644


def test_failed_write_leaves_nothing(tmp_path: Path) -> None:
    write_text(tmp_path / "x.json", "old")
    with pytest.raises(TypeError):
        write_json(tmp_path / "x.json", {"a": object()})
    assert (tmp_path / "x.json").read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]
