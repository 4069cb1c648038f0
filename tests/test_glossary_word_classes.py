"""Classes the everyday lexicon knows as facts: a sport or game is exercise (and a team sport a contact sport), a
class or a shift is school or work, a named service ("district nurses", "x-ray doctors") is the note's word for it,
a slang or short name is the note's name ("hep c", "the clap"). A note line in the class's words names the question's
topic, though it shares no word with the question."""

from __future__ import annotations

import pytest

from archehr.answerability.kinds import answer_types
from archehr.data.note_split import note_case
from archehr.glossary import load_lexicon


def _expansions(text: str) -> set[str]:
    return {x for e in load_lexicon().matches(text) for x in e.expansions}


@pytest.mark.parametrize(("question", "note_word"), [
    ("can i still play five a side on saturday", "strenuous"),
    ("is badminton ok this week", "strenuous"),
    ("can he go to volleyball practice", "strenuous"),
    ("can she do karate again", "contact sport"),
    ("can i go back on nights next week", "return to work"),
    ("when can i go back to my class", "school"),
    ("is he ok to go back to uni", "return to school"),
    ("can i go up the ladder to do the gutters", "heights"),
    ("can he walk by himself now", "ambulate"),
    ("what time do the district nurses come", "dn"),
    ("when is the wound specialist nurse back", "tvn"),
    ("when do the x-ray doctors check the drain", "interventional radiology"),
    ("when is my next blood test for the hep c", "hcv"),
    ("did i have the clap", "gc"),
    ("how long after i get home do i take the malaria tablets", "atovaquone"),
])
def test_a_class_word_names_what_a_note_writes(question: str, note_word: str) -> None:
    assert note_word in _expansions(question)


def test_working_alone_is_no_activity() -> None:
    # "is the new tablet working" asks whether a medicine works, not about going to work
    assert "return to work" not in _expansions("is the new tablet working yet")


def _topic(note: str, question: str) -> list[float]:
    case = note_case(note, question)[0]
    return [round(float(x), 3) for x in answer_types(case, load_lexicon()).topic]


def test_a_sport_question_names_the_exercise_line() -> None:
    note = "He was seen for a twisted ankle.\n\nAvoid strenuous exercise for two weeks.\n\nIce the ankle daily."
    topic = _topic(note, "can i play volleyball on friday")
    assert topic[1] > 0
    assert topic[0] == 0 and topic[2] == 0


def test_a_service_question_names_the_line_with_its_abbreviation() -> None:
    note = "Pressure sore on the left heel.\n\nTVN to review on 12/06.\n\nRepositioning every two hours."
    topic = _topic(note, "when is the wound specialist nurse coming back")
    assert topic[1] > 0
    assert topic[0] == 0 and topic[2] == 0


@pytest.mark.parametrize("question", ["can i go running again", "when can i start jogging", "is tennis ok"])
def test_a_sport_played_alone_is_no_contact_sport(question: str) -> None:
    assert "contact sport" not in _expansions(question)
    assert "contact sports" not in _expansions(question)
