"""The asked fact told only as yet to come or at another time: a date still to be set, a result only from before the
time asked, no span in months or years when that is asked (`date_unset.date_unset`, `asked_result.result_earlier`,
`asked_time.years_unsaid`).

The notes are written for these tests (fictional), a few lines each.
"""

from __future__ import annotations

import numpy as np
import pytest

from archehr.answerability.asked_result import named_as_risk_only, result_earlier
from archehr.answerability.asked_thing import concept_rows
from archehr.answerability.asked_time import years_unsaid
from archehr.answerability.date_unset import date_unset
from archehr.answerability.review import unsaid_in_note
from archehr.data.note_split import split_note
from archehr.glossary import load_lexicon


def _named(question: str, sentences: list[str]) -> np.ndarray:
    return concept_rows(question, sentences, load_lexicon())


def _paras(sentences: list[str]) -> list[str]:
    return ["p"] * len(sentences)


CHEMO = ["Regimen: carboplatin and paclitaxel every 3 weeks.", "Cycle 4 given 10/24/2024.",
         "Oncology clinic on Tuesday 11/12/2024 at 1:30 PM.",
         "The timing of cycle 5 will be decided at that visit."]


@pytest.mark.parametrize(("question", "sentences", "unset"), [
    # the event's date is yet to be set: flagged
    ("what date is her cycle 5 chemo", CHEMO, True),
    ("when is my mri", ["MRI of the knee requested today.", "The hospital will write to you with the appointment."],
     True),
    ("what date is my review at the sports clinic",
     ["Sports clinic letter.", "Review in this clinic; our team will phone him with a date."], True),
    # a counted interval or a date for the event: not flagged
    ("when is my mri", ["MRI of the knee booked for 12/03/2025.", "The hospital will write to you to confirm."],
     False),
    ("when is his asthma clinic review",
     ["Asthma clinic review in 6 weeks; an appointment letter will be posted."], False),
    # "cycle 4" is another cycle: its date does not answer cycle 5, but it answers cycle 4
    ("what date was cycle 4", CHEMO, False),
    # a condition asked ("when can"), not a date: the rule does not read it
    ("when can he drive again", ["Driving will be decided at the clinic visit."], False),
])
def test_a_date_yet_to_be_set_is_not_given(question: str, sentences: list[str], unset: bool) -> None:
    assert date_unset("when", question, sentences, _paras(sentences), _named(question, sentences)) is unset


def test_a_date_unset_reads_only_when_questions() -> None:
    q = "what date is her cycle 5 chemo"
    assert not date_unset("how_long", q, CHEMO, _paras(CHEMO), _named(q, CHEMO))


def test_a_vague_interval_is_no_date_only_when_a_date_is_asked() -> None:
    s = ["Please book a review with the asthma nurse in a few weeks."]
    assert date_unset("when", "what date is the review with the asthma nurse", s, _paras(s),
                      _named("what date is the review with the asthma nurse", s))
    assert not date_unset("when", "when is the review with the asthma nurse", s, _paras(s),
                          _named("when is the review with the asthma nurse", s))


ARRIVAL = ["On arrival his oxygen saturations were 91% in air.", "He was treated with nebulisers."]


@pytest.mark.parametrize(("kind", "question", "sentences", "earlier"), [
    ("test_result", "what was his oxygen level when they let him home", ARRIVAL, True),
    ("test_result", "what was his oxygen level when they let him home",
     ARRIVAL + ["On discharge his oxygen saturations were 97% in air."], False),
    # asked at arrival: the arrival value answers
    ("test_result", "what was his oxygen level when he came in", ARRIVAL, False),
    # a finding asked gone: only the scan that found it, or a later word on it
    ("med_change", "is the clot in my leg gone now",
     ["An ultrasound showed a clot in a deep vein of your left leg.", "Take apixaban twice a day."], True),
    ("test_result", "is the clot in my leg gone now",
     ["An ultrasound showed a clot in the left leg.", "The repeat ultrasound showed the leg clot has resolved."],
     False),
    # the emergency department's value is an arrival value; one before the operation is earlier than after it
    ("test_result", "was my oxygen level ok when i left", ["In the ED his oxygen saturations were 90% on 4 L."], True),
    ("test_result", "was my oxygen level ok when i left",
     ["In the ED his oxygen saturations were 90% on 4 L.", "His oxygen saturations were 96% in air on the ward."],
     False),
    ("test_result", "what was his sodium after the operation", ["Sodium before the operation was 131 mmol/L."], True),
    ("test_result", "what was his sodium after the operation",
     ["Sodium before the operation was 131 mmol/L.", "Sodium after the operation was 136 mmol/L."], False),
    # a value told beside the one before the operation is the later one; a concentration is no dose
    ("test_result", "was his blood count ok after the operation", ["Haemoglobin 102 g/L (pre-op 131 g/L)."], False),
    ("test_result", "was his blood count ok after the operation",
     ["His haemoglobin was 10.4 g/dL, down from 12.9 g/dL before surgery."], False),
    ("test_result", "was his blood count ok after the operation", ["Haemoglobin 131 g/L before surgery."], True),
    # a medicine asked about now: what to take, not a result
    ("med_change", "is he supposed to go back on the oxygen now", ARRIVAL, False),
    ("when", "when is the next scan to make sure the clot is gone",
     ["An ultrasound showed a clot in the left leg."], False),
])
def test_a_result_only_at_an_earlier_time(kind: str, question: str, sentences: list[str], earlier: bool) -> None:
    assert result_earlier(kind, question, sentences, _named(question, sentences)) is earlier


