from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ../shared, skipping the test with a clear reason when it is absent."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"../shared is not beside this checkout ({p} missing): parity/fixture data unavailable")
    return p


@pytest.fixture
def synthetic_dir() -> Path:
    return shared_path("data", "synthetic")


@pytest.fixture
def golden_dir() -> Path:
    return shared_path("golden")
