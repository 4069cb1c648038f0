"""What a new user reads first: whole one-line command descriptions, one way of naming the key and the reference
in `archehr score`'s header for every task, and a report legend whose items read apart."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
import typer

from archehr.cli.main import app, main

REPO = Path(__file__).resolve().parents[1]
KEY = REPO / "data" / "demo" / "test" / "archehr-qa_key.json"
GOLDEN = REPO / "tests" / "golden" / "demo"


def _commands(group: typer.Typer) -> dict[str, str]:
    """name -> the one-line description click shows in the command list."""
    cmd = typer.main.get_command(group)
    return {name: sub.get_short_help_str(limit=1000) for name, sub in cmd.commands.items()}  # type: ignore[attr-defined]


@pytest.mark.parametrize("argv", [["--help"], ["data", "--help"]])
def test_help_lists_whole_one_line_descriptions(argv, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(argv) == 0
    out = capsys.readouterr().out
    listing = out.split("Commands:\n", 1)[1]
    lines = [ln for ln in listing.splitlines() if ln.strip()]
    from archehr.cli import data_cmd
    descriptions = _commands(app if argv == ["--help"] else data_cmd.app)
    assert len(lines) == len(descriptions)  # one line per command: nothing wrapped
    for ln in lines:
        name, text = ln.split(None, 1)
        assert text == descriptions[name], ln  # shown whole, not cut with "..."
        assert not text.endswith("...") and len(ln) <= 80


def test_every_command_has_a_short_description_of_its_own():
    """A command without short_help gets click's cut of its long help: a new command must say it in one line."""
    from archehr.cli import data_cmd
    for group in (app, data_cmd.app):
        cmd = typer.main.get_command(group)
        for name, sub in cmd.commands.items():  # type: ignore[attr-defined]
            assert sub.short_help, f"`archehr {name}` has no short_help"
            assert len(sub.short_help) <= 62, (name, sub.short_help)  # fits 80 columns beside the longest name


@pytest.mark.parametrize("fixture, task, reference", [
    ("2025/test-lexical", "2025", "essential"),
    ("2026/st1-exact", "st1", "clinician_question"),
    ("2026/st2-lexical", "st2", None),
    ("2026/st3-clinician", "st3", "clinician_answer_without_citations"),
    ("2026/st4-gold", "st4", None),
])
def test_score_names_the_key_and_the_reference_the_same_way_for_every_task(fixture, task, reference, capsys):
    metrics = {"2025": ["--metrics", "factuality,rouge"], "st1": ["--metrics", "rouge"], "st3": ["--metrics", "rouge"]}
    assert main(["score", str(GOLDEN / fixture / "submission.json"), str(KEY), *metrics.get(task, [])]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    want = f"task {task}  key {KEY}" + (f"  reference {reference}" if reference else "") + "  cases 10"
    assert header == want


def test_score_json_meta_has_key_and_reference(capsys):
    assert main(["score", str(GOLDEN / "2026/st2-lexical/submission.json"), str(KEY), "--format", "json"]) == 0
    meta = json.loads(capsys.readouterr().out)["_meta"]
    assert meta["key"] == str(KEY) and "reference" not in meta


def test_report_legend_says_what_colours_and_badges_mean(tmp_path):
    out = tmp_path / "report.html"
    assert main(["report", str(GOLDEN / "2025/test-lexical/submission.json"), "--key", str(KEY), "-o", str(out),
                 "--metrics", "factuality", "--resamples", "20"]) == 0
    legend = re.search(r'<div class="legend small">(.*?)</div>', out.read_text(encoding="utf-8"), re.S).group(1)
    text = html.unescape(re.sub(r"<[^>]+>", "|", legend))
    items = [t.strip() for t in text.split("|") if t.strip()]
    assert items == ["Background = gold label:", "essential", "supplementary", "not relevant",
                     "Badge = the system's citation:",
                     "cited \u2713", ": essential, cited (hit)",
                     "cited (supplementary)", ": counts for lenient scores only",
                     "cited \u2717", ": not relevant, cited (false alarm)",
                     "missed", ": essential, not cited"]


@pytest.mark.parametrize("argv, usage, argument", [
    (["leaderboard"], "Usage: archehr leaderboard [OPTIONS] DIR...", "  DIR...  Submissions folders"),
    (["score"], "Usage: archehr score [OPTIONS] SUBMISSION KEY", "  SUBMISSION  Submission JSON."),
])
def test_usage_names_arguments_plainly(argv, usage, argument, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert main([*argv, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == usage
    assert argument in out
    assert not re.search(r"\{[a-z_]+\}|<list\[", out), out  # typer 0.29's `{dirs}...` and `dirs... <list[Path]>`
