"""`archehr data ...`, --help/--version, and the CLI's error contract (exit 2, no traceback)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from archehr.cli.main import main

XML = """<annotations><case id="1"><patient_narrative>q?</patient_narrative><note_excerpt>A. B.</note_excerpt>
<note_excerpt_sentences><sentence id="1" paragraph_id="1" start_char_index="0">A.</sentence>
<sentence id="2" paragraph_id="1" start_char_index="3">B.</sentence></note_excerpt_sentences></case></annotations>"""


def _release(tmp_path: Path, key: object) -> Path:
    d = tmp_path / "dev"
    d.mkdir()
    (d / "archehr-qa.xml").write_text(XML)
    (d / "archehr-qa_key.json").write_text(json.dumps(key))
    return tmp_path


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert "archehr 0.1.0" in capsys.readouterr().out
    for cmd in (["--help"], ["data", "--help"], ["data", "stats", "--help"]):
        assert main(cmd) == 0


def test_stats_json_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _release(tmp_path, [{"case_id": "1", "answers": [{"sentence_id": "1", "relevance": "essential"},
                                                            {"sentence_id": "2", "relevance": "not-relevant"}]}])
    assert main(["data", "stats", "--data-dir", str(root), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["cases"] == 1 and row["sentences"] == 2
    assert row["labels"]["essential"] == {"n": 1, "pct": 50.0}


def test_bad_label_exit_2_one_line_no_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _release(tmp_path, [{"case_id": "1", "answers": [{"sentence_id": "1", "relevance": "maybe"}]}])
    assert main(["data", "stats", "--data-dir", str(root)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "archehr-qa_key.json" in err and "case 1" in err and "answers[].relevance" in err


def test_check_lists_all_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _release(tmp_path, [{"case_id": "1", "answers": [{"sentence_id": "1", "relevance": "maybe"}]},
                               {"case_id": "2", "answers": []}])
    assert main(["data", "check", "--data-dir", str(root)]) == 2
    err = capsys.readouterr().err
    assert "relevance 'maybe'" in err and "case 2" in err and "missing from the XML" in err


def test_check_clean_release_warns_on_unlabelled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _release(tmp_path, [{"case_id": "1", "answers": [{"sentence_id": "1", "relevance": "essential"}]}])
    assert main(["data", "check", "--data-dir", str(root)]) == 0
    captured = capsys.readouterr()
    assert "warning" in captured.err and "sentences without a label: 2" in captured.err
    assert "dev: 0 errors, 1 warnings" in captured.out


def test_missing_data_dir_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "info", "--data-dir", str(tmp_path / "nope")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_unknown_command_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2


def test_console_script_runs_as_module(tmp_path: Path) -> None:
    root = _release(tmp_path, [{"case_id": "1", "answers": []}])
    r = subprocess.run([sys.executable, "-m", "archehr", "data", "info", "--data-dir", str(root)],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert "dev: archehr-qa.xml, archehr-qa_key.json" in r.stdout
