"""A medicine list's order as an answer (`archehr.answerability.list_orders`), the lay twin of a drug class's surface
(`asked_for.lay_twin`)."""

from __future__ import annotations

from types import SimpleNamespace

from archehr.answerability.asked_for import asked_concepts, lay_twin
from archehr.answerability.list_orders import list_order, order_given
from archehr.answerability.review import fact_given
from archehr.glossary import load_lexicon


def test_list_order_opens_a_row_in_capitals() -> None:
    assert list_order("STOP  Ibuprofen 400 mg - bleeding risk with the new blood thinner")
    assert list_order("• START amlodipine 5 mg once a day")
    assert list_order("HOLD      | Ramipril 5 mg | until kidney bloods are rechecked")
    assert list_order("2. DO NOT TAKE naproxen while on apixaban")
    # prose, a lower-case order, an order word later in the line, a heading with no medicine after it
    assert not list_order("Stop the ramipril if you feel dizzy.")
    assert not list_order("stop ibuprofen")
    assert not list_order("Patient asked to STOP smoking")
    assert not list_order("STOP")


def test_medicine_change_answered_by_a_row() -> None:
    row = "CONTINUE  Gliclazide 80 mg twice daily - no change"
    assert order_given("med_change", "did they change her gliclazide?", row, 0.5)
    assert not order_given("med_change", "did they change her gliclazide?", row, 0.2)  # under a quarter of the topic
    assert not order_given("med_change", "did they change her gliclazide?", "Gliclazide 80 mg twice daily", 0.5)
    assert fact_given(SimpleNamespace(kind="med_change"), (row, 0.5), "did they change her gliclazide?")


def test_may_i_answered_by_a_row_naming_the_asked_medicine_or_its_class() -> None:
    q = "Her hip aches at night, can she take some Nurofen?"
    assert order_given("may_i", q, "STOP  Ibuprofen 200 mg (own supply) - bleeding risk with apixaban", 0.3)
    # a row about another medicine, or naming too little of the topic
    assert not order_given("may_i", q, "START  Apixaban 5 mg twice daily", 0.3)
    assert not order_given("may_i", q, "STOP  Ibuprofen 200 mg (own supply)", 0.05)
    may = SimpleNamespace(kind="may_i")
    assert fact_given(may, ("STOP  Ibuprofen 200 mg (own supply) - bleeding risk with apixaban", 0.3), q)


def test_lay_sense_of_a_drug_class_surface_is_no_medicine() -> None:
    lex = load_lexicon()
    q = "Her sugar is fine at home. Did they change her sugar pill?"
    concepts = asked_concepts(q, lex)
    lay = [c for c in concepts if ("glucos",) in c.phrases]
    drug = [c for c in concepts if ("metformin",) in c.phrases]
    assert lay and drug and lay[0].surface == drug[0].surface
    named = [0 if c is lay[0] else 1 for c in concepts]
    assert lay_twin(lay[0], concepts, named, q, lex)  # the note names the pill (metformin), not glucose
    assert not lay_twin(drug[0], concepts, [0 if c is drug[0] else 1 for c in concepts], q, lex)  # the class itself
    assert not lay_twin(lay[0], concepts, [0] * len(concepts), q, lex)  # nothing of the same surface named

