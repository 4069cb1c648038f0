"""The asked fact missing from the lines about the asked thing (`archehr.answerability.own_lines`)."""

from __future__ import annotations

import numpy as np

from archehr.answerability.own_lines import asked_drugs, other_medicine_cause, reports_question


def test_a_line_reporting_the_question_put_answers_none_of_it() -> None:
    assert reports_question("Son asked whether his father can swim in the sea next month.")
    assert reports_question("She wants to know if she can go back to the gym")
    assert reports_question("Caller asks when he can lift the grandchildren again:")
    # ... unless the line goes on to answer, plan or date it
    assert not reports_question("He asked whether he can swim; advised to wait until the wound has healed.")
    assert not reports_question("She asked about the gym, and I am happy for her to start gently.")
    assert not reports_question("Asked about the pump - will be discussed at clinic on 03/04.")
    # a line asking nothing reported
    assert not reports_question("Swimming is fine once the wound has healed.")
    assert not reports_question(None)


def test_the_question_s_drugs_by_name_or_misspelt_as_the_note_names_them() -> None:
    note = ["Gliclazide 40 mg twice daily - NEW.", "Amlodipine 5 mg daily - NEW, for blood pressure."]
    assert asked_drugs("why the new tablet gliclazid?", note) == {"gliclazide"}
    assert asked_drugs("why was she put on amlodipine", note) == {"amlodipine"}
    # a class or a lay name is no drug of its own: its members may each have their reason
    assert asked_drugs("why the new sugar tablet", note) == set()


def _no_named(texts: list[str]) -> np.ndarray:
    return np.zeros((0, len(texts)), dtype=bool)


def test_a_why_answer_giving_another_drug_s_reason_while_the_asked_one_has_none() -> None:
    texts = ["Medicines on discharge:", "Amlodipine 5 mg daily - NEW, started because blood pressure was high.",
             "Gliclazide 40 mg twice daily - NEW."]
    question = "why did they start her on gliclazide"
    assert other_medicine_cause("why", question, texts, _no_named(texts), 1)
    # the asked drug's row with a reason of its own: the note gives it
    given = [*texts[:2], "Gliclazide 40 mg twice daily - NEW, because her sugars were running high."]
    assert not other_medicine_cause("why", question, given, _no_named(given), 1)
    # a row saying the reason is not known gives none
    unknown = ["Reason for gliclazide not documented; to check with the GP.", *texts]
    assert other_medicine_cause("why", question, unknown, _no_named(unknown), 2)
    # a first line naming the asked drug is `why_uncaused`'s to read; another kind of question is not read
    assert not other_medicine_cause("why", question, texts, _no_named(texts), 2)
    assert not other_medicine_cause("how_long", question, texts, _no_named(texts), 1)


def test_review_reads_the_first_line_as_the_answer_cites_it() -> None:
    from archehr.answerability.own_lines import own_lines_unsaid
    from archehr.answerability.review import NamedConcepts
    from archehr.data.note_split import split_note

    split = split_note("Phone call 10:05.\nDaughter asked whether her mother can fly to Madeira in June.\n", "rules")
    first = next(s.text for s in split.sentences if "asked" in s.text)
    question = "can my mum fly to madeira"
    assert own_lines_unsaid("may_i", question, split, (first, 0.8), NamedConcepts(question, split))
    other = next(s.text for s in split.sentences if "Phone" in s.text)
    assert not own_lines_unsaid("may_i", question, split, (other, 0.1), NamedConcepts(question, split))


def test_a_result_question_whose_test_s_own_lines_await_the_result() -> None:
    from archehr.answerability.own_lines import own_result_awaited
    from archehr.answerability.review import NamedConcepts
    from archehr.data.note_split import split_note

    note = ("Bloods today:\nSodium 131 mmol/L (low), potassium 4.1 mmol/L.\n"
            "Magnesium: sent to the lab, result to follow.\nDrink to thirst.\n")
    split = split_note(note, "rules")
    texts = [s.text for s in split.sentences]
    question = "was my magnesium low on the bloods today"
    assert own_result_awaited("test_result", question, texts, NamedConcepts(question, split).rows)
    # a line of the same test giving its value answers it
    given = split_note(note + "Later: magnesium 0.61 mmol/L (low).\n", "rules")
    gtexts = [s.text for s in given.sentences]
    assert not own_result_awaited("test_result", question, gtexts, NamedConcepts(question, given).rows)
    # another kind of question is not read; nor a test whose lines await nothing
    assert not own_result_awaited("when", question, texts, NamedConcepts(question, split).rows)
    sodium = "was my sodium low"
    assert not own_result_awaited("test_result", sodium, texts, NamedConcepts(sodium, split).rows)
