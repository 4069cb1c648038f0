"""Hostile input (issue 15): deep nesting, path-escaping names, injection in tables, wrong-shape cache
entries, DOCTYPE entities, odd integers, BOMs, YAML errors and torn checkpoints each get one clear answer."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from archehr.cli.main import main
from archehr.data.json_io import MAX_JSON_DEPTH, load_json_text, read_key
from archehr.data.xml_io import parse_cases_xml
from archehr.errors import ConfigError, DataError

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "data" / "demo" / "test"
KEY = DEMO / "archehr-qa_key.json"
SUB = REPO / "submissions" / "trained-extractive" / "submission.json"
DEEP_LIST = "[" * 5000 + "]" * 5000
DEEP_OBJ = '{"a": ' * 3000 + "1" + "}" * 3000
DEEP_JUST_UNDER_RECURSION = "[" * 900 + "]" * 900  # parses, then would break any recursive use


def cli(capsys, *args: str) -> tuple[int, str, str]:
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "RecursionError" not in err
    return rc, out, err


def one_line_error(err: str, needle: str) -> None:
    lines = [ln for ln in err.splitlines() if ln.startswith("error")]
    assert len(lines) == 1 and needle in lines[0], err


# --- deep nesting ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [DEEP_LIST, DEEP_OBJ, DEEP_JUST_UNDER_RECURSION])
def test_deep_json_is_one_data_error(text):
    with pytest.raises(DataError) as e:
        load_json_text(text, "f.json")
    assert len(e.value.problems) == 1 and f"more than {MAX_JSON_DEPTH} levels" in e.value.problems[0].message


@pytest.mark.parametrize("text", [DEEP_LIST, DEEP_JUST_UNDER_RECURSION])
@pytest.mark.parametrize("command", ["validate", "score", "package", "report", "compare-a", "compare-b"])
def test_every_command_reading_a_submission_refuses_deep_nesting(tmp_path, capsys, command, text):
    bad = tmp_path / "submission.json"
    bad.write_text(text)
    args = {
        "validate": ["validate", bad],
        "score": ["score", bad, KEY],
        "package": ["package", bad, "-o", tmp_path / "x.zip"],
        "report": ["report", bad, "--key", KEY, "-o", tmp_path / "r.html"],
        "compare-a": ["compare", bad, SUB, "--key", KEY],
        "compare-b": ["compare", SUB, bad, "--key", KEY],
    }[command]
    rc, _, err = cli(capsys, *args)
    assert rc == 2
    one_line_error(err, "levels deep")
    assert not any(p.name != "submission.json" for p in tmp_path.iterdir())  # nothing written


def test_deep_key_and_release_files_are_refused(tmp_path, capsys):
    split = tmp_path / "test"
    shutil.copytree(DEMO, split)
    (split / "archehr-qa_key.json").write_text(DEEP_LIST)
    rc, _, err = cli(capsys, "score", SUB, split / "archehr-qa_key.json")
    assert rc == 2
    one_line_error(err, "levels deep")
    rc, _, err = cli(capsys, "data", "check", "--data-dir", split)
    assert rc == 2 and "levels deep" in err
    with pytest.raises(DataError, match="levels deep"):
        read_key(split / "archehr-qa_key.json")


def test_one_deep_run_json_never_takes_down_the_leaderboard(tmp_path, capsys):
    subs = tmp_path / "subs"
    for name in ("good", "hostile", "not-an-object"):
        (subs / name).mkdir(parents=True)
        shutil.copy(SUB, subs / name / "submission.json")
    (subs / "hostile" / "run.json").write_text(DEEP_OBJ)
    (subs / "not-an-object" / "run.json").write_text("[1, 2]")
    rc, out, err = cli(capsys, "leaderboard", subs, "--key", KEY, "--resamples", "20", "-q")
    assert rc == 0
    rows = {r["run"]: r for r in json.loads((subs / "leaderboard.json").read_text())["entries"]}
    assert rows["good"]["status"] == "ok" and rows["good"]["rank"] == 1
    assert rows["hostile"]["status"] == "invalid" and "levels deep" in rows["hostile"]["problems"][0]["message"]
    assert rows["not-an-object"]["status"] == "invalid"
    assert "run.json unreadable" in (subs / "LEADERBOARD.md").read_text()


def test_deep_run_json_and_checkpoint_lines_do_not_break_resume(tmp_path):
    from archehr.data.releases import load_split
    from archehr.pipeline import load_system
    from archehr.runs import run_split

    split = load_split(str(REPO / "data" / "demo"), "test").subset(["21", "22"])
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_text(DEEP_OBJ)
    (out / "checkpoint.jsonl").write_text(DEEP_LIST + "\n")
    res = run_split(load_system("cite-all"), split, "2025", out, resume=True)
    assert sorted(res.done_now) == ["21", "22"]


def test_deep_model_file_named_by_a_system_config_is_a_config_error(tmp_path):
    from archehr.pipeline import load_system

    (tmp_path / "m.json").write_text(DEEP_OBJ)
    cfg = tmp_path / "s.yaml"
    cfg.write_text(f"name: s\nselector: {{kind: default, model: {tmp_path / 'm.json'}}}\n")
    with pytest.raises(ConfigError, match="levels deep"):
        load_system(str(cfg)).prepare(None)


# --- the system config's name never leaves runs/ ----------------------------------------------------------


@pytest.mark.parametrize("name", ["../../x", "/tmp/evil", "..", ".hidden", "a/b", "a\\b", "", "x" * 200])
def test_a_system_name_that_is_not_a_plain_name_is_refused(tmp_path, capsys, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "sys.yaml"
    cfg.write_text(f"name: {json.dumps(name)}\nselector: {{kind: all}}\n")
    rc, _, err = cli(capsys, "predict", "--system", cfg, "--no-progress", "--force")
    if name == "":  # no name: the file's stem ("sys") is used
        assert rc == 0 and (tmp_path / "runs" / "sys-test-2025" / "submission.json").is_file()
        return
    assert rc == 2
    one_line_error(err, "not a plain name")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sys.yaml"]


def test_default_run_folder_is_under_runs_whatever_the_split_path(tmp_path, capsys, monkeypatch):
    from archehr.cli.predict_cmd import default_run_dir

    monkeypatch.chdir(tmp_path)
    for system, split, task in [("a", "../../../x", "2025"), ("a", "/abs/path", "st1"), ("..", "..", ".."),
                                ("a", "test\n", "2025")]:
        out = default_run_dir(system, split, task)
        assert out.parent == Path("runs") and out.name not in (".", "..") and "/" not in out.name
    split = tmp_path / "deep" / "my split"
    shutil.copytree(DEMO, split)
    rc, out, _ = cli(capsys, "predict", "--data-dir", split, "--split", "my split", "--system", "cite-all",
                     "--no-progress")
    assert rc == 0
    assert [p.name for p in (tmp_path / "runs").iterdir()] == ["cite-all-my-split-2025"]


def test_plain_predict_writes_into_runs_never_submissions(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, _ = cli(capsys, "predict", "--no-progress", "--system", "cite-all")
    assert rc == 0 and out.startswith("runs/cite-all-test-2025/submission.json")
    assert not (tmp_path / "submissions").exists()
    assert "runs/" in (REPO / ".gitignore").read_text().splitlines()


# --- YAML ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "needle"), [
    ("name: [1\nseed: 2\n", "not valid YAML: expected ',' or ']'"),
    ("a: " + "[" * 3000, "levels deep"),
    ("a: &a [*a]\nname: x\n", "levels deep"),
    ("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]\n" for i in range(1, 9)), "aliases are expanded"),
    ("name: ok\nseed: '7'\n", "seed must be an integer"),
    ("name: ok\nseed: [1]\n", "seed must be an integer"),
    ("\xff\xfe", "not UTF-8"),
])
def test_bad_system_yaml_is_one_line(tmp_path, capsys, text, needle):
    cfg = tmp_path / "s.yaml"
    cfg.write_bytes(text.encode("latin-1") if text == "\xff\xfe" else text.encode())
    rc, _, err = cli(capsys, "predict", "--system", cfg, "-o", tmp_path / "out", "--no-progress")
    assert rc == 2
    one_line_error(err, needle)
    assert len(err.strip().splitlines()) == 1


# --- tables escape what runs put in them -----------------------------------------------------------------


def test_leaderboard_tables_escape_names_systems_and_errors(tmp_path, capsys):
    subs = tmp_path / "subs"
    evil = "<img src=x onerror=alert(1)>"
    good = subs / "=HYPERLINK(x)"
    good.mkdir(parents=True)
    shutil.copy(SUB, good / "submission.json")
    (good / "run.json").write_text(json.dumps({"system": {"name": f"{evil} [a](javascript:x) | x"},
                                               "git_commit": "<b>12345678"}))
    bad = subs / "@bad"
    bad.mkdir()
    (bad / "submission.json").write_text(json.dumps([{"case_id": evil, "answer": "-2+3 |1|"}]))
    rc, _, _ = cli(capsys, "leaderboard", subs, "--key", KEY, "--resamples", "20", "-q")
    assert rc == 0
    md = (subs / "LEADERBOARD.md").read_text()
    assert "<img" not in md and "<b>" not in md and "&lt;img src=x onerror=alert(1)&gt;" in md
    assert "[a](javascript" not in md and "\\[a\\](javascript" in md  # brackets escaped: not a link
    table = [ln for ln in md.splitlines() if ln.startswith("| ")]
    assert len({len(re.split(r"(?<!\\)\|", ln)) for ln in table}) == 1  # no cell break from a name
    rows = list(csv.reader(io.StringIO((subs / "leaderboard.csv").read_text())))
    for row in rows[1:]:
        for cell in (row[1], row[2], row[-3], row[-2], row[-1]):
            assert not cell.startswith(("=", "+", "-", "@")), row
    assert {rows[1][1], rows[2][1]} == {"'=HYPERLINK(x)", "'@bad"}


# --- the score cache: an entry of the wrong shape is a miss ---------------------------------------------


WRONG_SHAPES = [{}, [], None, 1, "x", {"status": "ok"}, {"status": "ok", "report": {}}, {"status": "ok", "report": []},
                {"status": "invalid"}, {"status": "invalid", "problems": [1]}, {"status": "zzz", "problems": []},
                {"a": [1]}, {"a": [1, "x"]}, {"a": {"key": 1}}, json.loads("[" * 60 + "]" * 60)]


def test_wrong_shape_cache_entries_are_misses(tmp_path):
    from archehr.leaderboard.cache import ScoreCache, ci_from_cache, paired_from_cache, score_entry_from_cache

    cache = ScoreCache(tmp_path)
    for i, entry in enumerate(WRONG_SHAPES):
        (tmp_path / f"k{i}.json").write_text(json.dumps(entry))
        for parse in (ci_from_cache, paired_from_cache, score_entry_from_cache):
            assert cache.get(f"k{i}", parse) is None
    (tmp_path / "deep.json").write_text(DEEP_LIST)
    assert cache.get("deep", ci_from_cache) is None
    assert cache.hits == 0


@pytest.mark.parametrize("entry", [{}, [], {"status": "ok", "report": {}}, {"a": {"key": 1}}])
def test_wrong_shape_cache_entries_are_misses_in_every_command(tmp_path, capsys, entry):
    subs = tmp_path / "subs"
    (subs / "a").mkdir(parents=True)
    shutil.copy(SUB, subs / "a" / "submission.json")
    (subs / "b").mkdir(parents=True)
    shutil.copy(REPO / "submissions" / "cite-all" / "submission.json", subs / "b" / "submission.json")
    cache = tmp_path / "cache"
    args = ["--key", KEY, "--resamples", "20", "--cache-dir", cache]
    assert cli(capsys, "leaderboard", subs, "-q", *args)[0] == 0
    first = (subs / "LEADERBOARD.md").read_text()
    files = sorted(cache.glob("*.json"))
    assert {f.name.split("-")[0] for f in files} == {"score", "ci", "paired"}
    for f in files:
        f.write_text(json.dumps(entry))
    assert cli(capsys, "leaderboard", subs, "-q", *args)[0] == 0
    assert (subs / "LEADERBOARD.md").read_text() == first
    for f in cache.glob("*.json"):
        f.write_text(json.dumps(entry))
    rc, out, _ = cli(capsys, "compare", subs / "b" / "submission.json", subs / "a" / "submission.json", *args)
    assert rc == 0 and out
    for f in cache.glob("*.json"):
        f.write_text(json.dumps(entry))
    rc, _, _ = cli(capsys, "report", subs / "a" / "submission.json", "-o", tmp_path / "r.html", *args[:2],
                   "--cache-dir", cache)
    assert rc == 0 and (tmp_path / "r.html").is_file()


# --- XML, integers, BOM ----------------------------------------------------------------------------------


def _case_xml(phrase_attrs: str = 'id="1" start_char_index="0"', prefix: bytes = b"") -> bytes:
    return prefix + (
        '<annotations><case id="1"><patient_question><phrase ' + phrase_attrs + '>Why?</phrase>'
        '</patient_question><note_excerpt_sentences><sentence id="1" paragraph_id="0" start_char_index="0">'
        'A.</sentence></note_excerpt_sentences></case></annotations>').encode()


@pytest.mark.parametrize("doctype", [
    b'<!DOCTYPE annotations [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
    b'<!DOCTYPE annotations [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>',
])
def test_doctype_declaring_entities_is_refused_with_one_error(doctype, tmp_path, capsys):
    cases, problems = parse_cases_xml(_case_xml(prefix=doctype), "f.xml")
    assert cases == () and len(problems) == 1 and "declares entities" in problems[0].message
    split = tmp_path / "test"
    split.mkdir()
    (split / "archehr-qa.xml").write_bytes(_case_xml(prefix=doctype))
    rc, _, err = cli(capsys, "data", "check", "--data-dir", split)
    assert rc == 2
    one_line_error(err, "declares entities")


def test_a_doctype_without_entities_is_accepted():
    cases, problems = parse_cases_xml(_case_xml(prefix=b"<!DOCTYPE annotations>"), "f.xml")
    assert problems == [] and len(cases) == 1


@pytest.mark.parametrize("value", ["2_7_0", "\u0663", "\uff11", "+5", "0x10", "1.0", " ", "1e3"])
def test_xml_integers_are_plain_ascii_digits(value):
    _, problems = parse_cases_xml(_case_xml(f'id="1" start_char_index="{value}"'), "f.xml")
    assert [p.message for p in problems] == [f"attribute start_char_index={value!r} is not an integer"]


def test_xml_integers_still_accept_padding():
    cases, problems = parse_cases_xml(_case_xml('id=" 1 " start_char_index=" 12 "'), "f.xml")
    assert problems == [] and cases[0].patient_question[0].start_char_index == 12


def test_a_utf8_bom_is_accepted_in_xml_and_json_alike(tmp_path, capsys):
    bom = b"\xef\xbb\xbf"
    cases, problems = parse_cases_xml(_case_xml(prefix=bom), "f.xml")
    assert problems == [] and len(cases) == 1
    split = tmp_path / "test"
    shutil.copytree(DEMO, split)
    for f in ("archehr-qa.xml", "archehr-qa_key.json"):
        (split / f).write_bytes(bom + (DEMO / f).read_bytes())
    sub = tmp_path / "submission.json"
    sub.write_bytes(bom + SUB.read_bytes())
    assert cli(capsys, "data", "check", "--data-dir", split)[0] == 0
    rc, out, _ = cli(capsys, "score", sub, split / "archehr-qa_key.json", "--metrics", "factuality")
    assert rc == 0 and "strict" in out.lower()
    assert cli(capsys, "validate", sub, "--data", split / "archehr-qa.xml")[0] == 0


@pytest.mark.parametrize(("text", "needle"), [
    ('[{"case_id": "1", "answer": "' + "9" * 5000 + '"}]', None),
    ("[" + "9" * 5000 + "]", "not valid JSON"),
    ('[{"case_id": "\\ud800", "answer": "x"}]', "surrogate"),
    ('[{"case_id": "\\ud83d\\ude00", "answer": "x |1|"}]', None),
])
def test_json_numbers_and_escapes_python_cannot_handle_are_one_error(text, needle):
    if needle is None:
        load_json_text(text, "f.json")
        return
    with pytest.raises(DataError, match=needle):
        load_json_text(text, "f.json")


# --- torn checkpoint ------------------------------------------------------------------------------------


def test_resume_repairs_a_torn_last_checkpoint_line_before_appending(tmp_path):
    from archehr.data.releases import load_split
    from archehr.pipeline import load_system
    from archehr.runs import CHECKPOINT, _read_checkpoint, run_split

    split = load_split(str(REPO / "data" / "demo"), "test").subset(["21", "22", "23"])
    system = load_system("cite-all")
    out = tmp_path / "run"

    def kill_after_first(cid: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_split(system, split, "2025", out, after_case=kill_after_first)
    ckpt = out / CHECKPOINT
    ckpt.write_text(ckpt.read_text() + '{"case_id": "22", "predic')  # killed mid-write, no newline
    run_split(system, split, "2025", out, resume=True)
    lines = ckpt.read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(ln)["case_id"] for ln in lines)  # every line readable
    redone: list[str] = []
    res = run_split(system, split, "2025", out, resume=True, after_case=redone.append)
    assert redone == [] and sorted(res.done_before) == ["21", "22", "23"]
    assert set(_read_checkpoint(ckpt)) == {"21", "22", "23"}


# --- from Python ----------------------------------------------------------------------------------------


def test_import_archehr_is_light_and_exports_the_entry_points():
    import subprocess
    import sys

    code = ("import sys, archehr; heavy = [m for m in ('numpy', 'torch', 'yaml', 'lxml', 'archehr_scoring') "
            "if m in sys.modules]; print(heavy); print(sorted(archehr.__all__))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[0] == "[]"
    import archehr

    for name in archehr.__all__:
        assert getattr(archehr, name) is not None
    with pytest.raises(AttributeError):
        archehr.nothing_here  # noqa: B018


def test_train_prints_how_to_use_the_model(tmp_path, capsys):
    rc, out, _ = cli(capsys, "train", "--data-dir", REPO / "data" / "demo", "--split", "test", "-o",
                     tmp_path / "m.json")
    assert rc == 0
    line = next(ln for ln in out.splitlines() if "selector:" in ln).strip()
    cfg = tmp_path / "mine.yaml"
    cfg.write_text(f"name: mine\n{line}\n")
    rc, out, _ = cli(capsys, "predict", "--system", cfg, "-o", tmp_path / "run", "--no-progress")
    assert rc == 0
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run["system"]["selector"]["model_file"].endswith("m.json")


# --- a newcomer's first mistakes ------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "second", "needle"), [
    (KEY, SUB, "release key file"),
    (DEMO / "archehr-qa.xml", SUB, "release XML file"),
    (DEMO, SUB, "release split folder"),
    (DEMO / "archehr-qa_mapping.json", KEY, "release mapping file"),
    (SUB, SUB, "this is a submission, not a key"),
])
@pytest.mark.parametrize("task", [None, "2025"])
def test_score_with_swapped_arguments_says_so_in_one_line(capsys, first, second, needle, task):
    rc, _, err = cli(capsys, "score", first, second, *(["--task", task] if task else []))
    assert rc == 2
    one_line_error(err, needle)
    assert "arguments swapped?" in err and len(err.strip().splitlines()) == 1


def test_validate_names_a_key_given_as_submission(capsys):
    rc, _, err = cli(capsys, "validate", KEY)
    assert rc == 2 and "arguments swapped?" in err


@pytest.mark.parametrize("command", ["score", "validate"])
def test_another_splits_key_is_one_line_with_details_on_request(capsys, command):
    dev_key = REPO / "data" / "demo" / "dev" / "archehr-qa_key.json"
    args = [command, SUB, dev_key] if command == "score" else [command, SUB, "--key", dev_key]
    rc, _, err = cli(capsys, *args)
    assert rc == 2
    errors = [ln for ln in err.splitlines() if ln.startswith("error")]
    assert len(errors) == 1
    assert errors[0].endswith("no case ids in common (submission 21-30, key 1-16, 201-224): wrong split?")
    assert "--verbose" in err
    rc, _, err = cli(capsys, *args, "--verbose")
    assert rc == 2 and len([ln for ln in err.splitlines() if ln.startswith("error")]) == 51


def test_a_partly_overlapping_key_still_lists_each_case(capsys, tmp_path):
    sub = tmp_path / "s.json"
    items = json.loads(SUB.read_text())
    sub.write_text(json.dumps(items[:3] + [{"case_id": "999", "answer": "x |1|"}]))
    rc, _, err = cli(capsys, "validate", sub, "--key", KEY)
    assert rc == 2 and "wrong split" not in err and "case 999" in err and "case 30" in err


@pytest.mark.parametrize("task", [None, "2025", "st1", "st2", "st3", "st4"])
def test_validate_refuses_an_empty_submission_like_package(tmp_path, capsys, task):
    sub = tmp_path / "s.json"
    sub.write_text("[]")
    extra = ["--task", task] if task else []
    rc, _, err = cli(capsys, "validate", sub, *extra)
    assert rc == 2
    rc, _, err = cli(capsys, "validate", sub, *extra, "--key", KEY)
    assert rc == 2 and ("holds no cases" in err or "cannot tell the task" in err)
    assert len([ln for ln in err.splitlines() if ln.startswith("error")]) == 1


def test_unavailable_metrics_are_explained_once_in_text_output(capsys):
    rc, out, err = cli(capsys, "score", SUB, KEY, "--metrics", "factuality,medcon")
    assert rc == 0 and (out + err).count("MEDCON needs") == 1
    assert "pass --quickumls DIR" in out and "--quickumls-path" not in out
    rc, out, err = cli(capsys, "score", SUB, KEY, "--metrics", "factuality,medcon", "--format", "csv")
    assert rc == 0 and "MEDCON needs" in err


def test_data_info_takes_split_like_check_and_stats(capsys):
    rc, out, _ = cli(capsys, "data", "info", "--split", "test")
    assert rc == 0 and "  test: archehr-qa.xml" in out and "  dev:" not in out
    rc, _, err = cli(capsys, "data", "info", "--split", "nope")
    assert rc == 2 and "nope" in err


def _help_texts() -> dict[str, str]:
    import os
    import subprocess
    import sys

    from archehr.cli.main import app

    names = [c.name or c.callback.__name__ for c in app.registered_commands]
    names += [f"data {c.name or c.callback.__name__}" for g in app.registered_groups if g.name == "data"
              for c in g.typer_instance.registered_commands]
    code = ("import sys; from archehr.cli.main import main\n"
            "for n in sys.argv[1:]:\n"
            "    print('=====', n, flush=True)\n"
            "    main(n.split() + ['--help'])\n")
    out = subprocess.run([sys.executable, "-c", code, *names], capture_output=True, text=True, check=True,
                         env=dict(os.environ, COLUMNS="80", TERM="dumb")).stdout
    return {part.split("\n", 1)[0].strip(): part.split("\n", 1)[1] for part in out.split("===== ")[1:]}


def test_help_at_80_columns_cuts_nothing_and_shows_no_bool_metavar():
    texts = _help_texts()
    assert {"predict", "score", "validate", "leaderboard", "data info", "data check"} <= set(texts)
    for name, text in texts.items():
        assert "<bool>" not in text and "…" not in text, name
        assert max(len(ln) for ln in text.splitlines()) <= 80, name
        assert not re.search(r"[A-Za-z]-\n\s+[A-Za-z]", text), name  # no word or path broken at a hyphen
        flat = " ".join(text.split())
        for default in re.findall(r"\[default: ([^\]]*)\]", flat):
            assert default.strip(), name
    assert "runs/<system>-<split>-<task>" in texts["predict"]
    assert "--quickumls, --quickumls-path" in texts["score"]


# --- deep nesting in what the LLM path reads (its cache, a server's reply, a model's JSON answer) -------


def test_llm_cache_server_reply_and_model_json_survive_deep_nesting(tmp_path):
    from archehr.llm.base import Backend
    from archehr.llm.cache import CachedBackend, cache_key
    from archehr.llm.openai_backend import _Retryable, parse_completion
    from archehr.llm.structured import extract_json

    class Echo(Backend):
        name = "echo"

        def complete(self, prompt, *, n=1, temperature=0.0, seed=0, max_tokens=256, response_format=None):
            return ["fresh"] * n

        def describe(self):
            return {"name": "echo"}

    cached = CachedBackend(Echo(), tmp_path)
    key = cache_key({"name": "echo"}, "p", n=1, temperature=0.0, seed=0, max_tokens=256)
    path = cached._path(key)
    path.parent.mkdir(parents=True)
    for entry in (DEEP_LIST, DEEP_OBJ, "[" + "9" * 5000 + "]"):
        path.write_text(entry)
        assert cached.complete("p") == ["fresh"]
    assert cached.hits == 0 and cached.misses == 3
    assert extract_json("here: " + DEEP_LIST) is None
    for body in (DEEP_OBJ, "{\"a\": " + "9" * 5000 + "}"):
        with pytest.raises(_Retryable):
            parse_completion(body.encode(), 64)


@pytest.mark.parametrize("command", [["data", "stats"], ["data", "info"], ["train", "-o", "{tmp}/m.json"],
                                     ["predict", "--no-progress", "-o", "{tmp}/run"]])
def test_commands_loading_a_release_refuse_a_deep_key(tmp_path, capsys, command):
    release = tmp_path / "release"
    shutil.copytree(DEMO, release / "test")
    shutil.copytree(DEMO.parent / "dev", release / "dev")
    for split in ("test", "dev"):
        (release / split / "archehr-qa_key.json").write_text(DEEP_OBJ)
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    split = ["--split", "dev"] if command[0] in ("train", "data") and command[1:2] != ["info"] else []
    rc, _, err = cli(capsys, *args, "--data-dir", release, *split)
    if command[:2] == ["data", "info"]:  # lists files, reads none
        assert rc == 0
        return
    assert rc == 2 and "levels deep" in err
    assert not (tmp_path / "m.json").exists() and not (tmp_path / "run" / "submission.json").exists()


@pytest.mark.parametrize("cid", ["\u00b2", "\u0663", "2_7_0", "\uff11"])
@pytest.mark.parametrize("task", ["2025", "st2"])
def test_case_ids_that_only_look_numeric_are_plain_errors(tmp_path, capsys, cid, task):
    sub = tmp_path / "s.json"
    field = "answer" if task == "2025" else "prediction"
    sub.write_text(json.dumps([{"case_id": cid, field: "x |1|" if task == "2025" else ["1"]}]))
    for args in (["validate", sub, "--task", task, "--key", KEY], ["score", sub, KEY, "--task", task]):
        rc, _, err = cli(capsys, *args)
        assert rc == 2 and "wrong split?" in err
    rc, _, err = cli(capsys, "score", SUB if task == "2025" else sub, KEY, "--task", task,
                     "--case-ids", "\u0663-\u0665")
    assert rc == 2 and "--case-ids" in err


def test_xml_integers_past_18_digits_are_one_short_problem():
    _, problems = parse_cases_xml(_case_xml('id="1" start_char_index="' + "9" * 19 + '"'), "f.xml")
    assert [p.message for p in problems] == [
        "attribute start_char_index='9999999999999999999' is an integer of 19 digits; release integers have at most 18"]
    cases, problems = parse_cases_xml(_case_xml('id="1" start_char_index="-' + "9" * 18 + '"'), "f.xml")
    assert problems == [] and cases[0].patient_question[0].start_char_index == -int("9" * 18)


@pytest.mark.parametrize("attr", ["start_char_index", "paragraph_id", "length"])
@pytest.mark.parametrize("command", ["data check", "score"])
def test_a_10000_digit_integer_attribute_is_one_clean_line(attr, command, tmp_path, capsys):
    """Python's int() refuses > 4300 digits with a ValueError: the loader must say so as a problem, not crash."""
    split = tmp_path / "test"
    shutil.copytree(DEMO, split)
    xml = split / "archehr-qa.xml"
    text = xml.read_text(encoding="utf-8")
    if attr == "length":  # optional attribute: add it to the first sentence
        text = text.replace('<sentence id="1" ', '<sentence id="1" length="' + "7" * 10_000 + '" ', 1)
    else:
        text = re.sub(rf'(<sentence id="1" [^>]*{attr}=")[0-9]+"', lambda m: m.group(1) + "7" * 10_000 + '"', text,
                      count=1)
    assert "7" * 10_000 in text
    xml.write_text(text, encoding="utf-8")
    args = ["data", "check", "--data-dir", tmp_path] if command == "data check" else ["score", SUB, split / KEY.name]
    rc, _, err = cli(capsys, *args)
    errors = [ln for ln in err.splitlines() if ln.startswith("error")]
    assert rc == 2 and errors, err[-2000:]
    assert f"{attr}=" in errors[0] and "is an integer of 10,000 digits" in errors[0], errors[0][:400]
    assert max(len(ln) for ln in err.splitlines()) < 400  # the value is shown cut, not 10,000 characters
