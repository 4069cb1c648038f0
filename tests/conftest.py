from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# One math thread per process unless the caller says otherwise. The tests' models are small, and on a shared
# 2-core machine OpenMP's spinning threads cost far more than they give: fine-tuning the test cross-encoder
# took 221 s wall / 109 s CPU with torch's 2 threads and 29 s / 14 s with one (load average 6). Set before
# any test imports torch or numpy's BLAS; subprocesses inherit it.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
# ../shared (the wider parity fixtures and the synthetic release) lies beside the checkout, as in CI; a worktree
# elsewhere can point at it with ARCHEHR_SHARED. The headline parity tests need none of it (tests/golden/demo).
SHARED = Path(os.environ.get("ARCHEHR_SHARED") or REPO.parent / "shared")


@dataclass(frozen=True)
class Line:
    """A note's sentence as the answer rules read it, for tests that need no split: its text and its paragraph (the
    rules compare paragraph numbers, never read them as positions)."""

    text: str
    paragraph_id: int = 1


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


# Headless Chromium for the browser tests (report, leaderboard, serve): Debian's chromium driven by playwright's
# bundled driver; browsers are never downloaded, and the flags keep it off the network.
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"{CHROMIUM} missing: apt-get install -y chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed: pip install playwright (do not run `playwright install`)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
