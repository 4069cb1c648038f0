"""leaderboard.html in headless Chromium at 1280 px and 390 px: no sideways scrolling of the page, the runs table
fits a 1280 px window with its status column, signatures wrap, and the column checkbox shows the other scores.

On the committed demo runs plus an st2 run, a broken run and a long run name: nothing beside the clone. Needs
Debian's chromium and playwright (skipped with the reason otherwise, as test_report_browser.py). Screenshots go to
$ARCHEHR_SCREENSHOTS when set, else to the test's temporary folder (the path is printed).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from test_report_browser import _open  # the `browser` fixture is in conftest.py

from archehr.cli.main import main

REPO = Path(__file__).resolve().parents[1]
KEY = REPO / "data" / "demo" / "test" / "archehr-qa_key.json"
RUNS = ["trained-extractive", "trained-plain", "smollm2", "lexical-extractive", "cite-all"]
NO_PAGE_SCROLL = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.fixture
def board(tmp_path: Path) -> Path:
    subs = tmp_path / "submissions"
    for name in RUNS:
        shutil.copytree(REPO / "submissions" / name, subs / name)
    long_name = subs / "trained-extractive-with-a-long-descriptive-run-name-from-a-sweep-lr3e-5"
    shutil.copytree(REPO / "submissions" / "trained-extractive", long_name)
    (subs / "st2-lexical").mkdir()
    shutil.copy(REPO / "tests" / "golden" / "demo" / "2026" / "st2-lexical" / "submission.json",
                subs / "st2-lexical" / "submission.json")
    (subs / "broken").mkdir()
    (subs / "broken" / "submission.json").write_text("[{", encoding="utf-8")
    assert main(["leaderboard", str(subs), "--key", str(KEY), "--resamples", "50", "-q"]) == 0
    return subs / "leaderboard.html"


def _shots(tmp_path: Path) -> Path:
    d = Path(os.environ.get("ARCHEHR_SCREENSHOTS") or tmp_path / "screenshots")
    d.mkdir(parents=True, exist_ok=True)
    return d


def test_leaderboard_fits_1280_and_390_px(browser, board, tmp_path):  # noqa: F811 - the fixture
    shots = _shots(tmp_path)
    page, outside = _open(browser, board, width=1280)
    assert page.evaluate(NO_PAGE_SCROLL), page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    table_fits = page.eval_on_selector("#board", "t => t.scrollWidth <= t.parentElement.clientWidth")
    assert table_fits, page.eval_on_selector("#board", "t => [t.scrollWidth, t.parentElement.clientWidth]")
    status = page.locator("#board thead th").last
    assert status.inner_text() == "status" and status.is_visible()
    assert status.bounding_box()["x"] + status.bounding_box()["width"] <= 1280
    rows = page.locator("#board tbody tr")
    assert rows.count() == len(RUNS) + 3
    assert "st2 run: use --task st2" in page.locator("#run-st2-lexical").inner_text()
    for sig in page.locator("ul.sigs li").all():  # long signatures wrap inside the page
        assert sig.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), sig.inner_text()[:80]
    # a short run name stays on one line: its cell is one line high like the rank cell beside it
    name = page.locator("#run-cite-all td.name")
    assert name.evaluate("e => e.getClientRects().length === 1 && e.scrollWidth <= e.clientWidth")
    for th in page.locator("#board thead th button").all():
        # The sort arrow (::after) is inside the button's box: alone on a line of its own, it would put the box's
        # bottom a line (about 20 px) below the text's last line; beside the last word, a few px of line height.
        if th.is_visible():
            assert th.evaluate("b => { const r = document.createRange(); r.selectNodeContents(b);"
                               " const text = [...r.getClientRects()].pop(), box = b.getBoundingClientRect();"
                               " return box.bottom - text.bottom < 10; }"), th.inner_text()
    labels = page.locator("section.chart svg > text[text-anchor=end]").all()  # run names beside the bars
    assert len(labels) == len(RUNS) + 1  # the ranked runs
    for label in labels:  # inside the chart, not clipped at its left edge
        assert label.evaluate("t => t.getBBox().x >= 0"), label.text_content()
    page.screenshot(path=str(shots / "leaderboard-1280.png"), full_page=True)

    hidden = page.locator("#board thead th.x").first
    assert not hidden.is_visible()
    page.locator("#more-cols").check()  # the other official scores, delta, system and commit
    assert hidden.is_visible()
    assert page.evaluate(NO_PAGE_SCROLL)  # the wide table scrolls inside its box, never the page
    page.screenshot(path=str(shots / "leaderboard-1280-all-columns.png"), full_page=True)

    phone, outside_phone = _open(browser, board, width=390)
    assert phone.evaluate(NO_PAGE_SCROLL), phone.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    phone.screenshot(path=str(shots / "leaderboard-390.png"), full_page=True)
    print(f"screenshots: {shots}")
    assert outside == [] and outside_phone == []
