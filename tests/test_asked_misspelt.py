"""The asked thing's concepts read against the note's names (`asked_thing.kept_concepts` with the note): a medicine or
test the question misspells, shortens or splits ("trimethoprin", "potasium", "quor vexa") is found in the note's
sentences naming it, so the review rules read those sentences; a close spelling of one real drug is never another
real drug the note names ("hydroxyzine" is not hydralazine), nor a common word a drug ("morning", Motrin).

The notes are written for these tests (fictional), a few lines each.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from archehr.answerability.asked_detail import medicine_rows
from archehr.answerability.asked_fact import any_unsaid
from archehr.answerability.asked_thing import concept_rows, kept_concepts, misspelt_drugs
from archehr.answerability.misspelt import misspelt_drug, note_drug_names, other_drug
from archehr.answerability.sounds_alike import bracketed_names, heard_names, note_names
from archehr.glossary import load_lexicon
from archehr.relevance.text import stem_word

NEEDS_DRUGS = pytest.mark.skipif(importlib.util.find_spec("drug_named_entity_recognition") is None,
                                 reason="drug-named-entity-recognition is not installed (brand and generic names)")

UTI = ["Urine culture grew E. coli sensitive to trimethoprim.",
       "Start trimethoprim 200 mg twice a day for 7 days.",
       "Drink plenty of fluids and rest."]


def _rows_of(question: str, sentences: list[str], surface_start: str) -> np.ndarray:
    """The row of the question's concept whose first word begins `surface_start`."""
    lex = load_lexicon()
    named = concept_rows(question, sentences, lex)
    concepts = kept_concepts(question, lex, sentences)
    (k,) = [k for k, c in enumerate(concepts) if c.surface[0].startswith(surface_start)]
    return named[k]


@NEEDS_DRUGS
def test_a_misspelt_drug_names_the_notes_sentences_about_it() -> None:
    q = "how many days does he take the trimethoprin for"
    assert _rows_of(q, UTI, "trimethoprin").tolist() == [True, True, False]
    # the how-long rules now read the line giving its course: nothing unsaid
    lex = load_lexicon()
    assert not any_unsaid("how_long", q, UTI, ["p"] * 3, concept_rows(q, UTI, lex), lex)


@NEEDS_DRUGS
def test_without_the_note_the_concepts_are_the_questions_own() -> None:
    q = "how many days does he take the trimethoprin for"
    lex = load_lexicon()
    plain = kept_concepts(q, lex)
    read = kept_concepts(q, lex, UTI)
    assert [c.surface for c in plain] == [c.surface for c in read]
    assert ("trimethoprim",) in next(c for c in read if c.surface == ("trimethoprin",)).phrases
    assert ("trimethoprim",) not in next(c for c in plain if c.surface == ("trimethoprin",)).phrases


@NEEDS_DRUGS
def test_a_misspelt_drug_is_a_medicine_asked() -> None:
    q = "how much trimethoprin does he take"
    lex = load_lexicon()
    assert ("trimethoprin",) in misspelt_drugs(q, lex, UTI)
    assert medicine_rows(q, UTI, concept_rows(q, UTI, lex), lex).tolist() == [True, True, False]


def test_a_misspelt_test_names_its_result() -> None:
    sentences = ["Potassium 5.9 mmol/L (high).", "Repeat bloods in one week."]
    assert _rows_of("was his potasium too high", sentences, "potasium").tolist() == [True, False]


@NEEDS_DRUGS
def test_one_real_drug_is_not_another_spelt_alike() -> None:
    sentences = ["Hydralazine 25 mg three times a day for blood pressure.", "Keep your legs raised."]
    assert not _rows_of("can i take hydroxyzine for the itch", sentences, "hydroxyzin").any()
    assert other_drug("hydroxyzine", "hydralazine") and other_drug("quinine", "quinidine")
    assert misspelt_drug(stem_word("hydroxyzine"), "the hydroxyzine", note_drug_names(sentences)) == []


@NEEDS_DRUGS
def test_two_names_of_one_drug_are_one_drug() -> None:
    assert not other_drug("calcium", "calcium carbonate")  # one names the other in part
    assert not other_drug("trimethoprin", "trimethoprim")  # no drug's name: a misspelling
    assert not other_drug("zoloft", "sertraline")  # a brand and its generic


@NEEDS_DRUGS
def test_a_common_word_is_not_a_drug() -> None:
    sentences = ["Motrin 400 mg every 6 hours as needed for pain.", "Sling for comfort."]
    assert not _rows_of("can she have her mornin coffee before the surgery", sentences, "mornin").any()


@NEEDS_DRUGS
def test_a_bracketed_name_beside_a_drug_is_a_medicine() -> None:
    lex = load_lexicon()
    note = ("tenofovir/emtricitabine (Quorvexa) 1 tab by mouth daily, start Friday",
            "Quorvexa (tenofovir/emtricitabine) refilled for 30 days (important) with food",
            "Rest at home (comfortable) for a week")
    assert bracketed_names(note, lex) == ["quorvexa"]
    heard = heard_names("when do i start the quor vexa", note_names(note, lex), lex)
    assert [(h.span, h.name.name) for h in heard] == [("quor vexa", "quorvexa")]
    # without a drug beside it, or written without a capital (the note's ordinary word), a bracketed word is nobody's
    assert bracketed_names(("Review in clinic (Quorvexa) next week",), lex) == []
    assert bracketed_names(("Take tenofovir 245 mg (breakfast) and rest (unchanged)",), lex) == []


@NEEDS_DRUGS
def test_the_review_reads_a_misspelt_drugs_course() -> None:
    from archehr.answerability.review import unsaid_in_note
    from archehr.data.note_split import split_note

    split = split_note("Plan:\nStart trimethoprim 200 mg twice a day for 7 days.\nDrink plenty of fluids.\n")
    first = next(s.text for s in split.sentences if "trimethoprim" in s.text)
    assert not unsaid_in_note("how_long", "how many days does he take the trimethoprin for", split, first)
    # nor is it read as a drug of the note merely sharing its first letters
    assert not _rows_of("how many days does he take the trimethoprin for",
                        ["Start trimipramine 25 mg at night.", "Drink plenty of fluids."], "trimethoprin").any()
