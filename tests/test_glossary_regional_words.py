"""Regional, slang and heard words for clinical ones (a British "jag" or "knackered", a heard "glow coma", a
"hole in the neck" for a tracheostomy, "vit D" for colecalciferol) and the reverse: a note's clinical short
forms ("physio", "obs", "bloods", "echo", "OT", "SALT") named by a question that spells the service out. Examples
are invented; each entry must hold for any patient and any note."""

from __future__ import annotations

import pytest

from archehr.glossary import load_lexicon


def _expansions(text: str) -> set[str]:
    return {x for e in load_lexicon().matches(text) for x in e.expansions}


@pytest.mark.parametrize(("question", "note_word"), [
    ("is the new vit d once a week", "colecalciferol"),
    ("do i still take the vit b6", "pyridoxine"),
    ("when should i do the preg test", "pregnancy test"),
    ("is the hep a jab a two dose thing", "hepatitis a"),
    ("do i need another jab", "booster"),
    ("he missed his jag on friday", "injection"),
    ("can the kids sit on my lap", "children"),
    ("when will i stop feeling so knackered", "fatigue"),
    ("did she break anything in the fall", "fracture"),
    ("did the xray say it was broke", "fracture"),
    ("why does he have a hole in the neck now", "tracheostomy"),
    ("did the carbon monoxide level come down", "cohb"),
    ("when are the breathing tests", "lung function tests"),
    ("how long can the insulin stay out of the fridge", "room temperature"),
    ("when is my glow coma check", "glaucoma"),
    ("how long does he take the flow max", "tamsulosin"),
    ("what did the wee sample grow", "csu"),
    ("is my uric acid still high", "urate"),
    ("when is the hospice nurse ringing me back", "telephone"),
    ("is she on the clot injections at home", "thromboprophylaxis"),
    ("did the growth look like cancer", "tumour"),
    ("what did the scan show on his hamstring", "biceps femoris"),
    ("when do i come off the microgynon", "combined pill"),
    ("why is the room spinning when i roll over", "bppv"),
    ("why do they keep putting me under for it", "anaesthetic"),
    ("can i have brekkie before the op", "nil by mouth"),
])
def test_regional_and_lay_words_name_the_clinical_ones(question: str, note_word: str) -> None:
    assert note_word in _expansions(question)


@pytest.mark.parametrize(("question", "note_word"), [
    ("when is the physiotherapist coming", "physio"),
    ("when does the occupational therapist visit", "ot"),
    ("did the speech therapist see him", "salt"),
    ("when are her next blood tests", "bloods"),
    ("are his observations ok", "obs"),
    ("what did the echocardiogram show", "echo"),
    ("when is the dietitian clinic", "dietetic"),
    ("when will the district nurse come", "dn"),
    ("when can she come back to the house", "home"),
])
def test_a_service_spelt_out_is_named_by_the_notes_short_form(question: str, note_word: str) -> None:
    assert note_word in _expansions(question)


@pytest.mark.parametrize(("question", "not_word"), [
    # "broke" names a bone only in the phrases of a break: a fever that broke is no fracture
    ("her fever broke this morning, can i stop the antibiotic", "fracture"),
    # "ring" alone is a ring (a vaginal ring, a wedding ring), never a telephone call
    ("can i keep my wedding ring on for the scan", "telephone"),
    # "working" asks as often whether a medicine works as whether a patient goes to work
    ("is the new tablet working yet", "fit note"),
])
def test_words_of_several_senses_are_read_only_in_their_phrases(question: str, not_word: str) -> None:
    assert not_word not in _expansions(question)