@pytest.mark.parametrize(("question", "sentences", "unsaid"), [
    ("how many years will he need the adhd medicine",
     ["ADHD follow-up visit.", "Increase Concerta to 27 mg each morning for ADHD."], True),
    ("how many years will he need the adhd medicine",
     ["ADHD follow-up visit.", "Most children stay on ADHD medicine for several years; we review it yearly."], False),
    ("is the keppra forever", ["Keppra 500 mg twice daily, long-term."], False),
    # a story "for years" is no duration asked in years
    ("mum has been on aspirin for years, did they stop it", ["Aspirin 75 mg stopped."], False),
])
def test_a_span_in_years_asked_and_none_given(question: str, sentences: list[str], unsaid: bool) -> None:
    assert years_unsaid("how_long", question, sentences, _paras(sentences), _named(question, sentences)) is unsaid


@pytest.mark.parametrize(("sentences", "risk_only"), [
    (["Lansoprazole 30 mg stopped; long-term use linked to low magnesium.", "Bloods: sodium 129."], True),
    (["Lansoprazole 30 mg stopped; long-term use linked to low magnesium.", "Magnesium 0.58 mmol/L (low)."], False),
    (["Bloods: sodium 129."], False),
])
def test_a_thing_named_only_as_a_risk_has_no_result(sentences: list[str], risk_only: bool) -> None:
    q = "was her magnesium low when they tested it"
    assert named_as_risk_only("test_result", q, sentences, _named(q, sentences), load_lexicon()) is risk_only
    assert not named_as_risk_only("why", q, sentences, _named(q, sentences), load_lexicon())


def test_ask_reads_the_new_rules() -> None:
    split = split_note("MRI of the knee requested today.\nThe hospital will write to you with the appointment.\n")
    assert unsaid_in_note("when", "when is my mri, nobody has told me a date", split)
    split = split_note("MRI of the knee booked for Monday 12/03/2025 at 10:00.\n")
    assert not unsaid_in_note("when", "when is my mri", split)


def test_a_length_told_as_a_length_or_an_hour_compound() -> None:
    from archehr.answerability.asked_time import COURSE

    assert COURSE.search("The rehab class length is 6 weeks, twice a week.")
    assert COURSE.search("48-hour blood pressure monitor fitted today.")
    assert not COURSE.search("Take one tablet every 8 hours.")


def test_a_wait_asked_is_answered_by_a_spacing() -> None:
    from archehr.answerability.asked_time import time_unsaid

    question = "how long after the feed does she have to sit up"
    sentences = ["Night feed by pump from 10 PM.", "Keep her sitting up for 2 hours after the feed ends."]
    named = _named(question, sentences)
    assert not time_unsaid("how_long", question, sentences, _paras(sentences), named)


def test_forever_or_a_while_asked_in_plain_words() -> None:
    question = "is she on the omeprazole for always or only a while"
    given = ["Start omeprazole 20 mg once daily.", "Omeprazole for 8 weeks, then the GP will review it."]
    silent = ["Start omeprazole 20 mg once daily.", "Omeprazole helps the stomach lining heal."]
    assert not years_unsaid("how_long", question, given, _paras(given), _named(question, given))
    assert years_unsaid("how_long", question, silent, _paras(silent), _named(question, silent))


def test_years_asked_read_in_the_answers_first_line_only_when_it_names_the_asked_thing() -> None:
    question = "how many months will he take the tb medicine"
    sentences = ["TB medicine started on 02/03 by the chest clinic.", "He is well and eating.",
                 "Rifampicin and isoniazid for a further four months, six months of TB treatment in total.",
                 "Vitamin D for 3 months."]
    named = _named(question, sentences)
    assert not years_unsaid("how_long", question, sentences, _paras(sentences), named, first=2)
