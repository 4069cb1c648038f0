"""A lexicon term of several words is covered by its specific words where the note names none of its expansions."""

from __future__ import annotations

from archehr.answerability.features import question_concepts
from archehr.answerability.term_parts import generic_words, term_parts, with_parts
from archehr.glossary import parse_glossary
from archehr.relevance.text import tokens

LEX = parse_glossary("""term\tkind\texpansions
iron drip\tlay\tiv iron; ferric carboxymaltose
keyhole surgery\tlay\tlaparoscopic
keyhole\tlay\tlaparoscopy
thinner shot\tclass\tenoxaparin
go swimming\tactivity\tswim; pool
""")


def _words(*sentences: str) -> list[set[str]]:
    return [set(tokens(s)) for s in sentences]


def test_a_terms_specific_words_are_its_parts_and_generic_words_are_not() -> None:
    assert term_parts("iron drip", LEX) == {("iron",)}  # "drip" says how, not what
    assert term_parts("thinner shot", LEX) == {(tokens("thinner")[0],)}
    # a word with an entry of its own brings its expansions: "keyhole" is also laparoscopy
    assert term_parts("keyhole surgery", LEX) == {("keyhol",), ("laparoscopy",), (tokens("surgery")[0],)}
    assert term_parts("heart doctor", LEX) == {("heart",)}
    assert {"drip", "shot", "doctor", "blood", tokens("pills")[0]} <= generic_words()


def test_parts_cover_the_term_only_where_the_note_names_none_of_its_expansions() -> None:
    question = "when is my iron drip"
    concepts = question_concepts(question, LEX)
    [drip] = [c for c in concepts if c.surface == ("iron", "drip")]
    only_iron = _words("Iron was low at 5.", "Seen in clinic.")
    assert not any(drip.covered_by(w) for w in only_iron)
    [widened] = [c for c in with_parts(concepts, question, only_iron, LEX) if c.surface == drip.surface]
    assert [widened.covered_by(w) for w in only_iron] == [True, False]
    # a note naming the infusion itself: the term keeps its own expansions, "iron" alone no longer counts
    named = _words("Iron was low at 5.", "Ferric carboxymaltose given on the ward.")
    [kept] = [c for c in with_parts(concepts, question, named, LEX) if c.surface == drip.surface]
    assert kept == drip and [kept.covered_by(w) for w in named] == [False, True]


def test_activities_and_single_words_are_left_as_they_are() -> None:
    question = "can I go swimming after my keyhole"
    concepts = question_concepts(question, LEX)
    note = _words("No swimming for two weeks.", "Keyhole wounds healing.")
    assert with_parts(concepts, question, _words("Nothing here."), LEX) == concepts
    assert with_parts(concepts, question, note, LEX) == concepts
