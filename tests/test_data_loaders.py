"""Loaders: every published layout, round-trip, and each class of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archehr.data import Relevance, load_split, load_split_dir, write_split
from archehr.data.json_io import parse_citations, read_key
from archehr.data.xml_io import parse_cases_xml, read_cases_xml
from archehr.errors import DataError, ReleaseNotFoundError

# A 2025-style case (v1.1-1.4 layout: no length attribute, padded texts).
XML_2025 = """<?xml version='1.0' encoding='UTF-8'?>
<annotations>
    <case id="1">
        <clinical_specialty>Cardiology|Nephrology</clinical_specialty>
        <patient_narrative>
I take my water pill. Why was it changed?
        </patient_narrative>
        <patient_question>
            <phrase id="0" start_char_index="22">
Why was it changed?
            </phrase>
        </patient_question>
        <clinician_question>
Why was the diuretic changed?
        </clinician_question>
        <note_excerpt>
Brief Hospital Course:

Furosemide was switched to torsemide. K 4.1.
        </note_excerpt>
        <note_excerpt_sentences>
            <sentence id="1" paragraph_id="1" start_char_index="0">
Brief Hospital Course:
            </sentence>
            <sentence id="2" paragraph_id="2" start_char_index="0">
Furosemide was switched to torsemide.
            </sentence>
            <sentence id="3" paragraph_id="2" start_char_index="38">
K 4.1.
            </sentence>
        </note_excerpt_sentences>
    </case>
</annotations>
"""

# 2026 layout: `length` attribute, a sentence with an inner newline, no specialty.
XML_2026 = """<annotations>
  <case id="121">
    <patient_narrative>
Why did they stop it?
    </patient_narrative>
    <note_excerpt_sentences>
      <sentence id="1" paragraph_id="1" start_char_index="0" length="24">
Medications on admission:
aspirin
      </sentence>
    </note_excerpt_sentences>
  </case>
