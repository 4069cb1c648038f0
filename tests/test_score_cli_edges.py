"""`archehr score` edges: another task's submission, the key file named in the header, citations in number order,
and a BERTScore signature that never says a missing model was found."""

from __future__ import annotations

import csv
import json
import shutil

from conftest import REPO

from archehr.cli.main import main

GOLDEN = REPO / "tests" / "golden" / "demo"
TEST = REPO / "data" / "demo" / "test"


def test_another_tasks_submission_names_the_task_its_shape_says(tmp_path, capsys) -> None:
    sub = GOLDEN / "2026" / "st2-lexical" / "submission.json"
    assert main(["score", str(sub), str(TEST / "archehr-qa_key.json"), "--task", "2025"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: {sub}, field --task: this is a st2 submission by its shape, not 2025: use --task st2 "
                   "(or --task auto)"]
    # a broken submission of the task's own shape keeps its own problems
    bad = GOLDEN / "2025" / "test-lexical" / "submission.json"
    cut = json.loads(bad.read_text())[:3]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(cut))
    assert main(["score", str(path), str(TEST / "archehr-qa_key.json"), "--task", "2025"]) == 2
    assert "has no answer in the submission" in capsys.readouterr().err


def test_the_header_names_the_key_read_beside_the_xml(tmp_path, capsys) -> None:
    sub = GOLDEN / "2025" / "test-lexical" / "submission.json"
    assert main(["score", str(sub), str(TEST / "archehr-qa.xml"), "--metrics", "factuality", "-q"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert f"key {TEST / 'archehr-qa_key.json'} " in header
    alone = tmp_path / "test"  # the XML alone (st1 needs nothing else): the XML is what was read
    alone.mkdir()
    shutil.copy(TEST / "archehr-qa.xml", alone / "archehr-qa.xml")
    st1 = GOLDEN / "2026" / "st1-exact" / "submission.json"
    assert main(["score", str(st1), str(alone / "archehr-qa.xml"), "--task", "st1", "--metrics", "rouge", "-q"]) == 0
    assert f"key {alone / 'archehr-qa.xml'} " in capsys.readouterr().out.splitlines()[0]


def test_per_case_csv_lists_citations_in_number_order(tmp_path, capsys) -> None:
    sub = tmp_path / "s.json"
    key = json.loads((TEST / "archehr-qa_key.json").read_text())
    sub.write_text(json.dumps([{"case_id": k["case_id"], "answer": "A line. |10,2,1|"} for k in key]))
    out = tmp_path / "per_case.csv"
    assert main(["score", str(sub), str(TEST), "--metrics", "factuality", "-q", "--per-case", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    assert rows and {r["citations"] for r in rows} == {"1;2;10"}


def test_bertscore_signature_never_says_found_for_a_missing_model() -> None:
    from archehr_scoring.metrics.registry import build_metric

    missing = build_metric("bertscore", model="surely-not-a-cached-org/model-name-xyz").signature()
    assert "|found:not-in-hf-cache|" in missing and "found:hf-cache" not in missing
    assert "|found:no-usable-folder|" in build_metric("bertscore", model="/no/such/folder").signature()
