"""The number check of generated lines: hand-derivable cases, then through the llm generator."""

from __future__ import annotations

import pytest

from archehr.generate.facts import normalise_number, numbers, unsupported_numbers


@pytest.mark.parametrize("raw,expected", [("1,200", "1200"), ("12.50", "12.5"), ("07", "7"), ("3.0", "3"),
                                          ("0", "0"), ("0.9", "0.9"), ("00.5", "0.5")])
def test_normalise_number(raw, expected):
    assert normalise_number(raw) == expected


def test_numbers_reads_doses_ranges_dates_and_sentence_ends():
    assert numbers("Furosemide 40 mg daily for 3-4 days from 2/3.") == {"40", "3", "4", "2"}
    assert numbers("Cr 1.10, K 3.5, WBC 12,400. He is 7.") == {"1.1", "3.5", "12400", "7"}
    assert numbers("no digits here") == set()


def test_unsupported_numbers_lists_each_new_number_once_in_order():
    sources = ["Lasix 40 mg PO daily.", "Patient is 67 years old"]
    assert unsupported_numbers("He takes 40 mg at 67.", sources) == []
    assert unsupported_numbers("He takes 12.5 mg, not 40; 12.5 again, and 19.", sources) == ["12.5", "19"]
    assert unsupported_numbers("Creatinine 1.10 mg/dL", ["Cr 1.1"]) == []


def _case():
    from archehr.data.model import Case, NoteSentence

    texts = ["History:", "He fainted at age 67.", "The ECG showed heart block with HR 38.",
             "A pacemaker was placed on day 2."]
    return Case("9", patient_narrative="Why did my 67 year old father need a pacemaker?",
                sentences=tuple(NoteSentence(str(i + 1), 1, 0, t) for i, t in enumerate(texts)))


class _Reply:
    name = "scripted"

    def __init__(self, replies):
        self.replies = list(replies)

    def complete(self, prompt, *, n=1, temperature=0.0, seed=0, max_tokens=256):
        return [self.replies.pop(0)]

    def describe(self):
        return {"backend": "scripted"}


def _generator(replies, **kw):
    from archehr.generate.llm import LLMGenerator

    return LLMGenerator(backend=_Reply(replies), demonstrations=0, similarity="lexical", min_support=0.0, **kw)


_REPLY = ("His heart rate was 38 because of heart block. |3|\n"
          "A pacemaker was placed 10 days ago. |4|\n"
          "At 67 he needed it. |2|")  # 67 is in the question and in sentence 2; 10 is in no source


def test_predict_rewrites_a_line_with_an_invented_number_from_what_it_cites():
    from archehr.relevance.base import Selection

    ans = _generator([_REPLY], keep_selected=False).generate(_case(), Selection("9", ("3", "4"), 1.0))
    assert ans.fallback is None
    assert [(ln.text, ln.citations) for ln in ans.lines] == [
        ("His heart rate was 38 because of heart block.", ("3",)), ("A pacemaker was placed on day 2.", ("4",)),
        ("At 67 he needed it.", ("2",))]  # the line's citation 4 is kept: its text is now sentence 4's own
    assert any("re-wrote 1 line(s) from their cited sentences" in n and "(10)" in n for n in ans.notes)


def test_answer_for_a_patient_drops_a_line_with_an_invented_number():
    from archehr.relevance.base import Selection

    g = _generator([_REPLY], keep_selected=False)
    assert g.for_patient().number_repair == "drop" and g.number_repair == "recite"
    g.number_repair = "drop"  # what for_patient() sets (its patient prompt aside)
    ans = g.generate(_case(), Selection("9", ("3", "4"), 1.0))
    assert ans.fallback is None
    assert [ln.text for ln in ans.lines] == ["His heart rate was 38 because of heart block.", "At 67 he needed it."]
    assert any("numbers their citations do not contain (10)" in n for n in ans.notes)


def test_a_reply_whose_every_line_invents_numbers_falls_back_when_lines_are_dropped():
    from archehr.relevance.base import Selection

    bad = "A pacemaker was placed 10 days ago. |4|"
    g = _generator([bad, bad], retries=1)
    g.number_repair = "drop"
    ans = g.generate(_case(), Selection("9", ("3", "4"), 1.0))
    assert ans.fallback is not None and "numbers" in ans.fallback
    assert set(ans.cited_ids) == {"3", "4"}
    kept = _generator([bad], retries=1, keep_selected=False).generate(_case(), Selection("9", ("4",), 1.0))
    assert kept.fallback is None and [ln.citations for ln in kept.lines] == [("4",)]


def test_an_uncited_line_with_an_invented_number_is_dropped_even_when_re_writing():
    from archehr.generate.facts import recite_unsupported

    lines, notes = recite_unsupported([("It took 10 days.", []), ("HR 38.", ["3"])], {"3": "HR 38 on ECG."}, "Why?")
    assert lines == [("HR 38.", ["3"])]
    assert notes == ["dropped 1 uncited line(s) stating numbers the question does not contain (10)"]


def test_number_check_can_be_switched_off():
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection

    g = LLMGenerator(backend=_Reply(["A pacemaker was placed 10 days ago. |4|"]), demonstrations=0,
                     similarity="lexical", keep_selected=False, min_support=0.0, verify_numbers=False)
    ans = g.generate(_case(), Selection("9", ("4",), 1.0))
    assert ans.fallback is None and ans.lines[0].text == "A pacemaker was placed 10 days ago."
    assert g.describe()["verify_numbers"] is False


@pytest.mark.parametrize("line,source", [
    ("Two stents were placed: 2 in all.", "two stents were placed"),       # a number word in the note
    ("He fainted 2 times.", "He fainted twice."),
    ("There were 25 lesions.", "twenty-five lesions"),
    ("A 15 mm stone.", "a 1.5 cm stone"),                                  # unit changes
    ("A dose of 0.5 g.", "500 mg daily"),
    ("For 2 weeks.", "for 14 days"),
    ("A fever of 101.3 F.", "T 38.5 °C"),
    ("A level of about 35.", "Phenytoin 34.6 (ref 10-20)"),               # roundings
    ("Over 8 liters were removed.", "net negative of 8.6 L"),
    ("A 6-second pause.", "a 6.2-second pause"),
])
def test_a_faithful_rewording_of_a_number_is_not_an_invented_number(line, source):
    assert unsupported_numbers(line, [source]) == []


def test_invented_numbers_are_still_caught():
    assert unsupported_numbers("A 12 mm stone.", ["a 1.5 cm stone"]) == ["12"]
    assert unsupported_numbers("He fainted 3 times.", ["He fainted twice."]) == ["3"]
    assert unsupported_numbers("Take 12.5 mg.", ["Lasix 40 mg"]) == ["12.5"]
    assert unsupported_numbers("For 3 weeks.", ["for 14 days"]) == ["3"]


def test_faithful_answer_keeps_every_line_through_the_number_check():
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection

    reply = ("He fainted 2 times from heart block. |2,3|\n"
             "A pacemaker was placed on the second day. |4|")
    case = _case()
    case = type(case)(case.case_id, patient_narrative=case.patient_narrative,
                      sentences=case.sentences[:1] + (type(case.sentences[1])("2", 1, 0, "He fainted twice."),)
                      + case.sentences[2:])
    ans = LLMGenerator(backend=_Reply([reply]), demonstrations=0, similarity="lexical", keep_selected=False,
                       min_support=0.0).generate(case, Selection("9", ("3",), 1.0))
    assert ans.fallback is None and len(ans.lines) == 2 and not any("numbers" in n for n in ans.notes)
