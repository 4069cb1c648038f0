"""The asking part of a story-wrapped question, and the confidence that weighs the story's unnamed words half."""

from __future__ import annotations

import math

import numpy as np
import pytest

import archehr
from archehr import ask
from archehr.answerability import typed
from archehr.answerability.asking import asking_part, asks, clauses, story_pruned
from archehr.answerability.typed import story_weighted
from archehr.glossary import load_lexicon
from archehr.relevance.text import tokens

NOTE = """Discharge Instructions:
Mr. Byrne may continue to drive himself to radiotherapy as long as he is not taking codeine.
He should keep taking amlodipine 5 mg daily for his blood pressure.
Radiotherapy continues daily for 4 weeks.
"""


def _words(text: str) -> set[str]:
    return set(tokens(text))


def test_clauses_cut_at_sentences_commas_and_a_joining_word_before_a_question() -> None:
    assert clauses("Is Dad allowed drive? He won't take a lift off anyone.") == [
        "Is Dad allowed drive?", "He won't take a lift off anyone."]
    assert clauses("she has diabetes so when can she eat cake") == ["she has diabetes", "so when can she eat cake"]
    # "so sore" and "and stop" join no question: one clause
    assert clauses("why is his throat so sore swallowing") == ["why is his throat so sore swallowing"]
    q = "can i just breastfeed him and stop the bottles"
    assert clauses(q) == [q]
    assert clauses("  ") == []


@pytest.mark.parametrize("clause,expected", [
    ("Is Dad allowed drive himself in?", True),
    ("how much is dad allowed to drink in a day", True),
    ("so when can she eat cake", True),
    ("wen do i stop the drops", True),
    ("I was wondering if his blood count is low", True),
    ("Dad's asking if he's ok to have a beer", True),
    ("He's very independent and won't take a lift off anyone.", False),
    ("its been at her since the garden", False),
    ("she always liked one", False),
])
def test_a_clause_asks_by_its_mark_its_question_word_or_its_words_of_asking(clause: str, expected: bool) -> None:
    assert asks(clause) is expected


def test_asking_part_parts_the_ask_from_the_story() -> None:
    a = asking_part("Is Dad allowed drive himself in to the radiotherapy? He's very independent.")
    assert (a.asking, a.story, a.has_story) == ("Is Dad allowed drive himself in to the radiotherapy?",
                                                "He's very independent.", True)
    # every clause asks, or none tells itself apart: the whole question asks
    for q in ("why did they stop it, is it the kidneys?", "metformin stopped"):
        assert asking_part(q).asking == q and not asking_part(q).has_story


def test_story_pruned_keeps_the_ask_and_the_story_words_the_note_names() -> None:
    lex = load_lexicon()
    words = _words(NOTE)
    q = "Is Dad allowed to drive to the radiotherapy? He's very independent and won't take a lift off anyone."
    assert story_pruned(q, words, lex) == "Is Dad allowed to drive to the radiotherapy?"
    # the note names the amlodipine of the story, so it stays; "grand" and "always" name nothing in it
    q = "His amlodipine was always grand, why is he still taking it?"
    assert story_pruned(q, words, lex) == "His amlodipine was why is he still taking it?"
    # no story told apart, or a story whose every content word the note names: nothing to prune
    assert story_pruned("can he drive to radiotherapy", words, lex) is None
    assert story_pruned("He drives himself, can he keep driving to radiotherapy?", words | {"keep"}, lex) is None


def test_story_pruned_keeps_a_story_word_standing_for_the_notes_drug() -> None:
    lex = load_lexicon()
    lines = NOTE.splitlines()
    note = (lines, [_words(t) for t in lines])
    # misspelt by a letter, or heard by voice: read as the note's amlodipine only when the note's sentences are given
    for drug in ("amlodepine", "am low dip een"):
        q = f"His {drug} was always grand, why is he still taking it?"
        assert story_pruned(q, _words(NOTE), lex, note) == f"His {drug} was why is he still taking it?"
        assert story_pruned(q, _words(NOTE), lex) == "why is he still taking it?"


