"""Package layout that pyproject.toml alone cannot say.

`scoring/` installs under the import name `archehr_scoring`: a bare top-level `scoring` would
collide with other projects' modules in the same environment. The demo release (`data/demo`) and
the system configs (`configs/`) are shipped inside the package so a plain `pip install .` finds them.
"""

from setuptools import find_packages, setup

archehr = find_packages(include=["archehr", "archehr.*"])
scoring = ["archehr_scoring" + p[len("scoring"):] for p in find_packages(include=["scoring", "scoring.*"])]

setup(
    packages=archehr + scoring + ["archehr._demo", "archehr._configs"],
    package_dir={"archehr_scoring": "scoring", "archehr._demo": "data/demo", "archehr._configs": "configs"},
    package_data={
        "archehr._demo": ["*/*.xml", "*/*.json", "*.md"],
        "archehr._configs": ["*.yaml", "*/*.yaml", "*/*.txt", "*/*.md", "*/*/*.txt"],
        "": ["*.json", "*.tsv", "*.txt", "*.yaml"],
    },
)
