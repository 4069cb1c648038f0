"""Everyday questions: answer types, the everyday lexicon, the typed confidence and the benchmark's figures.

The pneumonia note is written for these tests (fictional): the antibiotic continues 5 more days, follow-up
with the GP in 1 week, return to the ER for fever.
"""

from __future__ import annotations

import importlib.util
import json

import benchmark_module
import numpy as np
import pytest

import archehr
from archehr.answerability.kinds import HOLDS, ask_kind
from archehr.answerability.review import fact_missing, review_flags
from archehr.answerability.typed import FEATURES, fit_typed, parse_typed
from archehr.ask import NOT_IN_NOTE
from archehr.errors import DataError
from archehr.glossary import load_glossary, load_lexicon, merge, parse_glossary

PNEUMONIA = """Discharge Summary

History of Present Illness:
Mrs. ___ is a 71 year old woman with COPD who presents with 4 days of cough, fever to 101.8 and
shortness of breath. Chest x-ray showed a right lower lobe consolidation.

Brief Hospital Course:
# Community-acquired pneumonia: She was treated with IV ceftriaxone and azithromycin with improvement.
Her oxygen was weaned to room air by hospital day 3. She was switched to oral amoxicillin-clavulanate
on hospital day 3. Blood cultures showed no growth.
# COPD: Continued home tiotropium. No steroids were needed.

Discharge Medications:
1. Amoxicillin-clavulanate 875 mg PO BID
2. Tiotropium 18 mcg inhaled daily

Discharge Instructions:
Please continue amoxicillin-clavulanate for 5 more days to complete a 7-day course.
Take all of the antibiotic even if you feel well.
Follow up with your GP in 1 week.
Return to the ER for fever over 101, trouble breathing or chest pain.
"""