</annotations>
"""

KEY_OLD = [{"case_id": "1", "answers": [
    {"sentence_id": "1", "relevance": "not-relevant"},
    {"sentence_id": "2", "relevance": "essential"},
    {"sentence_id": "3", "relevance": "supplementary"}]}]


def _write_split(tmp_path: Path, xml: str, key: object | None = None, name: str = "dev") -> Path:
    d = tmp_path / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "archehr-qa.xml").write_text(xml, encoding="utf-8")
    if key is not None:
        (d / "archehr-qa_key.json").write_text(json.dumps(key, indent=2), encoding="utf-8")
    return d


def test_2025_layout_fields_are_stripped_and_typed(tmp_path: Path) -> None:
    split = load_split_dir(_write_split(tmp_path, XML_2025, KEY_OLD))
    case = split.case("1")
    assert case.clinical_specialty == ("Cardiology", "Nephrology")
    assert case.patient_narrative == "I take my water pill. Why was it changed?"
    assert case.patient_question[0].id == 0 and case.patient_question[0].start_char_index == 22
    assert case.clinician_question == "Why was the diuretic changed?"
    assert [s.id for s in case.sentences] == ["1", "2", "3"]
    assert case.sentences[2].paragraph_id == 2 and case.sentences[2].start_char_index == 38
    assert case.sentences[0].length is None
    key = split.key_for("1")
    assert key.essential_ids == ("2",) and key.supplementary_ids == ("3",)
    assert key.clinician_answer is None and key.clinician_answer_sentences is None
    assert key.label_of("1") is Relevance.NOT_RELEVANT


def test_2026_layout_length_and_inner_newlines(tmp_path: Path) -> None:
    split = load_split_dir(_write_split(tmp_path, XML_2026, name="test-2026"))
    s = split.case("121").sentences[0]
    assert s.length == 24
    assert s.text == "Medications on admission:\naspirin"
    assert split.key is None and split.name == "test-2026"


def test_partial_file_narratives_only(tmp_path: Path) -> None:
    xml = "<annotations><case id='5'><patient_narrative>\n  hello  \n</patient_narrative></case></annotations>"
    case = load_split_dir(_write_split(tmp_path, xml)).case("5")
    assert case.patient_narrative == "hello"
    assert case.sentences == () and case.clinician_question is None and case.note_excerpt is None


def test_key_with_clinician_answers_and_string_citations(tmp_path: Path) -> None:
    key = [{**KEY_OLD[0], "clinician_answer": "It was changed [2].",
            "clinician_answer_without_citations": "It was changed.",
            "clinician_answer_sentences": [{"id": "1", "text": "It was changed.", "citations": "2, 3"}]}]
    entry = load_split_dir(_write_split(tmp_path, XML_2025, key)).key_for("1")
    assert entry.clinician_answer_sentences[0].citations == ("2", "3")
    assert entry.clinician_answer_without_citations == "It was changed."


@pytest.mark.parametrize("value,expected", [
    (["2", "5"], ("2", "5")), ("2,5", ("2", "5")), ("", ()), ([3], ("3",)), ({"a": 1}, None), ([True], None),
])
def test_parse_citations(value: object, expected: tuple[str, ...] | None) -> None:
    assert parse_citations(value) == expected


def test_round_trip_is_content_equal(tmp_path: Path) -> None:
    key = [{**KEY_OLD[0], "clinician_answer": "A [2].", "clinician_answer_without_citations": "A.",
            "clinician_answer_sentences": [{"id": "1", "text": "A.", "citations": ["2"]}]}]
    split = load_split_dir(_write_split(tmp_path / "a", XML_2025, key))
    write_split(split, tmp_path / "b" / "dev")
    again = load_split_dir(tmp_path / "b" / "dev")
    assert again == split
    assert again.cases == split.cases and again.key == split.key


def test_round_trip_2026_layout(tmp_path: Path) -> None:
    split = load_split_dir(_write_split(tmp_path / "a", XML_2026))
    write_split(split, tmp_path / "b" / "dev")
    assert load_split_dir(tmp_path / "b" / "dev").cases == split.cases


# --- bad input: one problem per defect, naming file, case, field and line -------------------------

def _problems(xml: str) -> list:
    return parse_cases_xml(xml.encode(), "f.xml")[1]


def test_malformed_xml_names_line() -> None:
    (p,) = _problems("<annotations>\n<case id='1'>\n<patient_narrative>x</case>\n</annotations>")
    assert p.file == "f.xml" and p.line == 3 and "malformed XML" in p.message


def test_duplicate_case_id() -> None:
    (p,) = _problems("<annotations>\n<case id='1'/>\n<case id='1'/>\n</annotations>")
    assert p.case_id == "1" and p.line == 3 and p.code == "duplicate-case"


def test_duplicate_sentence_id_and_bad_offset_reported_together() -> None:
    xml = """<annotations><case id="7"><note_excerpt_sentences>
