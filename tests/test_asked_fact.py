"""The asked fact not given: a test named without its result, a medicine without its course's length, an event
without its date; and the shared table of test words.

The notes are written for these tests (fictional), a few lines each.
"""

from __future__ import annotations

import numpy as np
import pytest

from archehr.answerability import firm_answers, holds, roles, test_words
from archehr.answerability.asked_fact import fact_unsaid
from archehr.answerability.asked_thing import asked_rows, concept_rows
from archehr.answerability.review import review_flags, unsaid_in_note
from archehr.data.note_split import split_note
from archehr.glossary import load_lexicon


def _unsaid(kind: str, question: str, sentences: list[str], paragraphs: list[str] | None = None) -> bool:
    named = concept_rows(question, sentences, load_lexicon())
    return fact_unsaid(kind, question, sentences, paragraphs or [str(i) for i in range(len(sentences))], named)


def test_the_modules_read_one_table_of_test_words() -> None:
    assert holds.PENDING is test_words.PENDING and roles.PENDING is test_words.PENDING
    assert holds.VERDICT is test_words.VERDICT and holds.TEST_AGAIN is test_words.TEST_AGAIN
    assert roles._REQUEST is test_words.REQUESTED and roles._RESULT_WORDS is test_words.RESULT_WORDS
    assert firm_answers._RESULT is test_words.RESULT and firm_answers._NOT_DONE is test_words.NOT_DONE


def test_asked_rows_are_the_sentences_naming_the_most_of_the_topic() -> None:
    # two concepts over four sentences: the first named by sentences 0 and 1, the second by sentence 1 only
    named = np.array([[1, 1, 0, 0], [0, 1, 0, 0]], dtype=bool)
    assert asked_rows(named).tolist() == [False, True, False, False]
    # with share 0: every sentence naming anything
    assert asked_rows(named, 0.0).tolist() == [True, True, True, True]
    assert not asked_rows(np.zeros((2, 3), dtype=bool)).any()


@pytest.mark.parametrize(("sentences", "unsaid"), [
    (["Potassium checked today; we will let you know."], True),  # ordered, no result
    (["Blood tests (U&E, magnesium) at her first weigh-in."], True),  # a test planned, in its class's words
    (["Potassium 4.1 mmol/L today."], False),  # a value with its unit
    (["U&E today: normal."], False),  # a verdict word
    (["Potassium not checked (normal last year)."], True),  # a test not done gives no result, whatever it says
    (["Potassium-rich foods: bananas."], False),  # names no test: not a test asked about
    # a verdict inside a condition is no result; said outright it is one
    (["Potassium checked today; keep the old dose until we tell you the potassium is normal."], True),
    (["Potassium checked today and it is normal."], False),
])
def test_a_result_question_with_its_test_only_planned(sentences: list[str], unsaid: bool) -> None:
    assert _unsaid("test_result", "was her potassium ok when she left", sentences) is unsaid


def test_a_date_is_no_result_value() -> None:
    assert _unsaid("test_result", "was my AMH ok?", ["AMH blood test (requested 12/08/2026)."])


def test_a_value_the_question_quotes_asks_for_its_verdict() -> None:
    q = "his CRP was 46, is that bad"
    assert _unsaid("test_result", q, ["Bloods: Hb 131, WCC 9.8, CRP 46, Cr 92"])
    assert not _unsaid("test_result", q, ["Bloods: Hb 131, CRP 46 (raised), Cr 92"])


def test_a_finding_told_without_the_tests_name_is_a_result() -> None:
    q = "did the mri show that something is torn in my knee"
    note = ["EXAM: MRI LEFT KNEE", "MENISCI: Complex tear of the posterior horn of the medial meniscus."]
    assert not _unsaid("test_result", q, note)


@pytest.mark.parametrize(("sentences", "unsaid"), [
    (["START mirabegron 50 mg once daily - it may take up to 8 weeks to work fully."], True),
    (["START mirabegron 50 mg once daily for 12 weeks, then review."], False),
    (["START mirabegron 50 mg once daily.", "Stop solifenacin."], True),
    (["Continue mirabegron long-term."], False),
    # a dose's spacing is no course; a course in hours is one
    (["Take mirabegron at least 2 hours apart from your iron."], True),
    (["Mirabegron every 12 hours for 3 more days."], False),
])
def test_a_how_long_question_about_a_medicine_without_its_course(sentences: list[str], unsaid: bool) -> None:
    assert _unsaid("how_long", "How long will I have to remain on the mirabegron?", sentences) is unsaid


