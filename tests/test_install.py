"""A plain (non-editable) install finds the bundled demo release and configs from any folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_plain_install_ships_demo_release(tmp_path: Path) -> None:
    target = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                        "--target", str(target), str(REPO)], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (target / "archehr" / "_demo" / "dev" / "archehr-qa.xml").is_file()
    assert (target / "archehr_scoring" / "__init__.py").is_file()
    env = {k: v for k, v in os.environ.items() if k != "ARCHEHR_DATA"}
    env["PYTHONPATH"] = str(target)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = subprocess.run([sys.executable, "-c", "import archehr, sys; print(archehr.__file__)"],
                       cwd=elsewhere, env=env, capture_output=True, text=True, check=False)
    assert r.stdout.startswith(str(target)), r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-m", "archehr", "data", "info"], cwd=elsewhere, env=env,
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert str(target / "archehr" / "_demo") in r.stdout
    assert "dev: archehr-qa.xml, archehr-qa_key.json, archehr-qa_mapping.json" in r.stdout