<sentence id="1" paragraph_id="1" start_char_index="0">a</sentence>
<sentence id="1" paragraph_id="1" start_char_index="2">b</sentence>
<sentence id="2" paragraph_id="x" start_char_index="4">c</sentence>
</note_excerpt_sentences></case></annotations>"""
    problems = _problems(xml)
    assert [p.code for p in problems] == ["duplicate-sentence", "error"]
    assert all(p.case_id == "7" for p in problems)
    assert problems[0].line == 3 and "paragraph_id='x'" in problems[1].message
    assert problems[1].field == "note_excerpt_sentences/sentence[2]"


def test_missing_attribute_named() -> None:
    (p,) = _problems('<annotations><case id="3"><patient_question><phrase id="0">q</phrase>'
                     '</patient_question></case></annotations>')
    assert "start_char_index" in p.message and p.case_id == "3" and p.field == "patient_question/phrase"


def test_label_outside_three_classes(tmp_path: Path) -> None:
    key = [{"case_id": "1", "answers": [{"sentence_id": "2", "relevance": "important"}]}]
    with pytest.raises(DataError) as e:
        load_split_dir(_write_split(tmp_path, XML_2025, key))
    (p,) = e.value.problems
    assert p.case_id == "1" and p.field == "answers[].relevance" and p.file.endswith("archehr-qa_key.json")
    assert p.line == 3  # the line of the case in the pretty-printed key


def test_key_case_missing_from_xml(tmp_path: Path) -> None:
    key = KEY_OLD + [{"case_id": "9", "answers": []}]
    with pytest.raises(DataError) as e:
        load_split_dir(_write_split(tmp_path, XML_2025, key))
    assert [(p.case_id, p.code) for p in e.value.problems] == [("9", "unknown-case")]


def test_key_unknown_sentence_and_wrong_types(tmp_path: Path) -> None:
    key = [{"case_id": "1", "answers": [{"sentence_id": "99", "relevance": "essential"}]},
           {"case_id": 2, "answers": []}, {"case_id": "1", "answers": []}]
    d = _write_split(tmp_path, XML_2025, key)
    with pytest.raises(DataError) as e:
        read_key(d / "archehr-qa_key.json")
    codes = sorted(p.code for p in e.value.problems)
    assert codes == ["duplicate-case", "type"]
    (d / "archehr-qa_key.json").write_text(json.dumps(key[:1]))
    with pytest.raises(DataError) as e:
        load_split_dir(d)
    assert e.value.problems[0].code == "unknown-sentence"


def test_key_not_json(tmp_path: Path) -> None:
    d = _write_split(tmp_path, XML_2025)
    (d / "archehr-qa_key.json").write_text('[{"case_id": "1",\n "answers": [}]')
    with pytest.raises(DataError) as e:
        load_split_dir(d)
    (p,) = e.value.problems
    assert p.line == 2 and p.code == "json-syntax"


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(DataError) as e:
        read_cases_xml(tmp_path / "nope.xml")
    assert "cannot read" in str(e.value)


# --- release finder ---------------------------------------------------------------------------

def test_missing_split_lists_what_was_found(tmp_path: Path) -> None:
    _write_split(tmp_path, XML_2025, name="dev")
    with pytest.raises(ReleaseNotFoundError) as e:
        load_split(tmp_path, "test")
    assert "this release has: dev" in str(e.value)


def test_version_folders_newest_wins_and_version_detected(tmp_path: Path) -> None:
    _write_split(tmp_path / "1.2", XML_2025, name="dev")
    _write_split(tmp_path / "1.10", XML_2026, name="dev")
    split = load_split(tmp_path, "dev")
    assert split.version == "1.10" and split.case_ids == ("121",)
    assert load_split(tmp_path, "dev", version="1.2").case_ids == ("1",)


def test_single_split_folder(tmp_path: Path) -> None:
    d = _write_split(tmp_path, XML_2025, name="test")
    assert load_split(d, "test").case_ids == ("1",)


def test_env_var_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write_split(tmp_path, XML_2025, name="dev")
    monkeypatch.setenv("ARCHEHR_DATA", str(tmp_path))
    assert load_split(None, "dev").case_ids == ("1",)


# --- shared fixtures ---------------------------------------------------------------------------

def test_reads_shared_synthetic_release(synthetic_dir: Path) -> None:
    dev, test = load_split(synthetic_dir, "dev"), load_split(synthetic_dir, "test")
    assert dev.case_ids == tuple(str(i) for i in range(1, 9))
    assert test.case_ids == tuple(str(i) for i in range(9, 25))
    assert sum(len(c.sentences) for c in dev) + sum(len(c.sentences) for c in test) == 596
    assert all(k.clinician_answer_sentences for k in test.key)


def test_reads_official_public_partial_files(synthetic_dir: Path) -> None:
    public = synthetic_dir.parent / "official-public"
    dev = load_split_dir(public / "2025-dev")
    assert len(dev) == 20 and all(c.clinician_question and not c.sentences for c in dev)
    assert dev.mapping is not None and len(dev.mapping) == 20
    st1 = load_split_dir(public / "2026-subtask1-test")
    assert len(st1) == 47 and st1.case_ids[0] == "121"
    assert all(c.patient_narrative and c.clinician_question is None for c in st1)
    # phrase offsets point into the stripped narrative
    for c in dev:
        for ph in c.patient_question:
            assert c.patient_narrative[ph.start_char_index:].startswith(ph.text[:20])


def test_synthetic_round_trip(synthetic_dir: Path, tmp_path: Path) -> None:
    split = load_split(synthetic_dir, "test")
    write_split(split, tmp_path / "test")
    assert load_split_dir(tmp_path / "test") == split