@pytest.mark.parametrize(("question", "kind"), [
    ("How long do I keep taking the antibiotic?", "how_long"),
    ("When do I see my doctor again?", "when"),
    ("Why did they stop my metformin?", "why"),
    ("Should I still take furosemide at home?", "med_change"),
    ("Which blood thinner am I on now?", "med_change"),
    ("Can I take Aleve for my back?", "may_i"),
    ("Can she have milk when she takes the antibiotic?", "may_i"),  # the earlier cue wins over "when"
    ("Did the chest x-ray show pneumonia?", "test_result"),
    ("Hello there", "other"),
    ("When should I go back to the ER?", "may_i"),  # a return instruction answers it, not a date
    ("When do I come back for my appointment?", "when"),  # ... unless it names a visit
    ("Did his blood cultures come back ok?", "test_result"),  # "come back ok" asks a result
    ("Her kidney numbers were off when she came in, were they ok when she left?", "test_result"),  # "when" as a clause
    ("Did they stop any of his vitamins?", "med_change"),
])
def test_ask_kind(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


def test_sentence_holds_the_kind_of_answer() -> None:
    assert HOLDS["how_long"].search("continue amoxicillin-clavulanate for 5 more days")
    assert HOLDS["how_long"].search("Enoxaparin 40 mg SC daily x28 days")
    assert not HOLDS["how_long"].search("She was switched to oral amoxicillin-clavulanate.")
    assert HOLDS["when"].search("Follow up with your GP in 1 week.")
    assert not HOLDS["when"].search("Blood cultures showed no growth.")


@pytest.mark.parametrize(("question", "first"), [
    ("How long do I keep taking the antibiotic?", "for 5 more days"),
    ("When do I see my doctor again?", "Follow up with your GP in 1 week."),
    ("When should I go back to the ER?", "Return to the ER"),
])
def test_the_sentence_that_answers_comes_first(question: str, first: str) -> None:
    r = archehr.answer(PNEUMONIA, question, splitter="rules")
    assert not r.abstained
    by_id = {s.id: s.text for s in r.note.sentences}
    assert first in by_id[r.lines[0].citations[0]]


def test_a_drug_class_the_note_never_names_is_declined() -> None:
    r = archehr.answer(PNEUMONIA, "Which blood thinner am I on now?", splitter="rules")
    assert r.abstained and r.answer == NOT_IN_NOTE and not r.cited


def test_json_adds_kind_and_lexicon_version() -> None:
    d = archehr.answer(PNEUMONIA, "When do I see my doctor again?", splitter="rules").to_dict()
    assert d["kind"] == "when"
    assert d["lexicon"].startswith(f"glossary {load_lexicon().version}")


def test_lexicon_class_layer_covers_lay_words() -> None:
    lex = load_lexicon()
    assert "blood thinner" in lex.classes_in("apixaban 5 mg BID")
    assert "antibiotic" in lex.classes_in("Amoxicillin-clavulanate 875 mg")
    heart = lex.get("heart doctor")
    assert heart is not None and "cardiology" in heart.expansions
    assert {"kidney numbers", "breathing test", "heart scan", "er", "gp"} <= {e.term for e in lex.entries}
    # the base glossary (predict's features) is unchanged by the everyday layer
    assert load_glossary().get("breathing test") is None
    assert load_glossary().version != lex.version


def test_merge_unions_expansions_and_adds_terms() -> None:
    base = parse_glossary("term\tkind\texpansions\nwater pill\tlay\tdiuretic\n")
    layer = parse_glossary("term\tkind\texpansions\nwater pill\tclass\tfurosemide; diuretic\nsugar\tlay\tglucose\n")
    g = merge(base, layer)
    wp = g.get("water pill")
    assert wp is not None and wp.kind == "class" and wp.expansions == ("diuretic", "furosemide")
    assert g.get("sugar") is not None and len(g) == 2
    assert g.classes_in("started furosemide") == ["water pill"]


def test_class_kind_is_parsed_and_bad_kind_reported() -> None:
    assert parse_glossary("t\tclass\ta; b\n").entries[0].kind == "class"
    with pytest.raises(DataError):
        parse_glossary("t\tdrugclass\ta\n")


@pytest.mark.skipif(importlib.util.find_spec("drug_named_entity_recognition") is None,
                    reason="drug-named-entity-recognition is not installed (umls extra)")
def test_brand_names_resolve_to_generics_and_short_names_are_filtered() -> None:
    from archehr.glossary.drugs import drug_names, generics_in

    assert generics_in("Can I take Aleve with my Eliquis?") == ["naproxen", "apixaban"]
    names = drug_names()
    assert all(len(n) >= 5 for n in names)
    assert "luminal" not in names  # a clinical word the package lists as a brand


def test_typed_confidence_fit_and_round_trip() -> None:
    rng = np.random.default_rng(0)
    y = np.array([1.0] * 40 + [0.0] * 40)
    rows = rng.normal(size=(80, len(FEATURES)))
    rows[:, 1] += 2 * y  # coverage separates the classes
    model = fit_typed(rows, y, np.array(["g1", "g2"] * 40))
    assert model.threshold <= model.review
    assert model.probability(rows[0]) > model.probability(rows[-1]) or rows[0, 1] < rows[-1, 1]
    again = parse_typed(json.loads(json.dumps(model.to_json())), "<mem>")
    assert again.probability(rows[3]) == pytest.approx(model.probability(rows[3]))
    with pytest.raises(DataError):
        parse_typed({"format": "something else"}, "<mem>")


def _bench():  # the benchmark script's module, for its figures
    return benchmark_module.load("everyday")


def test_benchmark_figures_by_hand() -> None:
    ev = _bench()
    rows = [
        {"answerable": True, "gold": ["1"], "cited": ["1", "2"], "first": ["1"], "abstained": False, "flagged": False,
         "confidence": 0.9},
        {"answerable": True, "gold": ["3", "4"], "cited": ["4"], "first": ["4"], "abstained": False, "flagged": True,
         "confidence": 0.6},
        {"answerable": True, "gold": ["5"], "cited": [], "first": [], "abstained": True, "flagged": False,
         "confidence": 0.1},
        {"answerable": False, "gold": [], "cited": [], "first": [], "abstained": True, "flagged": False,
         "confidence": 0.05},
    ]
    f = ev.figures(rows)
    assert f["first"] == pytest.approx(2 / 3)
    assert f["recall"] == pytest.approx((1 + 0.5 + 0) / 3)
    assert f["precision"] == pytest.approx((0.5 + 1) / 2)  # only questions citing any
    assert f["false_decline"] == pytest.approx(1 / 3)
    assert f["unans_declined_or_flagged"] == 1.0 and f["ans_flagged"] == pytest.approx(1 / 3)
    assert f["auroc"] == 1.0


def test_benchmark_maps_raw_gold_units_by_overlap() -> None:
    from archehr.data.note_split import split_note

    ev = _bench()
    split = split_note("Meds:\n1. Apixaban 5 mg BID\n2. STOP aspirin\n\nFollow up with cardiology in\n2 weeks.\n",
                       "rules")
    units = ["Meds:", "1. Apixaban 5 mg BID", "2. STOP aspirin", "Follow up with cardiology in 2 weeks."]
    gold = ev.raw_gold(split, units, [3, 4], "t")
    texts = {split.sentences[int(i) - 1].text.replace("\n", " ") for i in gold}
    assert texts == {"2. STOP aspirin", "Follow up with cardiology in 2 weeks."}


def test_benchmark_finds_a_gold_unit_joining_a_word_wrapped_after_its_hyphen() -> None:
    from archehr.data.note_split import split_note

    ev = _bench()
    split = split_note("Findings:\nThe left kid-\nney is normal in size.\nNo stones seen.\n", "rules")
    units = ["Findings:", "The left kid-ney is normal in size.", "No stones seen."]
    gold = ev.raw_gold(split, units, [2], "t")
    assert [split.sentences[int(i) - 1].text.split()[0] for i in gold] == ["The"]


def test_benchmark_finds_a_gold_unit_joining_a_range_wrapped_after_its_hyphen() -> None:
    from archehr.data.note_split import split_note

    ev = _bench()
    split = split_note("Duplex:\nA plaque narrows the artery by 50-\n69% of its width.\nNo occlusion.\n", "rules")
    units = ["Duplex:", "A plaque narrows the artery by 50-69% of its width.", "No occlusion."]
    gold = ev.raw_gold(split, units, [2], "t")
    assert [split.sentences[int(i) - 1].text.split()[0] for i in gold] == ["A"]


def test_a_named_topic_without_the_asked_duration_is_flagged() -> None:
    # tiotropium is in the note, but no sentence says for how long
    r = archehr.answer(PNEUMONIA, "How long will I need the inhaler tiotropium?", splitter="rules")
    assert r.abstained or r.flagged
    ok = archehr.answer(PNEUMONIA, "How long do I keep taking the antibiotic?", splitter="rules")
    assert not ok.abstained and not ok.flagged


def test_a_blanked_date_is_not_a_date() -> None:
    from archehr.answerability.review import blank_date

    assert blank_date("Follow up in the Allergy clinic on ___.")
    assert not blank_date("Follow up in the Allergy clinic on ___, about 3-4 weeks from now.")
    assert not blank_date("Follow up with your GP in 1 week.")
    # a blank with a course length but no date of its own; a blank beside a date or weekday
    assert blank_date("Planned 10 day course, day 1 = ___, last dose ___.")
    assert not blank_date("Dr. ___ will see you on Monday.")


def test_which_medication_was_stopped_ranks_the_stop_first() -> None:
    from archehr.answerability.kinds import answer_types
    from archehr.data.note_split import note_case

    note = ("Discharge Instructions:\nYour lisinopril dose was kept at 10 mg daily.\n"
            "Your amlodipine was stopped because of ankle swelling.\n")
    case, _ = note_case(note, "Which blood pressure pill did they stop?", splitter="rules")
    types = answer_types(case)
    texts = [s.text for s in case.sentences]
    assert "amlodipine was stopped" in texts[types.order()[0]]


def test_a_medicine_asked_about_that_the_note_never_names_is_counted() -> None:
    from archehr.answerability.kinds import answer_types, medicines_asked
    from archehr.data.note_split import note_case

    lex = load_lexicon()
    # a lay class and a lexicon term for class members, as concept surfaces; "work" and "back" name no medicine
    assert ("water",) in medicines_asked("Did they stop my water pill?", lex)  # "pill" says nothing of which
    assert ("advil",) in medicines_asked("Can I take Advil for my back?", lex)
    assert medicines_asked("When can I go back to work?", lex) == set()
    # ibuprofen is in no sentence of the pneumonia note; the antibiotic is (amoxicillin-clavulanate)
    case, _ = note_case(PNEUMONIA, "Can I take Advil with my antibiotic?", splitter="rules")
    assert answer_types(case).missing_drugs == 1
    case, _ = note_case(PNEUMONIA, "How long do I keep taking the antibiotic?", splitter="rules")
    assert answer_types(case).missing_drugs == 0


def test_a_medicine_the_note_never_names_is_not_answered_without_review() -> None:
    r = archehr.answer(PNEUMONIA, "Can I take Advil for the pain while I am on the antibiotic?", splitter="rules")
    assert r.abstained or r.flagged


def test_a_pending_result_is_flagged_for_review() -> None:
    from archehr.answerability.kinds import answer_types
    from archehr.answerability.model import load_model
    from archehr.answerability.typed import load_typed, typed_row
    from archehr.data.note_split import note_case

    note = ("Brief Hospital Course:\nCMV PCR was 48,000 IU/mL on admission; repeat CMV PCR pending at discharge.\n"
            "Valganciclovir 900 mg twice daily was started.\n")
    q = "Did the repeat CMV test show it going down?"
    r = archehr.answer(note, q, splitter="rules")
    case, split = note_case(note, q, splitter="rules")
    assert r.kind == "test_result"
    assert not r.abstained and r.flagged  # answered with the sentence naming the test, and flagged
    # flagged by a rule (the result is awaited), the confidence is at most halfway from threshold to review level:
    # from the threshold up, the model's P scaled into threshold..halfway
    typed = load_typed()
    typed_p = typed.probability(typed_row(load_model("lexical").probability(case), answer_types(case)))
    halfway = (typed.threshold + typed.review) / 2
    expected = typed_p if typed_p < typed.threshold else (
        typed.threshold + (halfway - typed.threshold) * (typed_p - typed.threshold) / (1 - typed.threshold))
    assert r.confidence == pytest.approx(expected) and r.confidence <= halfway
    # the pending rule reads the first line on its own, whatever the model's P: pending or only planned flags, a
    # result does not
    types = answer_types(case)
    assert fact_missing(types, ("repeat CMV PCR pending at discharge.", 1.0), q)
    planned = "The biopsy was sent; we will call you if the report shows anything unexpected."
    assert fact_missing(types, (planned, 1.0), q)
    assert not fact_missing(types, ("Repeat CMV PCR was 2,100 IU/mL.", 1.0), q)
    # and the answer's review flag is raised by a rule whatever the model's P: a model that would flag nothing
    assert review_flags(_FlagsNothing(), 0.9, False, types, ("repeat CMV PCR pending at discharge.", 1.0), q,
                        split) == (True, True)


class _FlagsNothing:
    threshold = 0.0
    review = 0.0

    def flags(self, p: float) -> bool:
        return False

    def abstains(self, p: float) -> bool:
        return False


class _FlagsAll(_FlagsNothing):
    def flags(self, p: float) -> bool:
        return True


def test_the_shown_confidence_of_a_flagged_answer() -> None:
    from archehr.answerability.review import shown_confidence

    class Levels(_FlagsNothing):
        threshold = 0.1
        review = 0.5

        def flags(self, p: float) -> bool:
            return self.threshold <= p < self.review

    m = Levels()
    assert shown_confidence(m, 0.9, False, 0.9) == 0.9  # not flagged, above the review level: as it is
    assert shown_confidence(m, 0.9, True, 0.9) == 0.5  # flagged by the model's doubt: at most the review level
    # by a rule: from the threshold (0.1) up scaled into threshold..halfway (0.3), keeping the model's order
    assert shown_confidence(m, 1.0, True, 1.0, ruled=True) == pytest.approx(0.3)
    assert shown_confidence(m, 0.55, True, 0.55, ruled=True) == pytest.approx(0.2)
    assert shown_confidence(m, 0.1, True, 0.1, ruled=True) == pytest.approx(0.1)
    assert shown_confidence(m, 0.05, True, 0.05, ruled=True) == 0.05  # under the threshold: as it is
    assert shown_confidence(m, 0.3, False, 0.3) == 0.5  # the model would flag, the date is given: the review level
    assert shown_confidence(None, 0.3, True, 0.3, ruled=True) == 0.3  # no confidence model: the selector's


def test_a_when_answer_giving_the_date_is_not_flagged_for_a_middling_confidence() -> None:
    from archehr.answerability.kinds import answer_types
    from archehr.data.note_split import note_case

    note = ("Discharge Instructions:\nFollow up with cardiology in 4 weeks.\nFollow up with your GP on ___.\n"
            "Please book a review in 6 months.\n")
    q = "When do I see the heart doctor?"
    case, split = note_case(note, q, splitter="rules")
    types = answer_types(case)
    assert types.kind == "when"

    def flags(best: tuple[str, float]) -> tuple[bool, bool]:
        return review_flags(_FlagsAll(), 0.3, False, types, best, q, split)

    # the model's P alone would flag (between threshold and review level): the sentence gives the interval
    assert flags(("Follow up with cardiology in 4 weeks.", 1.0)) == (False, False)
    # a blanked date keeps the flag (a rule sees the date missing), as does a sentence barely on the topic while
    # another names more of it (the model's doubt, no rule)
    assert flags(("Follow up with cardiology on ___.", 1.0)) == (True, True)
    assert flags(("Please book a review in 6 months.", 0.1)) == (True, False)
    # a share given low is read from the note: the line names the most of the topic (`first_leads`)
    assert flags(("Follow up with cardiology in 4 weeks.", 0.1)) == (False, False)


def test_the_question_type_and_the_asked_kind_come_from_one_cue_table() -> None:
    from archehr.answerability.cues import CUES, QUESTION_TYPES, cue_table
    from archehr.answerability.kinds import KINDS

    assert {c for c, _, _ in CUES} == {"type", "kind"}
    # the type rows are read in table order (value before should: "Is my potassium low?" asks a value)
    assert [n for n, _ in cue_table("type")] == ["value", "should", "why", "when", "will", "what"]
    assert set(QUESTION_TYPES) == {n for n, _ in cue_table("type")} | {"other"}
    assert sorted(n for n, _ in cue_table("kind")) == sorted(KINDS)
    assert cue_table("neither") == ()


def test_an_activity_the_note_never_names_flags_a_may_i_answer() -> None:
    from archehr.answerability.kinds import answer_types
    from archehr.data.note_split import note_case

    lex = load_lexicon()
    assert lex.matches("Can he drive?")[0].kind == "activity"
    # a base-glossary lay term ("alcohol") takes the everyday layer's activity kind, with both expansions; never
    # the bare "drink", which a note also writes of coffee and water
    alcohol = next(e for e in lex.entries if e.term == "alcohol")
    assert alcohol.kind == "activity" and {"etoh", "alcoholic"} <= set(alcohol.expansions)
    assert "drink" not in alcohol.expansions
    # the pneumonia note names no driving; it does name the antibiotic
    case, _ = note_case(PNEUMONIA, "Can I drive while I am on the antibiotic?", splitter="rules")
    types = answer_types(case)
    assert types.kind == "may_i" and types.missing_activities == 1
    r = archehr.answer(PNEUMONIA, "Can I drive while I am on the antibiotic?", splitter="rules")
    assert r.abstained or r.flagged
    note = PNEUMONIA + "No driving while you feel short of breath.\n"
    case, _ = note_case(note, "Can I drive while I am on the antibiotic?", splitter="rules")
    assert answer_types(case).missing_activities == 0


def test_a_result_question_puts_the_result_before_a_plan_to_test_again() -> None:
    from archehr.answerability.kinds import answer_types
    from archehr.data.note_split import note_case

    note = "Results:\nRepeat potassium in 1 week at the clinic lab.\nPotassium was 3.1, low.\n"
    case, _ = note_case(note, "Was my potassium ok?", splitter="rules")
    types = answer_types(case)
    texts = [s.text for s in case.sentences]
    assert types.kind == "test_result"
    assert texts[types.order()[0]].startswith("Potassium was 3.1")


def test_lexicon_facts_for_patients_words() -> None:
    lex = load_lexicon()
    terms = {e.term: e for e in lex.matches("when do I see the kidney stone doctor, can I pick up my grandson")}
    assert "urology" in terms["kidney stone doctor"].expansions
    assert terms["pick up my"].kind == "activity" and "lb" in terms["pick up my"].expansions
