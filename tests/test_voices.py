"""Questions in non-standard English read in standard spelling (`archehr.answerability.voices`, data
`archehr/glossary/voices.tsv`), and medicine classes in lay words (`everyday.tsv`), on invented questions and notes."""

from __future__ import annotations

import pytest

import archehr
from archehr.answerability.asked_for import ask_kind
from archehr.answerability.voices import plain_words
from archehr.ask import read_question
from archehr.glossary import VOICE_KINDS, VOICES_PATH, load_lexicon, load_voices

BREATHING = """Clinic letter

Spirometry today showed moderate airflow obstruction, FEV1 58% of predicted.
He has been started on a new inhaler, Trelegy, one puff daily.
We will repeat spirometry in three months once he has recovered from the chest infection.
Please continue your salbutamol inhaler as needed.
"""


@pytest.mark.parametrize(("question", "plain"), [
    # Scots and northern English
    ("wis the blawin test bad", "was the blowing test bad"),
    ("how come they want tae dae the scan again", "how come they want to do the scan again"),
    ("has the lump got ony bigger", "has the lump got any bigger"),
    ("when's the letter comin fae the hospital", "when's the letter coming from the hospital"),
    ("didnae they say owt aboot it", "did not they say anything about it"),
    ("whit time is the nurse ringin", "what time is the nurse ringing"),
    # "me"/"ma" before a noun phrase is "my"
    ("am I still on me water tablets", "am I still on my water tablets"),
    ("is ma sugar too high", "is my sugar too high"),
    # "am"/"ah" as the subject of a clause
    ("when am walking uphill can I use the spray", "when I'm walking uphill can I use the spray"),
    ("can ah drive noo", "can I drive now"),
    # Caribbean English: "mi" is my before a noun, I before a verb
    ("mi have pain in mi knee", "I have pain in my knee"),
    ("wah dem say bout di x-ray", "what them say bout the x-ray"),
    # "wee" is small between a determiner and a noun
    ("has the wee lump grown", "has the small lump grown"),
    # US Southern, African American English, texting
    ("ain't he finna get the cast off", "is not he going to get the cast off"),
    ("wen r u gonna call", "when are you gonna call"),
    ("y did they stop it", "why did they stop it"),
    ("can i c the nurse 2moro pls", "can i see the nurse tomorrow please"),
    ("is it ok b4 food n after", "is it ok before food and after"),
    ("goin' home w/ the drain", "going home with the drain"),
])
def test_non_standard_spellings_of_common_words_are_read_as_standard(question: str, plain: str) -> None:
    assert plain_words(question) == plain


@pytest.mark.parametrize("question", [
    "give me the tablets",                 # "me" an object after a verb of giving
    "me and my wife",                      # "me" before a function word
    "can you let me know",                 # ... before a verb
    "will they ring me. When is it",       # ... before a full stop
    "does my ma still need it",            # "ma" after a determiner: mother
    "his ma says it hurts",                # ... before a verb
    "he had an mi last year",              # MI, a heart attack, after an article
    "my r knee is swollen",                # "r": right, not "are"
    "is hep c catching",                   # a lexicon term of several words
    "will c diff come back",
    "10 u of insulin at night",            # "u": units after a number
    "at 8 am or later",                    # "am": morning
    "am I ok to drive",                    # "am I": a question
    "Ken said it was fine",                # a name before a verb
    "the troponin was normal",             # no dropped g: no English base
    "can I begin the course",              # "begin" kept
    "when is my m r i",                    # letters spelt out
    "is the wi-fi free",                   # part of a hyphenated word
    "i need a wee all the time",           # "wee": urine, with no noun after it
    "my wee burns",                        # ... before a verb in -s
    "is it a wee infection",               # ... in a lexicon term of several words
])
def test_standard_words_and_ambiguous_forms_are_left_alone(question: str) -> None:
    assert plain_words(question) == question


def test_read_question_reads_the_question_and_the_message_not_only_one() -> None:
    q, story = read_question("wis it bad", "Hiya. Ma da had a scan. wis it bad")
    assert q == "was it bad"
    assert story is not None and story.endswith("was it bad")
    assert read_question("was it bad") == ("was it bad", None)


@pytest.mark.parametrize(("question", "kind"), [
    ("wis ma blood test bad", "test_result"),      # "was my ... bad": a result
    ("hoo lang dae I need tae stay aff work", "how_long"),
])
def test_the_kind_is_read_from_the_question_in_standard_spelling(question: str, kind: str) -> None:
    assert ask_kind(question) != kind
    assert ask_kind(plain_words(question)) == kind


def test_a_dialect_question_cites_what_the_standard_question_cites() -> None:
    plain = archehr.answer(BREATHING, "was the breathing test bad", splitter="rules", ranker="hand")
    scots = archehr.answer(BREATHING, "wis the breathin test bad", splitter="rules", ranker="hand")
    assert not plain.abstained and not scots.abstained
    assert scots.lines[0].citations == plain.lines[0].citations
    assert scots.question == "wis the breathin test bad"  # shown as the patient wrote it


def test_the_voices_file_is_one_glossary_format_with_its_own_kinds() -> None:
    entries = load_voices().entries
    assert entries and {e.kind for e in entries} <= set(VOICE_KINDS)
    assert all(e.term == e.term.lower() and len(e.term.split()) == 1 for e in entries)
    assert all(e.expansions == (e.term,) for e in entries if e.kind == "keep")
    text = VOICES_PATH.read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("#")


def test_the_lexicon_version_changes_with_the_voices_file(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    import archehr.glossary as glossary

    before = load_lexicon().version
    other = tmp_path / "voices.tsv"
    other.write_text(VOICES_PATH.read_text(encoding="utf-8") + "yous\tspelling\tyou\n", encoding="utf-8")
    monkeypatch.setattr(glossary, "VOICES_PATH", other)
    load_lexicon.cache_clear()
    try:
        assert load_lexicon().version != before
    finally:
        monkeypatch.undo()
        load_lexicon.cache_clear()
    assert load_lexicon().version == before


@pytest.mark.parametrize(("term", "member"), [
    ("hormone tablets", "letrozole"),          # breast cancer hormone therapy
    ("hormone tablets", "bicalutamide"),       # prostate cancer hormone therapy
    ("anti-hormone tablets", "anastrozole"),
    ("hormone therapy", "exemestane"),
    ("herbal tablets", "st john's wort"),
    ("herbal remedies", "echinacea"),
    ("muscle relaxers", "baclofen"),
    ("memory tablets", "donepezil"),
    ("angina spray", "glyceryl trinitrate"),
    ("water infection tablets", "nitrofurantoin"),
    ("diabetes injection", "semaglutide"),
])
def test_lay_class_words_name_their_members(term: str, member: str) -> None:
    e = load_lexicon().get(term)
    assert e is not None and e.kind == "class" and member in e.expansions


def test_a_note_naming_a_herb_names_the_herbal_class() -> None:
    lex = load_lexicon()
    assert "herbal" in lex.classes_in("She takes St John's wort 300 mg daily.")
    assert "hormone tablets" in lex.classes_in("Continue tamoxifen 20 mg daily for 5 years.")
