"""A medication list entry first, not what is asked of the medicine (`med_listed.listed_only`). The notes' lines and
the questions are written for these tests (fictional)."""

import pytest

from archehr.answerability.med_listed import asked_facts, list_entry, listed_only

LIST = ["Medicines on discharge:", "Metformin 500 mg twice daily", "Amlodipine 10 mg once daily",
        "Omeprazole 20 mg once daily for stomach protection while on aspirin"]
PARAS = ["p1", "p1", "p1", "p1"]


@pytest.mark.parametrize(("question", "facts"), [
    ("why is she on the amlodipine", ("reason",)),
    ("what's the omeprazole even for my tummy is fine", ("reason",)),
    ("what is the new tablet for the acid they gave him", ()),  # its name asked, not why
    ("what should she take for her heartburn now", ()),
    ("how long does he stay on the metformin", ("length",)),
    ("is metformin safe with a few beers", ("safe",)),
    ("is the metformin the same dose as before", ()),  # a change: not read
])
def test_asked_facts(question: str, facts: tuple[str, ...]) -> None:
    assert asked_facts(question) == facts


@pytest.mark.parametrize(("line", "entry"), [
    ("Metformin 500 mg twice daily", True),
    ("CONTINUE | Amlodipine 10 mg once daily |", True),
    ("We talked about her blood pressure at length and agreed to see how the new routine at home works out.", False),
    ("Take one tablet every morning.", False),  # no medicine named
])
def test_list_entry(line: str, entry: bool) -> None:
    assert list_entry(line) is entry


def test_an_entry_without_the_reason_asked_is_flagged() -> None:
    assert listed_only("why", "why is she on the amlodipine", LIST, PARAS, 2)


def test_an_entry_giving_the_reason_is_not() -> None:
    assert not listed_only("why", "what is the omeprazole for?", LIST, PARAS, 3)


def test_an_entry_without_a_course_length_is_flagged() -> None:
    assert listed_only("how_long", "how long does he stay on the metformin", LIST, PARAS, 1)


def test_the_next_line_of_the_entry_gives_the_fact() -> None:
    texts = ["Metformin 500 mg twice daily", "Take with food and do not drink alcohol while on it."]
    assert not listed_only("may_i", "is metformin safe with a few beers", texts, ["p1", "p1"], 0)
    assert listed_only("may_i", "is metformin safe with a few beers", texts[:1], ["p1"], 0)


def test_a_heading_giving_the_reason() -> None:
    texts = ["Held because of the kidney injury:", "Metformin 500 mg twice daily"]
    assert not listed_only("why", "why has the metformin been stopped", texts, ["p1", "p1"], 1)


def test_what_an_entry_answers_is_not_flagged() -> None:
    # the dose, whether it is still taken, a change: an entry answers these
    assert not listed_only("med_change", "what dose of metformin is he on now", LIST, PARAS, 1)
    assert not listed_only("med_change", "is he still taking the metformin", LIST, PARAS, 1)
    assert not listed_only("med_change", "is the metformin the same dose as before", LIST, PARAS, 1)


def test_other_kinds_and_no_first_line() -> None:
    assert not listed_only("when", "why is she on the amlodipine", LIST, PARAS, 2)
    assert not listed_only("why", "why is she on the amlodipine", LIST, PARAS, None)
    # a first line that is no entry: left to the other rules
    prose = ["We talked about her blood pressure at length and agreed to see how the new routine works out."]
    assert not listed_only("why", "why is she on the amlodipine", prose, ["p1"], 0)
