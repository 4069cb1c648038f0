"""The README stays short and its links resolve; the docs site builds with `mkdocs build --strict` (broken links,
anchors and nav entries fail it) and loads nothing from the network."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
README_MAX_LINES = 160  # "about 150": a few link lines of slack, not a second README


def _slug(heading: str) -> str:
    """The anchor GitHub and MkDocs give a heading (`## Bad input` -> `bad-input`)."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return re.sub(r"[ ]+", "-", text.strip())


def _anchors(md: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", md.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+)$", text, re.M)}


def test_readme_links_resolve_to_files_and_headings():
    readme = REPO / "README.md"
    links = LINK.findall(readme.read_text(encoding="utf-8"))
    assert len(links) >= 10
    for target in links:
        if re.match(r"[a-z]+:", target):
            continue  # an absolute URL: not checked offline
        path, _, anchor = target.partition("#")
        f = (REPO / path).resolve()
        assert f.exists(), f"README links to {target}, which does not exist"
        if anchor:
            assert anchor in _anchors(f), f"README links to {target}: no such heading in {path}"


def test_readme_fits_a_few_screens():
    n = len((REPO / "README.md").read_text(encoding="utf-8").splitlines())
    assert n <= README_MAX_LINES, f"README.md has {n} lines: move detail into docs/ and link it"


def test_mkdocs_build_strict_makes_a_self_contained_site(tmp_path):
    # In the dev extra (scripts/setup.sh installs it; .ci/run also builds the site): skipped only in an environment
    # set up without it, e.g. a worktree sharing another checkout's packages.
    pytest.importorskip("mkdocs", reason="mkdocs is not installed: pip install -e '.[dev]'")
    site = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)], cwd=REPO,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    pages = list(site.rglob("*.html"))
    assert len(pages) >= len(list((REPO / "docs").glob("*.md")))
    external = re.compile(r"""<(?:script|link|img)[^>]+(?:src|href)=["'](?:https?:)?//""", re.I)
    for page in pages:
        m = external.search(page.read_text(encoding="utf-8"))
        assert m is None, f"{page.relative_to(site)} loads {m.group(0)}"
    for css in site.rglob("*.css"):
        assert not re.search(r"@import|url\((['\"])?(https?:)?//", css.read_text(encoding="utf-8")), css.name
