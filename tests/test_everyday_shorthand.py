"""Notes in clinical shorthand, questions in patients' words: the everyday lexicon's shorthand facts and the
answer types' shorthand (durations, dates, changes), misspelt drug names and words naming no topic.

The ICU note is written for these tests (fictional), in the terse style of an intensive-care progress note.
"""

from __future__ import annotations

import importlib.util

import pytest

import archehr
from archehr.answerability.kinds import HOLDS, ask_kind, asked_concepts
from archehr.answerability.misspelt import misspelt_drug
from archehr.glossary import load_lexicon

ICU = """MICU Progress Note HD#4

S: Extubated yesterday after SBT, tolerating 2L NC.
O: BP 112/64 off pressors. UOP 20 mL/h.
A/P:
# AKI on CRRT: continue CVVHDF; will reassess need for RRT daily.
# Sepsis: CTX -> PO cipro on transfer, total 14d abx.
# DVT ppx: enoxaparin SQ daily while in ICU.
# Dispo: transfer to floor today; f/u nephrology in 2 wks after discharge.
"""


def _expansions(text: str) -> dict[str, tuple[str, ...]]:
    return {e.term: e.expansions for e in load_lexicon().matches(text)}


def test_shorthand_of_the_specialties_reads_as_the_words_patients_use() -> None:
    got = _expansions("CRRT CVVHDF iHD abx extubated NWB WBAT G-CSF SSRI AED MoCA TTN EBM XR")
    assert "dialysis" in got["crrt"] and "dialysis" in got["cvvhdf"] and "dialysis" in got["ihd"]
    assert "antibiotic" in got["abx"]
    assert "breathing tube" in got["extubated"]
    assert "weight bearing" in got["nwb"] and "weight bearing" in got["wbat"]
    assert "filgrastim" in got["g-csf"] and "antidepressant" in got["ssri"] and "seizure medicine" in got["aed"]
    assert "memory test" in got["moca"] and "fluid in the lungs" in got["ttn"]
    assert "breast milk" in got["ebm"] and "x-ray" in got["xr"]


def test_lay_words_reach_the_shorthand() -> None:
    got = _expansions("is he still on the kidney machine, did they give the baby the blue lights")
    assert "crrt" in got["kidney machine"] and "phototherapy" in got["blue lights"]


@pytest.mark.parametrize(("kind", "text"), [
    ("how_long", "CTX -> PO cipro on transfer, total 14d abx."),
    ("how_long", "Aspirin 81 mg daily while on lenalidomide."),
    ("how_long", "Cough and congestion may last 2-4 weeks."),
    ("how_long", "Will reassess need for RRT daily."),
    ("when", "Urology to schedule ureteroscopy ~2-3 wk after abx complete."),
    ("when", "Follow-up: PCP weight check in 24-48 h."),
    ("med_change", "CTX -> PO cipro"),
    ("med_change", "Lisinopril d/c'd, amlodipine started."),
    ("med_change", "Norepi weaned off overnight."),
    ("why", "Aspirin 81 mg as thromboprophylaxis."),
    ("may_i", "Mother counseled re: return precautions."),
])
def test_shorthand_answers_hold_their_kind(kind: str, text: str) -> None:
    assert HOLDS[kind].search(text)


@pytest.mark.parametrize(("kind", "text"), [
    ("how_long", "BP 112/64."),
    ("med_change", "Patient seen and examined."),
    ("when", "Echo normal."),
])
def test_sentences_without_the_kind_do_not_hold_it(kind: str, text: str) -> None:
    assert not HOLDS[kind].search(text)


