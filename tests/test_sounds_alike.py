"""Drug names and clinical words heard or misspelt (`archehr.answerability.sounds_alike`): the sound key, the
matching of question words and spans to the note's names, the guards against common words, and the concepts
`kinds.answer_types` reads."""

from __future__ import annotations

import importlib.util

import pytest

from archehr.answerability.features import Concept
from archehr.answerability.sounds_alike import (
    allowed_distance,
    edit_distance,
    heard_names,
    note_names,
    sound_key,
    with_heard,
)
from archehr.glossary import Glossary, GlossaryEntry, load_lexicon
from archehr.relevance.text import tokens

NEEDS_DRUGS = pytest.mark.skipif(importlib.util.find_spec("drug_named_entity_recognition") is None,
                                 reason="drug-named-entity-recognition is not installed (brand and generic names)")


def _heard(question: str, note: list[str], lexicon: Glossary | None = None) -> list[tuple[str, str]]:
    lex = lexicon if lexicon is not None else load_lexicon()
    return [(h.span, h.name.name) for h in heard_names(question, note_names(tuple(note), lex), lex)]


@pytest.mark.parametrize(("a", "b"), [
    ("by so pro lol", "bisoprolol"), ("a camp rosate", "acamprosate"), ("augmenten", "augmentin"),
    ("fenytoin", "phenytoin"), ("sinny met", "sinemet"), ("lasics", "lasix"), ("supository", "suppository"),
])
def test_words_that_sound_alike_key_alike(a: str, b: str) -> None:
    assert sound_key(a) == sound_key(b)


def test_the_sound_key_by_hand() -> None:
    # b, i->a, s, o->a, p, r, o->a, l, o->a, l
    assert sound_key("bisoprolol") == "basapralal"
    # ph->f, y->a, a soft c is s, a silent final e dropped, a hard c is k
    assert sound_key("cycle") == "sakl"
    assert sound_key("capsule") == "kapsal"
    assert sound_key("hhh") == "h"  # the first h kept, the others dropped


def test_edit_distance_and_its_limit() -> None:
    assert edit_distance("pantsaprasal", "pantaprasal", 2) == 1
    assert edit_distance("kitten", "sitting", 3) == 3
    assert edit_distance("abc", "abcdef", 1) == 2  # lengths 3 apart: beyond the limit, limit + 1
    assert edit_distance("", "", 0) == 0


def test_the_allowed_distance_grows_with_the_name_and_shrinks_for_joined_words() -> None:
    assert [allowed_distance("a" * n) for n in (5, 6, 10, 11)] == [0, 1, 1, 2]
    assert [allowed_distance("a" * n, words=2) for n in (8, 9, 11, 12)] == [0, 1, 1, 2]


@NEEDS_DRUGS
@pytest.mark.parametrize(("question", "note", "span", "name"), [
    ("why has dad been started on by so pro lol", "Bisoprolol 2.5 mg once daily STARTED.", "by so pro lol",
     "bisoprolol"),
    ("what is the a camp rosate for", "Acamprosate 666 mg three times a day.", "a camp rosate", "acamprosate"),
    ("there's a pants a prazole on my list", "Pantoprazole 40 mg daily.", "pants a prazole", "pantoprazole"),
    ("the letter says done a pezzle", "Start donepezil 5 mg at night.", "done a pezzle", "donepezil"),
    ("how long do i take the colchisine", "Colchicine 500 micrograms twice a day.", "colchisine", "colchicine"),
])
def test_a_drug_name_split_or_misspelt_is_heard_as_the_notes_drug(question: str, note: str, span: str,
                                                                   name: str) -> None:
    assert _heard(question, [note]) == [(span, name)]


