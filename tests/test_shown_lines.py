"""The answer lines a patient sees (`archehr.shown_lines`): a line shows only the citations it carries, the lines
in rank order (invented sentences)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from archehr.shown_lines import CARRIED, by_rank, carried, render, shown_citations
from archehr_scoring.answer_format import AnswerLine

SPLIT = SimpleNamespace(sentences=[SimpleNamespace(id="1", text="Take amoxicillin for seven days."),
                                   SimpleNamespace(id="2", text="Chest x-ray showed pneumonia."),
                                   SimpleNamespace(id="3", text="Review in clinic.")])


def test_a_line_keeps_the_citations_it_carries() -> None:
    assert carried("Take amoxicillin for seven days.", "Take amoxicillin for seven days.") == 1.0
    assert carried("anything", "") == 0.0
    line = AnswerLine("Take amoxicillin for seven days.", ("1", "2"))
    assert shown_citations([line], SPLIT) == (AnswerLine(line.text, ("1",)),)
    assert CARRIED == 0.5
    # carrying none at CARRIED, the line keeps its best one; carrying nothing, none
    assert shown_citations([AnswerLine("The x-ray of the chest was clear", ("2", "3"))], SPLIT)[0].citations == ("2",)
    assert shown_citations([AnswerLine("Nothing in common here", ("2",))], SPLIT)[0].citations == ()


def test_lines_in_rank_order_and_rendered() -> None:
    lines = (AnswerLine("a", ("3",)), AnswerLine("b", ("1",)), AnswerLine("c", ()))
    ordered = by_rank(lines, np.array([0.9, 0.1, 0.5]), ["1", "2", "3"])
    assert [ln.text for ln in ordered] == ["b", "a", "c"]  # (a line citing nothing last)
    assert render(ordered[:1]) == AnswerLine("b", ("1",)).render()
