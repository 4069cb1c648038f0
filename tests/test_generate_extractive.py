"""Extractive and plain answers against the official 2025 parser: format, budget, citations."""

from __future__ import annotations

import pytest

from archehr.data.model import Case, NoteSentence
from archehr.generate.answer import (
    WORD_BUDGET,
    Answer,
    AnswerLine,
)
from archehr.generate.clean import clean_sentence
from archehr.generate.registry import GENERATORS, build_generator
from archehr.relevance.base import Selection, SentenceScores
from archehr_scoring.answer_format import parse_answer, word_count
from archehr_scoring.submission2025 import answer_problems


def parse_official(answer: str) -> list[tuple[str, list[str]]]:
    return [(ln.sentence, list(ln.citations)) for ln in parse_answer("", answer).lines]


def make_case(texts: list[str], cid: str = "1") -> Case:
    sents = tuple(NoteSentence(str(i + 1), 1, 0, t) for i, t in enumerate(texts))
    return Case(cid, patient_narrative="Why?", sentences=sents)


def words(n: int, tag: str = "w") -> str:
    return " ".join(f"{tag}{i}" for i in range(n)) + "."


def test_parse_official_reads_spec_examples():
    assert parse_official("A |4| B |5|") == [("A |4| B.", ["5"])]
    assert parse_official("Sentence. |1, 2|") == [("Sentence.", ["1", " 2"])]
    assert parse_official("No cite\n\n") == [("No cite.", [])]
    assert word_count("one two |1|\nthree |2|") == 3


def test_lines_render_in_official_format_and_read_back():
    case = make_case(["He fainted at home.", "ECG showed | block.", "Pacemaker placed."])
    ans = build_generator("extractive").generate(case, Selection("1", ("1", "2", "3"), 1.0))
    text = ans.render()
    for line in text.split("\n"):
        assert line.endswith("|") and " |" in line
        assert ", " not in line.rsplit("|", 2)[1]
    parsed = parse_official(text)
    assert [c for _, cs in parsed for c in cs] == ["1", "2", "3"]
    assert "ECG showed / block." in text  # a pipe inside a sentence would break the parser
    assert answer_problems(text, set(case.sentence_ids)) == []


def test_budget_is_met_by_sentence_choice_and_no_evidence_is_lost():
    # 4 sentences of 30 words: only two fit in 75; the other two ids go to the nearest kept line
    case = make_case([words(30, "a"), words(30, "b"), words(30, "c"), words(30, "d")])
    scores = SentenceScores("1", ("1", "2", "3", "4"), (0.9, 0.1, 0.8, 0.2), (0.0, 0.0, 0.0, 0.0))
    ans = build_generator("extractive").generate(case, Selection("1", ("1", "2", "3", "4"), 1.0), scores)
    assert word_count(ans.render()) <= WORD_BUDGET
    assert [ln.text.split()[0] for ln in ans.lines] == ["a0", "c0"]  # highest probability, note order
    assert ans.lines[0].citations == ("1", "2")  # 2 is nearest to 1 (tie with 3 goes to the earlier line)
    assert ans.lines[1].citations == ("3", "4")
    assert set(ans.cited_ids) == {"1", "2", "3", "4"}
    for line in ans.lines:  # every kept sentence is whole
        assert line.text in {clean_sentence(s.text) for s in case.sentences}


def test_exactly_75_words_fits_and_76_does_not():
    case = make_case([words(75, "x"), words(76, "y")])
    ans = build_generator("extractive").generate(case, Selection("1", ("1",), 1.0))
    assert word_count(ans.render()) == 75
    ans2 = build_generator("extractive").generate(case, Selection("1", ("2",), 1.0))
    # alone over the budget: never cut, a short line still cites it
    assert word_count(ans2.render()) <= 75 and ans2.cited_ids == ("2",)
    assert ans2.notes


def test_empty_selection_still_cites_the_most_likely_sentence():
    case = make_case(["History:", "He fainted.", "He got a pacemaker."])
    scores = SentenceScores("1", ("1", "2", "3"), (0.0, 0.2, 0.7), (0.0, 0.0, 0.0))
    ans = build_generator("extractive").generate(case, Selection("1", (), 0.0), scores)
    assert ans.cited_ids == ("3",)
    no_scores = build_generator("extractive").generate(case, Selection("1", (), 0.0))
    assert no_scores.cited_ids == ("2",)  # the first sentence that is not a section title


