"""`archehr ensemble` end to end on small runs made by `archehr predict` on the demo splits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archehr.cli.main import main

SYSTEMS = ("trained-extractive", "lexical-extractive", "trained-plain")


def _predict(out: Path, system: str, task: str, split: str = "test") -> Path:
    code = main(["predict", "--data-dir", "data/demo", "--split", split, "--task", task, "--system", system,
                 "-o", str(out), "--no-progress"])
    assert code == 0
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    for task in ("st2", "2025"):
        for s in SYSTEMS:
            _predict(root / "test" / task / s, s, task)
    for s in SYSTEMS[:2]:
        _predict(root / "dev" / "st2" / s, s, "st2", "dev")
    return root


def test_ensemble_of_2025_runs_is_valid_cited_within_the_word_limit_and_rerun_identical(runs, tmp_path, capsys):
    from archehr_scoring.answer_format import parse_answer

    members = [str(runs / "test" / "2025" / s) for s in SYSTEMS]
    assert main(["ensemble", *members, "-o", str(tmp_path / "a")]) == 0
    assert main(["ensemble", *members, "-o", str(tmp_path / "b")]) == 0
    for name in ("submission.json", "run.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert main(["validate", str(tmp_path / "a" / "submission.json"), "--key", "data/demo/test"]) == 0
    for item in json.loads((tmp_path / "a" / "submission.json").read_text()):
        parsed = parse_answer(item["case_id"], item["answer"])
        assert parsed.citations and parsed.n_words <= 75
    record = json.loads((tmp_path / "a" / "run.json").read_text())
    assert record["task"] == "2025" and record["system"]["kind"] == "ensemble"
    assert [m["system"] for m in record["ensemble"]["members"]] == list(SYSTEMS)
    assert all(len(m["run_sha256"]) == 64 for m in record["ensemble"]["members"])
    assert record["ensemble"]["threshold"] == 0.5 and record["ensemble"]["weights"] == "equal"
    assert set(record["cases"]) == {item["case_id"] for item in json.loads((tmp_path / "a" / "submission.json")
                                                                           .read_text())}
    assert "ensemble of 3 run(s), task 2025" in capsys.readouterr().out


def test_members_of_different_tasks_exit_2_and_write_nothing(runs, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["ensemble", str(runs / "test" / "st2" / SYSTEMS[0]), str(runs / "test" / "2025" / SYSTEMS[1]),
                 "-o", str(out)])
    assert code == 2 and not out.exists()
    assert "field task" in capsys.readouterr().err


def test_dev_runs_fit_weights_and_threshold_and_say_so(runs, tmp_path, capsys):
    members = [str(runs / "test" / "st2" / s) for s in SYSTEMS[:2]]
    code = main(["ensemble", *members, "--dev", str(runs / "dev" / "st2"), "-o", str(tmp_path / "fit")])
    assert code == 0
    ens = json.loads((tmp_path / "fit" / "run.json").read_text())["ensemble"]
    assert ens["source"].startswith("fitted on dev") and ens["fit"]["on"] == "dev"
    assert ens["fit"]["best_candidate"] in ens["fit"]["tried"]
    assert ens["threshold"] == ens["fit"]["chosen"]["threshold"]
    cv = ens["fit"]["cross_validated"]
    assert cv["folds"] == 5 and {"vote", "best_member", "default_vote"} <= set(cv)
    assert f"the best member {cv['best_member']:.2f}" in capsys.readouterr().out


def test_dev_runs_over_the_test_input_are_refused(runs, tmp_path, capsys):
    members = [str(runs / "test" / "st2" / s) for s in SYSTEMS[:2]]
    code = main(["ensemble", *members, "--dev", str(runs / "test" / "st2"), "-o", str(tmp_path / "x")])
    assert code == 2 and not (tmp_path / "x").exists()
    assert "field input_sha256" in capsys.readouterr().err


def test_select_prints_the_test_score_with_a_ci_beside_the_best_single_run(runs, tmp_path, capsys):
    code = main(["ensemble", "--select", str(runs / "test" / "st2"), "--dev", str(runs / "dev" / "st2"),
                 "--test-key", "data/demo/test", "--resamples", "200", "--folds", "3", "-o", str(tmp_path / "sel")])
    assert code == 0
    out = capsys.readouterr().out
    assert "cross-validated" in out and "95% paired-bootstrap CI" in out
    assert "ensemble" in out.split("test strict_micro_f1 (95% bootstrap CI): ")[1] and "best single run on dev" in out
    rep = json.loads((tmp_path / "sel" / "run.json").read_text())["ensemble"]["select"]
    assert rep["test"]["ensemble_ci95"] is not None and rep["test"]["best_single_ci95"] is not None
    assert rep["best_single_on_dev"]["path"].endswith(SYSTEMS[:2])


def test_an_output_folder_holding_a_run_is_refused(runs, tmp_path, capsys):
    import shutil

    member = tmp_path / "member"
    shutil.copytree(runs / "test" / "st2" / SYSTEMS[0], member)
    before = (member / "submission.json").read_bytes()
    code = main(["ensemble", str(member), str(runs / "test" / "st2" / SYSTEMS[1]), "-o", str(member)])
    assert code == 2 and (member / "submission.json").read_bytes() == before
    assert "not an ensemble" in capsys.readouterr().err