@pytest.mark.parametrize(("question", "kind"), [
    ("my hip hurts when i walk can i take advil", "may_i"),  # "when i walk": a clause, not a time
    ("when i can go home?", "when"),  # a learner's word order still asks a time
    ("when can he drive", "when"),
    ("what was my score on the memory test, did I pass", "test_result"),
    ("did they take him off the levophed drip yet", "med_change"),
    ("is she going back on the same lithium dose", "med_change"),
    ("what bacteria grew in her pee culture", "test_result"),
    ("which of his heart pills did they stop for good", "med_change"),  # which was stopped, not how long
    ("will he be on the blood thinner for good", "how_long"),
])
def test_question_kinds_in_everyday_wording(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


def test_words_that_name_no_topic_are_dropped_and_filler_terms_kept() -> None:
    surfaces = [c.surface for c in asked_concepts("when does she have to see her regular baby doctor, "
                                                  "I actually think so", load_lexicon())]
    assert ("baby", "doctor") in surfaces  # each word is filler, the term names pediatrics
    assert surfaces == [("regular",), ("baby", "doctor")]  # see, actually, think name nothing


def test_a_misspelt_or_shortened_drug_name_finds_the_notes_drug() -> None:
    drugs = {"prednisone": "prednisone", "ursodiol": "ursodiol", "aripiprazole": "aripiprazole",
             "abilify": "aripiprazole"}
    assert misspelt_drug("predison", "when do they raise my predisone", drugs) == ["prednisone"]
    assert misspelt_drug("urso", "do i still take the urso pills", drugs) == ["ursodiol"]
    assert misspelt_drug("abilfy", "how long before the abilfy works", drugs) == ["aripiprazole"]
    # a common word is no drug: "long" begins no generic name here, "steroid" is within one letter of none
    assert misspelt_drug("long", "how long", drugs) == []
    assert misspelt_drug("steroid", "the steroid pills", drugs) == []


def test_an_icu_note_in_shorthand_answers_lay_questions() -> None:
    r = archehr.answer(ICU, "how many days does she keep taking the antibiotic pills", splitter="rules")
    assert not r.abstained and "14d abx" in r.lines[0].text
    r = archehr.answer(ICU, "is my dad still on the kidney machine", splitter="rules")
    assert not r.abstained and "CRRT" in " ".join(s.text for s in r.cited)


@pytest.mark.skipif(importlib.util.find_spec("drug_named_entity_recognition") is None,
                    reason="drug-named-entity-recognition is not installed (the umls extra)")
def test_a_question_naming_the_drug_by_brand_finds_the_shorthand_sentence() -> None:
    r = archehr.answer(ICU, "how long is she on the lovenox shots in her belly", splitter="rules")
    assert not r.abstained and "enoxaparin" in r.lines[0].text


def test_a_misspelt_word_reads_as_the_lexicon_term_or_the_note_word() -> None:
    from archehr.answerability.features import Concept
    from archehr.answerability.misspelt import misspelt_concept

    lex = load_lexicon()
    note = [{"sutur", "remov"}, {"defibrillator", "check"}]
    got = misspelt_concept(Concept(("stich",), frozenset({("stich",)})), "when are the stiches out", note, lex)
    assert ("sutur",) in got.phrases  # stiches -> the lexicon's stitches -> sutures
    got = misspelt_concept(Concept(("defibrilator",), frozenset({("defibrilator",)})), "the defibrilator", note, lex)
    assert ("defibrillator",) in got.phrases  # the note's own word
    # "waking" is two letters from "walking" at 0.92: not a misspelling at 0.93
    waking = Concept(("wak",), frozenset({("wak",)}))
    assert misspelt_concept(waking, "keep waking him", [{"walk"}], lex) is waking


def test_a_how_long_answer_giving_its_duration_is_not_flagged_for_a_middling_confidence() -> None:
    from types import SimpleNamespace

    from archehr.answerability.review import fact_given

    types = SimpleNamespace(kind="how_long")
    assert fact_given(types, ("Ticagrelor 90 mg BID for 12 months, then aspirin alone.", 0.4))
    assert fact_given(types, ("Warfarin is lifelong with a mechanical valve.", 0.4))
    assert not fact_given(types, ("Ticagrelor 90 mg BID.", 0.4))  # no duration
    assert not fact_given(types, ("Continue for 12 months.", 0.1))  # too little of the topic
    results = SimpleNamespace(kind="test_result")
    assert fact_given(results, ("eGFR 84 mL/min/1.73m2 (>60)", 0.4))
    assert fact_given(results, ("Pregnancy test today negative.", 0.4))
    assert not fact_given(results, ("Repeat pregnancy test in 3 weeks.", 0.4))  # no result said
    assert not fact_given(SimpleNamespace(kind="why"), ("eGFR 84 mL/min", 0.4))  # no fact kind


def test_a_permission_with_its_condition_answers_a_when_question() -> None:
    assert HOLDS["when"].search("May return to work when fever-free for 48 hours.")
    assert HOLDS["when"].search("OK to resume driving once off oxycodone.")


def test_sports_school_diet_iron_liver_and_stool_in_patients_words() -> None:
    got = _expansions("rugby daycare normal food stand on iron pils liver labs poop test")
    assert "contact sports" in got["rugby"] and "daycare" in got["daycare"]
    assert "diet" in got["normal food"] and "weight bearing" in got["stand on"]
    assert "ferrous sulfate" in got["iron pils"] and "ast" in got["liver labs"] and "stool" in got["poop test"]


@pytest.mark.parametrize("text, pending", [
    ("Await biopsy results for H. pylori; treat if positive.", True),
    ("The urine culture was sent; results will take 48-72 hours.", True),
    ("Blood cultures pending at discharge.", True),
    ("Urine culture grew E. coli, sensitive to cephalexin.", False),
    ("He was sent home with a walker.", False),
])
def test_a_result_still_awaited_is_recognised(text: str, pending: bool) -> None:
    from archehr.answerability.holds import PENDING

    assert bool(PENDING.search(text)) is pending


def test_a_course_already_completed_does_not_answer_how_long() -> None:
    from archehr.answerability.kinds import answer_types
    from archehr.data.note_split import note_case

    note = ("He completed 21 days of aspirin plus clopidogrel on November 18.\n\n"
            "Continue clopidogrel 75 mg daily, then stop after 3 more months.")
    case, _ = note_case(note, "how long does he stay on the clopidogrel")
    holds = answer_types(case).holds.tolist()
    assert holds == [False, True]  # the completed course tells the past; the second sentence what follows
