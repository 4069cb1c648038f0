"""The 2026 subtasks through the CLI: `archehr score` / `archehr validate` with --task and --case-ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archehr.cli.main import main


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(args)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_score_json_prints_the_official_keys_at_the_top_level(golden_dir: Path, synthetic_dir: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    for fixture in ("st2-some-empty", "st4-first-essential"):
        expected = json.loads((golden_dir / "2026" / fixture / "expected.json").read_text())
        rc, out, err = _run(["score", str(golden_dir / "2026" / fixture / "submission.json"),
                             str(synthetic_dir / "test" / "archehr-qa_key.json"), "--task", fixture[:3],
                             "--format", "json"], capsys)
        assert rc == 0, err
        got = json.loads(out)
        assert {k: got[k] for k in expected} == expected
        assert [k for k in got if k != "_meta"] == list(expected)
        assert got["_meta"]["task"] == fixture[:3]


def test_score_auto_detects_and_says_which_task(golden_dir: Path, synthetic_dir: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = _run(["score", str(golden_dir / "2026" / "st4-gold" / "submission.json"),
                         str(synthetic_dir / "test"), "--format", "json"], capsys)
    assert rc == 0
    assert "task st4 detected" in err
    assert json.loads(out)["_meta"]["task_detected"] is True


def test_score_case_ids(golden_dir: Path, synthetic_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(["score", str(golden_dir / "2026" / "st2-lexical" / "submission.json"),
                       str(synthetic_dir / "test"), "--task", "st2", "--case-ids", "9-11,14", "--format", "json"],
                      capsys)
    assert rc == 0
    assert json.loads(out)["_meta"]["n_cases"] == 4
    rc, _, err = _run(["score", str(golden_dir / "2026" / "st2-lexical" / "submission.json"),
                       str(synthetic_dir / "test"), "--task", "st2", "--case-ids", "14-9"], capsys)
    assert rc == 2 and "selects nothing" in err and "Traceback" not in err


def test_score_st1_against_the_xml(golden_dir: Path, synthetic_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = json.loads((golden_dir / "2026" / "st1-narrative15" / "expected.json").read_text())
    rc, out, err = _run(["score", str(golden_dir / "2026" / "st1-narrative15" / "submission.json"),
                         str(synthetic_dir / "dev" / "archehr-qa.xml"), "--task", "st1", "--metrics", "rouge",
                         "--format", "json", "--quiet"], capsys)
    assert rc == 0, err
    got = json.loads(out)
    assert got["rougeLsum"] == pytest.approx(expected["rougeLsum"], abs=1e-9)
    assert got["overall_score"] is None  # bertscore, alignscore, medcon were not run


def test_score_bad_submission_exits_2_with_every_problem(tmp_path: Path, synthetic_dir: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    sub = tmp_path / "submission.json"
    sub.write_text(json.dumps([{"case_id": "9", "prediction": ["999"]}, {"case_id": "10", "prediction": "3"}]))
    rc, out, err = _run(["score", str(sub), str(synthetic_dir / "test"), "--task", "st2"], capsys)
    assert rc == 2 and out == ""
    assert "case 9" in err and "999" in err and "case 10" in err and "case 24" in err  # unknown id, type, missing
    assert "Traceback" not in err


def test_validate_knows_the_four_shapes(golden_dir: Path, synthetic_dir: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    for fixture in ("st2-lexical", "st3-clinician", "st4-gold"):
        rc, _, err = _run(["validate", str(golden_dir / "2026" / fixture / "submission.json"),
                           "--key", str(synthetic_dir / "test"), "--task", fixture[:3]], capsys)
        assert rc == 0, err
        assert f"task {fixture[:3]}, 0 error(s)" in err
    bad = tmp_path / "submission.json"
    bad.write_text(json.dumps([{"case_id": "9", "prediction": [{"answer_id": "1", "evidence_id": "13,14"}]}]))
    rc, out, _ = _run(["validate", str(bad), "--key", str(synthetic_dir / "test"), "--task", "st4",
                       "--case-ids", "9", "--format", "json"], capsys)
    assert rc == 2
    report = json.loads(out)
    assert [e["code"] for e in report["errors"]] == ["type"]  # only case 9 was checked


def test_validate_st1_against_the_xml(golden_dir: Path, synthetic_dir: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = _run(["validate", str(golden_dir / "2026" / "st1-narrative15" / "submission.json"),
                       "--data", str(synthetic_dir / "dev" / "archehr-qa.xml"), "--task", "st1"], capsys)
    assert rc == 0
    assert err.count("warning-truncated") == 0 and err.count("keeps only the first 15") == 8
