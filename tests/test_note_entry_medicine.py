"""A medicine's entry cut into sentences: the later sentences keep their text and numbers, and carry the id of the
sentence naming the medicine, which the answer types read the medicine from. Invented notes, values by hand."""

from __future__ import annotations

from archehr.answerability.kinds import answer_types
from archehr.data.note_entries import medicine_name
from archehr.data.note_split import EntrySentence, note_case, split_note
from archehr.glossary import load_lexicon

NOTE = ("Your medicines\n"
        "Cefalexin 500 mg capsule\n"
        "    Take 1 capsule 4 times a day. Last dose is 02/14/2031.\n"
        "Metformin 500 mg tablet\n"
        "    Take 1 tablet twice a day with food.\n")


def test_an_entrys_later_sentence_carries_the_id_of_the_sentence_naming_its_medicine():
    split = split_note(NOTE, "rules")
    assert [(s.id, " ".join(s.text.split()), s.entry) for s in split.sentences] == [
        ("1", "Your medicines", ""), ("2", "Cefalexin 500 mg capsule Take 1 capsule 4 times a day.", ""),
        ("3", "Last dose is 02/14/2031.", "2"),
        ("4", "Metformin 500 mg tablet Take 1 tablet twice a day with food.", "")]
    sentences = split.note_sentences()
    assert isinstance(sentences[2], EntrySentence) and sentences[2].entry == "2"
    assert type(sentences[1]).__name__ == "NoteSentence"
    # (a list item's second sentence too; a line of prose of more sentences than two is no entry)
    items = split_note("- Amoxicillin 500 mg three times a day. Take it until 03/04/2031.\n- Rest at home.\n", "rules")
    assert [s.entry for s in items.sentences] == ["", "1", ""]
    plan = split_note("Colchicine 0.5 mg twice a day. Drink plenty of water. Recheck bloods in 4 weeks.\n", "rules")
    assert [s.entry for s in plan.sentences] == ["", "", ""]


def test_a_medicines_name_is_read_with_its_strength_and_form():
    assert medicine_name("Ofloxacin 0.3% eye drops Right eye: 1 drop 4 times a day.") == "Ofloxacin 0.3% eye drops"
    assert medicine_name("- START aspirin 81 mg tablet Take 1 tablet daily.") == "START aspirin 81 mg tablet"
    assert medicine_name("Rest at home for a week.") == ""


def test_the_answer_types_read_an_entrys_medicine_into_its_later_sentence():
    case, _ = note_case(NOTE, "how long do i keep taking the cefalexin")
    topic = answer_types(case, load_lexicon()).topic
    # "Last dose is 02/14/2031." names no medicine, but its entry names cefalexin; metformin's entry does not
    assert topic[2] == topic[1] > 0
    assert topic[3] == 0
