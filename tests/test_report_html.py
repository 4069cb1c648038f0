"""report.html and leaderboard.html: every case rendered, citations linked, nothing loaded from a network."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from archehr.cli.main import main
from archehr.leaderboard.html_report import parse_answer_2025, report_html
from archehr.leaderboard.scorer import OfficialScorer, load_key_with_notes

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def golden() -> Path:
    """Official-scorer fixtures on the bundled demo release (tests/golden/demo): these tests run in any clone."""
    return REPO / "tests" / "golden" / "demo"


@pytest.fixture
def release() -> Path:
    return REPO / "data" / "demo"


EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:|//)|url\(|@import|<link\b|<iframe\b""", re.I)


def _fixture(golden: Path, release: Path, name: str = "test-lexical") -> tuple[Path, Path]:
    return golden / "2025" / name / "submission.json", release / "test" / "archehr-qa_key.json"


def test_official_line_reading_is_what_the_page_shows():
    lines = parse_answer_2025("1", "A |4| B |5|\nSee |1, 2| tail\nno cite")
    assert lines[0].citations == ("5",)  # only the last |...| counts
    assert lines[1].citations == ("1", " 2")  # pieces are not stripped
    assert lines[1].sentence == "See." and lines[2].citations == ()


def test_report_renders_every_case_with_linked_citations(golden, release, tmp_path):
    sub, key = _fixture(golden, release)
    out = tmp_path / "report.html"
    assert main(["report", str(sub), "--key", str(key), "-o", str(out), "--metrics", "factuality,bleu",
                 "--resamples", "50"]) == 0
    html = out.read_text()
    split = load_key_with_notes(key)
    for case in split.cases:
        assert f'id="case-{case.case_id}"' in html
    # every citation link points at a sentence element that exists in the page
    targets = re.findall(r'<a class="cite [a-z]+" href="#([^"]+)"', html)
    assert targets
    ids = set(re.findall(r'id="([^"]+)"', html))
    assert set(targets) <= ids
    assert not EXTERNAL.search(html), EXTERNAL.search(html)
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert "missed" in html and "false alarm" in html  # the lexical run misses and over-cites


def test_citation_marks_match_the_gold_labels(release, golden, tmp_path):
    _, key = _fixture(golden, release)
    split = load_key_with_notes(key)
    case = split.cases[0]
    entry = split.key_for(case.case_id)
    ess, nr = entry.essential_ids[0], [a.sentence_id for a in entry.answers if a.relevance.value == "not-relevant"][0]
    items = {c.case_id: "x |" + (f"{ess},{nr}" if c is case else ess) + "|" for c in split.cases}
    sub = [{"case_id": c, "answer": a} for c, a in items.items()]
    rep = OfficialScorer("2025", ["factuality"]).score(_write_json(sub, tmp_path / "s.json"), key)
    html = report_html("2025", rep, split, items, "t")
    anchor = f"c{case.case_id}"
    sent = re.search(rf'<li class="sent ([a-z-]+)" id="{anchor}-s{nr}"[^>]*>.*?</li>', html).group(0)
    assert "not-relevant" in sent and "false alarm" in sent
    sent = re.search(rf'<li class="sent ([a-z-]+)" id="{anchor}-s{ess}"[^>]*>.*?</li>', html).group(0)
    assert "essential" in sent and "mark hit" in sent


def _write_json(obj: object, f: Path) -> Path:
    f.write_text(json.dumps(obj))
    return f


def test_report_of_an_invalid_submission_exits_2_with_every_problem(release, tmp_path, capsys):
    key = release / "test" / "archehr-qa_key.json"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"case_id": "21", "answer": "x |1|"}]))
    assert main(["report", str(bad), "--key", str(key), "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("error:") >= 9 and "Traceback" not in err  # the 9 missing cases, each named
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("task,fixture", [("st2", "st2-lexical"), ("st4", "st4-first-essential")])
def test_2026_reports_render(task, fixture, golden, release, tmp_path):
    sub = golden / "2026" / fixture / "submission.json"
    key = release / "test" / "archehr-qa_key.json"
    out = tmp_path / "r.html"
    assert main(["report", str(sub), "--key", str(key), "--task", task, "-o", str(out), "--resamples", "20"]) == 0
    html = out.read_text()
    expected = json.loads((golden / "2026" / fixture / "expected.json").read_text())
    assert f"{expected['overall_score']:.1f}" in html  # the summary shows the official overall
    assert html.count('<section class="case"') == len(load_key_with_notes(key).cases)
    assert not EXTERNAL.search(html)


def test_report_ci_is_recomputed_with_requested_resamples(golden, release):
    sub, key = _fixture(golden, release)
    rep = OfficialScorer("2025", ["factuality"]).score(sub, key)
    assert rep.ci is None
    from archehr_scoring.bootstrap import bootstrap_ci

    rep = dataclasses.replace(rep, ci=bootstrap_ci(rep, 30))
    html = report_html("2025", rep, load_key_with_notes(key), {}, "t")
    lo, hi = rep.ci["strict_micro_f1"]
    assert f"[{lo:.1f}, {hi:.1f}]" in html
