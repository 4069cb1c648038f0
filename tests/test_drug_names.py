"""A drug's names in patients' words: brand and generic through one lookup (`drugs.generic_of`) wherever drugs are
matched, a generic written as notes write it (no salt, no bracketed qualifier), a first x heard as z, and street,
slang and everyday words for substances (`everyday.tsv`). The sentences are invented for these tests."""

from __future__ import annotations

import importlib.util

import pytest

from archehr.answerability.asked_for import asked_concepts, medicines_asked
from archehr.answerability.features import question_concepts
from archehr.answerability.kinds import sentence_words
from archehr.answerability.sounds_alike import drug_key, sound_key
from archehr.glossary import load_lexicon
from archehr.glossary.drugs import as_notes_write, brand_layer, drugs_in, generic_of
from archehr.relevance.text import tokens

NEEDS_DRUGS = pytest.mark.skipif(importlib.util.find_spec("drug_named_entity_recognition") is None,
                                 reason="drug-named-entity-recognition is not installed (umls extra)")


@pytest.mark.parametrize(("generic", "written"), [
    ("propranolol (cardiovascular)", "propranolol"),  # a bracketed qualifier
    ("insulin glargine (rdna origin)", "insulin glargine"),
    ("clorazepate dipotassium", "clorazepate"),  # a salt after a one-word drug name
    ("lisdexamfetamine dimesylate", "lisdexamfetamine"),
    ("nicotine gum", "nicotine"),  # a dosage form
    ("calcium carbonate", "calcium carbonate"),  # an ion's salt is the drug itself
    ("dimethyl fumarate", "dimethyl fumarate"),  # fumarate is not read as a salt: "dimethyl" is no drug
    ("thyroid (usp)", "thyroid (usp)"),  # what would be left is an everyday word: kept whole
])
def test_a_generic_is_written_as_notes_write_it(generic: str, written: str) -> None:
    assert as_notes_write(generic) == written


def test_the_brand_layer_names_uk_irish_and_australian_benzodiazepines_and_opioid_substitution() -> None:
    layer = brand_layer()
    assert layer["ducene"] == layer["antenex"] == layer["valpam"] == layer["anxicalm"] == "diazepam"
    assert layer["serepax"] == "oxazepam"
    assert layer["subutex"] == layer["buvidal"] == layer["espranor"] == layer["suboxone"] == "buprenorphine"
    assert layer["physeptone"] == layer["biodone"] == "methadone"
    # the one lookup: any case, a plural read as its singular, no other word
    assert generic_of("DUCENE") == generic_of("Ducenes") == "diazepam"
    assert generic_of("diazepam") is None  # a generic name is its own
    assert generic_of("staying") is None


def test_drugs_in_names_every_drug_by_any_of_its_names() -> None:
    assert drugs_in("Diazepam 5 mg at night; Subutex 8 mg daily.") == ["diazepam", "buprenorphine"]
    assert drugs_in("Review in two weeks.") == []


@NEEDS_DRUGS
def test_a_brand_asked_is_found_under_the_notes_generic_and_back() -> None:
    lex = load_lexicon()
    note = "Lorazepam 1 mg at night when needed."
    (c,) = [c for c in asked_concepts("can I still take my Ativan", lex) if c.surface == ("ativan",)]
    assert c.covered_by(set(sentence_words(note, lex)))
    # the note's brand covers the question's generic
    (g,) = [c for c in asked_concepts("can I still take my lorazepam", lex) if c.surface == ("lorazepam",)]
    assert g.covered_by(set(sentence_words("Ativan 1 mg at night when needed.", lex)))
    assert ("ativan",) in medicines_asked("can I still take my Ativan", lex)


@NEEDS_DRUGS
def test_a_question_concept_naming_a_brand_is_covered_by_its_generic() -> None:
    (c,) = [c for c in question_concepts("is the restoril staying") if c.surface == ("restoril",)]
    assert ("temazepam",) in c.phrases
    (c,) = [c for c in question_concepts("is the Ducene staying") if c.surface == ("ducen",)]
    assert ("diazepam",) in c.phrases  # the team's brand layer, through the same lookup


def test_a_first_x_sounds_as_z() -> None:
    assert drug_key("zanax") == drug_key("xanax") == sound_key("zanax")
    assert drug_key("zarelto") == drug_key("Xarelto")
    assert drug_key("cefalexin") == drug_key("kefalexin")  # the first c, ch or k still one sound


@pytest.mark.parametrize(("question", "term", "expansion"), [
    ("are his subs going up this week", "subs", "buprenorphine"),
    ("is the bupe helping", "bupe", "buprenorphine"),
    ("when do I pick up the done", "the done", "methadone"),
    ("is my done dose the same", "my done", "methadone"),
    ("can I have a few cans at the weekend", "a few cans", "alcohol"),
    ("is it ok to have a couple of tinnies", "tinnies", "alcohol"),
    ("can I go on the grog after this", "on the grog", "alcohol"),
    ("what about a few jars at the wedding", "few jars", "alcohol"),
    ("she has been taking xannies she got off a friend", "xannies", "alprazolam"),
    ("can I still get vallies", "vallies", "diazepam"),
    ("are tranquillisers safe with this", "tranquillisers", "temazepam"),
    ("what about the z drugs", "z drugs", "zopiclone"),
    ("can I still use my vape pen", "vape pen", "vaping"),
    ("is a spliff ok at night", "spliff", "cannabis"),
    ("can he keep his rollies", "rollies", "smoking"),
    ("does ecstasy mix with this tablet", "ecstasy", "recreational drugs"),
    ("can I use the nicotine gum", "nicotine gum", "nicotine replacement therapy"),
])
def test_street_and_everyday_words_reach_the_notes_words(question: str, term: str, expansion: str) -> None:
    matched = {e.term: e for e in load_lexicon().matches(question)}
    assert term in matched
    assert expansion in matched[term].expansions


@pytest.mark.parametrize(("question", "not_meant"), [
    ("she fell off the monkey bars", "alprazolam"),  # bars alone are not Xanax bars
    ("is there a crack in the bone", "cocaine"),  # a crack is a fracture
    ("can she still have a diet coke", "cocaine"),
    ("is the op done yet", "methadone"),  # done alone is done
    ("his knee joint is still sore", "cannabis"),
    ("can he go to the pub quiz", "alcohol"),
])
def test_everyday_english_is_not_read_as_a_substance(question: str, not_meant: str) -> None:
    words = {x for e in load_lexicon().matches(question) for x in e.expansions}
    assert not_meant not in words
    assert not_meant not in {t for x in words for t in (x, *tokens(x))}


@NEEDS_DRUGS
def test_the_lexical_p_reads_a_brand_as_the_notes_generic() -> None:
    from archehr.answerability.model import load_model
    from archehr.data.note_split import note_case

    note = ("Discharge medicines:\n"
            "Temazepam 10 mg at night for 7 days, then stop.\n"
            "Paracetamol 1 g four times a day when needed.\n")
    lexical = load_model("lexical")
    p_brand = lexical.probability(note_case(note, "how long do i take the restoril", splitter="rules")[0])
    p_generic = lexical.probability(note_case(note, "how long do i take the temazepam", splitter="rules")[0])
    assert p_brand == pytest.approx(p_generic)
