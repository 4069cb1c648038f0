"""Patients' words of four voices (Indian English with Hindi words, fast texting, Caribbean English, older people's
phonetic spellings) against a note's words: lay names of a visit, leave, a delivery, an arm implant and a named
opioid; PrEP (HIV prevention) kept apart from bowel prep; "mi" read as "me" after a verb; German family and bath
words; and the terms that must stay out because they also name something else. Examples are invented."""

from __future__ import annotations

import pytest

from archehr.answerability.languages import in_english
from archehr.answerability.voices import plain_words
from archehr.glossary import load_lexicon


def _expansions(text: str) -> set[str]:
    return {x for e in load_lexicon().matches(text) for x in e.expansions}


@pytest.mark.parametrize(("question", "note_word"), [
    ("is the nurse going to put in the implant in my arm soon", "nexplanon"),
    ("how long does the contraceptive rod last", "etonogestrel"),
    ("why did they have to get the baby out early", "caesarean section"),
    ("how long do i keep doing the needle in my belly", "enoxaparin"),
    ("when is the nurse going to come and see me", "home visit"),
    ("why are they taking me off the morphine", "opioid"),
    ("how long do i stay on prep for", "pre-exposure prophylaxis"),
    ("what day is my prep check", "tenofovir"),
    ("how long do we keep doing the injeckshuns", "injection"),
    ("why was the opperashun put off", "surgery"),
    ("is my presure ok now", "blood pressure"),
])
def test_a_voice_names_what_the_note_names(question: str, note_word: str) -> None:
    assert note_word in _expansions(question)


@pytest.mark.parametrize(("question", "not_word"), [
    ("how long do i stay on prep for", "bowel preparation"),
    ("what day is my prep check", "moviprep"),
    ("can i have alcohol with these tablets", "drink"),  # a note also writes of drinking water and coffee
    ("can i still have a pint of booze", "drinking"),
])
def test_a_term_naming_something_else_stays_out(question: str, not_word: str) -> None:
    assert not_word not in _expansions(question)


def test_bowel_prep_is_still_bowel_prep() -> None:
    assert "bowel preparation" in _expansions("what time do i start the prep")


@pytest.mark.parametrize(("question", "plain"), [
    ("when the nurse a come back fi see mi", "when the nurse a come back to see me"),
    ("how long mi haffi tek it", "how long I have to take it"),
    ("is the rash in mi belly bad", "is the rash in my belly bad"),
    ("why dem cut mi open", "why them cut me open"),
    ("mi madda waan know", "my mother want know"),
    ("can mi bredda come inna di room", "can my brother come in the room"),
])
def test_caribbean_words_read_as_standard(question: str, plain: str) -> None:
    assert plain_words(question) == plain


@pytest.mark.parametrize("question", ["did he have an mi", "post mi care plan", "was his mi a big one"])
def test_a_heart_attack_written_mi_stays(question: str) -> None:
    assert plain_words(question) == question


@pytest.mark.parametrize(("question", "word"), [
    ("darf meine Mutti wieder baden", "mother"),
    ("wann darf Vati wieder arbeiten", "father"),
    ("darf ich in die Badewanne", "bathtub"),
])
def test_german_family_and_bath_words(question: str, word: str) -> None:
    assert word in in_english(question)
