"""Lines going on from a cited one by their form (`archehr.answerability.goes_on`); texts written for the test."""

from __future__ import annotations

from conftest import Line

from archehr.answerability.goes_on import broken, broken_off, not_restarted
from archehr.answerability.goes_with import goes_with


def _lines(*texts: str, paragraph: int = 0) -> list[Line]:
    return [Line(t, paragraph) for t in texts]


BROKEN = _lines("Low ferritin: ferric carboxymaltose 500 mg IV at each of the", "two infusion visits.",
                "Recheck ferritin in 8 weeks.")


def test_a_sentence_broken_mid_phrase_brings_its_other_part_both_ways() -> None:
    assert broken_off([0], BROKEN) == [1]  # the head cited brings the tail
    assert broken_off([1], BROKEN) == [0]  # ... and the tail the head
    assert broken_off([0, 1], BROKEN) == []  # both cited already


def test_a_whole_sentence_or_a_label_is_no_broken_part() -> None:
    assert not broken("Recheck ferritin in 8 weeks.", "two infusion visits.")  # the head ends as a sentence
    assert not broken("Questions asked by the", "a:")  # a label, one word
    assert not broken("Plan for the", "Recheck ferritin in 8 weeks.")  # the next opens in capitals: its own
    assert not broken("Plan:", "take it with food")  # a label's colon ends the line before
    assert not broken("Walk every day, resting when it hurts, and", "2. lose weight slowly.")  # a list item of its own


def test_a_broken_sentence_across_paragraphs_is_left() -> None:
    lines = [Line("Ferric carboxymaltose at each of the", 1), Line("two infusion visits.", 2)]
    assert broken_off([0], lines) == []


STOPPED = _lines("STOP   Naproxen 500 mg twice daily   stomach bleed", "Do not restart.",
                 "CONTINUE  Ramipril 5 mg once daily", "Do not restart it.")


def test_a_stopped_medicine_brings_the_line_refusing_its_return() -> None:
    assert not_restarted([0], STOPPED) == [1]
    assert not_restarted([2], STOPPED) == []  # a line continuing a medicine stops nothing
    assert not_restarted([1], STOPPED) == []  # the refusal cited alone brings no line after it


def test_a_longer_line_about_restarting_is_no_refusal_alone() -> None:
    lines = _lines("Warfarin held for the biopsy.", "Do not restart it until the clinic rings you.")
    assert not_restarted([0], lines) == []


def test_goes_with_brings_the_lines_after_the_other_rules() -> None:
    assert goes_with([0], BROKEN, "how_long", "how many iron drips are left?") == [1]
    # a line explaining a cited instruction is left out
    refers = _lines("- Do not take grapefruit juice at all.", "It can raise the level of the tablets in the blood.")
    assert goes_with([0], refers, "why", "why no grapefruit juice?") == []
    assert goes_with([0], STOPPED, "med_change", "is the naproxen stopped?") == [1]
