"""Patients' words for things the drug data and the lexicon used to miss: a drug's first c/ch/k heard as one sound
(`sounds_alike.drug_key`), the team's brand layer (`archehr/glossary/brands.tsv`), and lexicon classes (an
injection as a jab, a syringe driver as a pump, alcoholic drinks, catching an illness, supplement drinks, a urine
strainer, an eye chart, stone as a body weight)."""

from __future__ import annotations

import pytest

from archehr.answerability.sounds_alike import drug_key, heard_names, note_names, sound_key
from archehr.glossary import load_lexicon
from archehr.glossary.drugs import brand_layer, drug_names


def test_a_drugs_first_c_ch_or_k_is_one_sound() -> None:
    assert drug_key("kefalexin") == drug_key("cefalexin") == drug_key("cephalexin") == "kafalaksan"
    assert drug_key("chlorphenamine") == sound_key("chlorphenamine")  # a hard c is a k already
    assert drug_key("sertraline") == sound_key("sertraline")  # a first s stays an s
    assert sound_key("cefalexin") == "safalaksan"  # an ordinary word's soft c keeps its sound


def test_kefalexin_is_heard_as_the_notes_cefalexin() -> None:
    lex = load_lexicon()
    note = ("She was started on cefalexin 125 mg three times a day for 7 days.",)
    heard = heard_names("how many days of the kefalexin are left", note_names(note, lex), lex)
    assert [(h.span, h.name.name) for h in heard] == [("kefalexin", "cefalexin")]


def test_the_brand_layer_gives_combination_and_uk_brands_their_generic() -> None:
    layer = brand_layer()
    assert layer["sinemet"] == layer["co-careldopa"] == layer["madopar"] == "levodopa"
    assert layer["co-amoxiclav"] == layer["augmentin"] == "amoxicillin-clavulanate"
    assert all(name == name.lower() and generic == generic.lower() for name, generic in layer.items())
    assert "name" not in layer  # the header is not a brand
    names = drug_names()
    assert all(names[n] == g for n, g in layer.items())  # the layer wins over the package


@pytest.mark.parametrize(("question", "term", "expansion"), [
    ("when is his next hormone jab due", "hormone jab", "goserelin"),
    ("did she get her vitamin k jab", "vitamin k jab", "vitamin k"),
    ("why does she need the jabs", "jabs", "injection"),
    ("have they put the morphine up in his pump", "pump", "syringe driver"),
    ("can he have his couple of whiskies", "whiskies", "alcohol"),
    ("is a gin and tonic ok", "gin and tonic", "alcohol"),
    ("how long am i contagious for", "contagious", "infectious"),
    ("why is he on the milkshake drinks", "milkshake drinks", "oral nutritional supplement"),
    ("why do i have to pee through a sieve", "sieve", "strainer"),
    ("they did an eye chart test", "eye chart test", "visual acuity"),
    ("can he lift the little one, she is about 2 stone", "2 stone", "weight"),
])
def test_patients_words_reach_the_words_a_note_uses(question: str, term: str, expansion: str) -> None:
    matched = {e.term: e for e in load_lexicon().matches(question)}
    assert term in matched
    assert expansion in matched[term].expansions


def test_alcoholic_drinks_are_read_as_the_alcohol_activity_and_a_kidney_stone_is_not_a_weight() -> None:
    lex = load_lexicon()
    assert {e.kind for e in lex.matches("a small sherry before dinner")} == {"activity"}
    assert {e.term for e in lex.matches("did i pass the stone")} == {"stone"}
    assert "weight" not in lex.get("stone").expansions
