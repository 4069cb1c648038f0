"""Where the shipped configs live: `configs/` in a checkout, the package `archehr._configs` when installed."""

from __future__ import annotations

from pathlib import Path

from archehr.errors import ConfigError


def configs_dir() -> Path:
    here = Path(__file__).resolve()
    checkout = here.parents[1] / "configs"
    if (checkout / "systems").is_dir():
        return checkout
    installed = here.parent / "_configs"  # setup.py ships configs/ as archehr/_configs
    if (installed / "systems").is_dir():
        return installed
    raise ConfigError(f"the shipped configs are missing (looked in {checkout} and {installed})")