def test_a_misspelt_brand_is_heard_as_the_lexicon_term_whose_generic_the_note_names() -> None:
    # "zaugmentin": a brand the drug data (package and brand layer) do not know, only this lexicon
    lex = Glossary([GlossaryEntry("zaugmentin", "lay", ("amoxicillin", "co-amoxiclav"), 1),
                    GlossaryEntry("sinemet", "lay", ("levodopa", "carbidopa-levodopa"), 2)])
    note = ["Co-amoxiclav 625 mg three times a day, 4 more days.", "Carbidopa-levodopa 25/100 mg at 7am."]
    assert _heard("zaugmenten how many more days i must take it?", note, lex) == [("zaugmenten", "zaugmentin")]
    assert _heard("what times do i take my sinny met now", note, lex) == [("sinny met", "sinemet")]
    # the lexicon term stands for what the note names of it (co-amoxiclav, whose generic the brand layer gives)
    names = {n.name: n for n in note_names(tuple(note), lex).names}
    assert names["zaugmentin"].phrases == frozenset({("co", "amoxiclav"), ("amoxicillin",)})
    assert names["zaugmentin"].drug


def test_a_misspelt_word_of_the_note_is_heard_by_its_sound_exactly() -> None:
    lex = Glossary([])
    note = ["Mesalazine 1 g suppository at night for 4 weeks."]
    assert _heard("how long do I use the supositories", note, lex) == [("supositories", "suppository")]
    # one sound off is not enough for a word that is not a drug's
    assert _heard("how long do I use the suppasitorees", note, lex) == []


@pytest.mark.parametrize(("question", "note"), [
    ("Is he allowed a glass of wine at the wedding?", "Avoid weeding the garden for 2 weeks."),
    ("Why did they switch it partway through her stay?", "Vancomycin trough level was 15."),
    ("what was replaced", "He was released home."),
    ("can i go back to the cabin", "Theocodin was not given."),
    ("how long is the rest of his course", "Restasis drops twice a day."),
    ("is the pain going to stop", "Pantoprazole 40 mg daily."),
])
def test_common_words_are_not_heard_as_a_drug_or_another_word(question: str, note: str) -> None:
    lex = Glossary([GlossaryEntry("trough", "lay", ("vancomycin trough",), 1),
                    GlossaryEntry("weeding", "activity", ("gardening", "weeding"), 2)])
    assert _heard(question, [note], lex) == []


def test_a_word_the_note_uses_or_a_known_name_is_not_heard_as_another() -> None:
    lex = Glossary([GlossaryEntry("docter", "lay", ("doctor",), 1)])
    assert _heard("what did the doctor say", ["The doctor saw her."], lex) == []


@NEEDS_DRUGS
def test_the_heard_span_is_one_concept_standing_for_the_drug() -> None:
    lex = load_lexicon()
    note = ["Apixaban 5 mg twice daily STARTED.", "Bisoprolol 2.5 mg once daily STARTED for heart rate control."]
    words = [set(tokens(t)) for t in note]
    question = "why has dad been started on by so pro lol"
    concepts = [Concept((t,), frozenset({(t,)})) for t in ("pro", "lol")]
    got = with_heard(concepts, question, note, words, lex)
    assert len(got) == 1  # "pro" and "lol" no longer count as words the note never names
    assert ("bisoprolol",) in got[0].phrases
    assert got[0].covered_by(words[1]) and not got[0].covered_by(words[0])


@NEEDS_DRUGS
def test_answer_types_read_the_heard_drug_as_the_topic() -> None:
    from archehr.answerability.kinds import answer_types
    from archehr.data.note_split import note_case

    note = ("Apixaban 5 mg twice daily STARTED on 8 February for atrial fibrillation. "
            "Atorvastatin 80 mg at night STARTED. Bisoprolol 2.5 mg once daily STARTED for heart rate control.")
    case, _ = note_case(note, "why has dad been started on by so pro lol")
    types = answer_types(case)
    assert types.note_coverage == 1.0
    assert "Bisoprolol" in case.sentences[int(types.topic.argmax())].text
