"""`answerability.courtesy`: greetings, apologies, thanks and sign-offs around a question left out of its reading."""

from __future__ import annotations

import pytest

from archehr.answerability.courtesy import phrases, without_courtesy
from archehr.ask import read_question


@pytest.mark.parametrize(("text", "read"), [
    # an opening greeting and apology, up to the comma
    ("Hi doc sorry to bother you, when is the knee scan?", "When is the knee scan?"),
    ("Hello, is the water tablet still the same dose?", "Is the water tablet still the same dose?"),
    # an opening filler with no comma, before a new clause's capital or its question word
    ("ok so basically Her inhaler ran out. Does she keep using it?", "Her inhaler ran out. Does she keep using it?"),
    ("hiya x can he shower with the dressing on", "can he shower with the dressing on"),
    # a greeting with the name greeted
    ("Hi Dr Mensah, how long is the sling on for?", "How long is the sling on for?"),
    # a letter's opening sentences of courtesy, and its sign-off with the writer's name and initials
    ("Dear team, I hope you are well. Why was the sotalol stopped? Yours sincerely, Mr K. Boateng",
     "Why was the sotalol stopped?"),
    # thanks closing the question, with or without a comma, and with the writer's name
    ("Is the rash from the cream? thanks, Priya", "Is the rash from the cream?"),
    ("when does the cast come off thank you", "when does the cast come off"),
    ("Can I fly next month? Many thanks in advance.", "Can I fly next month?"),
    # other languages' courtesy, accents folded ("Dziękuję" is "dziekuje")
    ("Bonjour docteur, how long do I wear the boot? Merci beaucoup.", "How long do I wear the boot?"),
    ("Dzień dobry, can she drink wine now? Dziękuję.", "Can she drink wine now?"),
    # a sentence of courtesy alone inside the message
    ("When is the eye clinic? My son will drive me. Sorry for so many questions. Thank you.",
     "When is the eye clinic? My son will drive me."),
    # a closing courtesy after a comma: the question's own end stays
    ("What did the swab show, please?", "What did the swab show?"),
    ("I want to know the result before the trip, gomen nasai.", "I want to know the result before the trip"),
    # a sign-off after a question written without its stop, by its capital
    ("can he swim yet Kind regards, Ruth", "can he swim yet"),
    # opening fillers, two or more, whatever follows
    ("ok so basically in the clinic they took a swab. Was it clear?", "in the clinic they took a swab. Was it clear?"),
])
def test_courtesy_around_the_question_is_left_out(text: str, read: str) -> None:
    assert without_courtesy(text) == read


@pytest.mark.parametrize("text", [
    "thanks for the leaflet, when is the scan?",  # thanks inside a clause that goes on
    "please tell me when the scan is",  # a polite ask, no courtesy of its own
    "What is best for the pain?",  # "best" is a sign-off only after a clause's end
    "Is it ok, doctor?",  # a word of address alone is no courtesy
    "right knee still swollen is that ok",  # one filler word, then no new clause
    "Thank you!",  # nothing else would be left
    "Why is she on two inhalers?",
])
def test_what_is_asked_stays(text: str) -> None:
    assert without_courtesy(text) == text


def test_every_phrase_has_a_known_role() -> None:
    roles = set(phrases().values())
    assert roles <= {"greeting", "thanks", "closing", "apology", "courtesy", "lead", "glue"}
    assert phrases()[("sorry", "to", "bother", "you")] == "apology"


def test_the_question_is_read_without_its_courtesy() -> None:
    # the reading `archehr.answer` builds on: the same with and without the wrapper
    plain = read_question("How long do I take the antibiotic?")[0]
    assert read_question("Sumimasen, how long do I take the antibiotic? Arigatou gozaimasu.")[0] == plain
    assert read_question("Salam, thank you so much for your help. How long do I take the antibiotic?")[0] == plain
    assert read_question("Yia sas, how long do I take the antibiotic? Efharisto poli.")[0] == plain
    # the language shown by the words left: read in English as before
    assert read_question("Sumimasen, okaasan no kusuri itsu made?")[0] == "mom no medicine until when?"