def test_unknown_ids_are_dropped_and_headers_are_cited_not_quoted():
    case = make_case(["Brief Hospital Course:", "He fainted.", "Pacemaker placed."])
    ans = build_generator("extractive").generate(case, Selection("1", ("1", "2", "99"), 1.0))
    assert ans.cited_ids == ("1", "2")
    assert all("Course" not in ln.text for ln in ans.lines)
    assert any("99" in n for n in ans.notes)


def test_cleaning_removes_placeholders_and_header_prefixes():
    s = "# Syncope / heart block:  On telemetry he had a pause on [**2187-5-14**] at [**Hospital1 18**]."
    assert clean_sentence(s) == "On telemetry he had a pause on 2187-5-14 at the hospital."
    assert clean_sentence("Dr. [**Last Name (STitle) 3388**] saw him.") == "Dr. saw him."


def test_plain_expands_abbreviations_and_keeps_citations():
    case = make_case(["81M with HTN presented after syncope.", "BP 148/72 and HR 58."])
    sel = Selection("1", ("1", "2"), 1.0)
    plain = build_generator("plain").generate(case, sel)
    ext = build_generator("extractive").generate(case, sel)
    assert plain.cited_ids == ext.cited_ids
    text = plain.render()
    assert "HTN" not in text and "blood pressure" in text
    assert answer_problems(text, set(case.sentence_ids)) == []


def test_plain_rewording_still_fits_the_budget():
    case = make_case([("HTN " * 37).strip() + ".", "HR 58."])
    ans = build_generator("plain").generate(case, Selection("1", ("1", "2"), 1.0))
    assert word_count(ans.render()) <= WORD_BUDGET
    assert set(ans.cited_ids) == {"1", "2"}


def test_answer_problems_catch_what_the_scorer_would_reject():
    assert "no citation" in answer_problems("Just text.")[0]
    assert any("spaces" in p for p in answer_problems("A. |1, 2|"))
    assert any("not in the note" in p for p in answer_problems("A. |7|", {"1"}))
    assert any("80 words" in p for p in answer_problems(words(80) + " |1|"))


def test_registry_names_and_unknown_generator():
    assert {"extractive", "plain", "llm"} <= set(GENERATORS.names())
    with pytest.raises(KeyError, match="did you mean"):
        build_generator("extractiv")


def test_answer_text_without_citations_for_subtask_3():
    ans = Answer((AnswerLine("He fainted", ("1",)), AnswerLine("Pacemaker placed.", ("2",))), "extractive")
    assert ans.text_without_citations() == "He fainted. Pacemaker placed."


def test_synthetic_dev_answers_from_gold_evidence_are_valid(synthetic_dir):
    from archehr.data.releases import load_split

    split = load_split(synthetic_dir, "dev")
    for gen in ("extractive", "plain"):
        g = build_generator(gen)
        for case in split.cases:
            ess = split.key_for(case.case_id).essential_ids
            ans = g.generate(case, Selection(case.case_id, ess, 1.0))
            assert answer_problems(ans.render(), set(case.sentence_ids)) == []
            assert set(ans.cited_ids) == set(ess)


def test_a_patients_answer_has_room_for_more_sentences():
    from archehr.generate.extractive import PATIENT_WORDS, ExtractiveGenerator

    # 4 sentences of 40 words: the 2025 budget (75) keeps one line, the patient's (110) two
    case = make_case([words(40, "a"), words(40, "b"), words(40, "c"), words(40, "d")])
    scores = SentenceScores("1", ("1", "2", "3", "4"), (0.9, 0.8, 0.7, 0.6), (0.0, 0.0, 0.0, 0.0))
    sel = Selection("1", ("1", "2", "3", "4"), 1.0)
    gen = ExtractiveGenerator()
    assert PATIENT_WORDS == 110 and gen.for_patient().budget == 110 and gen.budget == WORD_BUDGET
    assert [ln.text.split()[0] for ln in gen.generate(case, sel, scores).lines] == ["a0"]
    assert [ln.text.split()[0] for ln in gen.for_patient().generate(case, sel, scores).lines] == ["a0", "b0"]
    # a budget the system sets is kept for patients too
    assert ExtractiveGenerator(budget=50).for_patient().budget == 50
