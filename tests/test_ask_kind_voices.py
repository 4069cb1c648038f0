"""The kind of answer in writers' voices: search-box fragments, a learner's word order, a wait for an awaited event,
everyday words with a drug name's ending; and the voices benchmark's report."""

from __future__ import annotations

import benchmark_module
import pytest

from archehr.answerability.asked_for import ask_kind


@pytest.mark.parametrize(("question", "kind"), [
    # the length asked in a noun, no "how long"
    ("knee replacement healing time", "how_long"),
    ("hernia repair recovery time", "how_long"),
    ("duration of the steroid course?", "how_long"),
    ("How much time the drain stays?", "how_long"),
    # a reason asked without "why"
    ("For what reason she needs the second scan?", "why"),
    # a finding or a verdict asked in a fragment
    ("abdominal ultrasound findings", "test_result"),
    ("The liver test is fine or not?", "test_result"),
    # a dose raised, in a participle
    ("are they raising his bisoprolol", "med_change"),
])
def test_a_kind_said_in_a_noun_or_a_participle(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


@pytest.mark.parametrize(("question", "kind"), [
    # the wait for results, a letter or a call is a when question; how long a symptom lasts is not
    ("how long until the biopsy results come back", "when"),
    ("How long before I hear about the referral?", "when"),
    ("how long until the swelling settles", "how_long"),
])
def test_how_long_until_an_awaited_event_asks_when(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


def test_an_asked_time_is_no_return_instruction() -> None:
    # "come back" with a time asked outright: the date of the visit, not when to return to the emergency room
    assert ask_kind("What day I should come back for the dressing change?") == "when"


@pytest.mark.parametrize(("question", "kind"), [
    ("swimming after the grommets", "may_i"),
    ("wine with metronidazole", "may_i"),
    ("bath with the cast ok", "may_i"),
    # a fragment with no activity stays as it was read; so does a question with a verb
    ("scar cream after the op", "other"),
    ("was my driving test result ok", "test_result"),
])
def test_a_verbless_fragment_naming_an_activity_asks_leave(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


def test_a_learners_statement_order_asks_leave() -> None:
    # "I can eat normal food?": a permission, not a result's "normal"
    assert ask_kind("She can drink normal milk now?") == "may_i"


@pytest.mark.parametrize("question", [
    "what do i do if the pain starts again",  # "again" ends like a drug name
    "it was the groin that hurt but is it better now?",
])
def test_everyday_words_with_a_drug_ending_name_no_medicine(question: str) -> None:
    assert ask_kind(question) != "med_change"


def test_the_report_counts_each_split_kind_and_voice() -> None:
    bench = benchmark_module.load("question_kinds")
    data = {"split": {"dev": ["a"], "held_out": ["b"]},
            "questions": [{"voice": "a", "kind": "why", "text": ""}, {"voice": "a", "kind": "when", "text": ""},
                          {"voice": "b", "kind": "why", "also": "when", "text": ""}]}
    lines = bench.report(data, ["why", "why", "when"])
    assert lines[0].startswith("overall") and "(1/3)" in lines[0]
    assert any(line.startswith("split  dev") and "(1/2)" in line for line in lines)
    assert any(line.startswith("voice  b") and "(0/1)" in line for line in lines)
    assert any("either kind read" in line and "(1/1)" in line for line in lines)


@pytest.mark.parametrize(("question", "kind"), [
    # a medicine stopped, asked as a permission, is a medication change; asked with "when", a date
    ("should she stop the lisinopril before the scan", "med_change"),
    ("when can she restart the lisinopril", "when"),
])
def test_a_medicine_stopped_asked_as_leave_is_a_change(question: str, kind: str) -> None:
    assert ask_kind(question) == kind
