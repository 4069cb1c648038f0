"""`archehr answer` parses a built-in system's YAML once per process, and a user's YAML file every time."""

from pathlib import Path

from archehr import ask
from archehr.system_config import configs_dir


def test_builtin_system_config_is_parsed_once():
    ask._builtin_config.cache_clear()
    first = ask._system(None, None)
    again = ask._system("trained-extractive", None)
    assert first.config is again.config  # the same parsed object: read once
    assert ask._builtin_config.cache_info().hits == 1


def test_a_users_yaml_file_is_read_each_time(tmp_path: Path):
    text = (configs_dir() / "systems" / "cite-all.yaml").read_text()
    path = tmp_path / "mine.yaml"
    path.write_text(text.replace("name: cite-all", "name: mine-1", 1))
    assert ask._system(str(path), None).config.name == "mine-1"
    path.write_text(text.replace("name: cite-all", "name: mine-2", 1))
    assert ask._system(str(path), None).config.name == "mine-2"  # edited between calls: read again


def test_shipped_answerability_model_loaded_once():
    from archehr.answerability.model import shipped_model

    shipped_model.cache_clear()
    note = "Continue amoxicillin for 5 more days. Follow up with your GP in 1 week."
    a = ask.answer(note, "How long do I take the amoxicillin?", splitter="rules")
    b = ask.answer(note, "How long do I take the amoxicillin?", splitter="rules")
    assert a.to_dict() == b.to_dict()
    assert shipped_model.cache_info().hits >= 1
