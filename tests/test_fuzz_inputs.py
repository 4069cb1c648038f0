"""Property-based fuzzing (issue 15): the XML and JSON loaders and the submission parsers answer any input with
problems or a result, never another exception; `archehr validate` / `score` / `data check` exit 0 or 2.

Derandomised with a small, fixed budget (a few seconds in all), so CI runs the same examples every time; raise
FUZZ_EXAMPLES locally for a longer hunt (`FUZZ_EXAMPLES=2000 pytest tests/test_fuzz_inputs.py`).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from archehr.cli.main import main
from archehr.data.json_io import load_json_text, parse_key, parse_mapping
from archehr.data.xml_io import parse_cases_xml
from archehr.errors import InputError

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "data" / "demo" / "test"
KEY = DEMO / "archehr-qa_key.json"
XML = DEMO / "archehr-qa.xml"
SUB_2025 = json.loads((REPO / "submissions" / "trained-extractive" / "submission.json").read_text())

FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")), derandomize=True, deadline=None,
                database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

# JSON values biased towards what the parsers look at: the field names, ids, citations and labels.
KEYS = st.sampled_from(["case_id", "answer", "prediction", "answers", "sentence_id", "relevance", "id", "text",
                        "citations", "clinician_answer_sentences", "answer_id", "evidence_id", "x"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                    st.text(max_size=30), st.sampled_from(["21", "1", "essential", "not-relevant", "A. |1|",
                                                           "x |1,2|\ny |3|", "|", "2_7_0", "\u0663", "\u00b2", "21-22",
                                                           ""]))
JSON = st.recursive(SCALARS, lambda c: st.one_of(st.lists(c, max_size=4),
                                                 st.dictionaries(KEYS, c, max_size=5)), max_leaves=25)
CASEISH = st.lists(st.dictionaries(KEYS, JSON, max_size=5), max_size=5)


def _mutate_text(text: str, data: st.DataObject) -> str:
    """The valid text with a few random cuts, insertions and replacements (the typical broken file)."""
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 40)))
        text = text[:i] + data.draw(st.text(max_size=8)) + text[j:]
    return text


@FUZZ
@given(st.binary(max_size=300))
def test_xml_loader_on_random_bytes(data):
    cases, problems = parse_cases_xml(data, "f.xml")
    assert problems or isinstance(cases, tuple)


@FUZZ
@given(st.data())
def test_xml_loader_on_mutated_release_files(data):
    text = XML.read_text(encoding="utf-8")[:4000] + "</case></annotations>"
    cases, problems = parse_cases_xml(_mutate_text(text, data).encode("utf-8", "surrogatepass"), "f.xml")
    for p in problems:
        str(p)


@FUZZ
@given(st.one_of(st.text(max_size=200), JSON.map(json.dumps), CASEISH.map(json.dumps)))
def test_json_loaders_on_any_text(text):
    try:
        obj = load_json_text(text, "f.json")
    except InputError as e:
        assert e.problems
        return
    for parser in (parse_key, parse_mapping):
        entries, problems = parser(obj, "f.json", text)
        assert isinstance(entries, tuple) and all(str(p) for p in problems)


def _cli(tmp: Path, content: str | bytes, *args: str) -> int:
    f = tmp / "submission.json"
    f.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
    return main([a.replace("{f}", str(f)) for a in args])


COMMANDS = [("validate", "{f}"), ("validate", "{f}", "--key", str(KEY)), ("score", "{f}", str(KEY), "--metrics",
                                                                           "factuality"),
            ("package", "{f}", "-o", "{f}.zip")]


@FUZZ
@given(st.one_of(CASEISH.map(json.dumps), JSON.map(json.dumps), st.binary(max_size=100)),
       st.sampled_from(COMMANDS))
def test_submission_commands_on_random_submissions_exit_0_or_2(content, command):
    with tempfile.TemporaryDirectory() as d:
        assert _cli(Path(d), content, *command) in (0, 2)


@FUZZ
@given(st.data(), st.sampled_from(COMMANDS[:3]))
def test_submission_commands_on_mutated_submissions_exit_0_or_2(data, command):
    items = data.draw(st.lists(st.sampled_from(SUB_2025), min_size=1, max_size=4, unique_by=lambda x: x["case_id"]))
    text = _mutate_text(json.dumps(items, indent=1), data) if data.draw(st.booleans()) else json.dumps(
        [dict(it, **data.draw(st.dictionaries(KEYS, JSON, max_size=2))) for it in items])
    with tempfile.TemporaryDirectory() as d:
        assert _cli(Path(d), text, *command) in (0, 2)


@FUZZ
@given(st.sampled_from(["st1", "st2", "st3", "st4"]), st.data())
def test_2026_submissions_with_random_predictions_exit_0_or_2(task, data):
    cases = data.draw(st.lists(st.sampled_from(["21", "22", "23", "x", "", "\u00b2", "\u0663"]), min_size=1, max_size=3,
                               unique=True))
    items = [{"case_id": c, "prediction": data.draw(JSON)} for c in cases]
    with tempfile.TemporaryDirectory() as d:
        assert _cli(Path(d), json.dumps(items), "validate", "{f}", "--task", task, "--key", str(KEY)) in (0, 2)
        assert _cli(Path(d), json.dumps(items), "package", "{f}", "--task", task, "-o", "{f}.zip") in (0, 2)


@FUZZ
@given(st.data(), st.sampled_from(["xml", "key"]))
def test_release_commands_on_mutated_release_files_exit_0_or_2(data, which):
    """A broken XML or key (cut, spliced, retyped) through `data check`, `data stats` and `score`."""
    with tempfile.TemporaryDirectory() as d:
        split = Path(d) / "test"
        split.mkdir()
        xml = XML.read_text(encoding="utf-8")
        key = KEY.read_text(encoding="utf-8")
        if which == "xml":
            xml = _mutate_text(xml[:3000], data) + xml[3000:]
        else:
            key = _mutate_text(key[:3000], data) + key[3000:] if data.draw(st.booleans()) else json.dumps(
                data.draw(CASEISH))
        (split / "archehr-qa.xml").write_bytes(xml.encode("utf-8", "surrogatepass"))
        (split / "archehr-qa_key.json").write_bytes(key.encode("utf-8", "surrogatepass"))
        sub = Path(d) / "submission.json"
        sub.write_text(json.dumps(SUB_2025))
        assert main(["data", "check", "--data-dir", str(split)]) in (0, 2)
        assert main(["data", "stats", "--data-dir", str(split)]) in (0, 2)
        assert main(["score", str(sub), str(split), "--metrics", "factuality"]) in (0, 2)
