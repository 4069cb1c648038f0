"""The README's tour and its "From Python" code, run in a fresh clone, succeed and leave `git status` clean."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _block(readme: str, section: str, lang: str) -> str:
    """The first ```lang block of a `## section` of the README."""
    part = readme.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    m = re.search(rf"```{lang}\n(.*?)```", part, re.S)
    assert m, f"no {lang} block in README section {section!r}"
    return m.group(1)


def test_readme_tour_writes_only_under_runs():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    tour = _block(readme, "A tour", "bash")
    assert len([ln for ln in tour.splitlines() if ln.startswith("archehr ")]) >= 8
    assert "import archehr" in _block(readme, "From Python", "python")
    for line in tour.splitlines():  # outputs only under runs/ (git-ignored)
        for opt in re.findall(r"(?:-o|--out|--per-case|--out-dir)\s+(\S+)", line):
            assert opt.startswith("runs/"), line


@pytest.mark.slow
def test_readme_tour_run_in_a_fresh_clone(tmp_path):
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout: cannot make a fresh clone")
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(REPO), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", head], check=True)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               HF_HUB_OFFLINE="1")
    readme = (clone / "README.md").read_text(encoding="utf-8")
    for line in _block(readme, "A tour", "bash").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        r = subprocess.run(["bash", "-c", line], cwd=clone, env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, f"{line}\n{r.stderr[-2000:]}"
    r = subprocess.run([sys.executable, "-c", _block(readme, "From Python", "python")], cwd=clone, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    status = subprocess.run(["git", "-C", str(clone), "status", "--porcelain"], capture_output=True, text=True,
                            check=True).stdout
    assert status == "", f"the README tour changed the clone:\n{status}"
