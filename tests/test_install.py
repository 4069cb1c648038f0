"""Installs: a plain (non-editable) one finds the bundled demo release and configs from any folder; an editable one
imports from the folder that holds the clone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
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
    assert {p.name for p in (target / "archehr" / "templates" / "leaderboard").iterdir()} >= {"page.html", "style.css"}
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


def _editable_site(clone: Path, site: Path) -> None:
    """Build archehr's editable wheel from `clone` with setuptools (as `pip install -e` does) and unpack it into
    `site`, a folder to add with site.addsitedir (which runs its .pth files, as in site-packages)."""
    wheels = clone.parent / "wheels"
    code = f"from setuptools import build_meta; print(build_meta.build_editable({str(wheels)!r}))"
    r = subprocess.run([sys.executable, "-c", code], cwd=clone, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    with zipfile.ZipFile(wheels / r.stdout.strip().splitlines()[-1]) as z:
        z.extractall(site)


@pytest.mark.slow
def test_editable_install_imports_from_the_folder_holding_a_clone_named_archehr(tmp_path: Path) -> None:
    # The newcomer's layout: ~/work/archehr is the clone; Python started in ~/work sees ./archehr (the clone's root,
    # no __init__.py) first on sys.path, as a namespace package.
    work = tmp_path / "work"
    clone = work / "archehr"
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info", ".venv", "build")
    for name in ("setup.py", "pyproject.toml", "README.md"):
        clone.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, clone / name)
    for name in ("archehr", "scoring", "configs", "data/demo"):
        shutil.copytree(REPO / name, clone / name, ignore=skip)
    site = tmp_path / "site"
    _editable_site(clone, site)
    # -S: only the unpacked editable install, not this interpreter's own site-packages (which has archehr too), plus
    # lxml's folder on the path (archehr.data reads XML), without running that folder's .pth files
    import lxml

    deps = str(Path(lxml.__file__).parents[1])
    code = (f"import site, sys; site.addsitedir({str(site)!r}); sys.path.append({deps!r}); "
            "import archehr.data.model, archehr_scoring; print(archehr.__file__); print(archehr_scoring.__file__)")
    r = subprocess.run([sys.executable, "-S", "-c", code], cwd=work, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == [str(clone / "archehr" / "__init__.py"), str(clone / "scoring" / "__init__.py")]
    # the same without archehr's guard: the bug it fixes (setuptools' finder alone comes after the namespace folder)
    (site / "_archehr_editable_guard.pth").unlink()
    r = subprocess.run([sys.executable, "-S", "-c", code], cwd=work, capture_output=True, text=True, check=False)
    assert r.returncode != 0 and "No module named 'archehr.data.model'" in r.stderr
