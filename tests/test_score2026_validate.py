"""2026 submissions: shape checks, checks against the key, task detection, the writer, `archehr package`."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from archehr.cli.main import main
from archehr.data.releases import load_split
from archehr.errors import ConfigError, DataError, SubmissionError
from archehr_scoring.score2026 import detect_task_2026, load_reference_2026, score_2026, validate_2026
from archehr_scoring.submission2026 import (
    check_shape_2026,
    cut_words,
    parse_submission_2026,
    write_submission_2026,
)

GOLDEN_TASKS = {"st1-exact": "st1", "st2-lexical": "st2", "st2-ess-plus-supp": "st2", "st2-some-empty": "st2",
                "st3-clinician": "st3", "st3-lexical-extractive": "st3", "st4-gold": "st4",
                "st4-first-essential": "st4"}


@pytest.fixture
def test_split(synthetic_dir: Path):
    return load_split(synthetic_dir, "test")


def _codes(problems) -> list[str]:
    return sorted(p.code for p in problems)


# ---------------------------------------------------------------- detection


@pytest.mark.parametrize("fixture,task", sorted(GOLDEN_TASKS.items()))
def test_detects_the_subtask_of_each_golden_fixture(fixture: str, task: str, golden_dir: Path) -> None:
    obj = json.loads((golden_dir / "2026" / fixture / "submission.json").read_text())
    assert detect_task_2026(obj) == task


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_detects_the_organisers_sample_submissions(n: int, golden_dir: Path) -> None:
    obj = json.loads((golden_dir / "sample-submissions-2026" / f"submission_subtask_{n}.json").read_text())
    assert detect_task_2026(obj) == f"st{n}"


def test_detection_refuses_what_it_cannot_tell(golden_dir: Path) -> None:
    # 20-word statements: over the st1 limit, too short for a typical st3 answer -> ask for --task
    obj = json.loads((golden_dir / "2026" / "st1-narrative15" / "submission.json").read_text())
    with pytest.raises(SubmissionError, match="--task"):
        detect_task_2026(obj)
    with pytest.raises(SubmissionError, match="st2 or st4"):
        detect_task_2026([{"case_id": "1", "prediction": []}])
    with pytest.raises(SubmissionError, match="2025"):
        detect_task_2026([{"case_id": "1", "answer": "Yes. |1|"}])
    with pytest.raises(SubmissionError, match="mixed"):
        detect_task_2026([{"case_id": "1", "prediction": "x"}, {"case_id": "2", "prediction": ["1"]}])
    with pytest.raises(SubmissionError):
        detect_task_2026({"case_id": "1"})


def test_score_without_task_detects_and_says_so(golden_dir: Path, synthetic_dir: Path) -> None:
    r = score_2026(None, golden_dir / "2026" / "st4-gold" / "submission.json",
                   synthetic_dir / "test" / "archehr-qa_key.json")
    assert r.task == "st4" and r.meta["task_detected"] is True
    assert score_2026("st4", golden_dir / "2026" / "st4-gold" / "submission.json",
                      synthetic_dir / "test").meta["task_detected"] is False


# ---------------------------------------------------------------- shape and key checks


def test_st2_bad_input_is_reported_all_at_once(test_split) -> None:
    ids = [c.case_id for c in test_split.cases]
    sub = [{"case_id": c, "prediction": ["10"]} for c in ids[3:]]
    sub += [
        {"case_id": 9, "prediction": ["1"]},                 # int case id
        {"case_id": ids[1], "prediction": "10,12"},          # not a list
        {"case_id": ids[2], "prediction": [10, "999"]},      # int id and an id the note does not have
        {"case_id": ids[3], "prediction": ["10"]},           # duplicate case
        {"case_id": "500", "prediction": ["1"]},             # not in the key
        {"case_id": ids[0]},                                 # no prediction
    ]
    problems = validate_2026("st2", sub, test_split, "sub.json")
    assert _codes(problems) == sorted(["type", "type", "type", "unknown-sentence", "duplicate-case", "unknown-case",
                                       "missing-field"])
    with pytest.raises(SubmissionError) as e:
        score_2026("st2", sub, test_split)
    assert len(e.value.problems) == 7  # every problem, not only the first


def test_st4_bad_input(test_split) -> None:
    sub = [{"case_id": c, "prediction": [{"answer_id": "1", "evidence_id": ["10"]}]} for c in test_split.case_ids]
    sub[0]["prediction"] = [
        {"answer_id": "1", "evidence_id": "13,14"},           # string, not a list
        {"answer_id": 2, "evidence_id": ["10"]},              # int answer id
        {"answer_id": "99", "evidence_id": ["10", "999"]},    # unknown answer id and evidence id
        {"evidence_id": ["10"]},                               # missing answer_id
        "1:10",                                                # not an object
    ]
    problems = validate_2026("st4", sub, test_split, "sub.json")
    assert _codes(problems) == sorted(["type", "type", "unknown-answer", "unknown-sentence", "missing-field", "type"])
    assert any('["2", "5"]' in p.message for p in problems)  # the string form gets a hint


def test_text_tasks_empty_wrong_type_and_word_limit(synthetic_dir: Path) -> None:
    dev = load_split(synthetic_dir, "dev")
    sub = [{"case_id": c, "prediction": "Why was the pacemaker placed?"} for c in dev.case_ids]
    sub[0]["prediction"] = "   "
    sub[1]["prediction"] = ["Why?"]
    sub[2]["prediction"] = " ".join(["word"] * 16)
    problems = validate_2026("st1", sub, dev, "sub.json")
    assert _codes(problems) == ["empty-prediction", "type", "warning-truncated"]
    # the same 16 words are fine for st3 (limit 75)
    assert _codes(validate_2026("st3", sub[2:], None)) == []


def test_shape_checks_need_no_key() -> None:
    assert _codes(check_shape_2026("st2", {"case_id": "1"})) == ["type"]
    assert _codes(check_shape_2026("st2", [])) == ["empty-submission"]
    assert _codes(check_shape_2026("st2", [{"case_id": "1", "prediction": [], "score": 1}])) == \
        ["warning-empty-prediction", "warning-extra-field"]
    with pytest.raises(ConfigError):
        check_shape_2026("st5", [])


def test_cut_words_is_the_official_cut() -> None:
    assert cut_words("  a  b\tc  ", 15) == "a  b\tc"  # under the limit: only stripped
    assert cut_words(" ".join(str(i) for i in range(20)), 15) == " ".join(str(i) for i in range(15))
    sub = parse_submission_2026("st1", [{"case_id": "1", "prediction": " ".join(["w"] * 20)}])
    assert sub.texts == {"1": " ".join(["w"] * 15)}


def test_references_missing_what_the_subtask_needs(tmp_path: Path, synthetic_dir: Path, golden_dir: Path) -> None:
    key = json.loads((synthetic_dir / "test" / "archehr-qa_key.json").read_text())
    (tmp_path / "k.json").write_text(json.dumps(key))  # a key with no XML beside it
    ref = load_reference_2026(tmp_path / "k.json")
    st3 = golden_dir / "2026" / "st3-clinician" / "submission.json"
    with pytest.raises(DataError, match="SARI"):
        score_2026("st3", st3, ref)
    with pytest.raises(DataError, match="clinician_question"):
        score_2026("st1", golden_dir / "2026" / "st1-exact" / "submission.json", ref)
    # a 2025-style key (no clinician answer sentences) cannot score st4
    for k in key:
        del k["clinician_answer_sentences"]
    (tmp_path / "k.json").write_text(json.dumps(key))
    with pytest.raises(DataError, match="clinician_answer_sentences"):
        score_2026("st4", golden_dir / "2026" / "st4-gold" / "submission.json", tmp_path / "k.json")
    with pytest.raises(DataError, match="does not exist"):
        load_reference_2026(tmp_path / "nope.json")


# ---------------------------------------------------------------- writer


def test_writer_round_trips_every_subtask(tmp_path: Path) -> None:
    preds = {
        "st1": {"1": "Why was a pacemaker placed?", "2": "Why was furosemide changed?"},
        "st2": {"1": [3, "5", "3"], "2": []},
        "st3": {"1": "Your father needed a pacemaker because his heart paused for six seconds.", "2": "It helped."},
        "st4": {"1": {"1": ["3"], "2": []}, "2": [("1", [5, 6])]},
    }
    for task, p in preds.items():
        path = tmp_path / task / "submission.json"
        warnings = write_submission_2026(task, p, path)
        assert [w.code for w in warnings] == (["warning-empty-prediction"] if task == "st2" else [])
        obj = json.loads(path.read_text())
        assert [o["case_id"] for o in obj] == ["1", "2"]
        assert parse_submission_2026(task, obj).case_ids == ("1", "2")
        if task in ("st2", "st4"):  # st1 and st3 share a shape; short answers read as questions
            assert detect_task_2026(obj) == task
    assert json.loads((tmp_path / "st3" / "submission.json").read_text())[1]["prediction"] == "It helped."
    assert json.loads((tmp_path / "st2" / "submission.json").read_text())[0]["prediction"] == ["3", "5"]
    st4 = json.loads((tmp_path / "st4" / "submission.json").read_text())
    assert st4[1]["prediction"] == [{"answer_id": "1", "evidence_id": ["5", "6"]}]


def test_writer_refuses_bad_shapes_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "submission.json"
    with pytest.raises(SubmissionError):
        write_submission_2026("st1", {"1": ""}, path)
    with pytest.raises(SubmissionError):
        write_submission_2026("st3", {"1": ["not", "a", "string"]}, path)
    assert not path.exists()
    warnings = write_submission_2026("st1", {"1": " ".join(["w"] * 20)}, path)
    assert [w.code for w in warnings] == ["warning-truncated"]


# ---------------------------------------------------------------- archehr package


def test_package_builds_a_zip_with_submission_json_at_the_root(tmp_path: Path, golden_dir: Path,
                                                                synthetic_dir: Path) -> None:
    src = tmp_path / "run" / "st2.json"
    src.parent.mkdir()
    src.write_bytes((golden_dir / "2026" / "st2-lexical" / "submission.json").read_bytes())
    assert main(["package", str(src), "--key", str(synthetic_dir / "test")]) == 0
    out = tmp_path / "run" / "st2.zip"
    with zipfile.ZipFile(out) as zf:
        assert zf.namelist() == ["submission.json"]
        assert zf.read("submission.json") == src.read_bytes()
    first = out.read_bytes()
    assert main(["package", str(src), "-o", str(tmp_path / "again.zip")]) == 0
    assert (tmp_path / "again.zip").read_bytes() == first  # reproducible archive


def test_package_refuses_an_invalid_submission(tmp_path: Path, golden_dir: Path, synthetic_dir: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "submission.json"
    src.write_text(json.dumps([{"case_id": "9", "prediction": ""}, {"case_id": "10", "prediction": 3}]))
    assert main(["package", str(src), "--task", "st1"]) == 2
    err = capsys.readouterr().err
    assert "case 9" in err and "case 10" in err and "Traceback" not in err
    assert not (tmp_path / "submission.zip").exists()
    # shape is fine but the cases belong to another split
    src.write_bytes((golden_dir / "2026" / "st4-gold" / "submission.json").read_bytes())
    assert main(["package", str(src), "--key", str(synthetic_dir / "dev" / "archehr-qa_key.json")]) == 2
    assert not (tmp_path / "submission.zip").exists()
    src.write_text("[{")
    assert main(["package", str(src)]) == 2
