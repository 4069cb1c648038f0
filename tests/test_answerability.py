"""Answerability data and features (fictional demo cases and questions)."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
import yaml

from archehr.answerability.data import load_items, question_type, read_source_case
from archehr.answerability.features import FEATURE_NAMES, Background, features, question_concepts
from archehr.errors import DataError

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "data" / "demo-src"
LEGACY = ROOT / "data" / "answerability" / "legacy-unanswerable.yaml"
MATCHED = ROOT / "data" / "answerability" / "length-matched-unanswerable.yaml"


@functools.lru_cache(maxsize=1)
def _sources() -> dict:
    """Every demo source case by id, parsed once for the module (a lookup per question re-parsed all 176)."""
    cases = (read_source_case(p) for p in sorted(SRC.glob("case-*.yaml")))
    return {c.case_id: c for c in cases}


def _source(case_id: str):
    return _sources()[case_id]


@pytest.mark.parametrize(("path", "at_least"), [(LEGACY, 40), (MATCHED, 176)])
def test_written_unanswerable_questions_name_nothing_their_note_holds(path, at_least):
    written = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert len(written) >= at_least
    for cid, qs in written.items():
        note = " " + _source(str(cid)).note_text.lower() + " "
        for q in qs:
            assert q["absent"], (cid, q)
            found = [w for w in q["absent"] if w.lower() in note]
            assert not found, f"case {cid}: {q['q']!r} asks about {found}, which the note mentions"


def test_length_matched_questions_are_marked_and_as_long_as_the_own_ones():
    items = load_items(SRC, LEGACY, splits=("dev", "train", "test", "test-2026"), matched_file=MATCHED)
    matched = [i for i in items if i.length_matched]
    assert matched and all(i.source == "written" and not i.answerable for i in matched)
    assert {i.voice for i in matched} == {i.voice for i in items}  # every voice has some
    own = np.mean([len(i.question.split()) for i in items if i.source == "own"])
    long = np.mean([len(i.question.split()) for i in matched])
    assert abs(long - own) < 0.15 * own, (long, own)
    without = load_items(SRC, LEGACY, splits=("dev", "train", "test", "test-2026"))
    assert len(items) - len(without) == len(matched) and not any(i.length_matched for i in without)


def test_length_matched_questions_for_an_unknown_case_are_refused(tmp_path):
    bad = tmp_path / "m.yaml"
    bad.write_text('"99999":\n  - {q: "Can I fly?", absent: [fly]}\n', encoding="utf-8")
    with pytest.raises(DataError, match="99999"):
        load_items(SRC, LEGACY, splits=("dev",), matched_file=bad)


def test_items_labels_and_sources():
    items = load_items(SRC, LEGACY, splits=("dev",))
    by = {(i.source, i.answerable) for i in items}
    assert by == {("own", True), ("moved", False), ("written", False)}
    cases = {c.case_id: c for c in (read_source_case(p) for p in SRC.glob("case-*.yaml"))}
    for i in items:
        assert i.case.question_text == " ".join(i.question.split())
        assert i.case.sentences == cases[i.note_case].sentences
        if i.source == "moved":  # another topic: the two cases share no specialty
            assert not set(cases[i.note_case].specialty) & set(cases[i.question_case].specialty)
            assert i.note_case != i.question_case


@pytest.mark.parametrize(("question", "kind"), [
    ("Should I still take furosemide at home?", "should"),
    ("Was my potassium low?", "value"),
    ("what was his A1c level?", "value"),
    ("Why did they stop my metformin?", "why"),
    ("When can the drain come out?", "when"),
    ("Will he walk again?", "will"),
    ("What is the new shot for?", "what"),
])
def test_question_type(question, kind):
    assert question_type(question) == kind


def test_a_glossary_term_is_covered_by_its_expansions():
    concepts = question_concepts("Do I have to take the blood thinner forever?")
    thinner = [c for c in concepts if "apixaban" in c.alternatives]
    assert thinner, concepts
    bg = Background.count([["apixaban", "daily"], ["daily"]])
    case = load_items(SRC, LEGACY, splits=("dev",))[0].case
    row = features(case, bg)
    assert row.shape == (len(FEATURE_NAMES),) and np.isfinite(row).all()


def test_background_weight_orders_specific_over_common_words():
    bg = Background.count([["daily", "warfarin"], ["daily"], ["daily"]])
    assert bg.weight("daily") < bg.weight("warfarin") < bg.weight("never-seen") == 1.0
    assert Background.from_json(bg.to_json()) == bg


_PLAN = ("Plan:\nFlucloxacillin 500 mg four times a day for 7 days.\nUse the salbutamol inhaler when wheezy.\n"
         "Review in clinic in 2 weeks.")


@pytest.mark.parametrize("question", [
    "how long is he on the flucloxacillin",  # the note's own word
    "how long is he on the flu clocks a sillin",  # heard by voice: three words, one name
    "how long is he on the flucloxacilin",  # misspelt by a letter
    "how long is he on the flucloxa",  # the start of the name, which no other note word begins
    "when should he use his puffer",  # the everyday word for the note's inhaler
])
def test_the_coverage_reads_the_question_as_the_answer_types_do(question):
    from archehr.ask import note_case

    case, _ = note_case(_PLAN, question)
    row = dict(zip(FEATURE_NAMES, features(case, Background.count([["daily"], ["tablet"]])), strict=True))
    assert (row["coverage_weighted"], row["missing_max"]) == (1.0, 0.0)


@pytest.mark.parametrize("question", [
    "how long is he on the amoxicillin",  # another drug
    "can he have the flu jab",  # "flu" (3 letters, a word of its own) begins flucloxacillin: no drug
])
def test_the_coverage_reads_no_drug_the_note_does_not_name(question):
    from archehr.ask import note_case

    case, _ = note_case(_PLAN, question)
    row = dict(zip(FEATURE_NAMES, features(case, Background.count([["daily"], ["tablet"]])), strict=True))
    assert row["coverage_weighted"] == 0.0 and row["missing_max"] == 1.0
