"""Further cause and advice forms of an answer's first line (`archehr.answerability.why_may_given`)."""

from __future__ import annotations

from types import SimpleNamespace

from archehr.answerability.review import fact_given
from archehr.answerability.why_may_given import ADVICE, advice_given, cause_more


def test_step_done_for_a_finding_is_a_cause() -> None:
    assert cause_more("Lisinopril 5 mg was started for protein leaking in the urine.", 0.15)
    # a length of time after "for" is no cause
    assert not cause_more("Lisinopril 5 mg was started for 2 weeks.", 0.15)
    assert not cause_more("Amoxicillin was prescribed for a further week.", 0.4)
    # below a tenth of the topic the line is not read
    assert not cause_more("Lisinopril 5 mg was started for protein leaking in the urine.", 0.05)


def test_finding_then_so_and_the_step_is_a_cause() -> None:
    line = "Ferritin 9 ug/L is well below range, so the iron dose was doubled today."
    assert cause_more(line, 0.3)
    assert not cause_more(line, 0.2)  # (below a quarter of the topic)
    assert not cause_more("The iron dose was doubled today.", 0.6)  # no finding before the step


def test_fact_given_reads_the_further_cause_forms() -> None:
    why = SimpleNamespace(kind="why")
    assert fact_given(why, ("Warfarin was stopped for a nosebleed that would not settle.", 0.3))
    assert not fact_given(why, ("Warfarin was stopped on Tuesday.", 0.3))


def test_advice_forms_without_may_or_can() -> None:
    assert ADVICE.search("Trimethoprim is not suitable in pregnancy.")
    assert ADVICE.search("[x] Drink plenty of fluids the day before")
    assert ADVICE.search("If the rash returns, go back to the cream twice a day.")
    # a ticked fact advises nothing
    assert not ADVICE.search("[x] Wife shown how to change the dressing")


def test_advice_on_the_asked_medicine() -> None:
    q = "I still have some ibuprofen at home, can I take it for the back pain?"
    assert advice_given(q, "Avoid anti-inflammatory painkillers such as ibuprofen after the bleed.", 0.2)
    assert advice_given(q, "Ibuprofen is not suitable with your kidney function.", 0.2)
    # below a tenth of the topic, or no advice in the line
    assert not advice_given(q, "Ibuprofen is not suitable with your kidney function.", 0.05)
    assert not advice_given(q, "Ibuprofen 400 mg taken at home before admission.", 0.3)


def test_advice_reported_as_asked_or_put_off_is_none() -> None:
    q = "Can my dad drive to the shops next week?"
    assert advice_given(q, "No driving for one week after the sedation.", 0.2)
    assert not advice_given(q, "Son asked whether he can drive next week; to discuss at clinic.", 0.2)


def test_fact_given_reads_the_further_advice_forms() -> None:
    may = SimpleNamespace(kind="may_i")
    q = "Can I have my toast and tea before the scan on Friday?"
    assert fact_given(may, ("[x] Eat a light breakfast and drink tea as usual - fasting not required", 0.2), q)
    assert not fact_given(may, ("Scan booked for Friday 09:30 in radiology.", 0.2), q)


def test_cycling_words_name_each_other() -> None:
    # the lexicon's bicycle, bike and cycling rows list each other: a line on cycling answers a bicycle question
    q = "Is it ok for my son to ride his bicycle to school?"
    assert advice_given(q, "Avoid cycling for 48 hours after the scan.", 0.2)
    assert advice_given("can she go on her bike at the weekend", "No biking until the wound has healed.", 0.2)
