"""The scorer's modules vendored into a Codabench scoring program (`scoring_program/lib/`): every module of
`archehr_scoring` and the `archehr` modules they import, found by reading their imports, so the program needs no
archehr install (`archehr.codabench` builds the bundle around them).
"""

from __future__ import annotations

import ast
from pathlib import Path

from archehr.errors import ConfigError

# system code never goes into a scoring program (tests/test_layers.py keeps the scorer free of it)
_SYSTEM = ("archehr.relevance", "archehr.generate", "archehr.llm", "archehr.pipeline", "archehr.runs",
           "archehr.question", "archehr.align", "archehr.cli", "archehr.ask")


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    return out


def _module_file(root: Path, module: str) -> Path | None:
    """The file of `module` under package folder `root` (whose name is the first part), if it is a module."""
    rel = Path(*module.split(".")[1:])
    for candidate in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def vendored_files() -> dict[str, bytes]:
    """{path under lib/: bytes}: every module of archehr_scoring and the archehr modules they import."""
    import archehr
    import archehr_scoring

    scoring_root = Path(archehr_scoring.__file__).parent
    archehr_root = Path(archehr.__file__).parent
    files: dict[str, bytes] = {}
    todo: list[Path] = []
    for f in sorted(scoring_root.rglob("*.py")):
        if "__pycache__" not in f.parts:
            files[f"archehr_scoring/{f.relative_to(scoring_root).as_posix()}"] = f.read_bytes()
            todo.append(f)
    # the real archehr/__init__ re-exports system code lazily: the program gets a bare package instead
    files["archehr/__init__.py"] = (f'"""archehr modules the scorer needs (vendored by archehr codabench)."""\n\n'
                                    f'__version__ = "{archehr.__version__}"\n').encode()
    seen: set[Path] = set()
    while todo:
        for module in sorted(_imported_modules(todo.pop())):
            if not module.startswith("archehr."):  # the package itself is the bare stub above
                continue
            if module.startswith(_SYSTEM):
                raise ConfigError(f"the scorer imports system code ({module}); it cannot be vendored")
            f = _module_file(archehr_root, module)
            if f is None or f in seen:
                continue
            seen.add(f)
            todo.append(f)
            rel = f.relative_to(archehr_root)
            files[f"archehr/{rel.as_posix()}"] = f.read_bytes()
            for parent in rel.parents:  # every package on the way needs its __init__
                init = archehr_root / parent / "__init__.py"
                if parent != Path(".") and init.is_file() and init not in seen:
                    seen.add(init)
                    todo.append(init)
                    files[f"archehr/{(parent / '__init__.py').as_posix()}"] = init.read_bytes()
    return files
