"""A patient's shorthand for the note's drugs and tests (`archehr.answerability.shorthand`) and the class layer's
form words (`archehr.glossary.forms`), on invented notes and questions."""

from __future__ import annotations

import pytest

import archehr
from archehr.answerability.features import Concept
from archehr.answerability.kinds import sentence_words
from archehr.answerability.shorthand import english_words, shortened_drug, with_shorthand
from archehr.glossary import SHORT_WORDS_PATH, load_lexicon
from archehr.glossary.forms import FORMS

ENGLISH = english_words(load_lexicon())
FLUDRO = {"fludrocortisone": "fludrocortisone"}
THYROID = {"levothyroxine": "levothyroxine", "synthroid": "levothyroxine"}


@pytest.mark.parametrize(("word", "drugs", "words", "want"), [
    ("fludro", FLUDRO, frozenset(), "fludrocortisone"),
    ("levo", THYROID, frozenset(), "levothyroxine"),
    ("synth", THYROID, frozenset(), "levothyroxine"),  # a brand's start: the generic it names
    ("pred", {"prednisolone": "prednisolone"}, frozenset({"prednisolon", "daily"}), "prednisolone"),
    ("oxy", {"oxycodone": "oxycodone"}, frozenset({"oxycodon"}), "oxycodone"),  # three letters, unique
    # a combination: "amox" is the part it begins, whether the note writes it alone or combined
    ("amox", {"amoxicillin-clavulanate": "amoxicillin-clavulanate", "amoxicillin": "amoxicillin",
              "clavulanate": "clavulanate"}, frozenset(), "amoxicillin"),
    ("methylpred", {"methylprednisolone": "methylprednisolone"}, frozenset(), "methylprednisolone"),
])
def test_a_word_beginning_one_note_drug_stands_for_it(word: str, drugs: dict[str, str], words: frozenset[str],
                                                        want: str) -> None:
    assert shortened_drug(word, drugs, words, ENGLISH) == want


@pytest.mark.parametrize(("word", "drugs", "words"), [
    ("levo", {**THYROID, "levofloxacin": "levofloxacin"}, frozenset()),  # two drugs: ambiguous
    ("pre", {"prednisolone": "prednisolone"}, frozenset()),  # English ("pre-op"), not prednisolone
    ("pred", {"prednisolone": "prednisolone"}, frozenset({"predict", "fev1"})),  # begins another note word
    ("oxy", {"oxycodone": "oxycodone"}, frozenset({"oxygen", "oxycodon"})),  # "oxygen" too
    ("met", {"metformin": "metformin"}, frozenset()),  # "I met the nurse"
    ("car", {"carvedilol": "carvedilol"}, frozenset()),  # "my car"
    ("form", {"formoterol": "formoterol"}, frozenset()),
    ("test", {"testosterone": "testosterone"}, frozenset()),
    ("done", {"donepezil": "donepezil"}, frozenset()),
    ("ox", {"oxycodone": "oxycodone"}, frozenset()),  # two letters: too short
    ("fludrocortisone", FLUDRO, frozenset()),  # the whole name: nothing shortened
    ("fludro", FLUDRO, frozenset({"fludro"})),  # a word the note itself uses
    ("fludro", {}, frozenset()),  # a note naming no drug
])
def test_near_misses_stand_for_no_drug(word: str, drugs: dict[str, str], words: frozenset[str]) -> None:
    assert shortened_drug(word, drugs, words, ENGLISH) is None


def test_short_words_are_lower_case_single_words_listed_once() -> None:
    words = [w for w in SHORT_WORDS_PATH.read_text(encoding="utf-8").splitlines() if w and not w.startswith("#")]
    assert words and len(words) == len(set(words))
    assert all(w.isalpha() and w.islower() and 3 <= len(w) <= 4 for w in words)


def _concepts(question: str, sentences: list[str]) -> list[Concept]:
    from archehr.answerability.kinds import asked_concepts

    lex = load_lexicon()
    words = [set(sentence_words(t, lex)) for t in sentences]
    return with_shorthand(asked_concepts(question, lex), question, sentences, words, lex)


