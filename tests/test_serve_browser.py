"""`archehr serve` driven in headless Chromium as people use it: the ask page and the runs page end to end.

A real server process on a random free 127.0.0.1 port, its log captured; after it stops, nothing from the
note may be in that log or in any file written under the repository or the server's home and working folder.
Screenshots go to the test's tmp folder, and to $ARCHEHR_SCREENSHOTS when set (docs/img holds the committed
ones: ARCHEHR_SCREENSHOTS=docs/img pytest tests/test_serve_browser.py).

Needs Debian's `chromium` and the `playwright` client, as tests/test_report_browser.py; skipped without them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest
from server_process import free_port, get_json, running_server

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

REPO = Path(__file__).resolve().parents[1]
SUBMISSIONS = REPO / "submissions"
MARKER = "Zorblaxian"  # a word no file of the project holds: found anywhere after the run = the note leaked
QUESTION = "Why was she given vancomycin by mouth instead of through the IV?"


def _demo_note() -> str:
    from archehr.data import load_split

    case = load_split(None, "test").cases[0]
    return (case.note_excerpt or "") + (f"\n\nFamily contact code word {MARKER}. "
                                        "<script>window.__pwned = 1</script> Follow up in clinic.")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("serve")
    home, cwd = root / "home", root / "cwd"
    home.mkdir()
    cwd.mkdir()
    port = free_port()
    log = root / "server.log"
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "PYTHONUNBUFFERED": "1"}
    started = time.time()
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "archehr", "serve", "--runs", str(SUBMISSIONS), "--port", str(port)]
    with running_server(cmd, f"{base}/api/health", log, "archehr serve", 120, stop=signal.SIGINT, cwd=cwd,
                        env=env) as (proc, _):
        print(f"server answered /api/health {time.time() - started:.2f} s after it was started")
        yield {"base": base, "proc": proc, "log": log, "root": root, "started": started}


def _page(browser, server, outside: list[str], width: int = 1100):
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(server["base"]) else outside.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(120_000)  # the first answer may wait for spaCy to load on a busy machine
    return page, errors


def _shot(page, tmp_path: Path, name: str, full_page: bool = False) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=full_page)
    dest = os.environ.get("ARCHEHR_SCREENSHOTS")
    if dest:
        Path(dest).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(dest) / name)


def test_ask_page(browser, server, tmp_path) -> None:
    outside: list[str] = []
    page, errors = _page(browser, server, outside)
    page.goto(server["base"] + "/")
    note = _demo_note()
    page.fill("#note", note)
    page.fill("#question", QUESTION)
    page.click("#go")
    page.wait_for_selector("body[data-answered='1']")
    got = page.evaluate("({pwned: window.__pwned, n: document.querySelectorAll('#sentences li').length})")
    assert got["pwned"] is None  # the note's <script> did not run ...
    last = page.locator("#sentences li").last.inner_text()
    assert "<script>window.__pwned = 1</script>" in last  # ... it is shown as text
    # what the page shows is what the library answers with the split the server used
    import archehr

    used = page.inner_text("#splitter-used")
    want = archehr.answer(note, QUESTION, splitter="spacy" if used.startswith("spacy") else "rules")
    assert got["n"] == len(want.note.sentences)
    assert used.startswith(want.note.splitter)
    cited = page.locator("#sentences li.cited-essential, #sentences li.cited-supplementary")
    assert sorted(cited.evaluate_all("els => els.map(e => e.dataset.sid)")) == sorted(s.id for s in want.cited)
    labels = dict(want.cited_as)
    for sid in labels:
        assert f"cited-{labels[sid]}" in page.get_attribute(f"#s-{sid}", "class")
    assert page.inner_text("#confidence") == f"{want.confidence:.2f}"
    assert page.inner_text("#review").startswith("yes" if want.flagged else "no")
    lines = page.locator("#answer p")
    assert lines.count() == len(want.lines)
    for i, line in enumerate(want.lines):
        assert lines.nth(i).inner_text().startswith(line.text)
    print(f"ask page: server time {page.inner_text('#seconds')}; {page.inner_text('#status')}")
    page.locator("#answer a.cite").first.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, tmp_path, "serve-ask.png", full_page=True)

    # a question the note does not answer: "The note does not say.", the closest sentences marked related
    dog = "What is the name of my dog?"
    want = archehr.answer(note, dog, splitter="spacy" if used.startswith("spacy") else "rules")
    page.fill("#question", dog)
    page.click("#go")
    page.wait_for_selector("body[data-answered='2']")
    assert want.abstained
    assert page.locator("#answer p").first.inner_text() == "The note does not say."
    assert page.locator("#sentences li.cited-essential, #sentences li.cited-supplementary").count() == 0
    related = page.locator("#sentences li.related").evaluate_all("els => els.map(e => e.dataset.sid)")
    assert related == [s.id for s in want.related]
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, tmp_path, "serve-ask-abstains.png")

    # a 10 MB text file opened in the page: the server refuses it (413) and the page says so
    page.set_input_files("#file", files=[{"name": "big.txt", "mimeType": "text/plain",
                                          "buffer": (f"Stable overnight, seen by {MARKER}. " * 300_000).encode()}])
    deadline = time.time() + 60  # (wait_for_function evaluates a string: the page's CSP forbids that)
    while page.evaluate("document.getElementById('note').value.length") < 10_000_000 and time.time() < deadline:
        time.sleep(0.2)
    page.click("#go")
    page.wait_for_selector("#problems p")
    assert "larger than the 1 MB this server accepts" in page.inner_text("#problems")
    assert page.inner_text("#status") == "refused (413)"
    assert outside == []
    assert [e for e in errors if "status of 413" not in e] == []  # Chromium logs the refused request itself


def test_runs_page(browser, server, tmp_path) -> None:
    outside: list[str] = []
    page, errors = _page(browser, server, outside)
    page.goto(server["base"] + "/runs")
    page.select_option("#split", "test")
    page.check("input[name=run] >> xpath=..//self::label[contains(., 'lexical-extractive')]//input")
    page.check("input[name=run] >> xpath=..//self::label[contains(., 'trained-extractive')]//input")
    page.click("#pick button[type=submit]")
    page.wait_for_selector("#case-sections section.case")
    n_cases = len(re.findall(r"<case ", (REPO / "data/demo/test/archehr-qa.xml").read_text()))
    sections = page.locator("#case-sections section.case")
    assert sections.count() == n_cases
    rows = page.locator("#cases tbody tr")
    assert rows.count() == n_cases

    def shown(attr: str) -> list[str]:
        return page.locator("#cases tbody tr:not(.hidden)").evaluate_all(f"els => els.map(e => e.dataset.{attr})")

    diffs = [float(x) for x in shown("abs")]
    assert diffs == sorted(diffs, reverse=True) and diffs[0] > 0  # largest difference first
    deltas = [float(x) for x in shown("delta")]
    assert max(abs(d) for d in deltas) == diffs[0]
    page.select_option("#sort", "asc")
    deltas = [float(x) for x in shown("delta")]
    assert deltas == sorted(deltas)
    page.select_option("#sort", "case")
    assert shown("case") == sorted(shown("case"), key=int)
    page.select_option("#sort", "specialty")
    assert shown("specialty") == sorted(shown("specialty"))
    # each case: the note with gold labels, each run's marks, both answers and their per-case scores
    first = sections.first
    assert first.locator(".run-answer").count() == 2
    assert first.locator("table.sentences tbody tr").count() > 0
    assert first.locator(".mark.hit, .mark.miss, .mark.fa, .mark.lenient").count() > 0
    # filter by specialty: only the cases of that specialty stay
    specialty = page.locator("#specialty option").nth(1).get_attribute("value")
    page.select_option("#specialty", specialty)
    kept = page.locator("#case-sections section.case:not(.hidden)").evaluate_all(
        "els => els.map(e => e.dataset.specialty)")
    assert kept and all(specialty in k.split("|") for k in kept)
    assert page.inner_text("#shown") == f"{len(kept)} of {n_cases} cases shown"
    page.select_option("#specialty", "")
    page.fill("#min-diff", "20")
    kept = page.locator("#cases tbody tr:not(.hidden)").evaluate_all("els => els.map(e => +e.dataset.abs)")
    assert all(k >= 20 for k in kept) and len(kept) < n_cases
    page.fill("#min-diff", "0")
    page.select_option("#sort", "abs")
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, tmp_path, "serve-runs.png")
    first = page.locator("#case-sections section.case").first
    first.scroll_into_view_if_needed()
    first.screenshot(path=str(tmp_path / "serve-runs-case.png"))
    if os.environ.get("ARCHEHR_SCREENSHOTS"):
        shutil.copy(tmp_path / "serve-runs-case.png", Path(os.environ["ARCHEHR_SCREENSHOTS"]) / "serve-runs-case.png")
    # provenance: the run's run.json
    href = page.locator("a", has_text="provenance (run.json)").first.get_attribute("href")
    prov = get_json(server["base"] + href)
    assert prov["system"]["name"] in ("trained-extractive", "lexical-extractive")
    phone, phone_errors = _page(browser, server, outside, width=390)
    for path in ("/", page.url[len(server["base"]):]):
        phone.goto(server["base"] + path)  # no sideways scroll on a phone: wide tables scroll in their own box
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), path
    api, api_errors = _page(browser, server, outside)
    api.goto(server["base"] + "/api")
    assert api.locator("h2", has_text="POST /api/answer").count() == 1
    _shot(api, tmp_path, "serve-api.png")
    assert outside == [] and errors == [] and api_errors == [] and phone_errors == []


def test_zz_nothing_of_the_note_left_after_stop(server) -> None:
    """Runs last in this module: stop the server, then look for the note in its log and in files.

    It sends its own requests first (the runs page, an answer, a refused 2 MB note), so it holds without the
    browser tests above, which skip on a machine without Chromium."""
    import http.client
    import urllib.request

    base = server["base"]
    with urllib.request.urlopen(base + "/runs", timeout=60) as r:  # noqa: S310 - our own 127.0.0.1 server
        assert r.status == 200
    body = json.dumps({"note": _demo_note(), "question": QUESTION}).encode()
    req = urllib.request.Request(base + "/api/answer", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=300) as r:  # noqa: S310
        assert r.status == 200
    # a 2 MB note: the server answers 413 from the declared length, before it reads the body (sending the body
    # would race that answer and break the pipe), so only the headers go
    conn = http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]), timeout=60)
    conn.putrequest("POST", "/api/answer")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(2_000_000))
    conn.endheaders()
    assert conn.getresponse().status == 413
    conn.close()
    proc = server["proc"]
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    log = server["log"].read_text(errors="replace")
    assert "GET /runs" in log and "POST /api/answer 200" in log and "POST /api/answer 413" in log
    assert MARKER not in log and "window.__pwned" not in log and "vancomycin" not in log.lower()
    for line in log.splitlines():  # access lines are "METHOD /path STATUS": no query string, no client address
        if line.startswith(("GET ", "POST ", "HEAD ")):
            assert re.fullmatch(r"(GET|POST|HEAD) /[^\s?]* \d{3}", line), line
    written = []
    for top in (server["root"], REPO):
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if d not in (".git", ".venv", "node_modules")]
            for f in filenames:
                p = Path(dirpath) / f
                try:
                    if p == server["log"] or p.stat().st_mtime < server["started"] or p.suffix == ".png":
                        continue
                    data = p.read_bytes()
                except OSError:
                    continue
                written.append(p)
                assert MARKER.encode() not in data, f"the note's text is in {p}"
    print(f"{len(written)} files written since the server started; none holds the note")
