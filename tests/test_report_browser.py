"""report.html and leaderboard.html opened in headless Chromium, as a reader would.

Needs Debian's `chromium` (/usr/bin/chromium) and the `playwright` Python client (its bundled
driver only; browsers are never downloaded). Skipped with the reason when either is missing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from archehr.cli.main import main


def _open(browser, path: Path, width: int = 1100):
    """A page that records (and aborts) every request that is not the file itself."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    outside: list[str] = []

    def route(r):
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("request", lambda req: None if req.url.startswith(("file://", "data:")) else outside.append(req.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, outside


def _in_viewport(page, selector: str) -> bool:
    return page.eval_on_selector(selector, "e => { const r = e.getBoundingClientRect();"
                                           " return r.top >= 0 && r.bottom <= window.innerHeight; }")


REPO = Path(__file__).resolve().parents[1]
GOLDEN_DEMO = REPO / "tests" / "golden" / "demo"  # in the repository: the test runs in any clone


def test_report_and_leaderboard_in_chromium(browser, tmp_path):
    key = REPO / "data" / "demo" / "test" / "archehr-qa_key.json"
    subs = tmp_path / "submissions"
    for n in ("test-lexical", "test-citeall", "test-oracle"):
        (subs / n).mkdir(parents=True)
        shutil.copy(GOLDEN_DEMO / "2025" / n / "submission.json", subs / n / "submission.json")
    (subs / "broken").mkdir()
    (subs / "broken" / "submission.json").write_text("[{")
    report = tmp_path / "report.html"
    assert main(["report", str(subs / "test-lexical" / "submission.json"), "--key", str(key), "-o", str(report),
                 "--metrics", "factuality,bleu,rouge", "--resamples", "50"]) == 0
    assert main(["leaderboard", str(subs), "--key", str(key), "--metrics", "factuality,bleu,rouge",
                 "--resamples", "50", "-q"]) == 0
    n_cases = len(key.parent.joinpath("archehr-qa.xml").read_text().split("<case ")) - 1

    page, outside = _open(browser, report)
    sections = page.locator("section.case")
    assert sections.count() == n_cases
    for i in range(n_cases):  # every case section is rendered: visible, with its note sentences
        assert sections.nth(i).is_visible()
        assert sections.nth(i).locator("li.sent").count() > 0
    link = page.locator("section.case").nth(n_cases - 1).locator("a.cite").first
    target = link.get_attribute("data-target")
    link.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    link.click()
    page.wait_for_function(f"document.getElementById('{target}').getBoundingClientRect().top >= 0 && "
                           f"document.getElementById('{target}').getBoundingClientRect().bottom <= innerHeight")
    assert _in_viewport(page, f"#{target}")
    assert page.evaluate("document.activeElement.id") == target  # focus moved too (keyboard users)
    page.keyboard.press("j")  # keyboard navigation to the next case does not error
    shots = tmp_path / "screenshots"
    shots.mkdir()
    page.screenshot(path=str(shots / "report.png"))
    phone, outside_phone = _open(browser, report, width=390)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")  # no sideways scroll
    phone.screenshot(path=str(shots / "report-phone.png"))

    board, outside_board = _open(browser, subs / "leaderboard.html")
    rows = board.locator("#board tbody tr")
    assert rows.count() == 4
    assert "invalid" in rows.nth(3).inner_text()
    board.locator("#board th button", has_text="run").click()  # sorting works without errors
    board.screenshot(path=str(shots / "leaderboard.png"), full_page=True)
    print(f"screenshots: {shots}")
    assert outside == [] and outside_phone == [] and outside_board == []
