from __future__ import annotations

import pytest

from archehr.errors import DataError
from archehr.glossary import load_glossary, parse_glossary


def test_shipped_glossary_is_large_and_well_formed():
    g = load_glossary()
    assert len(g) >= 300
    kinds = {e.kind for e in g.entries}
    assert kinds == {"abbr", "lay"}
    assert sum(e.kind == "lay" for e in g.entries) >= 100
    assert sum(e.kind == "abbr" for e in g.entries) >= 100


def test_lay_term_expands_to_clinical_terms():
    g = load_glossary()
    terms = g.expansion_terms("Why couldn't they give me the water pill by mouth?")
    for t in ("diuretic", "furosemide", "lasix"):
        assert t in terms
    assert "oral" in terms  # "by mouth"


def test_longest_phrase_wins_and_each_term_once():
    g = load_glossary()
    found = [e.term for e in g.matches("He had a heart attack. Another heart attack later.")]
    assert found.count("heart attack") == 1
    assert "heart" not in found  # covered by the longer phrase


def test_short_abbreviation_needs_upper_case():
    g = load_glossary()
    assert [e.term for e in g.matches("seen in the ED")] == ["ed"]
    assert g.matches("tea or coffee, one of us") == []  # "or", "us" are words here
    assert "afib" in [e.term for e in g.matches("history of afib")]  # long enough to match in any case


def test_expand_keeps_text_and_appends_expansions():
    g = parse_glossary("term\tkind\texpansions\nhtn\tabbr\thypertension; high blood pressure\n")
    assert g.expand("81M with HTN") == "81M with HTN ; hypertension ; high blood pressure"
    assert g.expand("nothing here") == "nothing here"


def test_bad_lines_are_all_reported_with_line_numbers():
    text = "term\tkind\texpansions\nok\tabbr\tfine\nbad line without tabs\nx\tslang\ty\nok\tlay\tagain\n"
    with pytest.raises(DataError) as ei:
        parse_glossary(text, "g.tsv")
    lines = sorted(p.line for p in ei.value.problems)
    assert lines == [3, 4, 5]
    codes = {p.code for p in ei.value.problems}
    assert codes == {"bad-line", "bad-kind", "duplicate"}


def test_missing_glossary_file(tmp_path):
    with pytest.raises(DataError) as ei:
        load_glossary(tmp_path / "nope.tsv")
    assert "not found" in str(ei.value)
