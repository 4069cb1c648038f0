"""`archehr predict` and run directories: outputs per task, provenance, resume, bad input."""

from __future__ import annotations

import json

import pytest

from archehr.cli.main import main
from archehr.errors import ConfigError
from archehr.pipeline import load_system
from archehr.runs import _read_checkpoint, run_split
from archehr.system_config import builtin_systems
from archehr_scoring.submission2025 import answer_problems


@pytest.fixture
def dev(synthetic_dir):
    from archehr.data.releases import load_split

    return load_split(synthetic_dir, "dev")


class Boom(Exception):
    pass


def test_builtin_systems_load():
    names = builtin_systems()
    assert {"cite-all", "lexical-extractive", "trained-extractive", "trained-plain", "smollm2"} <= set(names)
    for n in ("cite-all", "lexical-extractive", "trained-extractive", "trained-plain"):
        assert load_system(n).config.name == n


def test_unknown_system_and_bad_config(tmp_path):
    with pytest.raises(ConfigError, match="did you mean"):
        load_system("trained-extractiv")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nselecter: {kind: all}\nselector: {kind: magic}\n")
    with pytest.raises(ConfigError) as e:
        load_system(str(bad))
    assert len(e.value.problems) == 2


def test_killed_run_resumes_without_redoing_or_duplicating(dev, tmp_path):
    system = load_system("lexical-extractive")
    out = tmp_path / "run"
    seen: list[str] = []

    def kill_after_3(cid):
        seen.append(cid)
        if len(seen) == 3:
            raise Boom

    with pytest.raises(Boom):
        run_split(system, dev, "2025", out, after_case=kill_after_3)
    assert not (out / "submission.json").exists()
    assert list(_read_checkpoint(out / "checkpoint.jsonl")) == ["1", "2", "3"]
    stopped = json.loads((out / "run.json").read_text())  # says it stopped and why, not "running"
    assert (stopped["status"], stopped["error"], stopped["cases_done"]) == ("failed", "Boom", 3)
    # a torn last line (killed mid-write) is ignored
    with open(out / "checkpoint.jsonl", "a") as fh:
        fh.write('{"case_id": "4", "predi')
    with pytest.raises(ConfigError, match="--resume"):
        run_split(system, dev, "2025", out)
    redone: list[str] = []
    res = run_split(system, dev, "2025", out, resume=True, after_case=redone.append)
    assert redone == ["4", "5", "6", "7", "8"]
    assert res.done_before == ["1", "2", "3"]
    sub = json.loads((out / "submission.json").read_text())
    assert [r["case_id"] for r in sub] == [c.case_id for c in dev.cases]
    run = json.loads((out / "run.json").read_text())
    assert run["status"] == "complete" and run["cases_resumed"] == ["1", "2", "3"]
    # the resumed result equals an uninterrupted run
    fresh = tmp_path / "fresh"
    run_split(system, dev, "2025", fresh)
    assert json.loads((fresh / "submission.json").read_text()) == sub


def test_ctrl_c_leaves_run_json_saying_interrupted(dev, tmp_path):
    def stop(cid):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_split(load_system("cite-all"), dev, "2025", tmp_path, after_case=stop)
    run = json.loads((tmp_path / "run.json").read_text())
    assert (run["status"], run["cases_done"]) == ("interrupted", 1)


def test_resume_refuses_another_task(dev, tmp_path):
    system = load_system("cite-all")
    run_split(system, dev.subset(["1"]), "2025", tmp_path)
    with pytest.raises(ConfigError, match="task"):
        run_split(system, dev.subset(["1"]), "st3", tmp_path, resume=True)


def test_cli_predict_2025_and_run_json(synthetic_dir, tmp_path):
    out = tmp_path / "o"
    rc = main(["predict", "--data-dir", str(synthetic_dir), "--split", "dev", "--system", "lexical-extractive",
               "-o", str(out), "--no-progress"])
    assert rc == 0
    sub = json.loads((out / "submission.json").read_text())
    assert len(sub) == 8 and all(answer_problems(r["answer"]) == [] for r in sub)
    run = json.loads((out / "run.json").read_text())
    for k in ("system", "git_commit", "versions", "seed", "input_sha256", "timings", "fallbacks"):
        assert k in run
    assert run["system"]["config"]["name"] == "lexical-extractive"
    assert set(run["input_sha256"]) == {r["case_id"] for r in sub}


def test_cli_bad_input_exits_2_with_a_message(tmp_path, capsys):
    assert main(["predict", "--data-dir", str(tmp_path), "--no-progress"]) == 2
    assert "error" in capsys.readouterr().err
    assert main(["predict", "--system", "nope-system", "--data-dir", str(tmp_path), "--no-progress"]) == 2


@pytest.mark.parametrize("task", ["st1", "st2", "st3", "st4"])
def test_subtask_outputs_have_the_official_shape(dev, tmp_path, task):
    from archehr_scoring.submission2026 import check_shape_2026

    system = load_system("lexical-extractive")
    run_split(system, dev, task, tmp_path)
    sub = json.loads((tmp_path / "submission.json").read_text())
    assert [p for p in check_shape_2026(task, sub) if not p.code.startswith("warning")] == []
    assert [r["case_id"] for r in sub] == list(dev.case_ids)
    first = sub[0]["prediction"]
    if task == "st1":
        assert first.endswith("?") and len(first.split()) <= 15
    elif task == "st2":
        assert first and set(first) <= set(dev.case("1").sentence_ids)
    elif task == "st3":
        assert "|" not in first and len(first.split()) <= 75
    else:
        answers = dev.key_for("1").clinician_answer_sentences
        assert [a["answer_id"] for a in first] == [a.id for a in answers]
        assert all(a["evidence_id"] for a in first)


def test_st4_needs_the_clinician_answers(dev, tmp_path):
    from archehr.data.model import Split
    from archehr.errors import InputError

    nokey = Split("dev", dev.cases[:1])
    with pytest.raises(InputError, match="clinician answer"):
        run_split(load_system("cite-all"), nokey, "st4", tmp_path)


def test_st4_alignment_beats_linking_the_top_sentence_only(dev):
    from archehr.align import Aligner
    from archehr.training.align_threshold import calibrate

    a = Aligner(similarity="lexical", selector_weight=0.0)
    _, f1 = calibrate(a, dev)
    _, f1_top1 = calibrate(a, dev, grid=(2.0,))  # threshold above any score: only the best link
    assert f1 >= f1_top1 and f1 > 0.3


def test_st1_template_question_hand_examples():
    from archehr.data.model import Case, Phrase
    from archehr.question import shorten_question, template_question

    c = Case("1", patient_narrative="x", patient_question=(Phrase(0, 0, "My question is if I need surgery?"),))
    assert template_question(c) == "The patient need surgery?"  # filler and first person removed
    c2 = Case("2", patient_question=(Phrase(0, 0, "I have had chest pain ever since."), Phrase(1, 0, "Any ideas?")))
    assert template_question(c2).startswith("What explains that the patient has had chest pain")
    assert len(shorten_question(" ".join(["w"] * 30)).split()) == 15


def test_run_split_takes_only_what_it_uses():
    # a parameter accepted and silently ignored (it once took `train=`) would hide a caller's mistake
    import ast
    import inspect

    from archehr.runs import run_split

    fn = ast.parse(inspect.getsource(run_split)).body[0]
    params = [a.arg for a in (*fn.args.args, *fn.args.kwonlyargs)]
    used = {n.id for stmt in fn.body for n in ast.walk(stmt) if isinstance(n, ast.Name)}
    assert "train" not in params and [p for p in params if p not in used] == []
