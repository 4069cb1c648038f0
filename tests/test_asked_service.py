"""A when question's asked service must be named on the dated line (`asked_service`)."""

import numpy as np

from archehr.answerability.asked_service import service_concepts, service_share, service_undated
from archehr.answerability.asked_thing import concept_rows, kept_concepts
from archehr.answerability.date_unset import UNSET, date_unset
from archehr.glossary import load_lexicon


def _case(question, texts):
    lex = load_lexicon()
    return kept_concepts(question, lex), concept_rows(question, texts, lex)


def test_service_concepts():
    lex = load_lexicon()
    q = "when is my appt with the dietician"
    assert [c.surface for c in (kept_concepts(q, lex)[k] for k in service_concepts(q, kept_concepts(q, lex)))] \
        == [("dietician",)]
    assert service_concepts("when can I take the dressing off", kept_concepts("when can I take the dressing off",
                                                                              lex)) == []


def test_another_services_date_does_not_answer():
    q = "when is my appt with the dietician"
    texts = ["Physiotherapy review on 12/03/2026 at 10:00.", "The dietitian will contact you to arrange a visit."]
    concepts, named = _case(q, texts)
    assert service_undated("when", q, texts, concepts, named)
    assert list(service_share(q, texts, concepts, named)) == [1.0, 1.0]  # no dated dietitian line to prefer
    texts2 = texts + ["Dietitian appointment 20/03/2026 at 09:30."]
    concepts, named = _case(q, texts2)
    assert not service_undated("when", q, texts2, concepts, named)
    assert list(service_share(q, texts2, concepts, named)) == [0.75, 1.0, 1.0]


def test_the_writer_named_owns_the_notes_follow_up():
    q = "when do we see mr dunmore again"
    texts = ["Consultant: Mr Ian Dunmore, Orthopaedics", "Review in this clinic in 6 weeks.", "Mr Ian Dunmore FRCS"]
    concepts, named = _case(q, texts)
    assert not service_undated("when", q, texts, concepts, named)


def test_unset_dates_and_log_stamps():
    assert UNSET.search("Knee injection being planned, date not yet known.")
    assert UNSET.search("The eye clinic will call you to set up a time")
    q = "when is the knee injection appointment"
    texts = ["02/04/2026 10:14  Knee injection being planned, date not yet known."]
    lex = load_lexicon()
    assert date_unset("when", q, texts, ["p"], concept_rows(q, texts, lex))
    assert np.all(concept_rows(q, texts, lex).any(axis=0))
