"""Which length of time in a sentence is the asked thing's course (`archehr.answerability.course_link`), and the
first line `archehr answer` gives a how-long question with it.

The sentences and notes are written for these tests (fictional); "zoxamab" is an invented medicine, so the topic
share of a piece of text is 1 when it names it and 0 else. The strengths are the module's: 1 for a course in a
clause naming the asked thing, `W_WEAK` else.
"""

from __future__ import annotations

import numpy as np
import pytest

from archehr.answerability.asked_fact import any_unsaid
from archehr.answerability.asked_thing import concept_rows
from archehr.answerability.course_link import COURSE_END, W_WEAK, course_out, course_strength, own_conditions_out
from archehr.answerability.kinds import answer_types
from archehr.data.note_split import note_case, split_note
from archehr.glossary import load_lexicon

_Q = "how long do i take the zoxamab"


def _names(text: str) -> float:
    return 1.0 if "zoxamab" in text.lower() else 0.0


def _strength(text: str, question: str = _Q, topic: float = 1.0) -> float:
    return float(course_strength([text], np.array([True]), np.array([topic]), question, _names)[0])


@pytest.mark.parametrize(("text", "strength"), [
    ("START zoxamab 10 mg every morning, lifelong.", 1.0),
    ("Continue zoxamab for at least 3 months.", 1.0),
    ("Zoxamab 20 mg, reducing by 5 mg each week until stopped.", 1.0),
    ("Zoxamab 1 g daily through 10/21.", 1.0),
    # a dose's spacing, a schedule's step, another object's course: no course of zoxamab
    ("Take zoxamab at least 4 hours apart from the calcium tablets.", W_WEAK),
    ("Start zoxamab 10 mg twice daily x 7 days, then 5 mg twice daily.", W_WEAK),
    ("Zoxamab 20 mg daily, increasing to 40 mg after 4 weeks.", W_WEAK),
    ("Calcium one tablet twice daily for as long as she is on zoxamab.", W_WEAK),
    ("Zoxamab 10 mg daily; compression stockings for 6 weeks.", W_WEAK),
    ("Zoxamab two tablets until the new supply comes.", W_WEAK),  # "until" with no end
])
def test_a_course_counts_in_a_clause_naming_the_asked_thing(text: str, strength: float) -> None:
    assert _strength(text) == strength


def test_a_line_naming_nothing_asked_keeps_its_course() -> None:
    # "Continue for at least 6 months" goes on from the line before: its course is the one asked about
    assert _strength("Continue for at least 6 months.", topic=0.0) == 1.0


def test_a_table_row_is_one_clause() -> None:
    assert _strength("Zoxamab | 1 g | four times a day | NEW - continue for 7 more days") == 1.0


def test_a_titles_full_stop_ends_no_clause() -> None:
    # the medicine, the clinician and the course said in one clause; a sentence's own full stop still parts them
    assert _strength("Zoxamab per Dr. Shah: continue for 5 more days.") == 1.0
    assert _strength("Zoxamab was reviewed. Continue the cream for 5 more days.") == W_WEAK


def test_the_question_asking_for_a_wait_or_a_step_keeps_it() -> None:
    text = "Take zoxamab at least 4 hours apart from the calcium tablets."
    assert _strength(text, "how long after the zoxamab do i wait before the calcium") == 1.0
    step = "Start zoxamab 10 mg twice daily x 7 days, then 5 mg twice daily."
    assert _strength(step, "how long on twice a day before the zoxamab goes down") == 1.0
    assert "7 days" not in course_out(step, _Q)


def test_an_own_condition_is_read_out() -> None:
    assert own_conditions_out("No live vaccines while on zoxamab.", _names).split() == ["No", "live", "vaccines", "."]
    # a condition naming another medicine is kept: it may be the asked thing's course
    kept = "Folic acid 5 mg daily while on methotrexate."
    assert own_conditions_out(kept, _names) == kept


@pytest.mark.parametrize(("text", "end"), [
    ("until seen in clinic", True), ("until it heals", True), ("until 30/10", True),
    ("for the rest of her life", True), ("ongoing", True), ("until morning", False), ("4 hours apart", True),
])
def test_course_ends(text: str, end: bool) -> None:
    assert bool(COURSE_END.search(text)) is end


def test_a_condition_gives_no_course_to_the_asked_fact_rule() -> None:
    question = "how long will i stay on adalimumab"
    texts = ["Adalimumab 40 mg every other week started.", "No live vaccines while on adalimumab."]
    lex = load_lexicon()
    named = concept_rows(question, texts, lex)
    assert any_unsaid("how_long", question, texts, ["0", "1"], named, lex)
    texts[1] = "Adalimumab to continue for 12 months."
    assert not any_unsaid("how_long", question, texts, ["0", "1"], concept_rows(question, texts, lex), lex)


def test_the_rank_puts_the_course_before_a_spacing() -> None:
    note = ("Plan:\n\nTake levothyroxine at least 4 hours apart from the calcium tablets.\n\n"
            "START levothyroxine 100 micrograms every morning, lifelong.\n")
    split = split_note(note)
    types = answer_types(note_case(split, "how long do i have to take the levothyroxine")[0], load_lexicon())
    texts = [s.text for s in split.sentences]
    best = texts[int(np.argmax(types.ranking))]
    assert "lifelong" in best


@pytest.mark.parametrize(("sentence", "length"), [
    ("She went home with the 52-hour zoxamab pump attached.", True),  # a compound before the treatment
    ("Finish the 10-day zoxamab course.", True),
    ("Zoxamab given for a 3-hour infusion.", True),  # "for a" before the compound
    ("Zoxamab: ring the 24-hour chemotherapy line if unwell.", False),  # a service open round the clock
    ("Zoxamab 12-hour trough level to be taken.", False),  # a test's timing
])
def test_a_hyphenated_length_before_a_treatment_word_is_a_course(sentence: str, length: bool) -> None:
    from archehr.answerability.asked_time import COURSE
    from archehr.answerability.holds import HOLDS

    assert bool(HOLDS["how_long"].search(sentence)) is length
    assert bool(COURSE.search(sentence)) is length
    assert (_strength(sentence) == 1.0) is length