def test_story_weighted_averages_the_logits() -> None:
    assert story_weighted(0.2, 0.8, 0.5) == pytest.approx(0.5)
    assert story_weighted(0.2, 0.8, 0.0) == pytest.approx(0.2)
    assert story_weighted(0.2, 0.8, 1.0) == pytest.approx(0.8)
    # a quarter of the way in logits: logit 0.3 = -0.847, logit 0.9 = 2.197 -> -0.086
    assert story_weighted(0.3, 0.9, 0.25) == pytest.approx(1 / (1 + math.exp(0.75 * 0.8473 - 0.25 * 2.1972)), abs=1e-4)
    assert 0 < story_weighted(0.0, 1.0, 0.5) < 1  # clipped, no infinities


def test_the_typed_model_weighs_a_pruned_row() -> None:
    model = typed.load_typed()
    row = np.linspace(0, 1, len(typed.FEATURES))
    other = row[::-1].copy()
    assert model.probability(row, None) == model.probability(row)
    assert model.probability(row, other) == pytest.approx(story_weighted(model.probability(row),
                                                                         model.probability(other)))


def _confidence(question: str, weight: float, monkeypatch: pytest.MonkeyPatch) -> float:
    monkeypatch.setattr(typed, "STORY_WEIGHT", weight)
    # the model's P itself: the confidence shown is kept at the review level or above when the first line gives the
    # asked fact (here a cause), which would hide the weighting measured here
    monkeypatch.setattr(ask, "shown_confidence", lambda model, p, flagged, confidence, ruled=False: confidence)
    return archehr.answer(NOTE, question, splitter="rules").confidence


def test_a_story_the_note_has_no_words_for_weighs_half(monkeypatch: pytest.MonkeyPatch) -> None:
    # a story about the neighbours drags an ask the note answers down; the weight takes it half way back
    q = "Can he drive himself to radiotherapy? He is very independent and hates asking the neighbours."
    whole, half, ask = (_confidence(q, w, monkeypatch) for w in (0.0, 0.5, 1.0))
    assert whole < half < ask
    # (whichever way a story moves the confidence, the weighted one lies between the whole and the ask: the
    # fitted model may raise a why question's confidence a little for a story, as it does for this one)
    q = "Why is he still taking amlodipine? His pressure was always grand according to the chemist."
    whole, half, ask = (_confidence(q, w, monkeypatch) for w in (0.0, 0.5, 1.0))
    assert min(whole, ask) < half < max(whole, ask)
    # a question with no story is scored as before, whatever the weight
    plain = "Can he drive himself to radiotherapy?"
    assert _confidence(plain, 0.0, monkeypatch) == _confidence(plain, 0.5, monkeypatch)


def test_the_ask_stands_apart_unless_it_points_back_into_the_story() -> None:
    assert asking_part("Can he drive to radiotherapy? He won't take a lift off anyone.").apart == (
        "Can he drive to radiotherapy?")
    assert asking_part("He won't take a lift off anyone, is that ok?").apart is None
    assert asking_part("Her friend is on Plaquenil, has she been put on that one too?").apart is None
    assert asking_part("Can he drive to radiotherapy?").apart is None  # no story


def _types(question: str) -> tuple[object, object]:
    from archehr.answerability.kinds import answer_types
    from archehr.answerability.review import asked_apart
    from archehr.data.note_split import note_case

    case, split = note_case(NOTE, question, splitter="rules")
    types = answer_types(case, load_lexicon())
    return types, asked_apart(types, question, split)