def test_two_words_joined_are_one_drug() -> None:
    note = ["Methylprednisolone 1 g IV daily for 3 days.", "Then oral steroids."]
    got = _concepts("how many days of the methyl pred drip", note)
    joined = [c for c in got if c.surface == ("methyl", "pred")]
    assert joined and ("methylprednisolon",) in joined[0].phrases
    assert ("pred",) not in [c.surface for c in got]


def test_words_for_a_measured_value_are_no_topic_of_their_own() -> None:
    note = ["Tacrolimus trough 9.1 today.", "TSH 8.2 (H)."]
    assert ("level",) not in [c.surface for c in _concepts("when is his next tac levels", note)]
    assert ("hi",) not in [c.surface for c in _concepts("was my tsh hi", note)]
    # a note saying "level" names it: the word is kept as the note's own
    kept = _concepts("what was his digoxin level", ["Digoxin level 2.8, held."])
    assert ("level",) in [c.surface for c in kept]


def test_a_class_takes_any_form_word() -> None:
    lex = load_lexicon()
    for text in ("the thyroid tablet", "his thyroid meds", "the thyroid tabs"):
        got = lex.matches(text)
        assert got[0].kind == "class" and "levothyroxine" in got[0].expansions, text
    assert "tabs" in FORMS and "tablet" in FORMS
    # an entry the files write keeps its own expansions ("thyroid pill" is written; its alias is not a new kind)
    assert lex.get("thyroid pill") is not None and lex.get("thyroid pill").kind == "class"


NOTE = """Discharge summary

Hospital course: Admitted with dizziness and low blood pressure on standing.
Cortisol was low; endocrinology reviewed.

Medications:
1. Hydrocortisone 10 mg morning, 5 mg afternoon (unchanged).
2. Fludrocortisone: increase from 50 micrograms to 100 micrograms once daily.
3. Atorvastatin 20 mg at night (unchanged).

Follow-up: endocrine clinic in 6 weeks.
"""


def test_a_shortened_drug_name_finds_its_sentence() -> None:
    r = archehr.answer(NOTE, "did they increase my fludro", splitter="rules")
    assert not r.abstained and "Fludrocortisone" in r.lines[0].text


def test_a_common_word_beginning_a_drug_name_does_not_find_it() -> None:
    # "ator" is no word here; "pre" and "hydro" are English or begin more than one note word
    lex = load_lexicon()
    texts = [ln for ln in NOTE.splitlines() if ln.strip()]
    words = frozenset(t for ln in texts for t in sentence_words(ln, lex))
    drugs = {"hydrocortisone": "hydrocortisone", "fludrocortisone": "fludrocortisone", "atorvastatin": "atorvastatin"}
    assert shortened_drug("pre", drugs, words, ENGLISH) is None
    assert shortened_drug("hydro", drugs, words, ENGLISH) == "hydrocortisone"
    assert shortened_drug("ator", drugs, words, ENGLISH) == "atorvastatin"
    assert shortened_drug("cort", drugs, words, ENGLISH) is None  # begins "cortisol", a note word, too


def test_a_test_takes_any_test_word_with_its_heads_expansions() -> None:
    lex = load_lexicon()
    got = lex.matches("when do i need my sugar blood test again")
    assert [e.term for e in got] == ["sugar blood test"] and "a1c" in got[0].expansions
    bloods = lex.get("thyroid bloods")
    assert bloods is not None and "tsh" in bloods.expansions
    # whose test, not what is tested: "his level" is no test of "his"
    assert lex.get("his level") is None and lex.get("the levels") is None


def test_hi_after_a_word_is_high_and_a_greeting_is_not() -> None:
    from archehr.answerability.cues import plain_question
    from archehr.answerability.kinds import ask_kind

    assert plain_question("was my tsh hi") == "was my tsh high"
    assert ask_kind("was my tsh hi") == "test_result"
    assert plain_question("Hi, my dad has a new spray") == "Hi, my dad has a new spray"
    assert plain_question("ok so hi, when is it") == "ok so hi, when is it"
