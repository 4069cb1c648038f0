"""The `lexical+everyday` feature group: patients' words bridged to the note's (fictional cases)."""

from __future__ import annotations

import numpy as np
from relevance_helpers import N, make_case

from archehr.glossary import parse_glossary
from archehr.relevance.everyday import EVERYDAY_FEATURES, asked_kinds, everyday_features, question_classes
from archehr.relevance.features import FEATURE_SETS, LEXICAL_FEATURES, case_features, feature_names

LEXICON = parse_glossary(
    "term\tkind\texpansions\n"
    "blood thinner\tclass\tanticoagulant; apixaban; warfarin\n"
    "water pill\tclass\tdiuretic; furosemide\n"
    "heart scan\tlay\techocardiogram; echo\n"
)


def _case(patient: str, clinician: str, sentences: list[str]):
    case, _ = make_case("1", patient, clinician, [(t, N) for t in sentences])
    return case


def test_asked_kinds_read_both_questions():
    c = _case("How long do I take the blood thinner?", "Why was apixaban started?", ["x"])
    assert asked_kinds(c) == ("how_long", "why", "med_change")
    assert asked_kinds(_case("Tell me about my stay.", "Summarize the stay.", ["x"])) == ()


def test_question_classes_are_canonical_names():
    c = _case("Which blood thinner and water pill am I on?", "", ["x"])
    assert question_classes(c, LEXICON) == {"anticoagulant", "diuretic"}


def test_features_credit_a_class_member_and_the_asked_kind():
    sents = ["Apixaban 5 mg twice daily was started for 3 months.", "The patient ate lunch.",
             "An echo showed normal function."]
    c = _case("How long do I take the blood thinner?", "How long will she take it?", sents)
    cols = dict(zip(EVERYDAY_FEATURES, everyday_features(c, np.zeros(3), LEXICON), strict=True))
    # only the first sentence names a member of the class the question names
    assert cols["class_hit"].tolist() == [np.log(2), 0.0, 0.0]
    # asked: how_long and med_change; sentence 1 holds both ("for 3 months", "started"), 2 and 3 neither
    assert cols["kind_holds"].tolist() == [1.0, 0.0, 0.0]
    # the everyday BM25 of the patient question: only sentence 1 shares a term (via "blood thinner")
    assert cols["ev_bm25_patient"][0] == 1.0 and cols["ev_bm25_patient"][1:].tolist() == [0.0, 0.0]
    assert cols["kind_holds_x_ev"][0] > 0 and cols["kind_holds_x_ev"][1:].tolist() == [0.0, 0.0]


def test_lay_test_words_reach_the_clinical_sentence():
    c = _case("Was the heart scan ok?", "", ["The patient ate lunch.", "An echo showed normal function."])
    cols = dict(zip(EVERYDAY_FEATURES, everyday_features(c, np.zeros(2), LEXICON), strict=True))
    assert cols["ev_bm25_patient"].tolist() == [0.0, 1.0]
    # the combined score (patient 1, clinician 1 but empty, narrative 0.5: here the question again) max-normalised
    # is [0, 1]; with a base score of 0 the gain is the same
    assert cols["ev_gain"].tolist() == [0.0, 1.0]


def test_headers_score_zero():
    c = _case("Which blood thinner?", "Which anticoagulant?", ["Medications:", "Warfarin was stopped."])
    cols = dict(zip(EVERYDAY_FEATURES, everyday_features(c, np.zeros(2), LEXICON), strict=True))
    assert cols["ev_bm25_clinician"][0] == 0.0 and cols["kind_holds"][0] == 0.0


def test_feature_set_is_the_lexical_features_then_the_everyday_group():
    assert "lexical+everyday" in FEATURE_SETS
    assert feature_names("lexical+everyday") == LEXICAL_FEATURES + EVERYDAY_FEATURES
    c = _case("Which blood thinner?", "Which anticoagulant?", ["Warfarin was stopped.", "Diet as tolerated."])
    x = case_features(c, "lexical+everyday")
    assert x.shape == (2, len(LEXICAL_FEATURES) + len(EVERYDAY_FEATURES))
    assert np.array_equal(x[:, : len(LEXICAL_FEATURES)], case_features(c, "lexical"))
