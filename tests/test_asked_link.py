"""Whether a sentence gives the asked fact in a clause naming the asked thing (`archehr.answerability.asked_link`),
and the typed confidence's features reading it.

The sentences are written for these tests (fictional); "zoxamab" and "trelix" are invented medicines and "florbin"
an invented test, so the topic share of a piece of text is the share of the asked names it holds.
"""

from __future__ import annotations

import numpy as np

from archehr.answerability.asked_link import linked
from archehr.answerability.kinds import answer_types
from archehr.answerability.typed import FEATURES, typed_row
from archehr.data.note_split import note_case, split_note


def _names_of(*asked: str):
    def names(text: str) -> float:
        return sum(a in text.lower() for a in asked) / len(asked)
    return names


def _linked(kind: str, text: str, question: str, *asked: str) -> float:
    return float(linked(kind, [text], np.array([1.0]), question, _names_of(*asked))[0])


def test_how_long_course_in_the_clause_naming_the_drug() -> None:
    q = "how long do i take the zoxamab"
    assert _linked("how_long", "Zoxamab 10 mg daily for 6 weeks.", q, "zoxamab") == 1.0
    # the length is another drug's, in its own clause
    assert _linked("how_long", "Continue zoxamab 10 mg daily; trelix 5 mg for 6 weeks.", q, "zoxamab") == 0.0
    # a dose's spacing is no course
    assert _linked("how_long", "Take zoxamab 2 hours apart from food.", q, "zoxamab") == 0.0


def test_when_needs_a_firm_date_of_the_asked_event() -> None:
    q = "when is the florbin scan"
    assert _linked("when", "Florbin scan on 12/08 at 9:30.", q, "florbin") == 1.0
    assert _linked("when", "Florbin scan to be booked; clinic visit in 2 weeks.", q, "florbin") == 0.0
    assert _linked("when", "Florbin scan will be arranged in 2 weeks.", q, "florbin") == 0.0


def test_result_needs_a_result_and_a_trend_when_a_repeat_is_asked() -> None:
    assert _linked("test_result", "Florbin 86 (H).", "what was my florbin", "florbin") == 1.0
    assert _linked("test_result", "Florbin result pending.", "what was my florbin", "florbin") == 0.0
    q = "did they redo the florbin and is it going down"
    assert _linked("test_result", "Florbin 86 (H).", q, "florbin") == 0.0
    assert _linked("test_result", "Florbin 40 (H), down from 86.", q, "florbin") == 1.0


def test_med_change_needs_a_decision_on_the_asked_drug() -> None:
    q = "do i stop the zoxamab"
    assert _linked("med_change", "Stop zoxamab.", q, "zoxamab") == 1.0
    assert _linked("med_change", "Zoxamab 10 mg daily, with trelix stopped.", q, "zoxamab") == 0.0


def test_why_needs_a_cause_in_the_sentence_naming_the_asked_thing() -> None:
    q = "why did they stop the zoxamab"
    assert _linked("why", "Stop zoxamab because of the rash.", q, "zoxamab") == 1.0
    # the reason in the clause after the one naming the drug
    assert _linked("why", "STOP zoxamab; trelix replaces it.", q, "zoxamab") == 1.0
    # the asked change named, no reason given
    assert _linked("why", "STOP zoxamab 10 mg daily.", q, "zoxamab") == 0.0


def test_other_kinds_and_unnamed_sentences_keep_nothing() -> None:
    assert _linked("may_i", "Stop zoxamab because of the rash.", "can i stop the zoxamab", "zoxamab") == 0.0
    out = linked("how_long", ["Zoxamab for 6 weeks.", "Trelix for 2 weeks."], np.array([1.0, 0.0]),
                 "how long do i take the zoxamab", _names_of("zoxamab"))
    assert out.tolist() == [1.0, 0.0]


def test_typed_row_reads_the_linked_fact_per_kind() -> None:
    note = "Plan:\nZoxamab 10 mg daily for 6 weeks.\nTrelix 5 mg daily.\n"
    case, _ = note_case(split_note(note), "how long do i take the zoxamab")
    types = answer_types(case)
    row = dict(zip(FEATURES, typed_row(0.5, types), strict=True))
    assert types.best_linked > 0
    assert row["linked_how_long"] == types.best_linked and row["linked_test_result"] == 0.0
    case, _ = note_case(split_note(note), "how long do i take the trelix")
    row = dict(zip(FEATURES, typed_row(0.5, answer_types(case)), strict=True))
    assert row["linked_how_long"] == 0.0


def test_the_link_is_computed_only_when_the_row_reads_it() -> None:
    # a when question's row reads no link (`TYPED_LINKS`): the per-sentence link is never computed for it; a
    # how-long question's row reads it, computed then with the kind the question was read as
    note = "Plan:\nZoxamab 10 mg daily for 6 weeks.\nFlorbin scan on 12/08 at 9:30.\n"
    case, _ = note_case(split_note(note), "when is the florbin scan")
    types = answer_types(case)
    typed_row(0.5, types)
    assert "linked" not in vars(types)
    case, _ = note_case(split_note(note), "how long do i take the zoxamab")
    types = answer_types(case)
    typed_row(0.5, types)
    assert "linked" in vars(types) and types.linked is not None and types.linked.max() == 1.0


def test_a_firm_date_of_another_event_leaves_the_asked_date_unset() -> None:
    from archehr.answerability.asked_thing import concept_rows
    from archehr.answerability.date_unset import date_unset
    from archehr.glossary import load_lexicon

    q = "when is the florbin scan booked for"
    unset = "Florbin scan: request sent, awaiting date."
    other = "Return to clinic in 3 months, or sooner once the florbin scan result is back."
    own = "Florbin scan in 3 months, or sooner if needed."
    for texts, expected in (([unset, other], True), ([unset, own], False)):
        named = concept_rows(q, texts, load_lexicon())
        assert date_unset("when", q, texts, ["p", "q"], named) is expected
