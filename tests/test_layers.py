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


def _unit(module: str) -> str | None:
    """The layer unit a module belongs to: `archehr.X` / `archehr_scoring.X` (X a subpackage or a top-level module);
    None for the root packages themselves (their facade may name anything) and for third-party modules."""
    parts = module.split(".")
    if parts[0] not in ("archehr", "archehr_scoring") or len(parts) < 2:
        return None
    return ".".join(parts[:2])


def _units_graph() -> dict[str, set[str]]:
    roots = {"archehr": REPO / "archehr", "archehr_scoring": REPO / "scoring"}
    graph: dict[str, set[str]] = {}
    for name, root in roots.items():
        for f in root.rglob("*.py"):
            rel = f.relative_to(root).with_suffix("").parts
            if rel == ("__init__",) or rel == ("__main__",):
                continue
            src = f"{name}.{rel[0]}"
            deps = {u for u in map(_unit, _ours(_imports(f))) if u and u != src}
            graph.setdefault(src, set()).update(deps)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one unit (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    g = {"archehr.a": {"archehr.b"}, "archehr.b": {"archehr.c"}, "archehr.c": {"archehr.a"}, "archehr.d": {"archehr.a"}}
    assert _cycles(g) == [["archehr.a", "archehr.b", "archehr.c"]]
    assert _unit("archehr.relevance.trained") == "archehr.relevance" and _unit("archehr") is None


def test_no_import_cycle_between_subpackages() -> None:
    # Imports inside functions count too: a lazy import is still a dependency of the layer. Training code that
    # needs two model packages goes in archehr/training/, above both.
    graph = _units_graph()
    assert "archehr.relevance" in graph and "archehr_scoring.metrics" in graph
    cycles = _cycles(graph)
    assert not cycles, "import cycles between subpackages: " + "; ".join(" <-> ".join(c) for c in cycles)


MODEL_PACKAGES = ("relevance", "align")  # what a system runs; fitting them is archehr/training's business


def test_training_sits_above_the_models() -> None:
    # The model packages hold model classes, loading, predicting and (de)serialising; the fitting recipes live in
    # archehr/training and import them, never the other way (a lazy import counts too).
    for pkg in MODEL_PACKAGES:
        files = list((REPO / "archehr" / pkg).rglob("*.py"))
        assert files
        for f in files:
            bad = {m for m in _ours(_imports(f)) if m == "archehr.training" or m.startswith("archehr.training.")}
            assert not bad, f"{f.relative_to(REPO)} imports the training layer: {bad}"
    uses = {u for f in (REPO / "archehr" / "training").rglob("*.py") for u in map(_unit, _ours(_imports(f))) if u}
    assert {"archehr.relevance", "archehr.align"} <= uses  # the check above guards a real dependency


def test_a_planted_training_import_in_a_model_package_is_caught(tmp_path) -> None:
    planted = tmp_path / "m.py"
    planted.write_text("def f():\n    from archehr.training.relevance_logistic import train\n", encoding="utf-8")
    assert "archehr.training.relevance_logistic" in _imports(planted)
