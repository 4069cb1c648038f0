"""Package layout that pyproject.toml alone cannot say.

`scoring/` installs under the import name `archehr_scoring`: a bare top-level `scoring` would
collide with other projects' modules in the same environment. The demo release (`data/demo`) and
the system configs (`configs/`) are shipped inside the package so a plain `pip install .` finds them.

Editable installs (`pip install -e .`, as scripts/setup.sh does): with this layout setuptools maps the
packages through an import finder that it appends to `sys.meta_path`, after Python's path finder. Run
from the folder that holds a clone named `archehr`, the path finder then takes the clone folder (no
`__init__.py`) for a namespace package `archehr`, and `import archehr.data` fails. So the editable wheel
also carries a small guard module (GUARD_SOURCE, imported by a .pth at start-up) that sits first in
`sys.meta_path` and answers for `archehr` and `archehr_scoring` only: a regular package found on the path
keeps its precedence (PYTHONPATH still wins), a namespace folder defers to the editable finder.
tests/test_install.py checks it in a temporary venv.
"""

from setuptools import find_packages, setup

archehr = find_packages(include=["archehr", "archehr.*"])
scoring = ["archehr_scoring" + p[len("scoring"):] for p in find_packages(include=["scoring", "scoring.*"])]

GUARD = "_archehr_editable_guard"
GUARD_SOURCE = '''"""Written by archehr's setup.py into its editable installs (see there): a folder named archehr or
archehr_scoring without __init__.py (a clone, in the current folder) must not hide the editable package as a
namespace package."""

import sys
from importlib.machinery import PathFinder

NAMES = ("archehr", "archehr_scoring")


class NamespaceGuard:
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname not in NAMES:
            return None
        spec = PathFinder.find_spec(fullname, path, target)
        if spec is not None and spec.origin is not None:  # a regular package on sys.path keeps its precedence
            return spec
        for finder in sys.meta_path:  # else setuptools' editable finder, appended after the path finder
            if str(getattr(finder, "__module__", "")).startswith("__editable___archehr_"):
                return finder.find_spec(fullname, path, target)
        return spec


if NamespaceGuard not in sys.meta_path:
    sys.meta_path.insert(0, NamespaceGuard)
'''
cmdclass = {}
try:
    from setuptools.command.editable_wheel import editable_wheel
except ImportError:  # a setuptools without editable wheels: nothing to fix
    pass
else:
    class _WithGuard:
        """setuptools' editable strategy, plus the guard module and the .pth that imports it at start-up."""

        def __init__(self, inner):
            self.inner = inner

        def __enter__(self):
            self.inner.__enter__()
            return self

        def __exit__(self, *exc):
            return self.inner.__exit__(*exc)

        def __call__(self, wheel, files, mapping):
            out = self.inner(wheel, files, mapping)
            wheel.writestr(f"{GUARD}.py", GUARD_SOURCE.encode())
            wheel.writestr(f"{GUARD}.pth", f"import {GUARD}\n".encode())  # site runs .pth lines starting "import"
            return out

    class EditableWithGuard(editable_wheel):
        def _select_strategy(self, *args, **kwargs):
            return _WithGuard(super()._select_strategy(*args, **kwargs))

    cmdclass["editable_wheel"] = EditableWithGuard

setup(
    packages=archehr + scoring + ["archehr._demo", "archehr._configs"],
    package_dir={"archehr_scoring": "scoring", "archehr._demo": "data/demo", "archehr._configs": "configs"},
    package_data={
        "archehr._demo": ["*/*.xml", "*/*.json", "*.json", "*.md"],
        "archehr._configs": ["*.yaml", "*/*.yaml", "*/*.txt", "*/*.md", "*/*/*.txt"],
        "archehr.serve": ["static/*.js"],
        "archehr": ["templates/*/*"],
        # a data folder, not a package: find_packages never sees it
        "archehr.glossary": ["languages/*.tsv", "languages/*.md"],
        "": ["*.json", "*.tsv", "*.txt", "*.yaml"],
    },
    cmdclass=cmdclass,
)
