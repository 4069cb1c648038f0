"""The everyday lexicon's words: British spellings, generic names as notes write them, and what a patient's
word covers (a named drug its own names before its class; a specific word not a general one)."""

from __future__ import annotations

import pytest

from archehr.answerability.features import question_concepts
from archehr.glossary import load_lexicon, parse_glossary, with_british_spellings
from archehr.glossary.drugs import as_notes_write
from archehr.glossary.spelling import british_variants
from archehr.relevance.text import tokens


@pytest.mark.parametrize(("word", "british"), [
    ("hemoglobin", ["haemoglobin"]),
    ("anemia", ["anaemia"]),
    ("hyperkalemia", ["hyperkalaemia"]),
    ("edema", ["oedema"]),
    ("sleep apnea", ["sleep apnoea"]),
    ("ferrous sulfate", ["ferrous sulphate"]),
    ("cesarean section", ["caesarean section"]),
    ("immunization", ["immunisation"]),
    ("pediatric hematology", ["paediatric haematology"]),
])
def test_british_variants(word: str, british: list[str]) -> None:
    assert british_variants(word) == british


@pytest.mark.parametrize("word", ["chemo", "hemicolectomy", "systemic", "them", "size", "haemoglobin", ""])
def test_british_variants_leave_other_words(word: str) -> None:
    assert british_variants(word) == []


def test_with_british_spellings_adds_expansions_and_terms() -> None:
    g = parse_glossary("term\tkind\texpansions\nblood count\tlay\themoglobin; wbc\ndiarrhea\tlay\tloose stools\n"
                       "diarrhoea\tlay\tthe runs\n")
    g.version = "v"
    out = with_british_spellings(g)
    assert out.get("blood count").expansions == ("hemoglobin", "haemoglobin", "wbc")
    # a British term the file already has keeps its own line
    assert out.get("diarrhoea").expansions == ("the runs",)
    assert len(out) == 3
    assert out.version and out.version != g.version


def test_with_british_spellings_adds_a_british_term() -> None:
    g = parse_glossary("term\tkind\texpansions\nedema\tlay\tswelling\n")
    out = with_british_spellings(g)
    assert out.get("oedema").expansions == ("swelling",)
    assert [e.term for e in out.matches("Oedema of both legs")] == ["oedema"]


def test_lexicon_has_british_spellings() -> None:
    lex = load_lexicon()
    assert "haemoglobin" in lex.get("blood count").expansions


@pytest.mark.parametrize(("generic", "written"), [
    ("risankizumab-rzaa", "risankizumab"),
    ("polyethylene glycol 3350", "polyethylene glycol"),
    ("goserelin implant", "goserelin"),
    ("thyroxine", "levothyroxine"),
    ("valsartan and sacubitril", "sacubitril-valsartan"),
    ("tacrolimus", "tacrolimus"),
    ("nor-noha", "nor-noha"),  # a short name before the hyphen: not a biologic's suffix
    ("ppar-beta", "ppar-beta"),
])
def test_as_notes_write(generic: str, written: str) -> None:
    assert as_notes_write(generic) == written


def _covered(question: str, surface: str, note_words: str) -> bool:
    """Whether the question's concept `surface` (its stemmed words) is covered by a sentence of `note_words`."""
    words = set(tokens(note_words))
    for c in question_concepts(question, load_lexicon()):
        if c.surface == tuple(tokens(surface)):
            return c.covered_by(words)
    raise AssertionError(f"no concept {surface!r} in {question!r}")


def test_a_named_drug_is_not_covered_by_another_member_of_its_class() -> None:
    q = "is it ok if i take aleve instead of the motrin they gave me"
    assert not _covered(q, "aleve", "Ibuprofen 600 mg every 8 hours as needed")
    assert _covered(q, "aleve", "Avoid naproxen while on warfarin")
    assert _covered(q, "aleve", "Avoid NSAIDs")
    assert _covered(q, "motrin", "Ibuprofen 600 mg every 8 hours as needed")


@pytest.mark.parametrize(("question", "surface", "note"), [
    ("When could they do the electric shock thing?", "electric shock", "A cardioversion may be considered."),
    ("why are they saying no nightcap before bed?", "nightcap", "Avoid alcohol within 3 hours of bedtime."),
    ("can my mom still go to her zumba class", "zumba", "No strenuous exercise until reviewed."),
    ("why did they stop her sleeping tablet?", "sleeping tablet", "Her zolpidem was stopped."),
    ("was my thyroid biopsy cancer or not", "cancer", "Your biopsy result is Bethesda II, benign."),
    ("when do the staples come out", "staples", "Clips out at the practice nurse on day 10."),
    ("can I get the whooping cough jab", "whooping cough jab", "Tdap was given on 12/01."),
])
def test_lay_words_reach_the_notes_words(question: str, surface: str, note: str) -> None:
    assert _covered(question, surface, note)


@pytest.mark.parametrize(("question", "surface", "note"), [
    ("what did the hepatitis blood test show", "hepatitis", "Ultrasound showed a mildly fatty liver."),
    ("was the eye pressure ok", "eye pressure", "Blood pressure 128/76."),
    ("my husband wants to play golf", "golf", "Sexual activity may resume after 4 weeks."),
    ("did they give her the pneumonia jab", "pneumonia jab", "Pneumococcal antigen test negative."),
])
def test_a_specific_word_is_not_covered_by_a_general_one(question: str, surface: str, note: str) -> None:
    assert not _covered(question, surface, note)
