"""Architecture rules, checked on the source: who may import whom."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SYSTEM = ("archehr.relevance", "archehr.generate", "archehr.llm", "archehr.pipeline", "archehr.runs",
          "archehr.question", "archehr.align")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


def _ours(mods: set[str]) -> set[str]:
    return {m for m in mods if m == "archehr" or m.startswith(("archehr.", "archehr_scoring"))}


def test_data_model_imports_nothing_of_ours() -> None:
    assert _ours(_imports(REPO / "archehr" / "data" / "model.py")) == set()


def test_scorer_and_leaderboard_never_import_system_code() -> None:
    files = list((REPO / "scoring").rglob("*.py")) + list((REPO / "archehr" / "leaderboard").rglob("*.py"))
    assert files
    for f in files:
        bad = {m for m in _ours(_imports(f)) if m.startswith(SYSTEM)}
        assert not bad, f"{f.relative_to(REPO)} imports system code: {bad}"


def test_libraries_never_import_the_cli() -> None:
    for f in list((REPO / "archehr").rglob("*.py")) + list((REPO / "scoring").rglob("*.py")):
        if "cli" in f.relative_to(REPO).parts or f.name == "__main__.py":
            continue
        bad = {m for m in _ours(_imports(f)) if m.startswith("archehr.cli")}
        assert not bad, f"{f.relative_to(REPO)} imports the CLI: {bad}"


def test_only_loaders_know_the_file_formats() -> None:
    # lxml is the XML loader's business; the rest of the library works on the data model.
    for f in (REPO / "archehr").rglob("*.py"):
        rel = f.relative_to(REPO).as_posix()
        if rel == "archehr/data/xml_io.py":
            continue
        assert "lxml" not in {m.split(".")[0] for m in _imports(f)}, rel
