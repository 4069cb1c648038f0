"""The list of phrasings saying an asked fact is not given yet (`archehr.answerability.undetermined`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from archehr.answerability.undetermined import FACTS, asked_undetermined, load, undetermined
from archehr.errors import DataError


def _table(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "phrases.tsv"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_list_loads_every_fact_with_lower_case_phrases_once() -> None:
    table = load()
    assert set(table) == set(FACTS)
    phrases = [p for f in FACTS for p in table[f]]
    assert all(table[f] for f in FACTS)
    assert len(phrases) == len(set(phrases))  # one fact per phrase
    assert all(p == p.lower() and p == " ".join(p.split()) for p in phrases)


def test_a_phrase_matches_between_word_edges_whatever_the_case_and_line_wrap(tmp_path: Path) -> None:
    path = _table(tmp_path, "# comment\nresult\tto follow\ndate\tletter to follow\ndate\ttba\n")
    assert undetermined("Report TO\n  FOLLOW.", ("result",), path) == ["to follow"]
    # the longest phrase wins where two overlap
    assert undetermined("Appointment letter to follow", ("date", "result"), path) == ["letter to follow"]
    assert undetermined("tbac tba.", ("date",), path) == ["tba"]  # not inside a word
    assert undetermined("Report to follow", ("date",), path) == []  # another fact's phrase


def test_a_question_kind_reads_its_own_missing_fact(tmp_path: Path) -> None:
    path = _table(tmp_path, "result\tpending\ndate\tto be booked\nduration\tuntil review\ndecision\tno decision yet\n")
    line = "Scan to be booked; culture pending; aspirin until review; no decision yet on surgery."
    assert asked_undetermined("when", line, path) == ["to be booked"]
    assert asked_undetermined("test_result", line, path) == ["pending"]
    assert asked_undetermined("how_long", line, path) == ["until review"]
    assert asked_undetermined("may_i", line, path) == ["no decision yet"]
    assert asked_undetermined("why", line, path) == []  # a cause has no "not known yet" form here


def test_a_malformed_line_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=":2:"):
        load(_table(tmp_path, "date\ttbc\nreason\tunknown\n"))


def _types(kind: str, topic: list[float]) -> object:
    from types import SimpleNamespace

    import numpy as np

    return SimpleNamespace(kind=kind, topic=np.array(topic))


def test_review_flags_a_first_line_saying_the_asked_fact_is_not_known_yet() -> None:
    from archehr.answerability.review import fact_undetermined
    from archehr.data.note_split import split_note

    split = split_note("Plan:\n- Knee clinic appointment letter to follow.\n- Keep icing the knee.\n", "rules")
    first = next(s.text for s in split.sentences if "letter" in s.text)
    when = "when is my knee clinic appointment"
    assert fact_undetermined(_types("when", [0.0, 1.0, 0.2]), (first, 1.0), when, split)
    # the same line to a why question: a cause has no "not known yet" phrasing in the list
    assert not fact_undetermined(_types("why", [0.0, 1.0, 0.2]), (first, 1.0), "why the knee clinic", split)
    # a line that gives the date as well ("in 6 weeks") answers the when question
    dated = split_note("Plan:\n- Knee clinic in 6 weeks, appointment letter to follow.\n", "rules")
    first = next(s.text for s in dated.sentences if "letter" in s.text)
    assert not fact_undetermined(_types("when", [0.0, 1.0]), (first, 1.0), when, dated)


def test_review_flags_a_topic_sentence_saying_the_result_is_not_back_when_the_first_line_gives_none() -> None:
    from archehr.answerability.review import fact_undetermined
    from archehr.data.note_split import split_note

    split = split_note("Plan:\n- Drink plenty of fluids.\n- Kidney scan report to follow.\n", "rules")
    first = next(s.text for s in split.sentences if "fluids" in s.text)
    question = "what did the kidney scan show"
    # the first line names a third of the topic; the sentence naming the most of it says the report is to follow
    assert fact_undetermined(_types("test_result", [0.0, 0.3, 1.0]), (first, 0.3), question, split)
    # the same sentence naming less of the topic than another does not count
    assert not fact_undetermined(_types("test_result", [0.0, 1.0, 0.5]), (first, 1.0), question, split)


def test_review_flags_a_dated_first_line_of_another_event_when_the_topic_sentence_has_no_date_yet() -> None:
    from archehr.answerability.review import fact_undetermined
    from archehr.data.note_split import split_note

    split = split_note("Plan:\n- Next dressing change booked 12/05/2031.\n- Hip scan requested, date to follow.\n",
                       "rules")
    first = next(s.text for s in split.sentences if "dressing" in s.text)
    question = "when is my hip scan booked"
    # the first line dates the dressing change, naming a third of the topic; the hip scan's line has no date yet
    assert fact_undetermined(_types("when", [0.0, 0.3, 1.0]), (first, 0.3), question, split)
    # when the dated first line names as much of the topic, the date is taken as the asked one's
    assert not fact_undetermined(_types("when", [0.0, 1.0, 1.0]), (first, 1.0), question, split)


def test_an_appointment_not_yet_offered_leaves_the_date_unset() -> None:
    assert asked_undetermined("when", "Referral to the memory clinic sent; first appointment not yet offered.") \
        == ["not yet offered"]
    assert asked_undetermined("when", "A slot has not yet been offered.") == ["not yet been offered"]


def test_a_test_not_done_or_its_result_kept_for_a_visit_leaves_the_result_unknown() -> None:
    assert asked_undetermined("test_result", "Thyroid function: not performed (sample clotted).") == ["not performed"]
    assert asked_undetermined("test_result", "The biopsy results will be discussed with you at the next visit.") \
        == ["will be discussed"]
    assert asked_undetermined("test_result", "Stool sample not yet received by the lab.") == ["not yet received"]
    assert asked_undetermined("test_result", "Liver panel normal.") == []


def test_a_date_to_come_by_post_or_a_call_to_the_patient_leaves_the_date_unset() -> None:
    assert asked_undetermined("when", "The sleep unit will phone her with a date.") == ["will phone her", "with a date"]
    assert asked_undetermined("when", "Gastroscopy requested; date to be sent by post.") == ["to be sent by post"]
    assert asked_undetermined("when", "The theatre date is not yet confirmed.") == ["not yet confirmed"]
    assert asked_undetermined("when", "Seen on Tuesday with his daughter.") == []


def test_a_decision_left_to_a_later_visit_or_someone_else_is_no_decision() -> None:
    assert asked_undetermined("med_change", "Repeat the B12 level before deciding on injections.") \
        == ["before deciding"]
    assert asked_undetermined("med_change", "Whether to keep the statin will be decided by the lipid team.") \
        == ["will be decided by"]
    assert asked_undetermined("may_i", "Swimming: advice to be given at the wound clinic.") \
        == ["advice to be given"]
    assert asked_undetermined("med_change", "Plan: discuss starting a nasal spray at the next visit.") \
        == ["discuss starting"]
    assert asked_undetermined("med_change", "Stop the naproxen; take paracetamol instead.") == []


def test_review_flags_a_medicine_change_left_to_the_gp() -> None:
    from archehr.answerability.review import fact_undetermined
    from archehr.data.note_split import split_note

    split = split_note("Plan:\n- Blood pressure 150/90 today.\n- A second blood pressure tablet: GP to consider "
                       "once the home readings are in.\n", "rules")
    first = next(s.text for s in split.sentences if "second" in s.text)
    question = "are they adding another blood pressure tablet"
    assert fact_undetermined(_types("med_change", [0.0, 0.3, 1.0]), (first, 1.0), question, split)
    # a line that decides ("Start amlodipine 5 mg daily") leaves nothing undetermined
    decided = split_note("Plan:\n- Start amlodipine 5 mg daily for blood pressure.\n", "rules")
    first = next(s.text for s in decided.sentences if "amlodipine" in s.text)
    assert not fact_undetermined(_types("med_change", [0.0, 1.0]), (first, 1.0), question, decided)
