"""Shapes of answering lines the review rules once read as no answer (invented lines)."""

from __future__ import annotations

from archehr.answerability.asked_time import COURSE
from archehr.answerability.review import _given_pattern
from archehr.answerability.why_causes import has_cause
from archehr.glossary import load_lexicon


def test_course_reads_one_unit_and_use_by_span() -> None:
    assert COURSE.search("Keep the splint on at night for the first week.")
    assert COURSE.search("Throw the tube away 6 weeks after opening.")
    assert not COURSE.search("Put one drop in each eye at night.")


def test_how_long_first_line_telling_when_it_comes_off() -> None:
    given = _given_pattern("how_long", "how long does the dressing stay on?")
    assert given("Take the dressing off tomorrow, not before.")
    assert given("Remove the bandage in the morning.")
    assert not given("Keep the dressing dry.")


def test_why_causes_no_need_and_visit_following() -> None:
    assert has_cause("Vitamin D level 80 - no supplement needed now")
    assert has_cause("Seen in the day unit following a second fall at home.")
    assert not has_cause("Seen in the day unit on Tuesday.")


def test_singular_class_names_the_plural_members() -> None:
    lexicon = load_lexicon()
    singular = {e.term: e for e in lexicon.matches("the heart tablet")}
    plural = {e.term: e for e in lexicon.matches("the heart tablets")}
    assert set(plural["heart tablets"].expansions) <= set(singular["heart tablet"].expansions)