def test_the_fact_rules_read_the_medicines_and_activities_the_ask_names() -> None:
    # the lift of the story is no activity asked about: the rule that flags an activity the note never names is
    # left to the asking clause, which names none
    whole, asked = _types("Can he drive himself to radiotherapy? He won't take a lift off anyone.")
    assert whole.missing_activities and not asked.missing_activities
    # swimming asked about, in the ask or in a story the ask points back to: still an activity the note never names
    for q in ("Can he drive himself to radiotherapy and go swimming after?",
              "He loves swimming at the lido, is that ok with the radiotherapy?"):
        whole, asked = _types(q)
        assert whole.missing_activities and asked.missing_activities
    # a medicine the story names that the note never does, with an ask of its own: not asked about
    whole, asked = _types("Why is he still taking amlodipine? His brother is on bisoprolol.")
    assert whole.missing_drugs and not asked.missing_drugs


@pytest.mark.parametrize("clause", [
    "I should be grateful to know for how long she keeps the patch on",
    "My son wishes to know what the scan showed",
    "I would be obliged if you could confirm the date of the next visit",
    "Kindly let me know when the dressing is changed",
    "I should like to be sure for how many days he takes them",
])
def test_a_letters_polite_ask_asks(clause: str) -> None:
    assert asks(clause)


def test_a_relative_or_statement_clause_inside_a_written_sentence_does_not_ask() -> None:
    letter = ("Dear Sir, I write for my brother Albert, who was sent home on Friday with a new inhaler. "
              "His heart tablet, the blue one, has been stopped, which has worried him. "
              "I should be grateful to know the reason for this.")
    part = asking_part(letter)
    assert part.asking == "I should be grateful to know the reason for this."
    assert "who was sent home" in part.story and "has been stopped" in part.story


def test_unpunctuated_texting_keeps_its_second_ask() -> None:
    # no full stop: "which side ..." and "is it ok ..." still ask as before
    assert asking_part("she got a new cream, which side does it go on").story == "she got a new cream"
    assert asks("was everything ok", opens=True)
    assert not asks("has been stopped", opens=False)


def test_a_long_letters_how_long_reads_its_topic_from_the_asking_clauses_too() -> None:
    # the greeting and asides name much the note never speaks of: the duration line's share of the whole question
    # is small, its share of the asking clause is not, and the fact rule reads the larger
    letter = ("Dear Sir or Madam, I write on behalf of my husband Wilfred, who enjoys his allotment and his "
              "crossword puzzles enormously. I should be grateful to know for how many weeks the radiotherapy "
              "continues, as our grandson wishes to arrange his holiday from Inverness.")
    whole, asked = _types(letter)
    assert asked.best_typed >= whole.best_typed
    assert asked.best_typed >= 0.2
    # a short question telling no story is read as it is
    whole, asked = _types("How many weeks does the radiotherapy continue?")
    assert asked.best_typed == whole.best_typed


@pytest.mark.parametrize("message,asking", [
    # a relative's run-on message: the question comes after a long story with no stop before it
    ("my nephew has the big match away in leeds on saturday and his dad is fretting about the long drive "
     "is he allowed to travel that far yet", "is he allowed to travel that far yet"),
    ("grandad came home on the bus yesterday and the tablets in the bag are a different colour to before "
     "how many days does he take the new ones for", "how many days does he take the new ones for"),
    ("she had the second jab in her tummy this afternoon and it stings like mad and she just wants to know "
     "how long she keeps having them", "and she just wants to know how long she keeps having them"),
])
def test_a_question_buried_in_a_run_on_message_is_told_apart(message: str, asking: str) -> None:
    part = asking_part(message)
    assert part.asking == asking and part.has_story


@pytest.mark.parametrize("message", [
    "the eye drops how long for",  # the topic put first: a short lead stays with its question
    "That is how long the course of tablets usually takes for most people I know.",  # a written statement
    # a preposition stays with its question
    "my dad keeps on asking the nurses about how long he has to take the tablets after the knee operation",
])
def test_a_short_lead_or_a_written_statement_is_not_cut(message: str) -> None:
    assert not asking_part(message).has_story
