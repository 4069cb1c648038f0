"""A new component, a new config option and a new kind of component are each one file: this one.

As tests/test_task_registry.py does for a task, it declares
- a toy st4 aligner (a component of an existing kind, registered in `archehr.align.ALIGNERS`) with one option,
  `nth` (a config option: a keyword parameter with its default, nothing else), and runs it from a system YAML
  through `archehr predict`;
- a toy kind of component (a new config section, `namer`, with its own Registry) that the toy task of
  tests/test_task_registry.py predicts through, again from a YAML config and `archehr predict`.
Each is registered for its test only (the registries are left as they were).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_task_registry import TOY, toy_task  # noqa: F401 - the toy task's fixture, used below

from archehr.align import ALIGNERS
from archehr.align.base import AlignStep
from archehr.cli.main import main
from archehr.pipeline import OUTPUTS, CasePrediction
from archehr.registry import Registry
from archehr.system_config import COMPONENTS, Section, load_config

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"


# ---------------------------------------------------------------- a component of an existing kind, with an option

class NthAligner(AlignStep):
    """Links every answer sentence to the note's `nth` sentence (1-based), nothing else; what it does not give
    (`prepare`, `align_detailed`) has its default in the base of its kind (`archehr.components`)."""

    kind = "toy-nth"

    def __init__(self, nth: int = 1):
        self.nth = nth

    def align(self, case: Any, answers: Any, scores: Any = None, selection: Any = None) -> list[dict[str, Any]]:
        sid = case.sentence_ids[min(self.nth, len(case.sentence_ids)) - 1]
        return [{"answer_id": a.id, "evidence_id": [sid]} for a in answers]

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "nth": self.nth}


@pytest.fixture
def toy_aligner(monkeypatch):
    monkeypatch.setitem(ALIGNERS._entries, "toy-nth", NthAligner)


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "toy.yaml"
    path.write_text("name: toy\nselector: {kind: all}\n" + text, encoding="utf-8")
    return path


def test_a_toy_aligner_is_chosen_from_yaml_and_predicts(toy_aligner, tmp_path):
    run = tmp_path / "run"
    system = _config(tmp_path, "align: {kind: toy-nth, nth: 2}\n")
    assert main(["predict", "--system", str(system), "--data-dir", str(DEMO), "--split", "test", "--task", "st4",
                 "-o", str(run), "--no-progress"]) == 0
    sub = json.loads((run / "submission.json").read_text(encoding="utf-8"))
    links = [link for item in sub for link in item["prediction"]]
    assert len(sub) == 10 and links and all(link["evidence_id"] == ["2"] for link in links)  # ids are 1, 2, ...
    config = json.loads((run / "run.json").read_text(encoding="utf-8"))["system"]["config"]
    assert config["align"] == {"kind": "toy-nth", "nth": 2}


def test_a_toy_option_has_its_default_in_run_json_and_a_misspelling_names_its_line(toy_aligner, tmp_path, capsys):
    assert load_config(str(_config(tmp_path, "align: {kind: toy-nth}\n"))).resolved["align"] == {
        "kind": "toy-nth", "nth": 1}
    bad = _config(tmp_path, "align:\n  kind: toy-nth\n  ntth: 2\n")
    rc = main(["predict", "--system", str(bad), "--data-dir", str(DEMO), "--split", "test", "--task", "st4",
               "-o", str(tmp_path / "r"), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1
    assert ":5" in err[0] and "did you mean 'nth'?" in err[0]  # line 5 of toy.yaml
    assert not (tmp_path / "r").exists()


# ---------------------------------------------------------------- a new kind of component (a config section)

NAMERS: Registry[Any] = Registry("specialty namer")


class ConstantNamer:
    def __init__(self, specialty: str = "Cardiology"):
        self.specialty = specialty

    def name(self, case: Any) -> str:
        return self.specialty


def predict_specialty(system: Any, case: Any, split: Any) -> CasePrediction:
    """The toy task's system output, through the system's `namer` section."""
    return CasePrediction(case.case_id, system.part("namer").name(case))


@pytest.fixture
def toy_kind(monkeypatch, toy_task):  # noqa: F811 - the imported fixture
    monkeypatch.setitem(NAMERS._entries, "constant", ConstantNamer)
    monkeypatch.setitem(COMPONENTS._entries, "namer", Section(f"{__name__}:NAMERS", "constant"))
    monkeypatch.setitem(OUTPUTS._entries, "specialty", predict_specialty)


def test_a_toy_kind_of_component_is_a_section_of_the_config_and_predicts(toy_kind, tmp_path):
    run = tmp_path / "run"
    system = _config(tmp_path, "namer: {kind: constant, specialty: Neurology}\n")
    assert main(["predict", "--system", str(system), "--task", TOY, "--data-dir", str(DEMO), "--split", "test",
                 "-o", str(run), "--no-progress"]) == 0
    sub = json.loads((run / "submission.json").read_text(encoding="utf-8"))
    assert len(sub) == 10 and {item["specialty"] for item in sub} == {"Neurology"}
    config = json.loads((run / "run.json").read_text(encoding="utf-8"))["system"]["config"]
    assert config["namer"] == {"kind": "constant", "specialty": "Neurology"}
    # absent, the section takes its default kind, with its defaults
    assert load_config(str(_config(tmp_path, ""))).resolved["namer"] == {"kind": "constant",
                                                                          "specialty": "Cardiology"}


def test_a_misspelt_kind_of_the_toy_section_is_one_line(toy_kind, tmp_path, capsys):
    bad = _config(tmp_path, "namer: {kind: constnt}\n")
    rc = main(["predict", "--system", str(bad), "--task", TOY, "--data-dir", str(DEMO), "--split", "test",
               "-o", str(tmp_path / "r"), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and ":3" in err[0] and "did you mean 'constant'?" in err[0]
