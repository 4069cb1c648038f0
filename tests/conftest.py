from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# ../shared (the wider parity fixtures and the synthetic release) lies beside the checkout, as in CI; a worktree
# elsewhere can point at it with ARCHEHR_SHARED. The headline parity tests need none of it (tests/golden/demo).
SHARED = Path(os.environ.get("ARCHEHR_SHARED") or REPO.parent / "shared")


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
