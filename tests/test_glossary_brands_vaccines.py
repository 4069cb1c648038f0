"""Brands from many countries reach their drug class (the brand layer names the generic, the class layer lists the
generic), a vaccine's lay terms read every word for a vaccine, and everyday lay words name what notes write. All on
invented lines."""

from __future__ import annotations

import importlib.util

import pytest

from archehr.answerability.asked_for import medicines_asked
from archehr.answerability.kinds import answer_types
from archehr.data.note_split import note_case
from archehr.glossary import load_lexicon
from archehr.glossary.drugs import generic_of

# some brands are the drug-name package's (the brand layer holds those it lacks)
NEEDS_DRUGS = pytest.mark.skipif(importlib.util.find_spec("drug_named_entity_recognition") is None,
                                 reason="drug-named-entity-recognition is not installed (umls extra)")


@NEEDS_DRUGS
@pytest.mark.parametrize(("brand", "a_class"), [
    ("claravis", "acne pill"),  # US isotretinoin
    ("truvada", "prep pill"),  # PrEP, HIV prevention
    ("piriton", "antihistamine"),  # UK chlorphenamine
    ("grastek", "allergy immunotherapy"),  # grass pollen tablet
    ("thyronorm", "thyroid pill"),  # India
    ("caltrate", "calcium tablets"),  # Australia
    ("ferrograd", "iron pill"),  # UK
    ("stemetil", "nausea medicine"),  # UK prochlorperazine
    ("plasil", "nausea medicine"),  # Philippines, Latin America metoclopramide
    ("solian", "antipsychotic"),  # amisulpride
    ("concerta", "adhd medicine"),  # methylphenidate
    ("camcolit", "mood stabilizer"),  # UK lithium
    ("microgynon", "contraceptive pill"),  # UK, Australia
    ("sintrom", "blood thinner"),  # acenocoumarol (Europe, Latin America)
    ("acitrom", "blood thinner"),  # India acenocoumarol
    ("biogesic", "pain medicine"),  # Philippines paracetamol
    ("panado", "pain medicine"),  # South Africa paracetamol
    ("diamicron", "diabetes pill"),  # gliclazide
    ("coversyl", "blood pressure pill"),  # perindopril
])
def test_a_brand_reaches_its_class(brand: str, a_class: str) -> None:
    lexicon = load_lexicon()
    assert a_class in lexicon.classes_in(generic_of(brand) or brand)


def test_a_vaccine_jab_finds_the_notes_booster() -> None:
    note = "Seen for travel advice.\n\nHep B booster not needed as the antibody level shows she is immune.\n\n" \
           "Blood pressure 124/80."
    types = answer_types(note_case(note, "do i need another hep b jab")[0], load_lexicon())
    assert types.topic[1] > 0 and types.topic[0] == 0 and types.topic[2] == 0
    assert types.missing_drugs == 0


@pytest.mark.parametrize("question", ["do i need the flu jab", "when is my next hep b jab", "is the covid shot due"])
def test_a_vaccine_is_no_medicine_the_note_must_name(question: str) -> None:
    # a vaccine is asked by its disease; "booster" is a dose, not a drug class
    assert medicines_asked(question, load_lexicon()) == set()


def test_a_vaccine_term_reads_every_word_for_a_vaccine() -> None:
    lexicon = load_lexicon()
    rabies = lexicon.get("rabies jab")
    assert rabies is not None and "rabies booster" in rabies.expansions and "rabies vaccination" in rabies.expansions
    flu = lexicon.get("flu jab")
    assert flu is not None and "influenza immunisation" in flu.expansions
    # an injection that is no vaccine keeps its own words
    insulin = lexicon.get("insulin shot")
    assert insulin is not None and not any("vaccin" in x for x in insulin.expansions)


@pytest.mark.parametrize(("question", "note_word"), [
    ("whats the muscle enzyme level now", "ck"),
    ("when is the cancer marker blood test again", "cea"),
    ("why are they putting me under for the knee", "anaesthetic"),
    ("is the virus level ok now", "viral load"),
    ("when will they know if its gone for good", "svr"),
    ("had it burst or what", "perforated"),
    ("when do i go back on the blood pressure one", "ramipril"),
    ("can he get an uber home after", "taxi"),
    ("is the anti craving pill started yet", "naltrexone"),
])
def test_everyday_words_name_what_a_note_writes(question: str, note_word: str) -> None:
    assert note_word in {x for e in load_lexicon().matches(question) for x in e.expansions}
