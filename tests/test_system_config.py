"""One config grammar: every component section is `{kind: NAME, ...its options}`, checked against what the
component declares; the old forms load with one warning each; run.json records the resolved config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archehr.cli.main import main
from archehr.errors import ConfigError
from archehr.pipeline import System
from archehr.system_config import COMPONENTS, builtin_systems, load_config, registry

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"


def _write(tmp_path: Path, text: str, name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_configs_use_the_one_form():
    for name in builtin_systems():
        cfg = load_config(name)
        assert cfg.warnings == (), name
        for section in COMPONENTS:
            raw = cfg.raw.get(section)
            if raw is not None:
                assert set(raw) & {"name", "method", "params"} == set(), (name, section)


def test_a_misspelt_option_is_one_line_with_its_yaml_line_and_a_suggestion(tmp_path, capsys):
    path = _write(tmp_path, "name: mine\nselector: {kind: default, model: lexical}\ngenerator:\n  kind: extractive\n"
                            "  budjet: 60\n")
    with pytest.raises(ConfigError) as e:
        load_config(str(path))
    (problem,) = e.value.problems
    assert problem.line == 5 and "did you mean 'budget'" in problem.message
    rc = main(["predict", "--system", str(path), "--data-dir", str(DEMO), "--split", "test", "-o",
               str(tmp_path / "run"), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and f"{path}:5" in err[0] and "budjet" in err[0]
    assert not (tmp_path / "run").exists()


def test_an_unknown_kind_names_its_line_and_the_near_kind(tmp_path):
    path = _write(tmp_path, "selector: {kind: default}\n\nalign:\n  kind: lerned\n")
    with pytest.raises(ConfigError) as e:
        load_config(str(path))
    (problem,) = e.value.problems
    assert problem.line == 4 and "did you mean 'learned'" in problem.message


def test_the_old_forms_still_load_with_one_warning_each_saying_what_to_write(tmp_path, capsys):
    old = _write(tmp_path, "name: old\ngenerator: {name: extractive, params: {budget: 60}}\n"
                           "question: {method: template}\nalign: {method: learned}\n")
    new = _write(tmp_path, "name: old\ngenerator: {kind: extractive, budget: 60}\nquestion: {kind: template}\n"
                           "align: {kind: learned}\n", "new.yaml")
    cfg_old, cfg_new = load_config(str(old)), load_config(str(new))
    assert [w.line for w in cfg_old.warnings] == [2, 2, 3, 4]
    assert "write `kind: extractive`" in cfg_old.warnings[0].message
    assert "params" in cfg_old.warnings[1].message and "budget" in cfg_old.warnings[1].message
    assert cfg_old.resolved == cfg_new.resolved and cfg_old.sha256 == cfg_new.sha256
    rc = main(["predict", "--system", str(old), "--data-dir", str(DEMO), "--split", "test", "--task", "st1", "-o",
               str(tmp_path / "run"), "--no-progress"])
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("warning")]
    assert rc == 0 and len(err) == 4


def test_the_classifier_section_of_an_old_config_moves_its_params_into_the_classifier(tmp_path):
    path = _write(tmp_path, "selector: {kind: classifier, classifier: lexical, params: {block_weight: 0.5},"
                            " selector: {threshold: 0.5}}\n")
    cfg = load_config(str(path))
    assert cfg.selector["classifier"] == {"kind": "lexical", "block_weight": 0.5}
    assert "classifier" in cfg.warnings[0].message


def test_run_json_records_the_resolved_config_with_every_default(tmp_path):
    out = tmp_path / "run"
    assert main(["predict", "--system", "trained-extractive", "--data-dir", str(DEMO), "--split", "test", "--task",
                 "st2", "-o", str(out), "--no-progress"]) == 0
    config = json.loads((out / "run.json").read_text(encoding="utf-8"))["system"]["config"]
    assert config["generator"]["kind"] == "extractive" and config["generator"]["budget"] == 75
    assert config["align"] == {"kind": "learned", "model": None, "threshold": None, "max_links": None,
                               "selector_weight": 0.0, "similarity": "lexical"}
    assert config["selector"] == {"kind": "default", "model": "interactions", "overrides": None}


def test_every_component_kind_is_built_through_its_registry():
    """No component of the pipeline's own: each section's kind is a registered component."""
    import archehr.pipeline as pipeline

    src = Path(pipeline.__file__).read_text(encoding="utf-8")
    assert '== "llm"' not in src and "class _" not in src
    for section in COMPONENTS:
        assert len(registry(section)) >= 2, section
    system = System(load_config("trained-extractive"))
    assert type(system.evidence).__name__ == "TrainedEvidence" and type(system.aligner()).__name__ == "Aligner"


def test_nested_parts_are_resolved_with_every_default():
    # the llm aligner's fallback, given as {kind: learned}, and a classifier named by its bare name
    align = load_config("openai-server").resolved["align"]
    assert align["fallback"] == {"kind": "learned", "model": None, "threshold": None, "max_links": None,
                                 "selector_weight": 0.0, "similarity": "lexical"}
    sel = load_config("lexical-extractive").resolved["selector"]
    assert sel["classifier"] == {"kind": "lexical", "use_glossary": True, "block_weight": 0.3}
    assert sel["selector"] == {"threshold": 0.5, "target": "relevant", "min_k": 2, "max_k": 8, "review_level": 0.2,
                               "rule": "threshold", "power": 1.0}


def test_an_absent_nested_part_is_recorded_as_what_the_component_uses(tmp_path):
    path = _write(tmp_path, "backend: {kind: openai}\nalign: {kind: llm}\n"
                            "selector: {kind: classifier, classifier: {kind: ensemble, members: [lexical]}}\n")
    cfg = load_config(str(path)).resolved
    assert cfg["align"]["fallback"]["kind"] == "learned" and cfg["align"]["fallback"]["max_links"] is None
    assert cfg["selector"]["classifier"]["members"] == [{"kind": "lexical", "use_glossary": True,
                                                          "block_weight": 0.3}]
    assert cfg["selector"]["selector"] is None  # no settings: the classifier's own calibrated selector


def test_a_misspelt_key_inside_a_nested_part_names_its_line(tmp_path):
    path = _write(tmp_path, "selector:\n  kind: classifier\n  classifier: {kind: ensemble, members: [lexcal]}\n"
                            "  selector: {treshold: 0.4}\n")
    with pytest.raises(ConfigError) as e:
        load_config(str(path))
    lines = {p.field: (p.line, p.message) for p in e.value.problems}
    assert lines["selector.classifier.members.0"][0] == 3 and "did you mean 'lexical'" in lines[
        "selector.classifier.members.0"][1]
    assert lines["selector.selector.treshold"][0] == 4 and "did you mean 'threshold'" in lines[
        "selector.selector.treshold"][1]