def test_the_course_in_the_next_sentence_counts() -> None:
    note = ["START mirabegron 50 mg once daily.", "Continue for 6 months."]
    assert not _unsaid("how_long", "How long will I stay on the mirabegron?", note, ["p1", "p1"])
    assert _unsaid("how_long", "How long will I stay on the mirabegron?", note, ["p1", "p2"])


def test_a_dose_spacing_still_answers_a_when_question() -> None:
    assert not _unsaid("when", "when do I take the mirabegron", ["Take mirabegron 30 minutes before breakfast."])


def test_an_outcome_question_is_left_to_the_other_rules() -> None:
    assert not _unsaid("how_long", "how long until the mirabegron starts to work", ["START mirabegron 50 mg daily."])


@pytest.mark.parametrize(("sentences", "unsaid"), [
    (["Referred to the recovery programme: six physiotherapy sessions, once a week."], True),
    (["Physiotherapy starts on Monday."], False),
    (["Physiotherapy will start in 2 weeks."], False),
    (["Physiotherapy once the wound has healed."], False),  # a condition tells when
])
def test_a_when_question_about_an_event_without_its_date(sentences: list[str], unsaid: bool) -> None:
    assert _unsaid("when", "when does the physio start for her", sentences) is unsaid


def test_other_kinds_and_notes_naming_nothing_asked_are_left_alone() -> None:
    assert not _unsaid("why", "why is he on the movicol", ["Movicol 1 sachet BD."])
    assert not _unsaid("test_result", "what was my TPMT result", ["Blood pressure 120/80."])


def test_archehr_answer_flags_the_answer_as_ruled() -> None:
    split = split_note("Plan:\n- Outpatient MRI brain ordered; scheduling will call.\n- Keep a seizure diary.\n",
                       "rules")
    assert unsaid_in_note("test_result", "what did the mri of my brain show", split)

    class Types:  # the fields `review_flags` reads of the answer types
        kind = "test_result"
        best_typed = 1.0
        best_firm = 1.0
        missing_drugs = 0
        missing_activities = 0
        topic = np.ones(len(split.sentences))

    class Model:  # a confidence model that would not flag the answer itself
        threshold, review = 0.1, 0.5

        def abstains(self, p: float) -> bool:
            return p < self.threshold

        def flags(self, p: float) -> bool:
            return p < self.review

    flagged, ruled = review_flags(Model(), 0.9, False, Types(), (split.sentences[1].text, 1.0),
                                   "what did the mri of my brain show", split)
    assert flagged and ruled


def test_another_tests_result_is_not_the_asked_ones() -> None:
    # the lexicon expands "CT" to its class, imaging, and to "MRI": a CT result does not answer the MRI question
    note = ["CT head without contrast: no acute intracranial abnormality.",
            "Outpatient MRI brain ordered; scheduling will call."]
    assert _unsaid("test_result", "what did the mri of my brain show", note)
    assert not _unsaid("test_result", "what did the mri of my brain show", note + ["MRI brain: normal."])


@pytest.mark.parametrize(("question", "sentences", "unsaid"), [
    # a digit inside the test's name is no value the question quotes: the result given with its unit answers
    ("what was my last hba1c", ["HbA1c requested for the next visit (last result 58 mmol/mol in May)."], False),
    ("was his b12 ok", ["Vitamin B12 and folate levels (sent 03/04)."], True),  # "B12" gives no value either
    ("was his b12 ok", ["Vitamin B12 level 410 ng/L, normal."], False),
    # a value below zero after its label, a side's value after its label
    ("what did the bone density scan show", ["DEXA scan (02/02/2025)", "Hip T-score: -2.4"], False),
    ("what did the bone density scan show", ["DEXA scan (02/02/2025)", "Hip T-score to be repeated."], True),
    ("what did the leg pressure test show", ["Ankle pressure index (API), right: 0.71 (reduced)"], False),
    # a germ's sensitivities, a verdict in plain words
    ("did the urine test say which germ", ["Urine culture: Klebsiella, pan-S."], False),
    ("did the urine test say which germ", ["Urine culture sent to the lab."], True),
    ("were my blood counts ok", ["Your blood counts are good enough for the operation."], False),
    ("were my blood counts ok", ["Your blood counts will be checked before the operation."], True),
])
def test_a_result_told_in_the_forms_the_rule_missed(question: str, sentences: list[str], unsaid: bool) -> None:
    assert _unsaid("test_result", question, sentences) is unsaid


