"""Lay words the everyday lexicon knows: symptoms, tests and medicine classes in patients' words (a heart that
flip-flops, the lights for a yellow baby, a tablet for the waterworks, a mood pill that is a mood stabiliser),
and the words it keeps out because they made a question the note does not answer look answered."""

from __future__ import annotations

import pytest

import archehr
from archehr.glossary import load_lexicon


def _expansions(text: str) -> set[str]:
    return {x for e in load_lexicon().matches(text) for x in e.expansions}


@pytest.mark.parametrize(("question", "note_word"), [
    ("why does my heart keep doing a flip flop", "palpitations"),
    ("is the fluttering in my chest dangerous", "palpitations"),
    ("did they put her mood pill up", "lithium"),
    ("is she still on the mood stabiliser", "valproate"),
    ("can i have my hayfever tablet with it", "cetirizine"),
    ("what is the new tablet for my waterworks", "tamsulosin"),
    ("is Gaviscon ok with the doxy", "antacid"),
    ("do i keep taking the heartburn tablets from the chemist", "omeprazole"),
    ("what contraceptive pill did they give me", "desogestrel"),
    ("which hrt am i on", "estradiol"),
    ("which of his parkinson's pills are stopped", "ropinirole"),
    ("why was she under the lights", "phototherapy"),
    ("is a beach holiday ok with this tablet", "sunlight"),
    ("does he still take the nerve pain tablets", "pregabalin"),
    ("did the tape for my heart show anything", "holter"),
    ("what did the heart failure blood test say", "nt-probnp"),
    ("did my stitches heal down below", "perineal"),
    ("is the brown inhaler a new one", "beclometasone"),
    ("when is the blood test for the salts", "potassium"),
    ("what did her water test show", "urine dipstick"),
    ("how long is the chemo pump on", "ambulatory pump"),
    ("can i play in our game on sunday", "netball"),
    ("was the wee test clean", "urine drug screen"),
    ("can i still have porridge", "oats"),
    ("when can i go on the tread mill", "treadmill"),
    ("when is my eyes check for the tablets", "retinal screening"),
])
def test_a_lay_word_names_what_a_note_writes(question: str, note_word: str) -> None:
    assert note_word in _expansions(question)


@pytest.mark.parametrize(("sentence", "lay_class"), [
    ("Cefixime 80 mg by mouth once a day for 10 days.", "antibiotic"),
    ("Flucloxacillin 500 mg four times a day.", "antibiotics"),
    ("Lithium carbonate increased from 400 mg to 600 mg at night.", "mood pill"),
    ("Start tamsulosin 400 micrograms once daily.", "waterworks tablet"),
    ("Continue omeprazole 20 mg daily.", "heartburn tablets"),
    ("Desogestrel 75 micrograms daily.", "contraceptive pill"),
    ("Clopidogrel 75 mg once daily.", "blood thinner"),
])
def test_a_note_naming_a_member_names_the_lay_class(sentence: str, lay_class: str) -> None:
    assert lay_class in load_lexicon().classes_in(sentence)


@pytest.mark.parametrize("question", [
    "her birthday party is in 3 weeks, will she still be in the cast",  # a party is not a crowd to avoid
    "how much time left on the antibiotic course",  # time left is not a prognosis
    "was she on a hormone tablet for her periods",  # a hormone tablet is not always HRT
])
def test_words_kept_out_of_the_lexicon(question: str) -> None:
    lex = load_lexicon()
    assert not any(e.kind == "activity" for e in lex.matches(question) if "party" in e.term)
    assert not {"prognosis", "hrt"} & _expansions(question)


NOTE = """Discharge Summary:
Diagnosis: bipolar disorder, relapse of low mood.
Olanzapine 5 mg at night was started to help her sleep.
Lithium carbonate was increased from 400 mg to 600 mg at night.
Her lithium level will be checked in 1 week.
"""


def test_a_mood_pill_question_is_answered_by_the_mood_stabiliser_line() -> None:
    r = archehr.answer(NOTE, "did they put her mood pill up", splitter="rules")
    assert not r.abstained
    first = {s.id: s.text for s in r.cited}
    assert any("increased" in first[c] for c in r.lines[0].citations)
