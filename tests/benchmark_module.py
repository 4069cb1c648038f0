"""Import one of the scripts under benchmarks/ as a module, for tests of its helpers (the scripts are not a
package, so each is loaded by name with benchmarks/ on the path only while it imports)."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load(name: str) -> ModuleType:
    """The module of `benchmarks/<name>.py` (imported once per process, like any module)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))