@pytest.mark.parametrize(("sentences", "unsaid"), [
    (["Repeat the potassium at the kidney visit."], False),  # the visit's own word between "the" and "visit"
    (["Repeat the potassium at the kidney visit of next year."], False),
    (["Potassium was repeated in the ward."], True),  # no date, no visit: near miss
])
def test_a_when_told_by_a_named_visit(sentences: list[str], unsaid: bool) -> None:
    assert _unsaid("when", "when do they check his potassium again", sentences) is unsaid


@pytest.mark.parametrize(("sentences", "unset"), [
    (["The hand clinic will phone you within 48 hours.", "Physio will contact you with an appointment."], False),
    (["The hand clinic will phone you with an appointment."], True),  # no firm time at all
])
def test_a_call_within_hours_is_a_firm_time(sentences: list[str], unset: bool) -> None:
    from archehr.answerability.date_unset import date_unset

    q = "when will the hand clinic ring him"
    named = concept_rows(q, sentences, load_lexicon())
    assert date_unset("when", q, sentences, [str(i) for i in range(len(sentences))], named) is unset


@pytest.mark.parametrize(("question", "sentences", "unsaid"), [
    # "last" as an adjective is no course's length; as a verb it is one
    ("how long do I keep using the cream", ["Cream twice daily; last review 03/03."], True),
    ("how long do I keep using the cream", ["The cream course lasts 2 weeks."], False),
    # days asked: a session's minutes or hours do not answer, a count of days does
    ("how many days do I keep icing the knee", ["Ice the knee for 20 minutes at a time."], True),
    ("how many days do I keep icing the knee", ["Ice the knee every 2 to 3 hours."], True),
    ("how many days do I keep icing the knee", ["Ice the knee for 20 minutes at a time for 3 days."], False),
    # how long without days asked: an hour's length may answer ("how long is each session")
    ("how long is each icing of the knee", ["Ice the knee for 20 minutes at a time."], False),
])
def test_a_course_length_not_told_by_a_last_visit_or_a_session(question: str, sentences: list[str],
                                                               unsaid: bool) -> None:
    assert _unsaid("how_long", question, sentences) is unsaid


@pytest.mark.parametrize(("sentences", "unsaid"), [
    (["Tetanus booster given 04/06."], True),  # only what was done: no date for the next one
    (["Tetanus booster given 04/06; the next one is due in 10 years."], False),  # what is to come, in the same line
    (["Tetanus booster given 04/06.", "Next booster in 10 years."], False),
])
def test_a_next_event_is_not_dated_by_the_last_one(sentences: list[str], unsaid: bool) -> None:
    assert _unsaid("when", "when does he get the next tetanus booster", sentences) is unsaid


@pytest.mark.parametrize(("question", "sentences", "unset"), [
    # a day and time asked: an interval with the letter yet to come gives neither
    ("what day and time is her wound clinic appointment",
     ["Wound clinic follow-up in 2 weeks; appointment letter to be mailed."], True),
    # a when asked: the interval answers it
    ("when is her wound clinic appointment",
     ["Wound clinic follow-up in 2 weeks; appointment letter to be mailed."], False),
    # a weekday and a clock time give the day asked, whatever the letter
    ("what day and time is her wound clinic appointment",
     ["Wound clinic follow-up on Monday at 10:30; appointment letter to be mailed."], False),
])
def test_an_interval_does_not_give_the_day_asked(question: str, sentences: list[str], unset: bool) -> None:
    from archehr.answerability.date_unset import date_unset

    named = concept_rows(question, sentences, load_lexicon())
    assert date_unset("when", question, sentences, [str(i) for i in range(len(sentences))], named) is unset
